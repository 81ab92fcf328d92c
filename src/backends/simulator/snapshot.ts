/**
 * The simulated clusters as `fleet-update simulate --json` reports them (docs/rules.md §7 `clusters`): plain
 * JSON, timestamps as ISO 8601 UTC, absent values omitted (never `undefined` or `null`).
 */
import type { NodePoolInfo } from "../../engine/backend";
import { isoInstant } from "../../model/instants";
import type { UpgradeType } from "../../model/update";
import type { ClusterState, OperationRecord } from "./fleetState";

export interface OperationLogEntry {
  operationId: string;
  /** The upgrade type. */
  kind: UpgradeType;
  startTime: string;
  /** Once the operation has ended. */
  endTime?: string;
  /** Once the operation has ended. */
  result?: "Succeeded" | "Failed";
}

export interface ClusterSnapshot {
  name: string;
  kubernetesVersion: string;
  nodePools: NodePoolInfo[];
  operations: OperationLogEntry[];
}

export interface FleetSnapshot {
  clusters: ClusterSnapshot[];
}

export function toIsoInstant(instant: number): string {
  return isoInstant(instant);
}

export function operationLogEntry(op: OperationRecord): OperationLogEntry {
  const entry: OperationLogEntry = { operationId: op.operationId, kind: op.request.type, startTime: toIsoInstant(op.startAt) };
  if (op.result !== undefined) {
    entry.endTime = toIsoInstant(op.endAt);
    // docs/rules.md §7 knows Succeeded and Failed: an aborted (Canceled) upgrade did not succeed.
    entry.result = op.result === "Canceled" ? "Failed" : op.result;
  }
  return entry;
}

export function clusterSnapshot(name: string, state: ClusterState): ClusterSnapshot {
  return {
    name,
    kubernetesVersion: state.kubernetesVersion,
    nodePools: state.nodePools.map(({ name: poolName, orchestratorVersion, nodeImageVersion }) => ({ name: poolName, orchestratorVersion, nodeImageVersion })),
    operations: state.operations.map(operationLogEntry),
  };
}
