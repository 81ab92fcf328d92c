/** A stopped cluster (`simulation.powerState: Stopped`): ARM shows it Stopped and refuses to upgrade it. */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ArmEmulator } from "../../src/emulator";
import { CLUSTER_STOPPED } from "../../src/engine/backend";
import { RESOURCE_GROUP, clusterPath, raw, sdkClient, startTestEmulator, testFleet } from "./helpers";

let emulator: ArmEmulator;
beforeAll(async () => {
  const fleet = testFleet();
  const beta = fleet.members.find((m) => m.name === "beta")!;
  fleet.members.push({ ...structuredClone(beta), name: "zeta", simulation: { upgradeMinutes: 10, powerState: "Stopped" } });
  emulator = await startTestEmulator({ fleet });
});
afterAll(async () => {
  await emulator.close();
});

describe("a stopped cluster", () => {
  test("GET shows powerState Stopped on the cluster and its pools; other clusters stay Running", async () => {
    const client = sdkClient(emulator);
    const stopped = await client.managedClusters.get(RESOURCE_GROUP, "zeta");
    expect(stopped.powerState).toEqual({ code: "Stopped" });
    expect(stopped.provisioningState).toBe("Succeeded");
    expect(stopped.agentPoolProfiles?.map((p) => p.powerState)).toEqual([{ code: "Stopped" }]);
    expect((await client.agentPools.get(RESOURCE_GROUP, "zeta", "system")).powerState).toEqual({ code: "Stopped" });
    expect((await client.managedClusters.get(RESOURCE_GROUP, "beta")).powerState).toEqual({ code: "Running" });
  });

  test("an upgrade PUT or upgradeNodeImageVersion → 400 ClusterStopped naming the cluster; nothing starts", async () => {
    const cluster = await raw(emulator, "GET", clusterPath("zeta"));
    const body = structuredClone(cluster.body);
    body.properties.kubernetesVersion = "1.32.0";
    for (const pool of body.properties.agentPoolProfiles) pool.orchestratorVersion = "1.32.0";
    const put = await raw(emulator, "PUT", clusterPath("zeta"), { body });
    expect(put.status).toBe(400);
    expect(put.body.error.code).toBe(CLUSTER_STOPPED);
    expect(put.body.error.message).toContain("managed cluster zeta is stopped");
    const post = await raw(emulator, "POST", clusterPath("zeta", "/agentPools/system/upgradeNodeImageVersion"));
    expect(post.status).toBe(400);
    expect(post.body.error.code).toBe(CLUSTER_STOPPED);
    expect(emulator.fleet.operationLog().filter((op) => op.member === "zeta")).toEqual([]);
  });
});
