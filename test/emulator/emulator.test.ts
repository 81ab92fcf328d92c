/** The emulator as a whole: certificate, time compression, scope options, the request log. */
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSelfSignedCertificate, type ArmEmulator } from "../../src/emulator";
import { RESOURCE_GROUP, SUBSCRIPTION, clusterPath, raw, sdkClient, startTestEmulator } from "./helpers";

test("the self-signed certificate names 127.0.0.1 and localhost, is its own CA, and verifies", async () => {
  const { certificatePem, privateKeyPem } = await createSelfSignedCertificate();
  const cert = new crypto.X509Certificate(certificatePem);
  expect(cert.checkIP("127.0.0.1")).toBe("127.0.0.1");
  expect(cert.checkHost("localhost")).toBe("localhost");
  expect(cert.ca).toBe(true);
  expect(cert.verify(cert.publicKey)).toBe(true);
  expect(cert.checkPrivateKey(crypto.createPrivateKey(privateKeyPem))).toBe(true);
  expect(Date.parse(cert.validTo)).toBeGreaterThan(Date.now());
});

describe("time compression and scope", () => {
  let emulator: ArmEmulator;
  beforeAll(async () => {
    emulator = await startTestEmulator({ msPerSimulatedMinute: 5, startAt: "2026-12-05T00:00:00Z", subscriptionId: SUBSCRIPTION, resourceGroup: RESOURCE_GROUP });
  });
  afterAll(async () => {
    await emulator.close();
  });

  test("a simulated minute takes msPerSimulatedMinute real ms; operation times are simulated", async () => {
    expect(emulator.clock.now()).toBeGreaterThanOrEqual(Date.parse("2026-12-05T00:00:00Z"));
    expect(emulator.clock.now()).toBeLessThan(Date.parse("2026-12-05T01:00:00Z"));
    const started = await raw(emulator, "POST", clusterPath("beta", "/agentPools/system/upgradeNodeImageVersion"));
    expect(started.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 80)); // 10 simulated minutes = 50 ms
    const [op] = emulator.fleet.operationLog();
    expect(op).toMatchObject({ member: "beta", kind: "NodeImageOnly", result: "Succeeded" });
    expect(Date.parse(op!.endTime!) - Date.parse(op!.startTime)).toBe(10 * 60_000);
    expect(op!.startTime.startsWith("2026-12-05T00:")).toBe(true);
  });

  test("other subscriptions and resource groups are not served when both are configured", async () => {
    const otherGroup = await raw(emulator, "GET", clusterPath("beta").replace(RESOURCE_GROUP, "elsewhere"));
    expect(otherGroup.status).toBe(404);
    expect(otherGroup.body.error.code).toBe("ResourceGroupNotFound");
    const otherSub = await raw(emulator, "GET", clusterPath("beta").replace(SUBSCRIPTION, "00000000-0000-0000-0000-00000000000f"));
    expect(otherSub.body.error.code).toBe("SubscriptionNotFound");
    const caseInsensitive = await raw(emulator, "GET", clusterPath("BETA").replace("resourceGroups", "resourcegroups").replace(RESOURCE_GROUP, RESOURCE_GROUP.toUpperCase()));
    expect(caseInsensitive.status).toBe(200);
    expect(caseInsensitive.body.name).toBe("beta");
  });
});

describe("the request log", () => {
  let emulator: ArmEmulator;
  beforeAll(async () => {
    emulator = await startTestEmulator();
  });
  afterAll(async () => {
    await emulator.close();
  });

  test("records method, path without query and status, and counts requests by method", async () => {
    const client = sdkClient(emulator);
    const cluster = await client.managedClusters.get(RESOURCE_GROUP, "epsilon");
    await client.managedClusters.createOrUpdate(RESOURCE_GROUP, "epsilon", cluster);
    await raw(emulator, "POST", clusterPath("nope", "/agentPools/system/upgradeNodeImageVersion"));
    await raw(emulator, "DELETE", clusterPath("epsilon", "/upgradeProfiles/default"));
    expect(emulator.requests).toEqual([
      { method: "GET", path: clusterPath("epsilon"), status: 200 },
      { method: "PUT", path: clusterPath("epsilon"), status: 200 },
      { method: "POST", path: clusterPath("nope", "/agentPools/system/upgradeNodeImageVersion"), status: 404 },
      { method: "DELETE", path: clusterPath("epsilon", "/upgradeProfiles/default"), status: 405 },
    ]);
    expect(emulator.counters).toEqual({ GET: 1, PUT: 1, POST: 1, PATCH: 0, DELETE: 1, throttled: 0, faults: 0, injected: { reset: 0, serverError: 0, throttle: 0, lostResponse: 0 } });
    emulator.clearRequestLog();
    expect(emulator.requests).toEqual([]);
    expect(emulator.counters.GET).toBe(0);
  });
});
