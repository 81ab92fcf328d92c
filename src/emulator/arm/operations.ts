/**
 * Long-running operations as ARM exposes them. Every upgrade started through the emulator is tracked
 * under the simulated fleet's operation id (`op-<cluster>-<n>`), with the scope it was started in and
 * the resource it changes, so that:
 * - the `Azure-AsyncOperation` URL (`locations/{location}/operations/{id}`) answers 200 with the
 *   operation status (`{ id, name, status, startTime, endTime, error? }`);
 * - the `Location` URL (`locations/{location}/operationresults/{id}`) answers 202 (with `Location`
 *   and `Retry-After`) while it runs, then 200 with the changed resource; a failed operation answers
 *   400 with the failure as an ARM error body. Never 204.
 * `Retry-After` is the real time left until the simulated end, in whole seconds (1 to 60).
 */
import { isoInstant } from "../../model/instants";
import { UPGRADE_ABORTED } from "../../aks/errorCodes";
import type { OperationRecord } from "../../backends/simulator/fleetState";
import { API_VERSION, clusterId } from "../core/context";
import { asyncOperationPath, operationResultPath, type OperationAddress } from "../core/operationUrls";
import type { ArmOperations, ArmScope, OperationType, TrackedOperation } from "../ports";

export class OperationRegistry implements ArmOperations {
  private readonly byId = new Map<string, TrackedOperation>();

  add(operation: TrackedOperation): void {
    this.byId.set(operation.operationId.toLowerCase(), operation);
  }

  get(operationId: string): TrackedOperation | undefined {
    return this.byId.get(operationId.toLowerCase());
  }
}

/** Whole seconds of real time until the simulated operation ends, 1 to 60. */
export function retryAfterSeconds(record: { endAt: number }, now: number, timeScale: number): number {
  const realMs = (record.endAt - now) / timeScale;
  return Math.min(60, Math.max(1, Math.ceil(realMs / 1000)));
}

/** Headers of an answer that started (or reports on) a running operation. */
export function lroHeaders(baseUrl: string, op: OperationAddress, record: { endAt: number }, now: number, timeScale: number): Record<string, string> {
  return {
    "Azure-AsyncOperation": `${baseUrl}${asyncOperationPath(op)}?api-version=${API_VERSION}`,
    Location: `${baseUrl}${operationResultPath(op)}?api-version=${API_VERSION}`,
    "Retry-After": String(retryAfterSeconds(record, now, timeScale)),
  };
}

export type OperationStatus = "InProgress" | "Succeeded" | "Failed" | "Canceled";

export function statusOf(record: OperationRecord): OperationStatus {
  return record.result ?? "InProgress";
}

export function failureOf(record: OperationRecord): { code: string; message: string } {
  if (record.result === "Canceled") return { code: UPGRADE_ABORTED, message: `Operation ${record.operationId} was aborted (canceled) by a request to abort it.` };
  return { ...(record.failWith ?? { code: "UpgradeFailed", message: "the upgrade failed" }) };
}

function percentComplete(record: OperationRecord, now: number): number {
  if (record.result !== undefined) return 100;
  const span = record.endAt - record.startAt;
  return span <= 0 ? 99 : Math.max(0, Math.min(99, Math.floor(((now - record.startAt) / span) * 100)));
}

/**
 * The body of the `Azure-AsyncOperation` URL as AKS answers it (test/fixtures/recordings/aks): `name`,
 * `status`, `startTime`, `endTime` once ended, `error` when it failed — no `id`, no `percentComplete`.
 */
export function asyncOperationStatus(_op: TrackedOperation, record: OperationRecord, now: number): Record<string, unknown> {
  const { id: _id, percentComplete: _percent, ...body } = statusBody("", record, now);
  return body;
}

/** OperationStatusResult under the cluster (`managedClusters/{name}/operations/{id}`), as OperationStatusResultList.json. */
export function clusterOperationStatus(scope: ArmScope, cluster: string, record: OperationRecord, now: number, operationType: OperationType): Record<string, unknown> {
  return {
    ...statusBody(`${clusterId(scope, cluster)}/operations/${record.operationId}`, record, now),
    operationType,
    subOperationType: record.request.type === "NodeImageOnly" ? "UpgradingNodeImageVersion" : "Upgrading",
  };
}

function statusBody(id: string, record: OperationRecord, now: number): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id,
    name: record.operationId,
    status: statusOf(record),
    startTime: isoInstant(record.startAt),
    percentComplete: percentComplete(record, now),
  };
  if (record.result !== undefined) body.endTime = isoInstant(record.endAt);
  if (record.result === "Failed" || record.result === "Canceled") body.error = failureOf(record);
  return body;
}

/** What kind of ARM call started an operation that the emulator did not track (started before it, or elsewhere). */
export function inferredOperationType(record: OperationRecord): OperationType {
  return record.request.type === "NodeImageOnly" ? "UpgradeNodeImageVersion" : "PutManagedCluster";
}
