/**
 * What every write goes through: `If-Match` / `If-None-Match` against the resource's eTag (412), the
 * busy rule (409 `OperationNotAllowed` for any write while an operation runs, as AKS answers), and
 * starting the upgrade in the simulated fleet, answered with the changed resource and the headers of
 * a long-running operation.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { UpgradeRequest } from "../../engine/backend";
import { isoInstant } from "../../model/instants";
import { OPERATION_NOT_ALLOWED } from "../../aks/errorCodes";
import { ArmError, armCall } from "../core/armErrors";
import type { ArmReply, ArmScope, EmulatorContext, OperationTarget, OperationType, TrackedOperation } from "../ports";
import type { OperationAddress } from "../core/operationUrls";
import { readCluster, type ClusterView } from "./clusterView";
import { lroHeaders } from "./operations";
import { agentPool, managedCluster } from "./resources";

function etagValues(header: string | string[] | undefined): string[] | undefined {
  if (header === undefined) return undefined;
  const text = Array.isArray(header) ? header.join(",") : header;
  return text.split(",").map((v) => v.trim().replace(/^W\//, "").replace(/^"(.*)"$/, "$1"));
}

/** 412 when `If-Match` names another eTag, or `If-None-Match` matches (the resource always exists). */
export function checkPreconditions(headers: IncomingHttpHeaders, currentETag: string, what: string): void {
  const ifMatch = etagValues(headers["if-match"]);
  if (ifMatch !== undefined && !ifMatch.includes("*") && !ifMatch.includes(currentETag)) {
    throw new ArmError(
      412,
      "PreconditionFailed",
      `Operation is not allowed: the eTag in the If-Match header (${ifMatch.join(", ")}) does not match the current eTag of ${what} (${currentETag}). Get the resource again and retry.`,
    );
  }
  const ifNoneMatch = etagValues(headers["if-none-match"]);
  if (ifNoneMatch !== undefined && (ifNoneMatch.includes("*") || ifNoneMatch.includes(currentETag))) {
    throw new ArmError(412, "PreconditionFailed", `Operation is not allowed: ${what} already exists and matches the If-None-Match header.`);
  }
}

/** AKS refuses every write to a cluster while an operation runs on it. */
export function refuseIfBusy(view: ClusterView): void {
  if (view.running !== undefined) {
    throw new ArmError(
      409,
      OPERATION_NOT_ALLOWED,
      `Operation is not allowed because there's an in progress upgrade operation (${view.running.operationId}) on managed cluster '${view.name}', expected to end at ${isoInstant(view.running.endAt)}. Please wait for it to finish before starting another operation.`,
    );
  }
  const other =
    view.deleting !== undefined
      ? "delete operation"
      : view.deletingPools.size > 0
        ? "agent pool delete operation"
        : view.canceling !== undefined
          ? "abort operation"
          : view.updatingPools.size > 0
            ? "agent pool update operation"
            : view.busyElsewhere
              ? "operation"
              : undefined;
  if (other !== undefined) {
    throw new ArmError(409, OPERATION_NOT_ALLOWED, `Operation is not allowed because there's an in progress ${other} on managed cluster '${view.name}'. Please wait for it to finish before starting another operation.`);
  }
}

/** Start `request` in the simulated fleet and answer `status` with the changed resource and LRO headers. */
export async function startOperation(
  ctx: EmulatorContext,
  view: ClusterView,
  scope: ArmScope,
  request: UpgradeRequest,
  target: OperationTarget,
  operationType: OperationType,
  status: 200 | 201 | 202,
): Promise<ArmReply> {
  const started = await armCall(() => ctx.sim.startUpgrade({ name: view.name }, request));
  const tracked: TrackedOperation = { operationId: started.operationId, member: view.name, scope, location: view.location, target, operationType };
  ctx.operations.add(tracked);
  const after = await readCluster(ctx, view.description);
  const record = after.state.operations.find((op) => op.operationId === started.operationId);
  if (record === undefined) throw new Error(`operation ${started.operationId} vanished`);
  return { status, body: targetResource(after, scope, target), headers: startedHeaders(ctx, tracked, record, after.now, status) };
}

/**
 * The headers of a write that started an operation. As AKS answers (test/fixtures/recordings/aks): a PUT
 * (200/201) carries `Azure-AsyncOperation` only; a POST or DELETE (202) also `Location`.
 */
export function startedHeaders(ctx: EmulatorContext, op: OperationAddress, record: { endAt: number }, now: number, status: number): Record<string, string> {
  const headers = lroHeaders(ctx.baseUrl(), op, record, now, ctx.timeScale);
  if (status !== 202) delete headers.Location;
  return headers;
}

/** The resource an operation changes, as it is now. */
export function targetResource(view: ClusterView, scope: ArmScope, target: OperationTarget): Record<string, unknown> {
  if (target.kind === "agentPool") {
    const pool = view.state.nodePools.find((p) => p.name === target.pool);
    if (pool !== undefined) return agentPool(view, scope, pool);
  }
  return managedCluster(view, scope);
}
