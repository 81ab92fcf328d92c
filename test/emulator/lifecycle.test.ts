/**
 * ARM writes besides upgrades, through the real SDK: tags (PATCH), deleting a cluster or an agent pool
 * (202, Deleting, then 404), and aborting the operation in flight (ManagedClustersAbortOperation,
 * AgentPoolsAbortLatestOperation: Canceling, then Canceled).
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { ArmEmulator } from "../../src/emulator";
import { IMAGE_OCT, RESOURCE_GROUP, clusterPath, raw, sdkClient, startTestEmulator } from "./helpers";

/** 200 ms per simulated minute: a deletion (5 min) takes 1 s, a cancellation (2 min) 0.4 s, beta's upgrade (10 min) 2 s. */
let emulator: ArmEmulator;
beforeEach(async () => {
  emulator = await startTestEmulator({ throttling: false, msPerSimulatedMinute: 200 });
});
afterEach(async () => {
  await emulator.close();
});

/** Start a Full upgrade of `name` to 1.32.0; its operation id and simulated start. */
async function startFullUpgrade(name: string): Promise<{ operationId: string; startAt: number }> {
  const client = sdkClient(emulator);
  const cluster = await client.managedClusters.get(RESOURCE_GROUP, name);
  await client.managedClusters.createOrUpdate(RESOURCE_GROUP, name, { ...cluster, kubernetesVersion: "1.32.0", agentPoolProfiles: cluster.agentPoolProfiles?.map((p) => ({ ...p, orchestratorVersion: "1.32.0" })) }).submitted();
  const op = emulator.fleet.toState().clusters[name]?.operations.at(-1);
  return { operationId: op?.operationId as string, startAt: op?.startAt as number };
}

describe("PATCH managedClusters/{name} (updateTags)", () => {
  test("replaces the tags, which GET shows; the eTag changes; If-Match is checked; refused while an upgrade runs", async () => {
    const client = sdkClient(emulator);
    const before = await client.managedClusters.get(RESOURCE_GROUP, "beta");
    expect(before.tags).toBeUndefined();
    const patched = await client.managedClusters.updateTags(RESOURCE_GROUP, "beta", { tags: { env: "prod", team: "platform" } });
    expect(patched.tags).toEqual({ env: "prod", team: "platform" });
    const after = await client.managedClusters.get(RESOURCE_GROUP, "beta");
    expect(after.tags).toEqual({ env: "prod", team: "platform" });
    expect(after.eTag).not.toBe(before.eTag);
    const stale = await raw(emulator, "PATCH", clusterPath("beta"), { body: { tags: {} }, headers: { "If-Match": `"${before.eTag}"` } });
    expect(stale.status).toBe(412);
    const bad = await raw(emulator, "PATCH", clusterPath("beta"), { body: { tags: { env: 1 } } });
    expect([bad.status, bad.body.error.code]).toEqual([400, "InvalidRequestContent"]);
    await startFullUpgrade("delta");
    const busy = await raw(emulator, "PATCH", clusterPath("delta"), { body: { tags: { env: "prod" } } });
    expect([busy.status, busy.body.error.code]).toEqual([409, "OperationNotAllowed"]);
  });
});

