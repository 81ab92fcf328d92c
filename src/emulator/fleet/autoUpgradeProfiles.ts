/**
 * Issue 22: Fleet Manager's auto-upgrade profiles in the emulator, as records, request checks and ARM
 * bodies (`AutoUpgradeProfile` of `fleets.json`, each api-version with its own fields: `targetKubernetesVersion`,
 * `longTermSupport` and the TargetKubernetesVersion channel from 2025-04-01-preview; `autoUpgradeProfileStatus`
 * where the version has `generateUpdateRun`). The routes are `autoUpgradeRoutes.ts`.
 *
 * The emulator never triggers a profile on its own (it has no AKS release feed): whether `disabled` or
 * not, a profile makes a run only through `generateUpdateRun`. Our client creates its profiles with
 * `disabled: true`, so on Fleet too nothing but that call makes runs from them.
 */
import crypto from "node:crypto";
import { z } from "zod";
import { wireIssues, type FleetApiFeatures } from "../../backends/azureFleet/wire/index";
import type { AutoUpgradeChannelProfile, UpgradeChannel } from "../../engine/autoUpgradeChannel";
import { formatPath, friendlyErrors } from "../../model/issues";
import type { ArmScope } from "../ports";
import type { FleetApi } from "./apiVersions";
import { systemData } from "./systemData";
import { FLEETS, fleetId, type FleetRecord } from "./fleetState";
import { FieldValidationError } from "./fleetValidation";

export interface ProfileRecord {
  name: string;
  channel: UpgradeChannel;
  /** As the PUT gave it (create-only in Fleet). */
  updateStrategyId?: string;
  /** Create-only in Fleet. */
  nodeImageSelection?: { type: "Latest" | "Consistent" };
  disabled?: boolean;
  targetKubernetesVersion?: string;
  longTermSupport?: boolean;
  /** Names of the runs its `generateUpdateRun` made, in order (the next name's suffix is derived from the count). */
  generatedRuns: string[];
  createdAt: number;
  modifiedAt: number;
}

/** Each fleet's profiles, by lower-cased name. Kept beside the fleet record, which the other routes share. */
const profilesOf = new WeakMap<FleetRecord, Map<string, ProfileRecord>>();

export function fleetProfiles(fleet: FleetRecord): Map<string, ProfileRecord> {
  let profiles = profilesOf.get(fleet);
  if (profiles === undefined) profilesOf.set(fleet, (profiles = new Map()));
  return profiles;
}

/** The fields the rule of `generateUpdateForChannel` reads. */
export function channelProfile(profile: ProfileRecord): AutoUpgradeChannelProfile {
  return {
    channel: profile.channel,
    ...(profile.targetKubernetesVersion === undefined ? {} : { targetKubernetesVersion: profile.targetKubernetesVersion }),
    ...(profile.longTermSupport === undefined ? {} : { longTermSupport: profile.longTermSupport }),
    ...(profile.nodeImageSelection === undefined ? {} : { nodeImageSelection: profile.nodeImageSelection }),
  };
}

export type ProfileSpec = Omit<ProfileRecord, "name" | "generatedRuns" | "createdAt" | "modifiedAt">;

const MAJOR_MINOR = /^\d+\.\d+$/;

/**
 * AutoUpgradeProfiles_CreateOrUpdate body: first the api-version's definition (a field or channel the
 * version lacks is refused as ARM words it), then the rules `AutoUpgradeProfileProperties` states in words:
 * `targetKubernetesVersion` is `major.minor`, given exactly when the channel is TargetKubernetesVersion;
 * `longTermSupport` only with that channel; `updateStrategyId` and `nodeImageSelection` are create-only.
 */
