/**
 * Issue 29: the ARM emulator answers as AKS did in the recorded traffic (test/fixtures/recordings/aks,
 * docs/emulator-conformance.md): current versions at the target from an upgrade's start, a node image
 * upgrade that leaves the cluster Succeeded, a pool PUT that changes no version still running an
 * operation, pools stopped and started through `powerState.code`, the clusters' own upgrade channels, a
 * `major.minor` alias kept, `isPreview` on preview versions.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ArmEmulator } from "../../src/emulator";
import { FleetSchema } from "../../src/model/fleet";
import { IMAGE_NOV, IMAGE_OCT, RESOURCE_GROUP, clusterPath, raw, sdkClient, startTestEmulator, testFleet } from "./helpers";

let emulator: ArmEmulator;
beforeAll(async () => {
  const fleet = testFleet();
  const beta = fleet.members.find((m) => m.name === "beta")!;
  fleet.members.push({ ...structuredClone(beta), name: "auto", autoUpgradeProfile: { upgradeChannel: "patch", nodeOSUpgradeChannel: "NodeImage" } });
  fleet.regions.westeurope!.kubernetesVersions.push({ version: "1.33.0", isPreview: true });
  // 100 ms a simulated minute: a 10-minute upgrade, a 3-minute pool update are still running when the next request arrives, even on a loaded machine.
  emulator = await startTestEmulator({ fleet: FleetSchema.parse(fleet), msPerSimulatedMinute: 100 });
});
afterAll(async () => {
  await emulator.close();
});

async function waitUntil(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("condition not met in time");
}

describe("the AKS shapes the recordings show", () => {
  test("a node image upgrade: 202 with both LRO headers; the cluster stays Succeeded while its pool is UpgradingNodeImageVersion", async () => {
    const started = await raw(emulator, "POST", clusterPath("beta", "/agentPools/system/upgradeNodeImageVersion"));
    expect(started.status).toBe(202);
    expect([started.headers["azure-asyncoperation"] !== undefined, started.headers.location !== undefined]).toEqual([true, true]);
    expect(started.body.properties.provisioningState).toBe("UpgradingNodeImageVersion");
    const cluster = await raw(emulator, "GET", clusterPath("beta"));
    expect(cluster.body.properties.provisioningState).toBe("Succeeded");
    expect(cluster.body.properties.agentPoolProfiles[0].provisioningState).toBe("UpgradingNodeImageVersion");
    // Still busy: AKS refuses a second operation on the cluster meanwhile.
    expect((await raw(emulator, "POST", clusterPath("beta", "/agentPools/system/upgradeNodeImageVersion"))).status).toBe(409);
    await waitUntil(async () => (await raw(emulator, "GET", String(started.headers["azure-asyncoperation"]))).body.status === "Succeeded");
    expect((await raw(emulator, "GET", clusterPath("beta", "/agentPools/system"))).body.properties).toMatchObject({ provisioningState: "Succeeded", nodeImageVersion: IMAGE_NOV });
  });

  test("a pool PUT that changes no version runs an operation: 200 Updating with Azure-AsyncOperation only, then Succeeded", async () => {
    const pool = await raw(emulator, "GET", clusterPath("alpha", "/agentPools/system"));
    const put = await raw(emulator, "PUT", clusterPath("alpha", "/agentPools/system"), { body: { properties: { ...pool.body.properties, count: 5 } } });
    expect(put.status).toBe(200);
    expect(put.body.properties.provisioningState).toBe("Updating");
    expect([put.headers["azure-asyncoperation"] !== undefined, put.headers.location]).toEqual([true, undefined]);
    // Busy meanwhile, like any operation.
    expect((await raw(emulator, "POST", clusterPath("alpha", "/agentPools/system/upgradeNodeImageVersion"))).status).toBe(409);
    await waitUntil(async () => (await raw(emulator, "GET", String(put.headers["azure-asyncoperation"]))).body.status === "Succeeded");
    expect((await raw(emulator, "GET", clusterPath("alpha", "/agentPools/system"))).body.properties).toMatchObject({ provisioningState: "Succeeded", nodeImageVersion: IMAGE_OCT });
  });

  test("a pool stopped and started through powerState.code: Stopping → Stopped, Starting → Running", async () => {
    const pool = await raw(emulator, "GET", clusterPath("epsilon", "/agentPools/system"));
    const put = (code: string) => raw(emulator, "PUT", clusterPath("epsilon", "/agentPools/system"), { body: { properties: { ...pool.body.properties, powerState: { code } } } });
    const done = async (answer: { headers: Record<string, unknown> }) =>
      waitUntil(async () => (await raw(emulator, "GET", String(answer.headers["azure-asyncoperation"]))).body.status === "Succeeded");
    const stop = await put("Stopped");
    expect([stop.status, stop.body.properties.provisioningState, stop.body.properties.powerState.code]).toEqual([200, "Stopping", "Stopped"]);
    await done(stop);
    const stopped = await sdkClient(emulator).managedClusters.get(RESOURCE_GROUP, "epsilon");
    expect([stopped.agentPoolProfiles?.[0]?.provisioningState, stopped.agentPoolProfiles?.[0]?.powerState?.code]).toEqual(["Succeeded", "Stopped"]);
    const start = await put("Running");
    expect([start.status, start.body.properties.provisioningState, start.body.properties.powerState.code]).toEqual([200, "Starting", "Running"]);
    await done(start);
    expect((await raw(emulator, "GET", clusterPath("epsilon", "/agentPools/system"))).body.properties).toMatchObject({ provisioningState: "Succeeded", powerState: { code: "Running" } });
    const bad = await raw(emulator, "PUT", clusterPath("epsilon", "/agentPools/system"), { body: { properties: { powerState: { code: "Paused" } } } });
    expect([bad.status, bad.body.error.code]).toEqual([400, "InvalidParameter"]);
  });

  test("clusters carry the upgradeChannel and nodeOSUpgradeChannel the fleet file sets (none set: no autoUpgradeProfile, as recorded)", async () => {
    const client = sdkClient(emulator);
    expect((await client.managedClusters.get(RESOURCE_GROUP, "auto")).autoUpgradeProfile).toEqual({ upgradeChannel: "patch", nodeOSUpgradeChannel: "NodeImage" });
    expect((await client.managedClusters.get(RESOURCE_GROUP, "gamma")).autoUpgradeProfile).toBeUndefined();
  });

  test("isPreview on a preview version, in the cluster's upgrade profile and the region's kubernetesVersions", async () => {
    const profile = await raw(emulator, "GET", clusterPath("auto", "/upgradeProfiles/default"));
    expect(profile.body.properties.controlPlaneProfile.upgrades).toEqual([{ kubernetesVersion: "1.32.0" }]);
    const versions = await raw(emulator, "GET", `/subscriptions/${"00000000-0000-0000-0000-000000000001"}/providers/Microsoft.ContainerService/locations/westeurope/kubernetesVersions`);
    const minors = versions.body.values.map((m: { version: string; isPreview?: boolean }) => [m.version, m.isPreview === true]);
    expect(minors).toContainEqual(["1.33", true]);
    expect(minors).toContainEqual(["1.32", false]);
  });

  test("a cluster written with a major.minor alias keeps showing it as kubernetesVersion, the patch as current", async () => {
    const cluster = await raw(emulator, "GET", clusterPath("delta"));
    const body = structuredClone(cluster.body);
    body.properties.kubernetesVersion = "1.32";
    const started = await raw(emulator, "PUT", clusterPath("delta"), { body });
    expect(started.status).toBe(200);
    expect([started.body.properties.kubernetesVersion, started.body.properties.currentKubernetesVersion, started.body.properties.provisioningState]).toEqual(["1.32", "1.32.0", "Upgrading"]);
  });
});
