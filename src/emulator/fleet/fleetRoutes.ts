/**
 * Fleet routes: fleets (list by resource group and by subscription, GET, PUT, PATCH, DELETE) and their
 * members (list, GET, PUT, PATCH, DELETE). A member is an emulated cluster, named by its
 * `clusterResourceId`, in at most one update `group`, with `labels` (from 2025-04-01-preview) that a
 * run's `memberSelector` selects by, besides the five `fleet.azure.com/*` labels Fleet adds.
 * As on Fleet (`resourceOperations.ts`, recorded in `test_fleet_hubless`): a fleet's and a member's
 * PUT and DELETE are long-running (`Creating` / `Joining`, `Updating`, `Deleting` / `Leaving` until
 * the operation ends); a PATCH answers at once.
 */
import { resourceNotFound } from "../core/armErrors";
import { checkSubscription, findMember } from "../core/context";
import { route } from "../core/router";
import type { ArmRequest, EmulatorContext, Route } from "../ports";
import { fleetApi } from "./apiVersions";
import { checkFleetPreconditions, findFleet, FLEET_PATH, fleetScope, type FleetManager } from "./fleetManager";
import { currentMemberETag, fleetBody, list, memberBody } from "./fleetResources";
import { FLEETS, isLeaving, key, type FleetMemberRecord, type FleetRecord } from "./fleetState";
import { checkName, FieldValidationError, parseFleetBody, parseMemberBody, parseMemberPatch } from "./fleetValidation";
import { FLEET_OPERATION_MS, MEMBER_OPERATION_MS, resourceOperationHeaders } from "./resourceOperations";