export function parseProfileBody(body: unknown, api: FleetApi, existing: ProfileRecord | undefined): ProfileSpec {
  const schema = api.schemas.AutoUpgradeProfile as z.ZodType;
  const result = schema.safeParse(body, { error: friendlyErrors });
  if (!result.success) throw new FieldValidationError(wireIssues(result.error, api.version, formatPath));
  const properties = (body as { properties?: Record<string, unknown> }).properties;
  if (properties === undefined) throw new FieldValidationError([{ path: "properties", message: "is required (with properties.channel)" }]);
  const spec: ProfileSpec = {
    channel: properties.channel as UpgradeChannel,
    ...(properties.updateStrategyId === undefined ? {} : { updateStrategyId: properties.updateStrategyId as string }),
    ...(properties.nodeImageSelection === undefined ? {} : { nodeImageSelection: properties.nodeImageSelection as ProfileSpec["nodeImageSelection"] & object }),
    ...(properties.disabled === undefined ? {} : { disabled: properties.disabled as boolean }),
    ...(properties.targetKubernetesVersion === undefined || properties.targetKubernetesVersion === "" ? {} : { targetKubernetesVersion: properties.targetKubernetesVersion as string }),
    ...(properties.longTermSupport === undefined ? {} : { longTermSupport: properties.longTermSupport as boolean }),
  };
  const issues: Array<{ path: string; message: string }> = [];
  const targeted = spec.channel === "TargetKubernetesVersion";
  if (targeted && spec.targetKubernetesVersion === undefined) issues.push({ path: "properties.targetKubernetesVersion", message: "is required when channel is TargetKubernetesVersion (major.minor, such as 1.30)" });
  if (targeted && spec.targetKubernetesVersion !== undefined && !MAJOR_MINOR.test(spec.targetKubernetesVersion)) {
    issues.push({ path: "properties.targetKubernetesVersion", message: `must be major.minor, such as 1.30 (got ${JSON.stringify(spec.targetKubernetesVersion)})` });
  }
  if (!targeted && spec.targetKubernetesVersion !== undefined) issues.push({ path: "properties.targetKubernetesVersion", message: `must be empty unless channel is TargetKubernetesVersion (channel is ${spec.channel})` });
  if (!targeted && spec.longTermSupport === true) issues.push({ path: "properties.longTermSupport", message: `must be false unless channel is TargetKubernetesVersion (channel is ${spec.channel})` });
  if (existing !== undefined) {
    if ((existing.updateStrategyId ?? "").toLowerCase() !== (spec.updateStrategyId ?? "").toLowerCase()) {
      issues.push({ path: "properties.updateStrategyId", message: `cannot change once the profile is created (it is ${JSON.stringify(existing.updateStrategyId ?? null)}); delete the profile and create it again` });
    }
    if ((existing.nodeImageSelection?.type ?? "Latest") !== (spec.nodeImageSelection?.type ?? "Latest")) {
      issues.push({ path: "properties.nodeImageSelection.type", message: `cannot change once the profile is created (it is ${existing.nodeImageSelection?.type ?? "Latest"})` });
    }
  }
  if (issues.length > 0) throw new FieldValidationError(issues);
  return spec;
}

function eTag(value: unknown): string {
  return crypto.createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);
}

/** What the profile holds, every version's fields (its eTag is over these, so the same at every version). */
function fullProperties(profile: ProfileRecord): Record<string, unknown> {
  return {
    provisioningState: "Succeeded",
    channel: profile.channel,
    ...(profile.updateStrategyId === undefined ? {} : { updateStrategyId: profile.updateStrategyId }),
    ...(profile.nodeImageSelection === undefined ? {} : { nodeImageSelection: profile.nodeImageSelection }),
    ...(profile.disabled === undefined ? {} : { disabled: profile.disabled }),
    ...(profile.targetKubernetesVersion === undefined ? {} : { targetKubernetesVersion: profile.targetKubernetesVersion }),
    ...(profile.longTermSupport === undefined ? {} : { longTermSupport: profile.longTermSupport }),
  };
}

export function profileETag(profile: ProfileRecord): string {
  return eTag(fullProperties(profile));
}

export function profileId(scope: ArmScope, fleet: FleetRecord, name: string): string {
  return `${fleetId(scope, fleet.name)}/autoUpgradeProfiles/${name}`;
}

/**
 * The profile as `api` shows it. A profile with the TargetKubernetesVersion channel read at a version
 * without it shows the channel as stored: as for runs, the reader sees what the resource is, and Fleet's
 * `UpgradeChannel` is an extensible enum. `autoUpgradeProfileStatus` is not shown: it reports automatic
 * triggers, which the emulator never makes (and Fleet's examples show none).
 */
export function profileBody(scope: ArmScope, fleet: FleetRecord, profile: ProfileRecord, api: FleetApiFeatures): Record<string, unknown> {
  const properties = fullProperties(profile);
  if (!api.autoUpgradeChannels.includes("TargetKubernetesVersion")) {
    delete properties.targetKubernetesVersion;
    delete properties.longTermSupport;
  }
  return {
    id: profileId(scope, fleet, profile.name),
    name: profile.name,
    type: `${FLEETS}/autoUpgradeProfiles`,
    systemData: systemData(profile.createdAt, profile.modifiedAt),
    eTag: profileETag(profile),
    properties,
  };
}

/**
 * The name of the run a profile's `generateUpdateRun` makes, as Fleet names it
 * (`auto-<profile>-<channel>-<version>-<suffix>`: the recording's `auto-aup-000006-rapid-1-33-2-1cnmmzn`):
 * the channel lower-cased, the Kubernetes version with `-` for `.` (none for a node-image update), and
 * a 7-character base-36 suffix (Fleet's looks random; here a digest of the profile and the count, so
 * the same calls give the same names). The profile part is cut to keep the name a DNS label of at most
 * 50 characters.
 */
export function nextRunName(fleet: FleetRecord, profile: ProfileRecord, kubernetesVersion: string | undefined): string {
  const tail = `-${profile.channel.toLowerCase()}${kubernetesVersion === undefined ? "" : `-${kubernetesVersion.replace(/\./g, "-")}`}`;
  for (let n = profile.generatedRuns.length + 1; ; n++) {
    const suffix = BigInt(`0x${crypto.createHash("sha256").update(`${profile.name}\n${n}`).digest("hex").slice(0, 12)}`).toString(36).slice(-7).padStart(7, "0");
    const room = 50 - "auto-".length - tail.length - suffix.length - 1;
    const name = `auto-${profile.name.slice(0, Math.max(1, room)).replace(/-+$/, "")}${tail}-${suffix}`.slice(0, 50).replace(/-+$/, "");
    if (!fleet.runs.has(name.toLowerCase())) return name;
  }
}
