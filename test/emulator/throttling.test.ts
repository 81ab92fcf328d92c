/** ARM's subscription token buckets: 429 with Retry-After past the burst, and the SDK waiting it out. */
import https from "node:https";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ArmEmulator } from "../../src/emulator";
import { RESOURCE_GROUP, SUBSCRIPTION, clusterPath, raw, sdkClient, startTestEmulator, type RawResponse } from "./helpers";

describe("ARM's limits (250 reads burst, 25/s)", () => {
  let emulator: ArmEmulator;
  let agent: https.Agent;
  beforeAll(async () => {
    emulator = await startTestEmulator();
    agent = new https.Agent({ keepAlive: true, maxSockets: 8, ca: emulator.certificatePem });
  });
  afterAll(async () => {
    agent.destroy();
    await emulator.close();
  });

  test("reads past the burst get 429 with Retry-After and an ARM body; writes and other subscriptions have their own buckets", async () => {
    const answers: RawResponse[] = [];
    // Far faster than 25/s: the bucket empties after ~250 (a few more trickle in as it refills).
    for (let batch = 0; batch < 8 && !answers.some((a) => a.status === 429); batch++) {
      answers.push(...(await Promise.all(Array.from({ length: 40 }, () => raw(emulator, "GET", clusterPath("beta"), { agent })))));
    }
    const ok = answers.filter((a) => a.status === 200);
    const throttled = answers.filter((a) => a.status === 429);
    expect(ok.length).toBeGreaterThanOrEqual(250);
    expect(throttled.length).toBeGreaterThan(0);
    const first = throttled[0]!;
    expect(Number(first.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(first.headers["x-ms-ratelimit-remaining-subscription-reads"]).toBe("0");
    expect(first.body.error.code).toBe("SubscriptionRequestsThrottled");
    expect(first.body.error.message).toContain(SUBSCRIPTION);
    const remaining = ok.map((a) => Number(a.headers["x-ms-ratelimit-remaining-subscription-reads"]));
    expect(Math.max(...remaining)).toBe(249);
    expect(emulator.counters.throttled).toBe(throttled.length);

    const write = await raw(emulator, "PUT", clusterPath("beta"), { body: { properties: {} }, agent });
    expect(write.status).toBe(200);
    expect(write.headers["x-ms-ratelimit-remaining-subscription-writes"]).toBe("199");
    const other = await raw(emulator, "GET", clusterPath("beta").replace(SUBSCRIPTION, "00000000-0000-0000-0000-000000000002"), { agent });
    expect(other.status).toBe(200);
    expect(other.headers["x-ms-ratelimit-remaining-subscription-reads"]).toBe("249");
  });
});

describe("a small bucket", () => {
  let emulator: ArmEmulator;
  beforeAll(async () => {
    emulator = await startTestEmulator({ throttling: { reads: { burst: 2, perSecond: 1 } } });
  });
  afterAll(async () => {
    await emulator.close();
  });

  test("the SDK honours Retry-After on a 429 and then succeeds", async () => {
    const client = sdkClient(emulator);
    const started = Date.now();
    for (let i = 0; i < 3; i++) expect((await client.managedClusters.get(RESOURCE_GROUP, "beta")).name).toBe("beta");
    expect(emulator.counters.throttled).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900); // waited the 1 s it was told to
    expect(emulator.requests.map((r) => r.status)).toEqual([200, 200, 429, 200]);
  });
});
