/** Agent pools through the real SDK: GET, upgradeNodeImageVersion as an LRO, upgrade profiles, pool PUT. */
import { afterAll, beforeAll, expect, test } from "vitest";
import type { ArmEmulator } from "../../src/emulator";
import { AZURE_LINUX, IMAGE_NOV, IMAGE_OCT, RESOURCE_GROUP, SUBSCRIPTION, clusterPath, raw, sdkClient, startTestEmulator } from "./helpers";

let emulator: ArmEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await emulator.close();
});

test("GET agentPools/{pool} and the list", async () => {
  const client = sdkClient(emulator);
  const pool = await client.agentPools.get(RESOURCE_GROUP, "alpha", "system");
  expect(pool).toMatchObject({
    id: `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.ContainerService/managedClusters/alpha/agentPools/system`,
    name: "system",
    type: "Microsoft.ContainerService/managedClusters/agentPools",
    orchestratorVersion: "1.31.2",
    currentOrchestratorVersion: "1.31.2",
    nodeImageVersion: IMAGE_OCT,
    provisioningState: "Succeeded",
    mode: "System",
  });
  const names: string[] = [];
  for await (const p of client.agentPools.list(RESOURCE_GROUP, "alpha")) names.push(p.name ?? "");
  expect(names).toEqual(["system", "linux"]);
  const missing = await raw(emulator, "GET", clusterPath("alpha", "/agentPools/nope"));
  expect(missing.status).toBe(404);
  expect(missing.body.error.code).toBe("ResourceNotFound");
});

test("the pool upgrade profile offers the newest image of the pool's family in the region", async () => {
  const client = sdkClient(emulator);
  const profile = await client.agentPools.getUpgradeProfile(RESOURCE_GROUP, "alpha", "system");
  expect(profile).toMatchObject({ name: "default", kubernetesVersion: "1.31.2", osType: "Linux", latestNodeImageVersion: IMAGE_NOV, upgrades: [] });
  const linux = await client.agentPools.getUpgradeProfile(RESOURCE_GROUP, "alpha", "linux");
  expect(linux.latestNodeImageVersion).toBe(AZURE_LINUX); // the newest of its own family, not Ubuntu's
});

test("upgradeNodeImageVersion: 202 with LRO headers, then the SDK poller ends with the newest image applied", async () => {
  const started = await raw(emulator, "POST", clusterPath("beta", "/agentPools/system/upgradeNodeImageVersion"));
  expect(started.status).toBe(202);
  expect(started.body.properties).toMatchObject({ provisioningState: "UpgradingNodeImageVersion", nodeImageVersion: IMAGE_OCT });
  expect(started.headers["azure-asyncoperation"]).toContain("/locations/westeurope/operations/op-beta-1");
  expect(started.headers.location).toContain("/locations/westeurope/operationresults/op-beta-1");
  await new Promise((resolve) => setTimeout(resolve, 150));

  const client = sdkClient(emulator);
  await client.agentPools.upgradeNodeImageVersion(RESOURCE_GROUP, "alpha", "system").pollUntilDone();
  const pools = (await client.managedClusters.get(RESOURCE_GROUP, "alpha")).agentPoolProfiles ?? [];
  expect(pools.map((p) => [p.name, p.nodeImageVersion, p.provisioningState])).toEqual([
    ["system", IMAGE_NOV, "Succeeded"],
    ["linux", AZURE_LINUX, "Succeeded"],
  ]);
  expect(emulator.fleet.operationLog().filter((op) => op.member === "alpha")).toMatchObject([{ kind: "NodeImageOnly", result: "Succeeded" }]);
  // The Location URL's final answer is the pool, 200.
  const result = await raw(emulator, "GET", String(started.headers.location));
  expect(result.status).toBe(200);
  expect(result.body).toMatchObject({ name: "system", properties: { nodeImageVersion: IMAGE_NOV } });
});

test("a pool PUT to the control plane's version upgrades the pool (Full at the control plane's version)", async () => {
  const client = sdkClient(emulator);
  // Any write while the cluster is busy is refused.
  const cp = await raw(emulator, "PUT", clusterPath("delta"), { body: { properties: { kubernetesVersion: "1.32.0" } } });
  expect(cp.status).toBe(200);
  const busy = await raw(emulator, "PUT", clusterPath("delta", "/agentPools/system"), { body: { properties: { orchestratorVersion: "1.32.0" } } });
  expect(busy.status).toBe(409);
  expect(busy.body.error.code).toBe("OperationNotAllowed");

  // ...then the pool, on a cluster whose control plane already moved.
  const beta = await client.managedClusters.get(RESOURCE_GROUP, "beta");
  await client.managedClusters.createOrUpdate(RESOURCE_GROUP, "beta", { ...beta, kubernetesVersion: "1.32.0" }).pollUntilDone();
  const pool = await client.agentPools.get(RESOURCE_GROUP, "beta", "system");
  expect(pool.currentOrchestratorVersion).toBe("1.31.2");
  const above = await raw(emulator, "PUT", clusterPath("beta", "/agentPools/system"), { body: { properties: { orchestratorVersion: "1.33.1" } } });
  expect(above.body.error.code).toBe("NodePoolVersionAboveControlPlane");
  const stale = await raw(emulator, "PUT", clusterPath("beta", "/agentPools/system"), { body: { properties: { orchestratorVersion: "1.32.0" } }, headers: { "If-Match": "nope" } });
  expect(stale.status).toBe(412);
  const upgraded = await client.agentPools.createOrUpdate(RESOURCE_GROUP, "beta", "system", { ...pool, orchestratorVersion: "1.32" }, { ifMatch: pool.eTag! }).pollUntilDone();
  expect(upgraded).toMatchObject({ orchestratorVersion: "1.32.0", currentOrchestratorVersion: "1.32.0", provisioningState: "Succeeded" });
  expect(emulator.fleet.operationLog().filter((op) => op.member === "beta").map((op) => op.kind)).toEqual(["NodeImageOnly", "ControlPlaneOnly", "Full"]);
});

test("nodeImageVersion cannot be written to move forward (AKS only rolls back with it)", async () => {
  const res = await raw(emulator, "PUT", clusterPath("epsilon", "/agentPools/system"), { body: { properties: { nodeImageVersion: IMAGE_NOV } } });
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ code: "InvalidParameter", message: expect.stringContaining("upgradeNodeImageVersion") });
});
