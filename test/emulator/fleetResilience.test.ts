/**
 * A Fleet run lives in the emulator, not in its client: a client that never hears back, or walks
 * away mid-poll, does not stop it. And the emulator's fault injection (5xx, 429, resets) applies to
 * the Fleet routes as to the others; the SDK's retries get a run through to the end.
 */
import { afterEach, describe, expect, test } from "vitest";
import type { ArmEmulator } from "../../src/emulator";
import { raw } from "./helpers";
import { CANARY_THEN_PROD, FAST_POLL, FLEET, FULL_132, RESOURCE_GROUP, fleetClient, fleetPath, runState, startFleetEmulator, waitForRun } from "./fleetHelpers";

let emulator: ArmEmulator;
afterEach(async () => {
  await emulator.close();
});

const ALL = ["canary-1", "dev-1", "prod-1", "prod-2", "prod-3"];

describe("a run whose client is gone", () => {
  test("every write's answer lost (connection reset after it was applied): the run was created, started, and goes on to the end", async () => {
    emulator = await startFleetEmulator({ faults: { lostResponseRate: 1 } });
    const put = await raw(emulator, "PUT", fleetPath("/updateRuns/orphan"), { body: { properties: { strategy: CANARY_THEN_PROD, managedClusterUpdate: FULL_132 } } }).then(
      () => "answered",
      () => "reset",
    );
    const start = await raw(emulator, "POST", fleetPath("/updateRuns/orphan/start")).then(
      () => "answered",
      () => "reset",
    );
    expect([put, start]).toEqual(["reset", "reset"]);
    // Nobody asks anything for 2 s (the whole run takes about 1.1 s of real time).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(emulator.requests.filter((r) => r.method === "GET")).toEqual([]);
    expect(emulator.fleet.operationLog().map((o) => [o.member, o.result]).sort()).toEqual(ALL.map((m) => [m, "Succeeded"]));
    const run = await raw(emulator, "GET", fleetPath("/updateRuns/orphan"));
    expect(run.body.properties.status.status.state).toBe("Completed");
  });

  test("a client that walks away once the start is answered (200 at once, as Fleet answers it) and asks nothing more: the run still completes", async () => {
    emulator = await startFleetEmulator();
    const client = fleetClient(emulator);
    await client.updateRuns.createOrUpdate(RESOURCE_GROUP, FLEET, "abandoned", { properties: { strategy: CANARY_THEN_PROD, managedClusterUpdate: FULL_132 } }).pollUntilDone();
    const taken = await client.updateRuns.start(RESOURCE_GROUP, FLEET, "abandoned", FAST_POLL).pollUntilDone();
    expect(runState(taken)).toBe("NotStarted");
    const asked = emulator.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(emulator.requests.length).toBe(asked);
    const done = await fleetClient(emulator).updateRuns.get(RESOURCE_GROUP, FLEET, "abandoned");
    expect(runState(done)).toBe("Completed");
    expect(emulator.fleet.operationLog().map((o) => o.member).sort()).toEqual(ALL);
  });
});

describe("faults on the Fleet routes", () => {
  test("5xx, 429 and resets hit Fleet requests; the SDK retries through them and the run completes", async () => {
    emulator = await startFleetEmulator({ faults: { serverErrorRate: 0.2, throttleRate: 0.1, resetRate: 0.05 }, seed: 7 });
    const client = fleetClient(emulator, 20);
    await client.fleetUpdateStrategies.createOrUpdate(RESOURCE_GROUP, FLEET, "faulty", { properties: { strategy: CANARY_THEN_PROD } }).pollUntilDone();
    await client.updateRuns
      .createOrUpdate(RESOURCE_GROUP, FLEET, "faulty", { properties: { strategy: CANARY_THEN_PROD, managedClusterUpdate: FULL_132 } })
      .pollUntilDone();
    await client.updateRuns.start(RESOURCE_GROUP, FLEET, "faulty", FAST_POLL).pollUntilDone();
    const done = await waitForRun(client, "faulty", (r) => runState(r) === "Completed");
    expect(done.properties?.status?.stages?.map((s) => s.status?.state)).toEqual(["Completed", "Completed"]);
    const fleetRequests = emulator.requests.filter((r) => r.path.includes("/fleets/"));
    const faults = new Set(fleetRequests.map((r) => r.fault).filter((f) => f !== undefined));
    expect(faults).toEqual(new Set(["serverError", "throttle", "reset"]));
    // The faulted starts changed nothing: the run was started once, each cluster upgraded once.
    expect(emulator.fleet.operationLog().map((o) => o.member).sort()).toEqual(ALL);
  });
});