const FLEET_LIST_PATH = "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroup}/providers/Microsoft.ContainerService/fleets";
const SUBSCRIPTION_FLEETS_PATH = "/subscriptions/{subscriptionId}/providers/Microsoft.ContainerService/fleets";
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
    const now = ctx.clock.now();
    manager.store.purge(now);
    return { status: 200, body: list([...manager.store.fleets.values()].map((f) => fleetBody(scope, f, now))) };
  }),

  // Every fleet of the subscription, each under the resource group it was created (or first addressed) in.
  route("GET", SUBSCRIPTION_FLEETS_PATH, async (ctx, request) => {
    fleetApi(request, "fleets");
    const subscriptionId = request.params.subscriptionId ?? "";
    checkSubscription(ctx, subscriptionId);
    const now = ctx.clock.now();
    manager.store.purge(now);
    const fleets = [...manager.store.fleets.values()].filter((f) => f.homeScope !== undefined && f.homeScope.subscriptionId.toLowerCase() === subscriptionId.toLowerCase());
    return { status: 200, body: list(fleets.map((f) => fleetBody(f.homeScope ?? { subscriptionId, resourceGroup: "" }, f, now))) };
  }),

  route("GET", FLEET_PATH, async (ctx, request) => {
    fleetApi(request, "fleets");
    const { fleet, scope } = findFleet(manager, ctx, request);
    return { status: 200, body: fleetBody(scope, fleet, ctx.clock.now()) };
  }),

  route("PUT", FLEET_PATH, async (ctx, request) => {
    fleetApi(request, "fleets");
    const scope = fleetScope(ctx, request);
    const name = request.params.fleet ?? "";
    checkName(name, "fleetName");
    const now = ctx.clock.now();
    manager.store.purge(now);
    const existing = manager.store.get(name);
    checkFleetPreconditions(request.headers, existing === undefined ? undefined : (fleetBody(scope, existing, now).eTag as string), `fleet '${name}'`);
    const body = parseFleetBody(request.body, existing === undefined);
    const op = manager.resourceOperations.add(existing === undefined ? "create" : "update", scope, body.location ?? existing?.location ?? "", now, FLEET_OPERATION_MS);
    const fleet = existing ?? manager.store.create(name, body.location as string, op, now);
    fleet.lastOperation = op;
    fleet.modifiedAt = now;
    fleet.homeScope ??= scope;
    fleet.tags = { ...(body.tags ?? {}) };
    if (body.identity === undefined) delete fleet.identity;
    else fleet.identity = body.identity;
    return { status: existing === undefined ? 201 : 200, body: fleetBody(scope, fleet, now), headers: resourceOperationHeaders(ctx.baseUrl(), op) };
  }),

  // Fleets_Update (FleetPatch: tags, identity): answered at once.
  route("PATCH", FLEET_PATH, async (ctx, request) => {
    fleetApi(request, "fleets");
    const { fleet, scope } = findFleet(manager, ctx, request);
    const now = ctx.clock.now();
    checkFleetPreconditions(request.headers, fleetBody(scope, fleet, now).eTag as string, `fleet '${fleet.name}'`);
    const patch = parseFleetBody(request.body, false);
    if (patch.tags !== undefined) fleet.tags = { ...patch.tags };
    if (patch.identity === undefined) delete fleet.identity;
    else fleet.identity = patch.identity;
    fleet.modifiedAt = now;
    return { status: 200, body: fleetBody(scope, fleet, now) };
  }),

  route("DELETE", FLEET_PATH, async (ctx, request) => {
    fleetApi(request, "fleets");
    const scope = fleetScope(ctx, request);
    const now = ctx.clock.now();
    manager.store.purge(now);
    const fleet = manager.store.get(request.params.fleet ?? "");
    if (fleet === undefined) return { status: 204 };
    checkFleetPreconditions(request.headers, fleetBody(scope, fleet, now).eTag as string, `fleet '${fleet.name}'`);
    if (!isLeaving(fleet)) fleet.lastOperation = manager.resourceOperations.add("delete", scope, fleet.location, now, FLEET_OPERATION_MS);
    return { status: 202, body: fleetBody(scope, fleet, now), headers: resourceOperationHeaders(ctx.baseUrl(), fleet.lastOperation) };
  }),

  route("GET", `${FLEET_PATH}/members`, async (ctx, request) => {
    const api = fleetApi(request, "fleets/members");
    const { fleet, scope } = findFleet(manager, ctx, request);
    const now = ctx.clock.now();
    return { status: 200, body: list([...fleet.members.values()].map((m) => memberBody(scope, fleet, m, api.features, now))) };
  }),

  route("GET", MEMBER_PATH, async (ctx, request) => {
    const api = fleetApi(request, "fleets/members");
    const { fleet, scope, member } = findFleetMember(manager, ctx, request);
    if (member === undefined) throw resourceNotFound(`${FLEETS}/members`, request.params.member ?? "", scope.resourceGroup);
    return { status: 200, body: memberBody(scope, fleet, member, api.features, ctx.clock.now()) };
  }),

  route("PUT", MEMBER_PATH, async (ctx, request) => {
    const api = fleetApi(request, "fleets/members");
    const { fleet, scope, member } = findFleetMember(manager, ctx, request);
    const name = request.params.member ?? "";
    const now = ctx.clock.now();
    checkName(name, "fleetMemberName");
    checkFleetPreconditions(request.headers, member === undefined ? undefined : currentMemberETag(scope, fleet, member, api.features, now), `fleet member '${name}'`);
    const properties = parseMemberBody(request.body, api);
    const cluster = findMember(ctx.fleet, properties.clusterResourceId.split("/").at(-1) ?? "");
    if (cluster === undefined || !/\/providers\/Microsoft\.ContainerService\/managedClusters\/[^/]+$/i.test(properties.clusterResourceId)) {
      throw new FieldValidationError([{ path: "properties.clusterResourceId", message: `'${properties.clusterResourceId}' is not a managed cluster of this emulator (clusters: ${ctx.fleet.members.map((m) => m.name).join(", ")})` }]);
    }
    if (member !== undefined && key(member.cluster) !== key(cluster.name)) {
      throw new FieldValidationError([{ path: "properties.clusterResourceId", message: "a member's cluster cannot be changed; delete the member and join the cluster again" }]);
    }
    const op = manager.resourceOperations.add(member === undefined ? "create" : "update", scope, fleet.location, now, MEMBER_OPERATION_MS);
    const record: FleetMemberRecord = {
      name: member?.name ?? name,
      cluster: cluster.name,
      clusterResourceId: properties.clusterResourceId,
      ...(properties.group === undefined ? {} : { group: properties.group }),
      ...(properties.labels === undefined ? {} : { labels: properties.labels }),
      location: cluster.region,
      lastOperation: op,
      createdAt: member?.createdAt ?? now,
      modifiedAt: now,
    };
    fleet.members.set(key(name), record);
    return { status: member === undefined ? 201 : 200, body: memberBody(scope, fleet, record, api.features, now), headers: resourceOperationHeaders(ctx.baseUrl(), op) };
  }),

  // FleetMembers_Update (group, labels): answered at once, as Fleet does.
  route("PATCH", MEMBER_PATH, async (ctx, request) => {
    const api = fleetApi(request, "fleets/members");
    const { fleet, scope, member } = findFleetMember(manager, ctx, request);
    if (member === undefined) throw resourceNotFound(`${FLEETS}/members`, request.params.member ?? "", scope.resourceGroup);
    const now = ctx.clock.now();
    checkFleetPreconditions(request.headers, currentMemberETag(scope, fleet, member, api.features, now), `fleet member '${member.name}'`);
    const patch = parseMemberPatch(request.body, api);
    if (patch.group !== undefined) member.group = patch.group;
    if (patch.labels !== undefined) member.labels = patch.labels;
    member.modifiedAt = now;
    return { status: 200, body: memberBody(scope, fleet, member, api.features, now) };
  }),

  route("DELETE", MEMBER_PATH, async (ctx, request) => {
    const api = fleetApi(request, "fleets/members");
    const { fleet, scope, member } = findFleetMember(manager, ctx, request);
    if (member === undefined) return { status: 204 };
    const now = ctx.clock.now();
    checkFleetPreconditions(request.headers, currentMemberETag(scope, fleet, member, api.features, now), `fleet member '${member.name}'`);
    if (!isLeaving(member)) member.lastOperation = manager.resourceOperations.add("delete", scope, fleet.location, now, MEMBER_OPERATION_MS);
    return { status: 202, body: memberBody(scope, fleet, member, api.features, now), headers: resourceOperationHeaders(ctx.baseUrl(), member.lastOperation) };
  }),
];
