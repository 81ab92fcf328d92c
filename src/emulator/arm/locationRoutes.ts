/**
 * Subscription-level routes under `locations/{location}`: the Kubernetes versions and node images a
 * region offers now, and the status (`operations/{id}`, the `Azure-AsyncOperation` URL) and result
 * (`operationresults/{id}`, the `Location` URL) of operations started through the emulator: upgrades,
 * deletions and aborts.
 */
import { isoInstant } from "../../model/instants";
import type { Region } from "../../model/fleet";
import type { OperationRecord } from "../../backends/simulator/fleetState";
import { ArmError } from "../core/armErrors";
import { API_VERSION, checkSubscription, findMember } from "../core/context";
import { operationResultPath } from "../core/operationUrls";
import { LOCATION_PATH, route } from "../core/router";
import type { ArmReply, ArmRequest, ArmScope, EmulatorContext, LifecycleOperation, OperationSource, Route, TrackedOperation } from "../ports";
import { readCluster, type ClusterView } from "./clusterView";
import { kubernetesVersionList, nodeImageVersionList } from "./offers";
import { asyncOperationStatus, failureOf, inferredOperationType, retryAfterSeconds } from "./operations";
import { targetResource } from "./writes";

/** ARM reads `West Europe` and `westeurope` alike. */
function region(ctx: EmulatorContext, request: ArmRequest): Region {
  checkSubscription(ctx, request.params.subscriptionId ?? "");
  const location = (request.params.location ?? "").toLowerCase().replace(/\s+/g, "");
  const found = Object.hasOwn(ctx.fleet.regions, location) ? ctx.fleet.regions[location] : undefined;
  if (found === undefined) {
    throw new ArmError(404, "NotFound", `The location '${request.params.location ?? ""}' is not part of the simulated fleet (regions: ${Object.keys(ctx.fleet.regions).join(", ")}).`);
  }
  return found;
}

/**
 * The answer about an update run's start, stop or skip (Fleet Manager's, `ctx.fleetOperations`), by
 * the id a status URL names; undefined when the id is not one of them.
 */
function fleetOperationAnswer(ctx: EmulatorContext, request: ArmRequest, answer: (source: OperationSource, operationId: string) => Promise<ArmReply> | undefined): Promise<ArmReply> | undefined {
  checkSubscription(ctx, request.params.subscriptionId ?? "");
  return ctx.fleetOperations === undefined ? undefined : answer(ctx.fleetOperations, request.params.operationId ?? "");
}

/** The operation a status URL names: tracked when started through the emulator, else found by its id (`op-<cluster>-<n>`). */
async function findOperation(ctx: EmulatorContext, request: ArmRequest): Promise<{ op: TrackedOperation; record: OperationRecord; view: ClusterView }> {
  const subscriptionId = request.params.subscriptionId ?? "";
  checkSubscription(ctx, subscriptionId);
  const id = request.params.operationId ?? "";
  const notFound = new ArmError(404, "NotFound", `Operation '${id}' was not found.`);
  const tracked = ctx.operations.get(id);
  const memberName = tracked?.member ?? /^op-(.+)-\d+$/i.exec(id)?.[1];
  const description = memberName === undefined ? undefined : findMember(ctx.fleet, memberName);
  if (description === undefined) throw notFound;
  const view = await readCluster(ctx, description);
  const record = view.state.operations.find((o) => o.operationId.toLowerCase() === id.toLowerCase());
  if (record === undefined) throw notFound;
  return { op: tracked ?? untracked(ctx, subscriptionId, view, record), record, view };
}

/** An operation started before this emulator (restored state): it changed the whole cluster. */
function untracked(ctx: EmulatorContext, subscriptionId: string, view: ClusterView, record: OperationRecord): TrackedOperation {
  const declaredGroup = view.description.clusterResourceId?.split("/")[4];
  const scope: ArmScope = { subscriptionId, resourceGroup: declaredGroup ?? ctx.resourceGroup ?? "resourceGroup" };
  return { operationId: record.operationId, member: view.name, scope, location: view.location, target: { kind: "managedCluster" }, operationType: inferredOperationType(record) };
}