describe("DELETE", () => {
  test("a managed cluster: 202 with LRO headers, Deleting while it runs (writes refused), then 404; deleting it again answers 204", async () => {
    const first = await raw(emulator, "DELETE", clusterPath("beta"));
    expect(first.status).toBe(202);
    expect(first.headers.location).toMatch(/\/operationresults\/delete-beta-1\?/);
    expect(first.headers["azure-asyncoperation"]).toMatch(/\/operations\/delete-beta-1\?/);
    const during = await raw(emulator, "GET", clusterPath("beta"));
    expect(during.body.properties.provisioningState).toBe("Deleting");
    expect(during.body.properties.agentPoolProfiles[0].provisioningState).toBe("Deleting");
    expect((await raw(emulator, "PUT", clusterPath("beta"), { body: { properties: { kubernetesVersion: "1.32.0" } } })).status).toBe(409);
    expect((await raw(emulator, "GET", first.headers.location as string)).status).toBe(202);
    // The SDK's poller follows the deletion to its end.
    await sdkClient(emulator).managedClusters.delete(RESOURCE_GROUP, "beta").pollUntilDone();
    const gone = await raw(emulator, "GET", clusterPath("beta"));
    expect([gone.status, gone.body.error.code]).toEqual([404, "ResourceNotFound"]);
    expect((await raw(emulator, "GET", first.headers.location as string)).status).toBe(204);
    expect((await raw(emulator, "GET", first.headers["azure-asyncoperation"] as string)).body.status).toBe("Succeeded");
    expect((await raw(emulator, "DELETE", clusterPath("beta"))).status).toBe(204);
  });

  test("an agent pool: Deleting, then gone from the pool list and the cluster; the last pool cannot be deleted", async () => {
    const client = sdkClient(emulator);
    const poller = client.agentPools.delete(RESOURCE_GROUP, "alpha", "linux");
    await poller.submitted();
    expect((await client.agentPools.get(RESOURCE_GROUP, "alpha", "linux")).provisioningState).toBe("Deleting");
    await poller.pollUntilDone();
    expect((await raw(emulator, "GET", clusterPath("alpha", "/agentPools/linux"))).status).toBe(404);
    expect((await client.managedClusters.get(RESOURCE_GROUP, "alpha")).agentPoolProfiles?.map((p) => p.name)).toEqual(["system"]);
    expect((await raw(emulator, "DELETE", clusterPath("alpha", "/agentPools/linux"))).status).toBe(204);
    const last = await raw(emulator, "DELETE", clusterPath("alpha", "/agentPools/system"));
    expect([last.status, last.body.error.code]).toEqual([400, "InvalidParameter"]);
  });
});

describe("POST .../abort", () => {
  test("the cluster's upgrade in flight ends Canceled: Canceling, then Canceled; the operation says Canceled; what it moved stays", async () => {
    const { operationId, startAt } = await startFullUpgrade("beta");
    await emulator.clock.sleepUntil(startAt + 6 * 60_000);
    const client = sdkClient(emulator);
    const poller = client.managedClusters.abortLatestOperation(RESOURCE_GROUP, "beta");
    await poller.submitted();
    const canceling = await client.managedClusters.get(RESOURCE_GROUP, "beta");
    expect(canceling.provisioningState).toBe("Canceling");
    await poller.pollUntilDone();
    const canceled = await client.managedClusters.get(RESOURCE_GROUP, "beta");
    expect(canceled.provisioningState).toBe("Canceled");
    expect(canceled.agentPoolProfiles?.[0]?.provisioningState).toBe("Canceled");
    // Two phases of 5 minutes: the control plane had moved, the pool had not.
    expect([canceled.currentKubernetesVersion, canceled.agentPoolProfiles?.[0]?.currentOrchestratorVersion, canceled.agentPoolProfiles?.[0]?.nodeImageVersion]).toEqual(["1.32.0", "1.31.2", IMAGE_OCT]);
    const status = await raw(emulator, "GET", clusterPath("beta", `/operations/${operationId}`));
    expect([status.body.status, status.body.error.code]).toEqual(["Canceled", "UpgradeAborted"]);
    expect(emulator.fleet.toState().clusters.beta?.operations.map((op) => op.result)).toEqual(["Canceled"]);
    // Nothing in flight any more: a second abort is refused, and a new upgrade may start.
    expect((await raw(emulator, "POST", clusterPath("beta", "/abort"))).status).toBe(409);
    await client.agentPools.upgradeNodeImageVersion(RESOURCE_GROUP, "beta", "system").submitted();
    // A node image upgrade is the pool's: the cluster stays Succeeded, as AKS shows it.
    const next = await client.managedClusters.get(RESOURCE_GROUP, "beta");
    expect([next.provisioningState, next.agentPoolProfiles?.[0]?.provisioningState]).toEqual(["Succeeded", "UpgradingNodeImageVersion"]);
  });

  test("an agent pool's: aborts the node image upgrade running on it; another pool has nothing to abort", async () => {
    const client = sdkClient(emulator);
    await client.agentPools.upgradeNodeImageVersion(RESOURCE_GROUP, "alpha", "system").submitted();
    expect((await raw(emulator, "POST", clusterPath("alpha", "/agentPools/linux/abort"))).status).toBe(409);
    const aborted = await raw(emulator, "POST", clusterPath("alpha", "/agentPools/system/abort"));
    expect(aborted.status).toBe(202);
    const pools = (await client.managedClusters.get(RESOURCE_GROUP, "alpha")).agentPoolProfiles;
    expect(pools?.map((p) => [p.name, p.provisioningState, p.nodeImageVersion])).toEqual([
      ["system", "Canceling", IMAGE_OCT],
      ["linux", "Succeeded", "AKSAzureLinux-V2gen2-202611.20.0"],
    ]);
  });
});
