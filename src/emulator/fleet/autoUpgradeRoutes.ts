/**
 * Issue 22: AutoUpgradeProfiles (list, GET, PUT, DELETE) and AutoUpgradeProfileOperations_GenerateUpdateRun.
 *
 * `generateUpdateRun` makes an update run, NotStarted, as Fleet does for a profile: its
 * `managedClusterUpdate` is what the profile's channel generates (`generateUpdateForChannel`) over the
 * Kubernetes versions ARM offers now in the regions of the fleet's members' clusters; its strategy is
 * a copy of the profile's `updateStrategyId` strategy, or none (Fleet: "If not specified, the auto upgrade
 * will run on all clusters which are members of the fleet": one stage, one group, one member at a time);
 * the run names the profile in `autoUpgradeProfileId`. It answers 200 `{id}` (GenerateResponse) at once:
 * the examples' 200; nothing there takes time. When no version qualifies (say a TargetKubernetesVersion
 * minor no member's region offers) no run is made, and the answer is 400 `NoQualifyingVersion` naming the
 * profile's field (`target`: `properties.targetKubernetesVersion`, ...): neither the swagger nor its
 * examples say what Fleet answers then.
 */
import crypto from "node:crypto";
import { generateUpdateForChannel, type OfferedKubernetesVersion } from "../../engine/autoUpgradeChannel";
import { ArmError, resourceNotFound, type ArmErrorBody } from "../core/armErrors";
import { route } from "../core/router";
import type { ArmRequest, EmulatorContext, Route } from "../ports";
import { channelProfile, fleetProfiles, nextRunName, parseProfileBody, profileBody, profileETag, profileId, type ProfileRecord } from "./autoUpgradeProfiles";
import { fleetApi } from "./apiVersions";
import { checkFleetPreconditions, findFleet, FLEET_PATH, type FleetManager } from "./fleetManager";
import { list } from "./fleetResources";
import { FLEETS, fleetId, key } from "./fleetState";
import { checkName } from "./fleetValidation";
import { referencedStrategy } from "./updateRunRoutes";

const PROFILE_PATH = `${FLEET_PATH}/autoUpgradeProfiles/{profile}`;
const TYPE = "fleets/autoUpgradeProfiles";

/** No version qualifies for the profile's channel: 400 naming the profile's field. */
class NoQualifyingVersionError extends ArmError {
  constructor(
    readonly target: string,
    message: string,
  ) {
    super(400, "NoQualifyingVersion", `${target}: ${message}`);
  }

  override get body(): ArmErrorBody & { error: { target: string } } {
    return { error: { code: this.code, message: this.message, target: this.target } };
  }
}

function findProfile(manager: FleetManager, ctx: EmulatorContext, request: ArmRequest) {
  const found = findFleet(manager, ctx, request);
  return { ...found, profiles: fleetProfiles(found.fleet), profile: fleetProfiles(found.fleet).get(key(request.params.profile ?? "")) };
}

function existingProfile(manager: FleetManager, ctx: EmulatorContext, request: ArmRequest) {
  const found = findProfile(manager, ctx, request);
  if (found.profile === undefined) throw resourceNotFound(`${FLEETS}/autoUpgradeProfiles`, request.params.profile ?? "", found.scope.resourceGroup);
  return { ...found, profile: found.profile };
}

/** The Kubernetes versions ARM offers now in each region of the fleet's members' clusters. */
function offersOfMembers(manager: FleetManager, members: Iterable<{ cluster: string }>): { regions: string[]; offered: Record<string, OfferedKubernetesVersion[]> } {
  const regions = new Set<string>();
  for (const member of members) {
    const region = manager.clusters.cluster(member.cluster)?.region;
    if (region !== undefined) regions.add(region);
  }
  const offered: Record<string, OfferedKubernetesVersion[]> = {};
  for (const region of regions) offered[region] = manager.clusters.kubernetesVersionsOffered(region) ?? [];
  return { regions: [...regions].sort(), offered };
}

