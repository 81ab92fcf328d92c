/**
 * Managed cluster routes: GET/PUT the cluster, its upgrade profile, its maintenance configurations,
 * and its operations (OperationStatusResult, `managedClusters/{name}/operations[/{id}]`).
 */
import { ArmError } from "../core/armErrors";
import { CLUSTER_PATH, route } from "../core/router";
import type { ArmOperations, Route } from "../ports";
import { readCluster, viewCluster } from "./clusterView";
import { clusterOperationStatus, inferredOperationType } from "./operations";
import { clusterETag, clusterUpgradeProfile, maintenanceConfigurations, managedCluster } from "./resources";
import { planClusterPut } from "./upgradePlans";
import { checkPreconditions, refuseIfBusy, startOperation } from "./writes";

export const clusterRoutes: Route[] = [
  route("GET", CLUSTER_PATH, async (ctx, request) => {
    const { view, scope } = await viewCluster(ctx, request);
    return { status: 200, body: managedCluster(view, scope) };
  }),

  route("PUT", CLUSTER_PATH, async (ctx, request) => {
    const { view, scope } = await viewCluster(ctx, request);
    checkPreconditions(request.headers, clusterETag(view), `managed cluster '${view.name}'`);
    refuseIfBusy(view);
    const plan = planClusterPut(view, request.body);
    // AKS keeps showing a `major.minor` alias as the cluster's kubernetesVersion ("1.28"), a full version as written.
    const written = (request.body as { properties?: { kubernetesVersion?: unknown } } | undefined)?.properties?.kubernetesVersion;
    if (typeof written === "string" && written.trim() !== "") ctx.lifecycle.setVersionAlias(view.name, /^\d+\.\d+$/.test(written.trim()) ? written.trim() : undefined);
    if (!plan.change) return { status: 200, body: managedCluster(await readCluster(ctx, view.description), scope) };
    return startOperation(ctx, view, scope, plan.request, { kind: "managedCluster" }, "PutManagedCluster", 200);
  }),

  route("GET", `${CLUSTER_PATH}/upgradeProfiles/default`, async (ctx, request) => {
    const { view, scope } = await viewCluster(ctx, request);
    return { status: 200, body: clusterUpgradeProfile(view, scope) };
  }),

  route("GET", `${CLUSTER_PATH}/maintenanceConfigurations`, async (ctx, request) => {
    const { view, scope } = await viewCluster(ctx, request);
    return { status: 200, body: { value: maintenanceConfigurations(view, scope) } };
  }),

  route("GET", `${CLUSTER_PATH}/maintenanceConfigurations/{configName}`, async (ctx, request) => {
    const { view, scope } = await viewCluster(ctx, request);
    const wanted = (request.params.configName ?? "").toLowerCase();
    const config = maintenanceConfigurations(view, scope).find((c) => String(c.name).toLowerCase() === wanted);
    if (config === undefined) {
      throw new ArmError(404, "NotFound", `Maintenance configuration '${request.params.configName ?? ""}' was not found in managed cluster '${view.name}'.`);
    }
    return { status: 200, body: config };
  }),

  route("GET", `${CLUSTER_PATH}/operations`, async (ctx, request) => {
    const { view, scope } = await viewCluster(ctx, request);
    const value = [...view.state.operations].reverse().map((op) => clusterOperationStatus(scope, view.name, op, view.now, operationType(ctx.operations, op.operationId, op)));
    return { status: 200, body: { value } };
  }),

  route("GET", `${CLUSTER_PATH}/operations/{operationId}`, async (ctx, request) => {
    const { view, scope } = await viewCluster(ctx, request);
    const id = (request.params.operationId ?? "").toLowerCase();
    const op = view.state.operations.find((o) => o.operationId.toLowerCase() === id);
    if (op === undefined) throw new ArmError(404, "NotFound", `Operation '${request.params.operationId ?? ""}' was not found for managed cluster '${view.name}'.`);
    return { status: 200, body: clusterOperationStatus(scope, view.name, op, view.now, operationType(ctx.operations, op.operationId, op)) };
  }),
];

function operationType(registry: ArmOperations, id: string, op: Parameters<typeof inferredOperationType>[0]) {
  return registry.get(id)?.operationType ?? inferredOperationType(op);
}
