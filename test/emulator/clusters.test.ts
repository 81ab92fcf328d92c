/** Managed clusters through the real SDK: GET shape, upgrades as LROs, 409, 412, refusals, failures. */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ArmEmulator } from "../../src/emulator";
import { IMAGE_NOV, IMAGE_OCT, RESOURCE_GROUP, SUBSCRIPTION, clusterPath, raw, sdkClient, startTestEmulator } from "./helpers";

let emulator: ArmEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await emulator.close();
});

async function restError(promise: Promise<unknown>): Promise<{ statusCode?: number; code?: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e as { statusCode?: number; code?: string; message: string },
  );
  expect(error, "expected the call to fail").toBeDefined();
  return error!;
}

describe("GET managedClusters/{name}", () => {
  test("has ARM's shape: versions, states, pools, location, eTag", async () => {
    const cluster = await sdkClient(emulator).managedClusters.get(RESOURCE_GROUP, "alpha");
    expect(cluster).toMatchObject({
      id: `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.ContainerService/managedClusters/alpha`,
      name: "alpha",
      type: "Microsoft.ContainerService/ManagedClusters",
      location: "westeurope",
      kubernetesVersion: "1.31.2",
      currentKubernetesVersion: "1.31.2",
      provisioningState: "Succeeded",
      powerState: { code: "Running" },
    });
    expect(cluster.eTag).toMatch(/^[0-9a-f]{16}$/);
    expect(cluster.agentPoolProfiles?.map((p) => [p.name, p.orchestratorVersion, p.currentOrchestratorVersion, p.nodeImageVersion, p.osType, p.osSKU, p.provisioningState])).toEqual([
      ["system", "1.31.2", "1.31.2", IMAGE_OCT, "Linux", "Ubuntu", "Succeeded"],
      ["linux", "1.31.2", "1.31.2", "AKSAzureLinux-V2gen2-202611.20.0", "Linux", "AzureLinux", "Succeeded"],
    ]);
  });

  test("raw body keeps ARM's nesting under properties", async () => {
    const res = await raw(emulator, "GET", clusterPath("alpha"));
    expect(res.status).toBe(200);
    expect(res.body.properties.agentPoolProfiles[0].eTag).toMatch(/^[0-9a-f]{16}$/);
    expect(res.headers["x-ms-ratelimit-remaining-subscription-reads"]).toMatch(/^\d+$/);
    expect(res.headers["x-ms-request-id"]).toBeDefined();
  });

  test("unknown cluster → 404 ResourceNotFound; missing api-version → 400", async () => {
    const error = await restError(sdkClient(emulator).managedClusters.get(RESOURCE_GROUP, "nope"));
    expect(error.statusCode).toBe(404);
    expect(error.code).toBe("ResourceNotFound");
    const bare = await raw(emulator, "GET", clusterPath("alpha"), { apiVersion: false });
    expect(bare.status).toBe(400);
    expect(bare.body.error.code).toBe("MissingApiVersionParameter");
  });
});

