/**
 * Fleet Manager's JSON for update runs, update strategies and gates, at the api-versions this client
 * speaks (`CLIENT_FLEET_API_VERSIONS`), as the service sends and takes it: instants as ISO strings,
 * every field the service fills optional. Only the fields we read or write are named; a field one of
 * the versions lacks is sent only at a version that has it (`unsupported.ts` refuses it at Check
 * otherwise), and read when the service shows it.
 *
 * Why our own types: `@azure/arm-containerservicefleet` 2.0.0 models api-version 2025-03-01, which
 * has no gates, `maxConcurrency` or `maxAllowedFailures` — its serializers drop them from a strategy
 * and its deserializers drop them from the status — so run and strategy bodies and gates go through
 * the same SDK's REST client (`restOperations.ts`) with these shapes.
 *
 * Every api-version's full definitions are in `wire/` (one module per version, `wire/v2026_06_01.ts`, ...,
 * as zod schemas checked against the official swagger by `test/backends/azureFleet/wireSwagger.test.ts`),
 * re-exported here; the interfaces below are the part this client reads and writes
 * (`test/backends/azureFleet/wireTypes.typecheck.ts` checks they name only fields of those versions, and
 * `test/backends/azureFleet/wireBodies.test.ts` that the bodies sent parse at the version they are sent in).
 */
import { CLIENT_FLEET_API_VERSIONS, type ClientFleetApiVersion } from "../../spec/fleet";
import type { FleetApiVersion } from "./wire/index";

export * from "./wire/index";

// The api-versions a run spec may ask for (`src/spec/fleet.ts`), each one whose wire types are here.
CLIENT_FLEET_API_VERSIONS satisfies readonly FleetApiVersion[];
export { CLIENT_FLEET_API_VERSIONS, isClientFleetApiVersion, type ClientFleetApiVersion } from "../../spec/fleet";

/** What a run on `backend.azureFleet` speaks unless its `apiVersion` says otherwise. */
export const DEFAULT_FLEET_API_VERSION: ClientFleetApiVersion = "2026-06-01";

/** 2026-06-02-preview: when a ScheduledStart gate opens, a weekday and a local time (Fleet's `ScheduledStartConfiguration`). */
export interface WireScheduledStartConfiguration {
  startDay: "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday" | "Sunday";
  /** `HH:mm`. */
  startTime: string;
  /** `+HH:mm` / `-HH:mm`, -14:00 to +14:00. */
  utcOffset: string;
}

/** An Approval gate (from 2025-04-01-preview) or, at 2026-06-02-preview, a ScheduledStart gate with its configuration. */
export interface WireGateConfiguration {
  displayName?: string;
  type: "Approval" | "ScheduledStart";
  scheduledStartConfiguration?: WireScheduledStartConfiguration;
}

/** 2026-06-02-preview: a Kubernetes label selector over the fleet members' `labels` (at most 512 characters). */
export interface WireMemberSelector {
  byLabel: string;
}

export interface WireGates {
  beforeGates?: WireGateConfiguration[];
  afterGates?: WireGateConfiguration[];
}

/** From 2026-06-01 `maxConcurrency` ("N" or "P%"); from 2026-06-02-preview `maxAllowedFailures` ("N" or "P%"). */
export interface WireLimits {
  maxConcurrency?: string;
  maxAllowedFailures?: string;
}

export interface WireUpdateGroup extends WireGates, WireLimits {
  name: string;
  memberSelector?: WireMemberSelector;
}

export interface WireUpdateStage extends WireGates, WireLimits {
  name: string;
  memberSelector?: WireMemberSelector;
  groups?: WireUpdateGroup[];
  afterStageWaitInSeconds?: number;
}

export interface WireStrategy {
  stages: WireUpdateStage[];
}

export interface WireManagedClusterUpdate {
  upgrade: { type: string; kubernetesVersion?: string };
  nodeImageSelection?: { type: string; customNodeImageVersions?: Array<{ version?: string }> };
}

export interface WireUpdateStatus {
  state?: string;
  startTime?: string;
  completedTime?: string;
  error?: { code?: string; message?: string } | null;
}

export interface WireGateStatus {
  displayName?: string;
  /** The gate resource's ARM id (`…/fleets/{f}/gates/{guid}`). */
  gateId?: string;
  status?: WireUpdateStatus;
}

export interface WireGatesStatus {
  beforeGates?: WireGateStatus[];
  afterGates?: WireGateStatus[];
}

export interface WireMemberStatus {
  name?: string;
  clusterResourceId?: string;
  operationId?: string;
  message?: string;
  status?: WireUpdateStatus;
}

