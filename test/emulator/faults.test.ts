/** Injected faults: a reproducible mix for a seed, and the SDK's retries getting through them. */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ArmEmulator } from "../../src/emulator";
import { RESOURCE_GROUP, clusterPath, raw, sdkClient, startTestEmulator } from "./helpers";

/** Status of each of `n` sequential GETs; 0 for a reset connection. */
async function statuses(emulator: ArmEmulator, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    out.push(await raw(emulator, "GET", clusterPath("beta")).then((r) => r.status, () => 0));
  }
  return out;
}

function tally(list: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of list) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

describe("a fixed seed", () => {
  const faults = { serverErrorRate: 0.2, throttleRate: 0.1, resetRate: 0.1 };
  let first: ArmEmulator;
  let second: ArmEmulator;
  beforeAll(async () => {
    first = await startTestEmulator({ faults, seed: 42, throttling: false });
    second = await startTestEmulator({ faults, seed: 42, throttling: false });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  test("gives the configured mix, the same for the same seed, and the log accounts for it", async () => {
    const a = await statuses(first, 200);
    const b = await statuses(second, 200);
    expect(b).toEqual(a);
    const counts = tally(a);
    const serverErrors = (counts[500] ?? 0) + (counts[503] ?? 0);
    expect(serverErrors).toBeGreaterThan(20);
    expect(serverErrors).toBeLessThan(60);
    expect(counts[500]).toBeGreaterThan(0);
    expect(counts[503]).toBeGreaterThan(0);
    expect(counts[429]).toBeGreaterThan(8);
    expect(counts[429]).toBeLessThan(35);
    expect(counts[0]).toBeGreaterThan(8);
    expect(counts[0]).toBeLessThan(35);
    expect(counts[200]).toBe(200 - serverErrors - (counts[429] ?? 0) - (counts[0] ?? 0));
    expect(first.counters).toMatchObject({ GET: 200, PUT: 0, POST: 0, throttled: 0, faults: 200 - (counts[200] ?? 0) });
    expect(first.counters.injected).toEqual({ reset: counts[0], serverError: serverErrors, throttle: counts[429], lostResponse: 0 });
    expect(first.requests.map((r) => r.status)).toEqual(a);
    expect(first.requests.filter((r) => r.fault === "reset").length).toBe(counts[0]);
  });

  test("injected errors carry ARM bodies; injected 429s carry Retry-After, their simulated second scaled to real time", async () => {
    const seen = new Map<number, Awaited<ReturnType<typeof raw>>>();
    for (let i = 0; i < 60 && seen.size < 3; i++) {
      const res = await raw(first, "GET", clusterPath("beta")).catch(() => undefined);
      if (res !== undefined && res.status !== 200) seen.set(res.status, res);
    }
    expect(seen.get(500)?.body.error.code).toBe("InternalServerError");
    expect(seen.get(503)?.body.error.code).toBe("ServiceUnavailable");
    expect(seen.get(429)?.headers["retry-after"]).toBe("1");
    // 10 ms per simulated minute: one simulated second is a sixth of a real millisecond, at least 1 ms.
    expect(seen.get(429)?.headers["retry-after-ms"]).toBe("1");
  });
});

describe("the SDK's retries", () => {
  let emulator: ArmEmulator;
  beforeAll(async () => {
    emulator = await startTestEmulator({ faults: { serverErrorRate: 0.25, resetRate: 0.1, latencyMs: { min: 1, max: 5 } }, seed: 7, throttling: false });
  });
  afterAll(async () => {
    await emulator.close();
  });

  test("get through 5xx answers and reset connections", async () => {
    const client = sdkClient(emulator, 8);
    for (let i = 0; i < 20; i++) expect((await client.managedClusters.get(RESOURCE_GROUP, "beta")).name).toBe("beta");
    expect(emulator.counters.faults).toBeGreaterThan(3);
    expect(emulator.requests.some((r) => r.status === 500 || r.status === 503)).toBe(true);
    expect(emulator.requests.some((r) => r.fault === "reset")).toBe(true);
    expect(emulator.requests.filter((r) => r.status === 200)).toHaveLength(20);
  });

  test("an upgrade LRO completes through faults", async () => {
    const client = sdkClient(emulator, 8);
    const cluster = await client.managedClusters.get(RESOURCE_GROUP, "epsilon");
    // eastus offers only 1.31.2: a no-change PUT is the write that must get through.
    const same = await client.managedClusters.createOrUpdate(RESOURCE_GROUP, "epsilon", cluster);
    expect(same.currentKubernetesVersion).toBe("1.31.2");
    const upgraded = await client.agentPools.upgradeNodeImageVersion(RESOURCE_GROUP, "beta", "system").pollUntilDone();
    expect(upgraded).toBeUndefined();
    expect(emulator.fleet.operationLog().filter((op) => op.member === "beta")).toMatchObject([{ kind: "NodeImageOnly", result: "Succeeded" }]);
  });
});

test("latency is added to every request", async () => {
  const emulator = await startTestEmulator({ faults: { latencyMs: { min: 40, max: 60 } } });
  try {
    const started = performance.now();
    await raw(emulator, "GET", clusterPath("beta"));
    expect(performance.now() - started).toBeGreaterThanOrEqual(39);
  } finally {
    await emulator.close();
  }
});