describe("PUT managedClusters/{name}", () => {
  test("a Full upgrade through the SDK poller ends Succeeded with versions and newest images applied", async () => {
    const client = sdkClient(emulator);
    const before = await client.managedClusters.get(RESOURCE_GROUP, "beta");
    const poller = client.managedClusters.createOrUpdate(RESOURCE_GROUP, "beta", {
      ...before,
      kubernetesVersion: "1.32.0",
      agentPoolProfiles: before.agentPoolProfiles?.map((p) => ({ ...p, orchestratorVersion: "1.32.0" })),
    });
    const after = await poller.pollUntilDone();
    expect(after.provisioningState).toBe("Succeeded");
    expect(after.kubernetesVersion).toBe("1.32.0");
    expect(after.currentKubernetesVersion).toBe("1.32.0");
    expect(after.agentPoolProfiles?.[0]).toMatchObject({ orchestratorVersion: "1.32.0", currentOrchestratorVersion: "1.32.0", nodeImageVersion: IMAGE_NOV });
    expect(after.eTag).not.toBe(before.eTag);
    expect(emulator.fleet.operationLog().filter((op) => op.member === "beta")).toMatchObject([{ operationId: "op-beta-1", kind: "Full", result: "Succeeded" }]);
  });

  test("only kubernetesVersion changing is a ControlPlaneOnly upgrade; the first answer is Upgrading with LRO headers", async () => {
    // Its own emulator, slower than the suite's: the operation must still be InProgress when it is read
    // right after the PUT, on a loaded machine too (10 simulated minutes = 3 s here).
    const emulator = await startTestEmulator({ msPerSimulatedMinute: 300 });
    try {
      const res = await raw(emulator, "PUT", clusterPath("epsilon"), { body: { location: "eastus", properties: { kubernetesVersion: "1.31.2" } } });
      expect(res.status).toBe(200); // nothing changes: no operation
      expect(res.headers["azure-asyncoperation"]).toBeUndefined();

      const cluster = await raw(emulator, "GET", clusterPath("alpha"));
      const body = structuredClone(cluster.body);
      body.properties.kubernetesVersion = "1.32.0";
      const started = await raw(emulator, "PUT", clusterPath("alpha"), { body });
      expect(started.status).toBe(200);
      // As AKS answers (test/fixtures/recordings/aks/test_aks_snapshot.yaml): the current version is the target from the start.
      expect(started.body.properties).toMatchObject({ provisioningState: "Upgrading", kubernetesVersion: "1.32.0", currentKubernetesVersion: "1.32.0" });
      expect(started.body.properties.agentPoolProfiles[0].provisioningState).toBe("Succeeded");
      expect(started.headers["azure-asyncoperation"]).toBe(`${emulator.url}/subscriptions/${SUBSCRIPTION}/providers/Microsoft.ContainerService/locations/westeurope/operations/op-alpha-1?api-version=2026-06-01`);
      // A PUT's answer carries Azure-AsyncOperation only; the result URL is still served.
      expect(started.headers.location).toBeUndefined();
      const resultUrl = `${emulator.url}/subscriptions/${SUBSCRIPTION}/providers/Microsoft.ContainerService/locations/westeurope/operationresults/op-alpha-1?api-version=2026-06-01`;
      expect(Number(started.headers["retry-after"])).toBeGreaterThanOrEqual(1);

      const status = await raw(emulator, "GET", String(started.headers["azure-asyncoperation"]));
      expect(status.status).toBe(200);
      expect(status.body).toMatchObject({ name: "op-alpha-1", status: "InProgress" });
      expect(status.body.startTime).toMatch(/Z$/);
      expect(status.body.endTime).toBeUndefined();
      expect(status.headers["retry-after"]).toBeDefined();
      const pending = await raw(emulator, "GET", resultUrl);
      expect(pending.status).toBe(202);
      expect(pending.headers.location).toBe(resultUrl);
      expect(pending.headers["retry-after"]).toBeDefined();

      const startAt = emulator.fleet.toState().clusters.alpha?.operations[0]?.startAt as number;
      await emulator.clock.sleepUntil(startAt + 11 * 60_000); // past its 10 simulated minutes
      const done = await raw(emulator, "GET", String(started.headers["azure-asyncoperation"]));
      expect(done.body).toMatchObject({ status: "Succeeded", endTime: expect.stringMatching(/Z$/) });
      const result = await raw(emulator, "GET", resultUrl);
      expect(result.status).toBe(200);
      expect(result.body.properties).toMatchObject({ provisioningState: "Succeeded", currentKubernetesVersion: "1.32.0" });
      expect(result.body.properties.agentPoolProfiles[0].currentOrchestratorVersion).toBe("1.31.2");
      expect(emulator.fleet.operationLog().find((op) => op.operationId === "op-alpha-1")?.kind).toBe("ControlPlaneOnly");
    } finally {
      await emulator.close();
    }
  });

  test("a PUT while an upgrade runs → 409 OperationNotAllowed", async () => {
    const client = sdkClient(emulator);
    const cluster = await client.managedClusters.get(RESOURCE_GROUP, "delta"); // 600-minute upgrades: 6 s real
    // submitted(): the first answer only; the poller is dropped, nothing keeps polling.
    await client.managedClusters.createOrUpdate(RESOURCE_GROUP, "delta", { ...cluster, kubernetesVersion: "1.32.0" }).submitted();
    expect((await client.managedClusters.get(RESOURCE_GROUP, "delta")).provisioningState).toBe("Upgrading");
    const error = await restError(client.managedClusters.createOrUpdate(RESOURCE_GROUP, "delta", { ...cluster, kubernetesVersion: "1.32.0" }).submitted());
    expect(error.statusCode).toBe(409);
    expect(error.code).toBe("OperationNotAllowed");
    expect(error.message).toContain("op-delta-1");
  });

  test("a stale If-Match → 412 with an ARM error body; the current eTag is accepted", async () => {
    const client = sdkClient(emulator);
    const cluster = await client.managedClusters.get(RESOURCE_GROUP, "epsilon");
    const res = await raw(emulator, "PUT", clusterPath("epsilon"), { body: { location: "eastus", properties: {} }, headers: { "If-Match": '"stale-etag"' } });
    expect(res.status).toBe(412);
    expect(res.body.error.code).toBe("PreconditionFailed");
    const error = await restError(client.managedClusters.createOrUpdate(RESOURCE_GROUP, "epsilon", cluster, { ifMatch: "0123456789abcdef" }).pollUntilDone());
    expect(error.statusCode).toBe(412);
    const same = await client.managedClusters.createOrUpdate(RESOURCE_GROUP, "epsilon", cluster, { ifMatch: cluster.eTag! }).pollUntilDone();
    expect(same.eTag).toBe(cluster.eTag);
  });

  test("AKS rules refuse with 400 and the simulated fleet's code", async () => {
    const downgrade = await raw(emulator, "PUT", clusterPath("epsilon"), { body: { properties: { kubernetesVersion: "1.30.5" } } });
    expect(downgrade.status).toBe(400);
    expect(downgrade.body.error.code).toBe("UpgradeDowngradeNotAllowed");
    const notYet = await raw(emulator, "PUT", clusterPath("epsilon"), { body: { properties: { kubernetesVersion: "1.32.0" } } });
    expect(notYet.status).toBe(400);
    expect(notYet.body.error).toMatchObject({ code: "KubernetesVersionNotAvailable", message: expect.stringContaining("eastus") });
    const partial = await raw(emulator, "PUT", clusterPath("epsilon"), { body: { properties: { agentPoolProfiles: [{ name: "system", orchestratorVersion: "1.32.0" }] } } });
    expect(partial.status).toBe(400);
    expect(partial.body.error.code).toBe("NodePoolVersionAboveControlPlane");
    expect(emulator.fleet.operationLog().some((op) => op.member === "epsilon")).toBe(false);
  });

  test("a failing upgrade: the poller rejects with the failure, the cluster shows Failed, Location answers the error", async () => {
    const client = sdkClient(emulator);
    const cluster = await client.managedClusters.get(RESOURCE_GROUP, "gamma");
    const poller = client.managedClusters.createOrUpdate(RESOURCE_GROUP, "gamma", { ...cluster, kubernetesVersion: "1.32.0" });
    const error = await restError(poller.pollUntilDone());
    expect(error.message).toContain("drain timed out");
    const after = await client.managedClusters.get(RESOURCE_GROUP, "gamma");
    expect(after).toMatchObject({ provisioningState: "Failed", kubernetesVersion: "1.32.0", currentKubernetesVersion: "1.31.2" });
    const status = await raw(emulator, "GET", `/subscriptions/${SUBSCRIPTION}/providers/Microsoft.ContainerService/locations/westeurope/operations/op-gamma-1`);
    expect(status.body).toMatchObject({ status: "Failed", error: { code: "UpgradeFailed", message: "drain timed out" } });
    const result = await raw(emulator, "GET", `/subscriptions/${SUBSCRIPTION}/providers/Microsoft.ContainerService/locations/westeurope/operationresults/op-gamma-1`);
    expect(result.status).toBe(400);
    expect(result.body.error.code).toBe("UpgradeFailed");
    const listed = await raw(emulator, "GET", clusterPath("gamma", "/operations"));
    expect(listed.body.value[0]).toMatchObject({ name: "op-gamma-1", status: "Failed", operationType: "PutManagedCluster" });
  });
});