/**
 * What the status shows of the limits, resolved to integers: `maxConcurrency` from 2026-06-01;
 * `maxAllowedFailures` and `failureCount` at 2026-06-02-preview (when the strategy sets a tolerance).
 */
export interface WireLimitsStatus {
  maxConcurrency?: number;
  maxAllowedFailures?: number;
  failureCount?: number;
}

export interface WireGroupStatus extends WireGatesStatus, WireLimitsStatus {
  name?: string;
  status?: WireUpdateStatus;
  members?: WireMemberStatus[];
}

export interface WireStageStatus extends WireGatesStatus, WireLimitsStatus {
  name?: string;
  status?: WireUpdateStatus;
  groups?: WireGroupStatus[];
  afterStageWaitStatus?: { status?: WireUpdateStatus; waitDurationInSeconds?: number } | null;
}

export interface WireRunStatus {
  status?: WireUpdateStatus;
  stages?: WireStageStatus[];
  nodeImageSelection?: { selectedNodeImageVersions?: Array<{ version?: string }> };
  /** 2026-06-02-preview, when the strategy sets a tolerance. */
  failureCount?: number;
}

export interface WireUpdateRun {
  id?: string;
  name?: string;
  eTag?: string;
  /** ARM's: when the run was made (a run deleted and made again under its name has the same id). */
  systemData?: { createdAt?: string };
  properties?: {
    provisioningState?: string;
    updateStrategyId?: string;
    strategy?: WireStrategy;
    managedClusterUpdate?: WireManagedClusterUpdate;
    status?: WireRunStatus;
  };
}

export interface WireUpdateStrategy {
  id?: string;
  name?: string;
  eTag?: string;
  properties?: { provisioningState?: string; strategy?: WireStrategy };
}

export interface WireGate {
  id?: string;
  name?: string;
  eTag?: string;
  properties?: {
    displayName?: string;
    gateType?: string;
    state?: string;
    /**
     * 2026-06-02-preview, a ScheduledStart gate: its configuration and `absoluteStartTime`, the instant it
     * opens. Only the gate resource shows it: the run's status lists the gate without it.
     */
    scheduledStartProperties?: WireScheduledStartConfiguration & { absoluteStartTime?: string };
    /** Not read: a gate is found by its place in the run's status (`gateResources.ts`), whose `gateId` names it. */
    target?: { id?: string; updateRunProperties?: WireGateTargetRun };
  };
}

/**
 * A fleet member as `fleets/{f}/members` lists it. `labels` (from 2025-04-01-preview, with the five
 * `fleet.azure.com/*` labels Fleet adds; what a `memberSelector` reads) is read through the REST client:
 * SDK 2.0.0's deserializer drops it.
 */
export interface WireFleetMember {
  id?: string;
  name?: string;
  properties?: { clusterResourceId?: string; group?: string; labels?: Record<string, string> };
}

/** Where a gate stands in its run (`target` of a gate resource). */
export interface WireGateTargetRun {
  name?: string;
  stage?: string;
  group?: string;
  timing?: string;
}


/**
 * Issue 22: an auto-upgrade profile as this client writes and reads it (`AutoUpgradeProfileProperties`;
 * `targetKubernetesVersion` and `longTermSupport` from 2025-04-01-preview, sent only then). The client always
 * creates profiles `disabled: true`: Fleet then starts nothing from them on its own; runs come only from
 * `generateUpdateRun`, which the client starts and follows.
 */
export interface WireAutoUpgradeProfileProperties {
  channel: "Stable" | "Rapid" | "NodeImage" | "TargetKubernetesVersion" | "SecurityPatch";
  updateStrategyId?: string;
  nodeImageSelection?: { type: "Latest" | "Consistent" };
  disabled?: boolean;
  targetKubernetesVersion?: string;
  longTermSupport?: boolean;
}

/**
 * What Fleet says of a profile's last automatic trigger (`AutoUpgradeProfileStatus`; from 2025-03-01,
 * `lastTriggerMessage` at 2026-06-02-preview). Our profiles are `disabled`, so Fleet never triggers them:
 * read, never acted on.
 */
export interface WireAutoUpgradeProfileStatus {
  lastTriggeredAt?: string;
  lastTriggerStatus?: string;
  lastTriggerError?: { code?: string; message?: string } | null;
  lastTriggerUpgradeVersions?: string[];
  lastTriggerMessage?: string;
}

export interface WireAutoUpgradeProfile {
  id?: string;
  name?: string;
  eTag?: string;
  properties?: WireAutoUpgradeProfileProperties & { provisioningState?: string; autoUpgradeProfileStatus?: WireAutoUpgradeProfileStatus | null };
}
