/**
 * Fleet update runs under user control through the real SDK: stop then start (docs/rules.md §3.8), skip of a
 * member, a group and a stage (docs/rules.md §3.9), and what a PUT or DELETE may do to a started run.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { UpdateRun } from "@azure/arm-containerservicefleet";
import type { ArmEmulator } from "../../src/emulator";
import { sdkClient } from "./helpers";
import { CANARY_THEN_PROD, FAST_POLL, FLEET, FULL_132, RESOURCE_GROUP, fleetClient, groupedFleet, runState, startFleetEmulator, waitForRun } from "./fleetHelpers";

let emulator: ArmEmulator;
afterEach(async () => {
  await emulator.close();
});

function members(run: UpdateRun): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const stage of run.properties?.status?.stages ?? []) for (const group of stage.groups ?? []) for (const m of group.members ?? []) out[m.name as string] = m.status?.state;
  return out;
}

const PROD_ONLY = { stages: [{ name: "prod", groups: [{ name: "prod" }] }] };

describe("stop, then start", () => {
  beforeEach(async () => {
    // prod upgrades take 50 simulated minutes: 0.5 s each, one at a time.
    emulator = await startFleetEmulator({ fleet: groupedFleet({ "prod-1": 50, "prod-2": 50, "prod-3": 50 }) });
  });

  test("stop: Stopping while prod-1's upgrade finishes, then Stopped with nothing new started; start resumes to Completed", async () => {
    const client = fleetClient(emulator);
    await client.updateRuns.createOrUpdate(RESOURCE_GROUP, FLEET, "run-stop", { properties: { strategy: PROD_ONLY, managedClusterUpdate: FULL_132 } }).pollUntilDone();
    await client.updateRuns.start(RESOURCE_GROUP, FLEET, "run-stop", FAST_POLL).pollUntilDone();
    await waitForRun(client, "run-stop", (r) => members(r)["prod-1"] === "Running");

    const poller = client.updateRuns.stop(RESOURCE_GROUP, FLEET, "run-stop", FAST_POLL);
    await poller.submitted();
    expect(runState(await client.updateRuns.get(RESOURCE_GROUP, FLEET, "run-stop"))).toBe("Stopping");
    const stopped = await poller.pollUntilDone();
    expect(runState(stopped)).toBe("Stopped");
    expect(members(stopped)).toEqual({ "prod-1": "Completed", "prod-2": "NotStarted", "prod-3": "NotStarted" });

    // A stopped run stays stopped: nothing starts while nobody asks (1.2 s = two upgrades' time).
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(emulator.fleet.operationLog().map((o) => o.member)).toEqual(["prod-1"]);

    await client.updateRuns.start(RESOURCE_GROUP, FLEET, "run-stop", FAST_POLL).pollUntilDone();
    const done = await waitForRun(client, "run-stop", (r) => runState(r) === "Completed");
    expect(members(done)).toEqual({ "prod-1": "Completed", "prod-2": "Completed", "prod-3": "Completed" });
    expect(emulator.fleet.operationLog().map((o) => o.member)).toEqual(["prod-1", "prod-2", "prod-3"]);
  });

  test("a started run's spec cannot change (409), the same PUT again is answered as it is; DELETE of the started run answers 200, as Fleet's does: the run is gone, the upgrade in flight ends, nothing more starts", async () => {
    const client = fleetClient(emulator);
    const spec = { properties: { strategy: PROD_ONLY, managedClusterUpdate: FULL_132 } };
    await client.updateRuns.createOrUpdate(RESOURCE_GROUP, FLEET, "run-put", spec).pollUntilDone();
    await client.updateRuns.start(RESOURCE_GROUP, FLEET, "run-put", FAST_POLL).pollUntilDone();
    const again = await client.updateRuns.createOrUpdate(RESOURCE_GROUP, FLEET, "run-put", spec).pollUntilDone();
    expect(runState(again)).toBe("Running");
    await expect(
      client.updateRuns.createOrUpdate(RESOURCE_GROUP, FLEET, "run-put", { properties: { strategy: PROD_ONLY, managedClusterUpdate: { upgrade: { type: "ControlPlaneOnly", kubernetesVersion: "1.32.0" } } } }).pollUntilDone(),
    ).rejects.toMatchObject({ statusCode: 409, code: "UpdateRunAlreadyStarted" });
    await waitForRun(client, "run-put", (r) => members(r)["prod-1"] === "Running");
    await client.updateRuns.delete(RESOURCE_GROUP, FLEET, "run-put").pollUntilDone();
    await expect(client.updateRuns.get(RESOURCE_GROUP, FLEET, "run-put")).rejects.toMatchObject({ statusCode: 404 });
    // prod-1's upgrade is AKS's operation: it ends; prod-2 and prod-3 are never started (1.2 s: two upgrades' time).
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(emulator.fleet.operationLog().map((o) => [o.member, o.result])).toEqual([["prod-1", "Succeeded"]]);
  });
});

describe("skip", () => {
  beforeEach(async () => {
    emulator = await startFleetEmulator({ fleet: groupedFleet({ "canary-1": 50 }) });
  });

  test("a member and a group skipped before the start are never upgraded; a running member cannot be skipped (400, nothing skipped)", async () => {
    const client = fleetClient(emulator);
    await client.updateRuns.createOrUpdate(RESOURCE_GROUP, FLEET, "run-skip", { properties: { strategy: CANARY_THEN_PROD, managedClusterUpdate: FULL_132 } }).pollUntilDone();
    const skipped = await client.updateRuns
      .skip(RESOURCE_GROUP, FLEET, "run-skip", { targets: [{ type: "Member", name: "prod-2" }, { type: "Group", name: "dev" }] }, FAST_POLL)
      .pollUntilDone();
    expect(members(skipped)).toMatchObject({ "prod-2": "Skipped", "dev-1": "Skipped", "prod-1": "NotStarted" });

    await client.updateRuns.start(RESOURCE_GROUP, FLEET, "run-skip", FAST_POLL).pollUntilDone();
    await waitForRun(client, "run-skip", (r) => members(r)["canary-1"] === "Running");
    const refused = client.updateRuns.skip(RESOURCE_GROUP, FLEET, "run-skip", { targets: [{ type: "Member", name: "prod-3" }, { type: "Member", name: "canary-1" }] }, FAST_POLL).pollUntilDone();
    await expect(refused).rejects.toMatchObject({ statusCode: 400, code: "InvalidSkipTargets", message: expect.stringContaining("canary-1") });

    const done = await waitForRun(client, "run-skip", (r) => runState(r) === "Completed");
    expect(members(done)).toEqual({ "canary-1": "Completed", "prod-1": "Completed", "prod-2": "Skipped", "prod-3": "Completed", "dev-1": "Skipped" });
    expect(emulator.fleet.operationLog().map((o) => o.member).sort()).toEqual(["canary-1", "prod-1", "prod-3"]);
  });

  test("skipping the stage after the running one: its clusters are left alone and the run completes", async () => {
    const client = fleetClient(emulator);
    await client.updateRuns.createOrUpdate(RESOURCE_GROUP, FLEET, "run-stage", { properties: { strategy: CANARY_THEN_PROD, managedClusterUpdate: FULL_132 } }).pollUntilDone();
    await client.updateRuns.start(RESOURCE_GROUP, FLEET, "run-stage", FAST_POLL).pollUntilDone();
    await client.updateRuns.skip(RESOURCE_GROUP, FLEET, "run-stage", { targets: [{ type: "Stage", name: "prod" }] }, FAST_POLL).pollUntilDone();
    const done = await waitForRun(client, "run-stage", (r) => runState(r) === "Completed");
    expect(done.properties?.status?.stages?.map((s) => s.status?.state)).toEqual(["Completed", "Skipped"]);
    expect(emulator.fleet.operationLog().map((o) => o.member)).toEqual(["canary-1"]);
  });
});

describe("the clusters behind the run are ARM's", () => {
  beforeEach(async () => {
    emulator = await startFleetEmulator();
  });

  test("a cluster busy with an ARM abort's cancellation waits (Pending) and is upgraded once it is over", async () => {
    // 250 ms per simulated minute: the cancellation (2 min) takes 0.5 s, prod-1's upgrade (2 min) too.
    await emulator.close();
    emulator = await startFleetEmulator({ fleet: groupedFleet({ "prod-1": 2 }), msPerSimulatedMinute: 250 });
    const aks = sdkClient(emulator);
    const cluster = await aks.managedClusters.get(RESOURCE_GROUP, "prod-1");
    await aks.managedClusters.beginCreateOrUpdate(RESOURCE_GROUP, "prod-1", { ...cluster, kubernetesVersion: "1.32.0" }, { updateIntervalInMs: 10 });
    await aks.managedClusters.beginAbortLatestOperation(RESOURCE_GROUP, "prod-1");
    const client = fleetClient(emulator);
    await client.updateRuns.createOrUpdate(RESOURCE_GROUP, FLEET, "run-busy", { properties: { strategy: PROD_ONLY, managedClusterUpdate: FULL_132 } }).pollUntilDone();
    await client.updateRuns.skip(RESOURCE_GROUP, FLEET, "run-busy", { targets: [{ type: "Member", name: "prod-2" }, { type: "Member", name: "prod-3" }] }, FAST_POLL).pollUntilDone();
    await client.updateRuns.start(RESOURCE_GROUP, FLEET, "run-busy", FAST_POLL).pollUntilDone();
    const waiting = await client.updateRuns.get(RESOURCE_GROUP, FLEET, "run-busy");
    const prod1 = waiting.properties?.status?.stages?.[0]?.groups?.[0]?.members?.[0];
    expect([prod1?.status?.state, prod1?.message]).toEqual(["Pending", expect.stringContaining("operation")]);
    const done = await waitForRun(client, "run-busy", (r) => runState(r) === "Completed");
    expect(members(done)).toEqual({ "prod-1": "Completed", "prod-2": "Skipped", "prod-3": "Skipped" });
    const abortedAt = emulator.fleet.toState().clusters["prod-1"]?.operations[0]?.endAt ?? Number.POSITIVE_INFINITY;
    const prod1Upgrade = emulator.fleet.operationLog().filter((o) => o.member === "prod-1");
    expect(prod1Upgrade).toHaveLength(2);
    expect(Date.parse(prod1Upgrade[1]?.startTime as string)).toBeGreaterThanOrEqual(abortedAt + 2 * 60_000);
  });
});
