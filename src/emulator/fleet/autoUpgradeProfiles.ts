/**
 * Issue 22: Fleet Manager's auto-upgrade profiles in the emulator, as records, request checks and ARM
 * bodies (`AutoUpgradeProfile` of `fleets.json`, each api-version with its own fields: `targetKubernetesVersion`,
 * `longTermSupport` and the TargetKubernetesVersion channel from 2026-06-01; `autoUpgradeProfileStatus`
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
import { formatPath, friendlyErrors, isoInstant } from "../../model/common";
import { asyncOperationPath, operationResultPath } from "../core/operationUrls";
import { API_VERSION } from "../core/context";
import type { ArmReply, ArmScope } from "../ports";
import type { FleetApi } from "./apiVersions";
import { systemData } from "./fleetResources";
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
  /** Names of the runs its `generateUpdateRun` made, in order (the next name is derived from the count). */
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

/** The next run name of a profile's `generateUpdateRun`: `<profile>-<n>`, a DNS label of at most 50 characters, unused in the fleet. */
export function nextRunName(fleet: FleetRecord, profile: ProfileRecord): string {
  for (let n = profile.generatedRuns.length + 1; ; n++) {
    const suffix = `-${n}`;
    const name = `${profile.name.slice(0, 50 - suffix.length).replace(/-+$/, "")}${suffix}`;
    if (!fleet.runs.has(name.toLowerCase())) return name;
  }
}

/**
 * Long-running operations that are over when they are accepted (an auto-upgrade profile's DELETE,
 * which Fleet answers 202 with `Location` and `Azure-AsyncOperation`): served at ARM's shared operation
 * URLs, Succeeded at once, the `Location` URL answering the final status (204 for a deletion).
 */
export class InstantOperations {
  private readonly done = new Map<string, { startAt: number; path: string; result: ArmReply }>();
  private counter = 0;

  /** Record an operation over at `now`; answer its 202 headers. */
  add(kind: string, scope: ArmScope, location: string, now: number, baseUrl: string, result: ArmReply): Record<string, string> {
    const operationId = `fleet-${kind}-${++this.counter}`;
    const address = { operationId, scope, location };
    this.done.set(operationId.toLowerCase(), { startAt: now, path: asyncOperationPath(address), result });
    return {
      "Azure-AsyncOperation": `${baseUrl}${asyncOperationPath(address)}?api-version=${API_VERSION}`,
      Location: `${baseUrl}${operationResultPath(address)}?api-version=${API_VERSION}`,
    };
  }

  status(operationId: string): Promise<ArmReply> | undefined {
    const op = this.done.get(operationId.toLowerCase());
    if (op === undefined) return undefined;
    const at = isoInstant(op.startAt);
    return Promise.resolve({ status: 200, body: { id: op.path, name: operationId, status: "Succeeded", startTime: at, endTime: at, percentComplete: 100 } });
  }

  result(operationId: string): Promise<ArmReply> | undefined {
    const op = this.done.get(operationId.toLowerCase());
    return op === undefined ? undefined : Promise.resolve(op.result);
  }
}
