/**
 * Fleet Manager's long-running writes of its own resources, as the live service answers them
 * (`test/fixtures/recordings/fleet/test_fleet_hubless.yaml`; docs/emulator-conformance.md):
 * - a fleet's PUT answers 201 `Creating` (200 `Updating` for an existing one) and a member's PUT 201
 *   `Joining` (200 `Updating`), each with `Azure-AsyncOperation` only; a DELETE answers 202 with the
 *   resource `Deleting` / `Leaving`, `Azure-AsyncOperation` and `Location`;
 * - the operation's status is `InProgress` until it ends, then `Succeeded`, as `{name, status,
 *   startTime, endTime}`; the `Location` URL of a deletion answers 202 until then, 204 after;
 * - the resource shows the transitional `provisioningState` until the operation ends (then
 *   `Succeeded`, or, deleted, 404), and `properties.status.lastOperationId` names its last operation.
 * How long each takes (simulated time) is what the recording shows, rounded: a fleet's about a second,
 * a member's about ten.
 */
import crypto from "node:crypto";
import { isoInstant } from "../../model/instants";
import { API_VERSION } from "../core/context";
import { asyncOperationPath, operationResultPath, type OperationAddress } from "../core/operationUrls";
import type { ArmReply, ArmScope } from "../ports";

/** Simulated duration of a fleet's create, update or delete. */
export const FLEET_OPERATION_MS = 1_000;
/** Simulated duration of a member's join, update or leave. */
export const MEMBER_OPERATION_MS = 10_000;

export type ResourceOperationKind = "create" | "update" | "delete";

export interface ResourceOperation extends OperationAddress {
  kind: ResourceOperationKind;
  startAt: number;
  endAt: number;
}

/** The `provisioningState` a resource shows at `now` while `op` (its last operation) runs, else Succeeded. */
export function provisioningStateOf(op: ResourceOperation | undefined, now: number, words: Record<ResourceOperationKind, string>): string {
  return op !== undefined && now < op.endAt ? words[op.kind] : "Succeeded";
}

/** A fleet's words for its operations. */
export const FLEET_STATES: Record<ResourceOperationKind, string> = { create: "Creating", update: "Updating", delete: "Deleting" };
/** A member's. */
export const MEMBER_STATES: Record<ResourceOperationKind, string> = { create: "Joining", update: "Updating", delete: "Leaving" };

export class ResourceOperations {
  private readonly byId = new Map<string, ResourceOperation>();
  private counter = 0;

  /** A new operation from `now`, taking `durationMs`; its id is GUID-shaped, as Fleet's, and the same for the same sequence of writes. */
  add(kind: ResourceOperationKind, scope: ArmScope, location: string, now: number, durationMs: number): ResourceOperation {
    const hex = crypto.createHash("sha256").update(`fleet-resource-operation\n${++this.counter}`).digest("hex");
    const operationId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
    const op: ResourceOperation = { operationId, scope, location, kind, startAt: now, endAt: now + durationMs };
    this.byId.set(operationId, op);
    return op;
  }

  get(operationId: string): ResourceOperation | undefined {
    return this.byId.get(operationId.toLowerCase());
  }
}

/** The headers of the answer that started `op`: `Azure-AsyncOperation`, and for a deletion `Location` too. */
export function resourceOperationHeaders(baseUrl: string, op: ResourceOperation): Record<string, string> {
  return {
    "Azure-AsyncOperation": `${baseUrl}${asyncOperationPath(op)}?api-version=${API_VERSION}`,
    ...(op.kind === "delete" ? { Location: `${baseUrl}${operationResultPath(op)}?api-version=${API_VERSION}` } : {}),
  };
}

/** The `Azure-AsyncOperation` URL's answer. */
export function resourceOperationStatus(op: ResourceOperation, now: number): ArmReply {
  const done = now >= op.endAt;
  return {
    status: 200,
    body: { name: op.operationId, status: done ? "Succeeded" : "InProgress", startTime: isoInstant(op.startAt), ...(done ? { endTime: isoInstant(op.endAt) } : {}) },
  };
}

/** The `Location` URL's answer: 202 (with `Location`) while it runs, then 204 (only deletions have one). */
export function resourceOperationResult(baseUrl: string, op: ResourceOperation, now: number): ArmReply {
  if (now < op.endAt) return { status: 202, headers: { Location: `${baseUrl}${operationResultPath(op)}?api-version=${API_VERSION}` } };
  return { status: 204 };
}