/** A deletion or an abort (`lifecycle.ts`), by the id a status URL names. */
function findLifecycleOperation(ctx: EmulatorContext, request: ArmRequest): LifecycleOperation | undefined {
  checkSubscription(ctx, request.params.subscriptionId ?? "");
  return ctx.lifecycle.get(request.params.operationId ?? "");
}

function lifecycleStatus(ctx: EmulatorContext, op: LifecycleOperation): ArmReply {
  const now = ctx.clock.now();
  const done = now >= op.endAt;
  // As AKS answers its status URL: no `id`, no `percentComplete` (asyncOperationStatus, operations.ts).
  const body = {
    name: op.operationId,
    status: done ? "Succeeded" : "InProgress",
    startTime: isoInstant(op.startAt),
    ...(done ? { endTime: isoInstant(op.endAt) } : {}),
  };
  return { status: 200, body, headers: done ? {} : { "Retry-After": String(retryAfterSeconds(op, now, ctx.timeScale)) } };
}

/** 202 while it runs; then 204: a deletion or an abort has no resource to return. */
function lifecycleResult(ctx: EmulatorContext, op: LifecycleOperation): ArmReply {
  const now = ctx.clock.now();
  if (now >= op.endAt) return { status: 204 };
  return { status: 202, headers: { Location: `${ctx.baseUrl()}${operationResultPath(op)}?api-version=${API_VERSION}`, "Retry-After": String(retryAfterSeconds(op, now, ctx.timeScale)) } };
}

export const locationRoutes: Route[] = [
  route("GET", `${LOCATION_PATH}/kubernetesVersions`, async (ctx, request) => ({
    status: 200,
    body: kubernetesVersionList(region(ctx, request), ctx.clock.now()),
  })),

  route("GET", `${LOCATION_PATH}/nodeImageVersions`, async (ctx, request) => ({
    status: 200,
    body: nodeImageVersionList(region(ctx, request), ctx.clock.now()),
  })),

  route("GET", `${LOCATION_PATH}/operations/{operationId}`, async (ctx, request) => {
    const fleetOperation = fleetOperationAnswer(ctx, request, (fleet, id) => fleet.operationStatus(id));
    if (fleetOperation !== undefined) return fleetOperation;
    const lifecycle = findLifecycleOperation(ctx, request);
    if (lifecycle !== undefined) return lifecycleStatus(ctx, lifecycle);
    const { op, record, view } = await findOperation(ctx, request);
    const headers: Record<string, string> = record.result === undefined ? { "Retry-After": String(retryAfterSeconds(record, view.now, ctx.timeScale)) } : {};
    return { status: 200, body: asyncOperationStatus(op, record, view.now), headers };
  }),

  route("GET", `${LOCATION_PATH}/operationresults/{operationId}`, async (ctx, request) => {
    const fleetOperation = fleetOperationAnswer(ctx, request, (fleet, id) => fleet.operationResult(id, ctx.baseUrl()));
    if (fleetOperation !== undefined) return fleetOperation;
    const lifecycle = findLifecycleOperation(ctx, request);
    if (lifecycle !== undefined) return lifecycleResult(ctx, lifecycle);
    const { op, record, view } = await findOperation(ctx, request);
    if (record.result === undefined) {
      return {
        status: 202,
        headers: {
          Location: `${ctx.baseUrl()}${operationResultPath(op)}?api-version=${API_VERSION}`,
          "Retry-After": String(retryAfterSeconds(record, view.now, ctx.timeScale)),
        },
      };
    }
    if (record.result === "Failed" || record.result === "Canceled") {
      const failure = failureOf(record);
      throw new ArmError(400, failure.code, failure.message);
    }
    return { status: 200, body: targetResource(view, op.scope, op.target) };
  }),
];