/** The auto-upgrade profile routes of `manager`'s fleets. */
export const autoUpgradeRoutes = (manager: FleetManager): Route[] => [
  route("GET", `${FLEET_PATH}/autoUpgradeProfiles`, async (ctx, request) => {
    const api = fleetApi(request, TYPE);
    const { fleet, scope } = findFleet(manager, ctx, request);
    return { status: 200, body: list([...fleetProfiles(fleet).values()].map((p) => profileBody(scope, fleet, p, api.features))) };
  }),

  route("GET", PROFILE_PATH, async (ctx, request) => {
    const api = fleetApi(request, TYPE);
    const { fleet, scope, profile } = existingProfile(manager, ctx, request);
    return { status: 200, body: profileBody(scope, fleet, profile, api.features), headers: { ETag: profileETag(profile) } };
  }),

  route("PUT", PROFILE_PATH, async (ctx, request) => {
    const api = fleetApi(request, TYPE);
    const { fleet, scope, profiles, profile: existing } = findProfile(manager, ctx, request);
    const name = request.params.profile ?? "";
    checkName(name, "autoUpgradeProfileName");
    checkFleetPreconditions(request.headers, existing === undefined ? undefined : profileETag(existing), `auto-upgrade profile '${name}'`);
    const spec = parseProfileBody(request.body, api, existing);
    // The reference must hold now; a run generated later copies the strategy as it is then.
    if (spec.updateStrategyId !== undefined) referencedStrategy(fleet, scope, spec.updateStrategyId);
    const now = ctx.clock.now();
    const record: ProfileRecord = { ...spec, name: existing?.name ?? name, generatedRuns: existing?.generatedRuns ?? [], createdAt: existing?.createdAt ?? now, modifiedAt: now };
    profiles.set(key(name), record);
    return { status: existing === undefined ? 201 : 200, body: profileBody(scope, fleet, record, api.features) };
  }),

  route("DELETE", PROFILE_PATH, async (ctx, request) => {
    fleetApi(request, TYPE);
    const { profiles, profile } = findProfile(manager, ctx, request);
    if (profile === undefined) return { status: 204 };
    checkFleetPreconditions(request.headers, profileETag(profile), `auto-upgrade profile '${profile.name}'`);
    // Runs it generated stay: they are runs of the fleet, not parts of the profile.
    profiles.delete(key(profile.name));
    // Fleet answers 204 at once (the recorded test_fleet_hubless), not the 202 its swagger and examples show.
    return { status: 204 };
  }),

  route("POST", `${PROFILE_PATH}/generateUpdateRun`, async (ctx, request) => {
    fleetApi(request, "fleets/autoUpgradeProfiles/generateUpdateRun");
    const { fleet, scope, profile } = existingProfile(manager, ctx, request);
    const { regions, offered } = offersOfMembers(manager, fleet.members.values());
    const generated = generateUpdateForChannel(channelProfile(profile), offered, regions);
    if (!generated.ok) throw new NoQualifyingVersionError(`properties.${generated.field}`, generated.message);
    const strategyFromReference = profile.updateStrategyId === undefined ? undefined : referencedStrategy(fleet, scope, profile.updateStrategyId);
    const name = nextRunName(fleet, profile, generated.update.upgrade.kubernetesVersion);
    const spec = {
      ...(profile.updateStrategyId === undefined ? {} : { updateStrategyId: profile.updateStrategyId }),
      managedClusterUpdate: generated.update,
    };
    const specDigest = crypto.createHash("sha256").update(JSON.stringify(spec)).digest("hex");
    const run = manager.createRun(fleet, scope, name, { ...spec, ...(strategyFromReference === undefined ? {} : { strategyFromReference }) }, specDigest);
    run.autoUpgradeProfileId = profileId(scope, fleet, profile.name);
    fleet.runs.set(key(name), run);
    profile.generatedRuns.push(name);
    return { status: 200, body: { id: `${fleetId(scope, fleet.name)}/updateRuns/${name}` } };
  }),
];
