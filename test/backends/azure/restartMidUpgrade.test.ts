/**
 * A Full upgrade through ARM moves the control plane, then the node pools one at a time, so a read in
 * the middle shows some pools on the new image and others on the old (their versions, as AKS reports
 * them, are the target from the start). A run restarted there (a new
 * process: fresh backend, engine resumed from its state) follows the upgrade to its end and never
 * sends it again: every pool is upgraded once.
 */
import { afterEach, describe, expect, it } from "vitest";
import { upgradeCounts } from "./parity/upgradeCount";
import { startArmRun, type ArmRun } from "./support/armRun";

const OCT = "AKSUbuntu-2204gen2containerd-202610.01.0";
const NOV = "AKSUbuntu-2204gen2containerd-202611.24.0";
const pool = (name: string) => `{name: ${name}, orchestratorVersion: 1.31.2, nodeImageVersion: ${OCT}}`;
const SCENARIO = `
start: 2026-12-05T00:00:00Z
regions: {westeurope: {kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}], nodeImages: [{version: ${OCT}}, {version: ${NOV}}]}}
members:
  - {name: multi, region: westeurope, kubernetesVersion: 1.31.2, simulation: {upgradeMinutes: 80}, nodePools: [${pool("system")}, ${pool("user")}, ${pool("batch")}]}
managedClusterUpdate: {upgrade: {type: Full, kubernetesVersion: 1.32.0}, nodeImageSelection: {type: Latest}}
`;

let run: ArmRun | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

/** Control plane, then per pool: `current version/image` as ARM shows them now. */
async function shown(r: ArmRun): Promise<string[]> {
  const cluster = await r.client.managedClusters.get("fleet", "multi");
  return [cluster.currentKubernetesVersion ?? "", ...(cluster.agentPoolProfiles ?? []).map((p) => `${p.name} ${p.currentOrchestratorVersion} ${p.nodeImageVersion === NOV ? "nov" : "oct"}`)];
}

function expectUpgradedOnce(r: ArmRun): void {
  const member = r.engine.status().stages[0]?.groups[0]?.members[0];
  expect(member?.status.state).toBe("Completed");
  expect(r.emulator.fleet.operationLog()).toMatchObject([{ member: "multi", kind: "Full", result: "Succeeded" }]);
  expect(r.emulator.requests.filter((q) => q.method !== "GET").map((q) => `${q.method} ${q.status}`)).toEqual(["PUT 200"]);
  expect(upgradeCounts(r.scenario, r.emulator.fleet.toState()).multi?.changed).toEqual({
    controlPlane: 1,
    "system/version": 1,
    "system/image": 1,
    "user/version": 1,
    "user/image": 1,
    "batch/version": 1,
    "batch/image": 1,
  });
}

describe("a run restarted in the middle of a Full upgrade", () => {
  it("with the operation recorded: follows it from the cluster, pool after pool, to Completed; nothing is sent again", async () => {
    run = await startArmRun(SCENARIO);
    // Phases of 20 minutes: control plane, system, user, batch. At 50 minutes, system is done, user is under way.
    await run.driveIntoUpgrade("multi", 50);
    // As AKS reports it, every pool's current version is the target from the start; the images move pool by pool.
    expect(await shown(run)).toEqual(["1.32.0", "system 1.32.0 nov", "user 1.32.0 oct", "batch 1.32.0 oct"]);
    expect(run.engine.status().stages[0]?.groups[0]?.members[0]?.status.state).toBe("Running");
    run.restart();
    await run.driveFor();
    expect(await shown(run)).toEqual(["1.32.0", "system 1.32.0 nov", "user 1.32.0 nov", "batch 1.32.0 nov"]);
    expectUpgradedOnce(run);
  });

  it("from the checkpoint written just before the upgrade was asked for: adopts the upgrade under way (Running under its step's name), follows it to the end, Completed; nothing is sent again", async () => {
    run = await startArmRun(SCENARIO);
    await run.driveIntoUpgrade("multi", 50);
    // As AKS reports it, every pool's current version is the target from the start; the images move pool by pool.
    expect(await shown(run)).toEqual(["1.32.0", "system 1.32.0 nov", "user 1.32.0 oct", "batch 1.32.0 oct"]);
    const beforeStart = run.checkpoints[0];
    expect(beforeStart?.stages[0]?.groups[0]?.members[0]).toMatchObject({ name: "multi", state: "NotStarted" });
    run.restart(beforeStart);
    await run.engine.reconcile(run.emulator.clock.now());
    expect(run.engine.status().stages[0]?.groups[0]?.members[0]).toMatchObject({ operationId: "multi", status: { state: "Running" } });
    await run.driveFor();
    const member = run.engine.status().stages[0]?.groups[0]?.members[0];
    expect(member).toMatchObject({ operationId: "multi", status: { state: "Completed" } });
    expectUpgradedOnce(run);
  });
});
