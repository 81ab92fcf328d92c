/**
 * ARM writes besides upgrades (`lifecycle.ts`):
 * - `PATCH managedClusters/{name}` (ManagedClusters_UpdateTags): replaces the tags; 200 with the cluster;
 * - `DELETE managedClusters/{name}` and `DELETE agentPools/{pool}`: 202 with LRO headers, the resource
 *   `Deleting` for a while, then 404; deleting what is not there answers 204;
 * - `POST managedClusters/{name}/abort` and `POST agentPools/{pool}/abort` (AbortLatestOperation): the
 *   upgrade in flight ends `Canceled` (what it had moved so far stays), the cluster `Canceling` for a
 *   while then `Canceled`; 202 with LRO headers; nothing in flight to abort answers 409.
 * Like every write, each refuses with 409 while another operation runs (except a cluster DELETE during
 * an upgrade, which AKS accepts: the upgrade ends there), and checks `If-Match`.
 */
import { z } from "zod";
import { ArmError, resourceNotFound } from "../core/armErrors";
import { MANAGED_CLUSTERS } from "../core/context";
import { CLUSTER_PATH, route } from "../core/router";
import type { ArmReply, ArmRequest, ArmScope, EmulatorContext, LifecycleOperation, Route } from "../ports";
import { viewCluster, type ClusterView } from "./clusterView";
import { CANCEL_MS, DELETE_MS } from "./lifecycle";
import { lroHeaders } from "./operations";
import { clusterETag, managedCluster } from "./resources";
import { checkPreconditions, refuseIfBusy } from "./writes";

const POOL_PATH = `${CLUSTER_PATH}/agentPools/{pool}`;

const TagsSchema = z.looseObject({ tags: z.record(z.string(), z.string()) });

function accepted(ctx: EmulatorContext, op: LifecycleOperation, now: number): ArmReply {
  return { status: 202, headers: lroHeaders(ctx.baseUrl(), op, op, now, ctx.timeScale) };
}

/** The cluster a route names, or undefined when it does not exist (any more). */
async function existing(ctx: EmulatorContext, request: ArmRequest): Promise<{ view: ClusterView; scope: ArmScope } | undefined> {
  try {
    return await viewCluster(ctx, request);
  } catch (error) {
    if (error instanceof ArmError && error.status === 404 && error.code === "ResourceNotFound") return undefined;
    throw error;
  }
}

/** Abort the upgrade in flight (on the cluster, or touching `pool`), keeping what it had moved so far. */
function abort(ctx: EmulatorContext, view: ClusterView, scope: ArmScope, pool?: string): ArmReply {
  if (view.canceling !== undefined) return accepted(ctx, view.canceling, view.now);
  const running = view.running;
  const touched = running !== undefined && (pool === undefined || running.request.type === "Full" || Object.hasOwn(running.request.nodeImageVersions, pool));
  if (running === undefined || !touched) {
    const what = pool === undefined ? `managed cluster '${view.name}'` : `agent pool '${pool}' of managed cluster '${view.name}'`;
    throw new ArmError(409, "OperationNotAllowed", `There is no operation in progress on ${what} to abort.`);
  }
  const progress = view.progress;
  const aborted = ctx.sim.abortOperation({ name: view.name }, progress === undefined ? undefined : { kubernetesVersion: progress.kubernetesVersion, nodePools: progress.nodePools });
  if (aborted === undefined) throw new ArmError(409, "OperationNotAllowed", `There is no operation in progress on managed cluster '${view.name}' to abort.`);
  // The cancellation starts when the simulated fleet stopped the upgrade: one instant for both. The
  // view's `now` was read before, and on a running clock is earlier, which would end the cancellation
  // (and free the cluster) before CANCEL_MS had passed since the upgrade ended.
  const startAt = aborted.endAt;
  const op = ctx.lifecycle.start({
    kind: "abort",
    member: view.name,
    ...(pool === undefined ? {} : { pool }),
    abortedOperationId: running.operationId,
    scope,
    location: view.location,
    startAt,
    endAt: startAt + CANCEL_MS,
  });
  return accepted(ctx, op, startAt);
}

function startDeletion(ctx: EmulatorContext, view: ClusterView, scope: ArmScope, pool?: string): ArmReply {
  const op = ctx.lifecycle.start({ kind: "delete", member: view.name, ...(pool === undefined ? {} : { pool }), scope, location: view.location, startAt: view.now, endAt: view.now + DELETE_MS });
  return accepted(ctx, op, view.now);
}

export const lifecycleRoutes: Route[] = [
  route("PATCH", CLUSTER_PATH, async (ctx, request) => {
    const { view, scope } = await viewCluster(ctx, request);
    checkPreconditions(request.headers, clusterETag(view), `managed cluster '${view.name}'`);
    refuseIfBusy(view);
    const parsed = TagsSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw new ArmError(400, "InvalidRequestContent", "The request content was invalid: tags must be an object of string values.");
    ctx.lifecycle.setTags(view.name, parsed.data.tags);
    return { status: 200, body: managedCluster({ ...view, tags: ctx.lifecycle.tags(view.name) }, scope) };
  }),

  route("DELETE", CLUSTER_PATH, async (ctx, request) => {
    const found = await existing(ctx, request);
    if (found === undefined) return { status: 204 };
    const { view, scope } = found;
    if (view.deleting !== undefined) return accepted(ctx, view.deleting, view.now);
    checkPreconditions(request.headers, clusterETag(view), `managed cluster '${view.name}'`);
    // AKS deletes a cluster in the middle of an upgrade (the recorded `az aks delete --no-wait` after a
    // node image upgrade was started: 202): the upgrade in flight ends, what it moved stays.
    if (view.running !== undefined) {
      const progress = view.progress;
      ctx.sim.abortOperation({ name: view.name }, progress === undefined ? undefined : { kubernetesVersion: progress.kubernetesVersion, nodePools: progress.nodePools });
      return startDeletion(ctx, { ...view, now: ctx.clock.now() }, scope);
    }
    refuseIfBusy(view);
    return startDeletion(ctx, view, scope);
  }),

  route("DELETE", POOL_PATH, async (ctx, request) => {
    const { view, scope } = await viewCluster(ctx, request);
    const pool = view.state.nodePools.find((p) => p.name.toLowerCase() === (request.params.pool ?? "").toLowerCase());
    if (pool === undefined) return { status: 204 };
    const deletion = ctx.lifecycle.deletion(view.name, pool.name);
    if (deletion !== undefined && view.now < deletion.endAt) return accepted(ctx, deletion, view.now);
    refuseIfBusy(view);
    if (view.state.nodePools.length === 1) {
      throw new ArmError(400, "InvalidParameter", `Agent pool '${pool.name}' is the last node pool of managed cluster '${view.name}'; a managed cluster needs at least one.`);
    }
    return startDeletion(ctx, view, scope, pool.name);
  }),

  route("POST", `${CLUSTER_PATH}/abort`, async (ctx, request) => {
    const { view, scope } = await viewCluster(ctx, request);
    return abort(ctx, view, scope);
  }),

  route("POST", `${POOL_PATH}/abort`, async (ctx, request) => {
    const { view, scope } = await viewCluster(ctx, request);
    const pool = view.state.nodePools.find((p) => p.name.toLowerCase() === (request.params.pool ?? "").toLowerCase());
    if (pool === undefined) throw resourceNotFound(`${MANAGED_CLUSTERS}/${view.name}/agentPools`, request.params.pool ?? "", scope.resourceGroup);
    return abort(ctx, view, scope, pool.name);
  }),
];
