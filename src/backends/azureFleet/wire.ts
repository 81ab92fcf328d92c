/**
 * Fleet Manager's JSON for update runs, update strategies and gates, at the api-version this client
 * speaks (`FLEET_API_VERSION`), as the service sends and takes it: instants as ISO strings, every
 * field the service fills optional. Only the fields we read or write are named.
 *
 * Why our own types: `@azure/arm-containerservicefleet` 2.0.0 models api-version 2025-03-01, which
 * has no gates — its serializers drop `beforeGates` / `afterGates` from a strategy and its
 * deserializers drop the gates' status — so run and strategy bodies and gates go through the same
 * SDK's REST client (`restOperations.ts`) with these shapes.
 *
 * Every api-version's full definitions are in `wire/` (one module per version, `wire/v2026_06_01.ts`, ...,
 * as zod schemas checked against the official swagger by `test/azureFleet/wireSwagger.test.ts`),
 * re-exported here; the interfaces below are the part this client reads and writes, at
 * `FLEET_API_VERSION`.
 */
export * from "./wire/index";

/**
 * The first Fleet api-version with approval gates (gates resources, `beforeGates` / `afterGates` on
 * stages and groups). Every request of the client uses it, so a run's body, its controls and its gates
 * are all read in one version's terms.
 */
export const FLEET_API_VERSION = "2025-04-01-preview";

export interface WireGateConfiguration {
  displayName?: string;
  type: "Approval";
}

export interface WireGates {
  beforeGates?: WireGateConfiguration[];
  afterGates?: WireGateConfiguration[];
}

export interface WireUpdateGroup extends WireGates {
  name: string;
}

export interface WireUpdateStage extends WireGates {
  name: string;
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

export interface WireGroupStatus extends WireGatesStatus {
  name?: string;
  status?: WireUpdateStatus;
  members?: WireMemberStatus[];
}

export interface WireStageStatus extends WireGatesStatus {
  name?: string;
  status?: WireUpdateStatus;
  groups?: WireGroupStatus[];
  afterStageWaitStatus?: { status?: WireUpdateStatus; waitDurationInSeconds?: number } | null;
}

export interface WireRunStatus {
  status?: WireUpdateStatus;
  stages?: WireStageStatus[];
  nodeImageSelection?: { selectedNodeImageVersions?: Array<{ version?: string }> };
}

export interface WireUpdateRun {
  id?: string;
  name?: string;
  eTag?: string;
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
    /** At 2025-04-01-preview the target is typed (`type: UpdateRun`, `properties.updateRun`); from 2026-06-01 it is `updateRunProperties`. */
    target?: { id?: string; type?: string; properties?: { updateRun?: { name?: string; stage?: string; group?: string; timing?: string } } };
  };
}
