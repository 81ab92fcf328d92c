/**
 * Fleet routes: the fleet itself (GET, list; PUT to create one or change its tags, for tests) and
 * its members (list, GET; PUT, PATCH and DELETE, for tests). A member is an emulated cluster, named by
 * its `clusterResourceId`, in at most one update `group`, with `labels` (from 2026-06-01) that a run's
 * `memberSelector` selects by. Writes answer at once (`provisioningState`
 * Succeeded, no long-running operation): the SDK's poller is then done with the first answer.
 */
import { resourceNotFound } from "../core/armErrors";
import { findMember } from "../core/context";
import { route } from "../core/router";
import type { ArmRequest, EmulatorContext, Route } from "../ports";
import { fleetApi } from "./apiVersions";
import { checkFleetPreconditions, findFleet, FLEET_PATH, fleetScope, type FleetManager } from "./fleetManager";
import { fleetBody, list, memberBody, memberETag } from "./fleetResources";
import { FLEETS, key, type FleetMemberRecord, type FleetRecord } from "./fleetState";
import { checkName, FieldValidationError, parseMemberBody, parseMemberPatch } from "./fleetValidation";

const FLEET_LIST_PATH = "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroup}/providers/Microsoft.ContainerService/fleets";
const MEMBER_PATH = `${FLEET_PATH}/members/{member}`;

function findFleetMember(manager: FleetManager, ctx: EmulatorContext, request: ArmRequest): { fleet: FleetRecord; member: FleetMemberRecord | undefined; scope: ReturnType<typeof fleetScope> } {
  const { fleet, scope } = findFleet(manager, ctx, request);
  return { fleet, scope, member: fleet.members.get(key(request.params.member ?? "")) };
}

/** The fleet and member routes of `manager`'s fleets. */
export const fleetRoutes = (manager: FleetManager): Route[] => [
  route("GET", FLEET_LIST_PATH, async (ctx, request) => {
    fleetApi(request, "fleets");
    const scope = fleetScope(ctx, request);
    return { status: 200, body: list([...manager.store.fleets.values()].map((f) => fleetBody(scope, f))) };
  }),

  route("GET", FLEET_PATH, async (ctx, request) => {
    fleetApi(request, "fleets");
    const { fleet, scope } = findFleet(manager, ctx, request);
    return { status: 200, body: fleetBody(scope, fleet) };
  }),

  route("PUT", FLEET_PATH, async (ctx, request) => {
    fleetApi(request, "fleets");
    const scope = fleetScope(ctx, request);
    const name = request.params.fleet ?? "";
    checkName(name, "fleetName");
    const existing = manager.store.get(name);
    checkFleetPreconditions(request.headers, existing === undefined ? undefined : (fleetBody(scope, existing).eTag as string), `fleet '${name}'`);
    const body = (request.body ?? {}) as { location?: unknown; tags?: unknown };
    if (existing === undefined && (typeof body.location !== "string" || body.location === "")) {
      throw new FieldValidationError([{ path: "location", message: "is required (an Azure region name)" }]);
    }
    if (body.tags !== undefined && (typeof body.tags !== "object" || body.tags === null || Object.values(body.tags).some((v) => typeof v !== "string"))) {
      throw new FieldValidationError([{ path: "tags", message: "must be a mapping of strings" }]);
    }
    const fleet = existing ?? manager.store.create(name, body.location as string);
    if (body.tags !== undefined) fleet.tags = { ...(body.tags as Record<string, string>) };
    return { status: existing === undefined ? 201 : 200, body: fleetBody(scope, fleet) };
  }),

  route("GET", `${FLEET_PATH}/members`, async (ctx, request) => {
    const api = fleetApi(request, "fleets/members");
    const { fleet, scope } = findFleet(manager, ctx, request);
    return { status: 200, body: list([...fleet.members.values()].map((m) => memberBody(scope, fleet, m, api.features))) };
  }),

  route("GET", MEMBER_PATH, async (ctx, request) => {
    const api = fleetApi(request, "fleets/members");
    const { fleet, scope, member } = findFleetMember(manager, ctx, request);
    if (member === undefined) throw resourceNotFound(`${FLEETS}/members`, request.params.member ?? "", scope.resourceGroup);
    return { status: 200, body: memberBody(scope, fleet, member, api.features) };
  }),

  route("PUT", MEMBER_PATH, async (ctx, request) => {
    const api = fleetApi(request, "fleets/members");
    const { fleet, scope, member } = findFleetMember(manager, ctx, request);
    const name = request.params.member ?? "";
    checkName(name, "fleetMemberName");
    checkFleetPreconditions(request.headers, member === undefined ? undefined : memberETag(member), `fleet member '${name}'`);
    const properties = parseMemberBody(request.body, api);
    const cluster = findMember(ctx.fleet, properties.clusterResourceId.split("/").at(-1) ?? "");
    if (cluster === undefined || !/\/providers\/Microsoft\.ContainerService\/managedClusters\/[^/]+$/i.test(properties.clusterResourceId)) {
      throw new FieldValidationError([{ path: "properties.clusterResourceId", message: `'${properties.clusterResourceId}' is not a managed cluster of this emulator (clusters: ${ctx.fleet.members.map((m) => m.name).join(", ")})` }]);
    }
    if (member !== undefined && key(member.cluster) !== key(cluster.name)) {
      throw new FieldValidationError([{ path: "properties.clusterResourceId", message: "a member's cluster cannot be changed; delete the member and join the cluster again" }]);
    }
    const record: FleetMemberRecord = {
      name: member?.name ?? name,
      cluster: cluster.name,
      clusterResourceId: properties.clusterResourceId,
      ...(properties.group === undefined ? {} : { group: properties.group }),
      ...(properties.labels === undefined ? {} : { labels: properties.labels }),
    };
    fleet.members.set(key(name), record);
    return { status: member === undefined ? 201 : 200, body: memberBody(scope, fleet, record, api.features) };
  }),

  route("PATCH", MEMBER_PATH, async (ctx, request) => {
    const api = fleetApi(request, "fleets/members");
    const { fleet, scope, member } = findFleetMember(manager, ctx, request);
    if (member === undefined) throw resourceNotFound(`${FLEETS}/members`, request.params.member ?? "", scope.resourceGroup);
    checkFleetPreconditions(request.headers, memberETag(member), `fleet member '${member.name}'`);
    const patch = parseMemberPatch(request.body, api);
    if (patch.group !== undefined) member.group = patch.group;
    if (patch.labels !== undefined) member.labels = patch.labels;
    return { status: 200, body: memberBody(scope, fleet, member, api.features) };
  }),

  route("DELETE", MEMBER_PATH, async (ctx, request) => {
    fleetApi(request, "fleets/members");
    const { fleet, member } = findFleetMember(manager, ctx, request);
    if (member === undefined) return { status: 204 };
    checkFleetPreconditions(request.headers, memberETag(member), `fleet member '${member.name}'`);
    fleet.members.delete(key(member.name));
    return { status: 200 };
  }),
];

