/**
 * Issue 29: the ARM backend's judgement of "done" and "busy" against AKS's real shapes
 * (test/fixtures/recordings/aks, docs/behaviour.md "Done and busy through ARM"):
 * - AKS reports `currentKubernetesVersion` / `currentOrchestratorVersion` at the target from the start
 *   of an upgrade, so a cluster in the middle of one looks upgraded by its versions;
 * - during a node image upgrade AKS keeps the cluster `Succeeded`; only the pool says
 *   `UpgradingNodeImageVersion`.
 * In both, no member may be reported Completed before the upgrade ended, and no second operation may
 * be sent to a pool that is busy.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startArmRun, type ArmRun } from "./support/armRun";

const OCT = "AKSUbuntu-2204gen2containerd-202610.01.0";
const NOV = "AKSUbuntu-2204gen2containerd-202611.24.0";
const REGION = `{westeurope: {kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}], nodeImages: [{version: ${OCT}}, {version: ${NOV}}]}}`;
const MINUTE = 60_000;

let run: ArmRun | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

function member(r: ArmRun) {
  return r.engine.status().stages[0]?.groups[0]?.members[0];
}

/** The emulator's writes, as `METHOD status` (the SDK's GETs left out). */
function writes(r: ArmRun): string[] {
  return r.emulator.requests.filter((q) => q.method !== "GET").map((q) => `${q.method} ${q.status}`);
}

describe("the current version reaches the target at the start of an upgrade", () => {
  const SCENARIO = `
start: 2026-12-05T00:00:00Z
regions: ${REGION}
members:
  - {name: solo, region: westeurope, kubernetesVersion: 1.31.2, simulation: {upgradeMinutes: 30}, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: ${NOV}}]}
managedClusterUpdate: {upgrade: {type: Full, kubernetesVersion: 1.32.0}, nodeImageSelection: {type: Latest}}
`;

  it("a cluster whose upgrade to the target is under way (its versions already the target) is not judged done before the upgrade ends, and gets no second upgrade", async () => {
    run = await startArmRun(SCENARIO);
    // Someone else's upgrade to the very target, started just before the run reaches the member.
    const before = await run.client.managedClusters.get("fleet", "solo");
    await (await run.client.managedClusters.beginCreateOrUpdate("fleet", "solo", { ...before, kubernetesVersion: "1.32.0", agentPoolProfiles: before.agentPoolProfiles?.map((p) => ({ ...p, orchestratorVersion: "1.32.0" })) })).submitted();
    const shown = await run.client.managedClusters.get("fleet", "solo");
    expect([shown.provisioningState, shown.currentKubernetesVersion, shown.agentPoolProfiles?.[0]?.currentOrchestratorVersion]).toEqual(["Upgrading", "1.32.0", "1.32.0"]);
    const upgrade = run.emulator.fleet.toState().clusters.solo?.operations[0];
    const endAt = upgrade?.endAt as number;

    await run.driveFor(20);
    expect(run.emulator.clock.now()).toBeLessThan(endAt);
    // Waiting for the operation in flight, not judged at its target by versions that say so already.
    expect(member(run)?.status.state).toBe("Pending");
    await run.driveFor();
    // Then at its target without the run touching it: Skipped (as Fleet does), decided only after the upgrade ended.
    expect(member(run)?.status.state).toBe("Skipped");
    expect(Date.parse(member(run)?.status.completedTime as string)).toBeGreaterThanOrEqual(endAt);
    // Only the out-of-band PUT: the run never sent a second upgrade to the busy cluster.
    expect(writes(run)).toEqual(["PUT 200"]);
    expect(run.emulator.fleet.operationLog().map((op) => op.result)).toEqual(["Succeeded"]);
  });

  it("the run's own upgrade: Running while ARM says Upgrading with the target as current; Completed after it ends; one PUT", async () => {
    run = await startArmRun(SCENARIO);
    await run.driveIntoUpgrade("solo", 10);
    const shown = await run.client.managedClusters.get("fleet", "solo");
    expect([shown.provisioningState, shown.currentKubernetesVersion]).toEqual(["Upgrading", "1.32.0"]);
    expect(member(run)?.status.state).toBe("Running");
    await run.driveFor();
    const endAt = run.emulator.fleet.toState().clusters.solo?.operations[0]?.endAt as number;
    expect(member(run)?.status.state).toBe("Completed");
    expect(Date.parse(member(run)?.status.completedTime as string)).toBeGreaterThanOrEqual(endAt);
    expect(writes(run)).toEqual(["PUT 200"]);
  });
});

describe("the cluster stays Succeeded during a node image upgrade", () => {
  const SCENARIO = `
start: 2026-12-05T00:00:00Z
regions: ${REGION}
members:
  - {name: imgs, region: westeurope, kubernetesVersion: 1.31.2, simulation: {upgradeMinutes: 20}, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: ${OCT}}, {name: user, orchestratorVersion: 1.31.2, nodeImageVersion: ${OCT}}]}
managedClusterUpdate: {upgrade: {type: NodeImageOnly}, nodeImageSelection: {type: Latest}}
`;

  it("busy is read per pool: one upgradeNodeImageVersion per pool, none while a pool is UpgradingNodeImageVersion; Completed only after the last ends", async () => {
    run = await startArmRun(SCENARIO);
    await run.driveIntoUpgrade("imgs", 5);
    const shown = await run.client.managedClusters.get("fleet", "imgs");
    expect([shown.provisioningState, ...(shown.agentPoolProfiles ?? []).map((p) => `${p.name} ${p.provisioningState}`)]).toEqual(["Succeeded", "system UpgradingNodeImageVersion", "user Succeeded"]);
    // Polled through the rest of the first pool's upgrade: nothing else is sent meanwhile.
    await run.driveFor(18);
    expect(writes(run)).toEqual(["POST 202"]);
    expect(member(run)?.status.state).toBe("Running");
    await run.driveFor();
    const ops = run.emulator.fleet.toState().clusters.imgs?.operations ?? [];
    expect(ops.map((op) => [Object.keys(op.request.nodeImageVersions), op.result])).toEqual([
      [["system"], "Succeeded"],
      [["user"], "Succeeded"],
    ]);
    expect(writes(run)).toEqual(["POST 202", "POST 202"]);
    expect(member(run)?.status.state).toBe("Completed");
    expect(Date.parse(member(run)?.status.completedTime as string)).toBeGreaterThanOrEqual((ops.at(-1)?.endAt as number) - MINUTE);
    const after = await run.client.managedClusters.get("fleet", "imgs");
    expect((after.agentPoolProfiles ?? []).map((p) => p.nodeImageVersion)).toEqual([NOV, NOV]);
  });
});
