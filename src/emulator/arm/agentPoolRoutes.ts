/**
 * Agent pool routes: list/GET/PUT a pool (PUT with a new `orchestratorVersion` upgrades it), POST
 * `upgradeNodeImageVersion` (202; the newest image of the pool's family in the region), and the
 * pool's upgrade profile.
 */
import type { NodePool } from "../../model/fleet";
import { invalidParameter, resourceNotFound } from "../core/armErrors";
import { MANAGED_CLUSTERS } from "../core/context";
import { CLUSTER_PATH, route } from "../core/router";
import type { ArmReply, ArmRequest, ArmScope, EmulatorContext, Route } from "../ports";
import { readCluster, viewCluster, type ClusterView } from "./clusterView";
import { POOL_UPDATE_MS } from "./lifecycle";
import { agentPool, agentPoolUpgradeProfile, poolETag, powerState } from "./resources";
import { planAgentPoolPut, planNodeImageUpgrade } from "./upgradePlans";
import { checkPreconditions, refuseIfBusy, startedHeaders, startOperation } from "./writes";

const POOL_PATH = `${CLUSTER_PATH}/agentPools/{pool}`;

async function viewPool(ctx: EmulatorContext, request: ArmRequest): Promise<{ view: ClusterView; scope: ArmScope; pool: NodePool }> {
  const { view, scope } = await viewCluster(ctx, request);
  const wanted = (request.params.pool ?? "").toLowerCase();
  const pool = view.state.nodePools.find((p) => p.name.toLowerCase() === wanted);
  if (pool === undefined) throw resourceNotFound(`${MANAGED_CLUSTERS}/${view.name}/agentPools`, request.params.pool ?? "", scope.resourceGroup);
  return { view, scope, pool };
}

/** The `properties.powerState.code` a pool PUT asks for, if any. */
function requestedPower(body: unknown): "Running" | "Stopped" | undefined {
  const code = (body as { properties?: { powerState?: { code?: unknown } } } | undefined)?.properties?.powerState?.code;
  if (code === undefined) return undefined;
  if (code === "Running" || code === "Stopped") return code;
  throw invalidParameter(`powerState.code must be Running or Stopped (got ${JSON.stringify(code)}).`, "properties.powerState.code");
}

/**
 * A pool PUT that changes no version: AKS still runs an operation on the pool (`Updating` → `Succeeded`,
 * answered 200 with `Azure-AsyncOperation`); a new `powerState.code` stops or starts it (`Stopping` →
 * Stopped, `Starting` → Running).
 */
async function updatePool(ctx: EmulatorContext, view: ClusterView, scope: ArmScope, pool: NodePool, power: "Running" | "Stopped" | undefined): Promise<ArmReply> {
  const before = view.poolPower.get(pool.name) ?? powerState(view).code;
  const powerChange = power !== undefined && power !== before;
  const after = power ?? view.poolPower.get(pool.name);
  const op = ctx.lifecycle.start({
    kind: "update",
    member: view.name,
    pool: pool.name,
    ...(after === undefined ? {} : { power: after }),
    ...(powerChange ? { powerChange: true } : {}),
    scope,
    location: view.location,
    startAt: view.now,
    endAt: view.now + POOL_UPDATE_MS,
  });
  const updated = await readCluster(ctx, view.description);
  return { status: 200, body: agentPool(updated, scope, pool), headers: startedHeaders(ctx, op, op, updated.now, 200) };
}

export const agentPoolRoutes: Route[] = [
  route("GET", `${CLUSTER_PATH}/agentPools`, async (ctx, request) => {
    const { view, scope } = await viewCluster(ctx, request);
    return { status: 200, body: { value: view.state.nodePools.map((pool) => agentPool(view, scope, pool)) } };
  }),

  route("GET", POOL_PATH, async (ctx, request) => {
    const { view, scope, pool } = await viewPool(ctx, request);
    return { status: 200, body: agentPool(view, scope, pool) };
  }),

  route("PUT", POOL_PATH, async (ctx, request) => {
    const { view, scope, pool } = await viewPool(ctx, request);
    checkPreconditions(request.headers, poolETag(view, pool), `agent pool '${pool.name}' of managed cluster '${view.name}'`);
    refuseIfBusy(view);
    const plan = planAgentPoolPut(view, pool, request.body);
    if (!plan.change) return updatePool(ctx, view, scope, pool, requestedPower(request.body));
    return startOperation(ctx, view, scope, plan.request, { kind: "agentPool", pool: pool.name }, "PutAgentPool", 200);
  }),

  route("POST", `${POOL_PATH}/upgradeNodeImageVersion`, async (ctx, request) => {
    const { view, scope, pool } = await viewPool(ctx, request);
    refuseIfBusy(view);
    return startOperation(ctx, view, scope, planNodeImageUpgrade(pool), { kind: "agentPool", pool: pool.name }, "UpgradeNodeImageVersion", 202);
  }),

  route("GET", `${POOL_PATH}/upgradeProfiles/default`, async (ctx, request) => {
    const { view, scope, pool } = await viewPool(ctx, request);
    return { status: 200, body: agentPoolUpgradeProfile(view, scope, pool) };
  }),
];
