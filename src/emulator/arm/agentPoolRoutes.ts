/**
 * Agent pool routes: list/GET/PUT a pool (PUT with a new `orchestratorVersion` upgrades it), POST
 * `upgradeNodeImageVersion` (202; the newest image of the pool's family in the region), and the
 * pool's upgrade profile.
 */
import type { NodePool } from "../../model/fleet";
import { resourceNotFound } from "../core/armErrors";
import { MANAGED_CLUSTERS } from "../core/context";
import { CLUSTER_PATH, route } from "../core/router";
import type { ArmRequest, ArmScope, EmulatorContext, Route } from "../ports";
import { viewCluster, type ClusterView } from "./clusterView";
import { agentPool, agentPoolUpgradeProfile, poolETag } from "./resources";
import { planAgentPoolPut, planNodeImageUpgrade } from "./upgradePlans";
import { checkPreconditions, refuseIfBusy, startOperation } from "./writes";

const POOL_PATH = `${CLUSTER_PATH}/agentPools/{pool}`;

async function viewPool(ctx: EmulatorContext, request: ArmRequest): Promise<{ view: ClusterView; scope: ArmScope; pool: NodePool }> {
  const { view, scope } = await viewCluster(ctx, request);
  const wanted = (request.params.pool ?? "").toLowerCase();
  const pool = view.state.nodePools.find((p) => p.name.toLowerCase() === wanted);
  if (pool === undefined) throw resourceNotFound(`${MANAGED_CLUSTERS}/${view.name}/agentPools`, request.params.pool ?? "", scope.resourceGroup);
  return { view, scope, pool };
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
    if (!plan.change) return { status: 200, body: agentPool(view, scope, pool) };
    return startOperation(ctx, view, scope, plan.request, { kind: "agentPool", pool: pool.name }, "PutAgentPool", 200);
  }),

  route("POST", `${POOL_PATH}/upgradeNodeImageVersion`, async (ctx, request) => {
    const { view, scope, pool } = await viewPool(ctx, request);
    refuseIfBusy(view);
    return startOperation(ctx, view, scope, planNodeImageUpgrade(view, pool), { kind: "agentPool", pool: pool.name }, "UpgradeNodeImageVersion", 202);
  }),

  route("GET", `${POOL_PATH}/upgradeProfiles/default`, async (ctx, request) => {
    const { view, scope, pool } = await viewPool(ctx, request);
    return { status: 200, body: agentPoolUpgradeProfile(view, scope, pool) };
  }),
];
