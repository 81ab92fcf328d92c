/**
 * An upgrade aborted from outside the run (ARM's abortLatestOperation) fails its member with a clear
 * error, and so the run; starting the run again retries the member from where the cluster is: only the
 * parts the aborted upgrade had not moved are upgraded, none twice.
 */
import { afterEach, expect, it } from "vitest";
import { UPGRADE_ABORTED } from "../../../src/aks/errorCodes";
import { startArmRun, type ArmRun } from "./support/armRun";

const OCT = "AKSUbuntu-2204gen2containerd-202610.01.0";
const NOV = "AKSUbuntu-2204gen2containerd-202611.24.0";
const pool = (name: string) => `{name: ${name}, orchestratorVersion: 1.31.2, nodeImageVersion: ${OCT}}`;
const SCENARIO = `
start: 2026-12-05T00:00:00Z
regions: {westeurope: {kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}], nodeImages: [{version: ${OCT}}, {version: ${NOV}}]}}
members:
  - {name: multi, region: westeurope, kubernetesVersion: 1.31.2, simulation: {upgradeMinutes: 80}, nodePools: [${pool("system")}, ${pool("user")}, ${pool("batch")}]}
  - {name: other, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [${pool("system")}]}
managedClusterUpdate: {upgrade: {type: Full, kubernetesVersion: 1.32.0}, nodeImageSelection: {type: Latest}}
`;

let run: ArmRun | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

const member = (r: ArmRun, name: string) => r.engine.status().stages[0]?.groups[0]?.members.find((m) => m.name === name);

it("an upgrade aborted out of band: the member Failed (UpgradeAborted), the run Failed; start again: upgraded from where it was, no part twice", async () => {
  run = await startArmRun(SCENARIO);
  // Phases of 20 minutes: control plane, system, user, batch. At 50 minutes the control plane and system are done.
  await run.driveIntoUpgrade("multi", 50);
  await run.client.managedClusters.abortLatestOperation("fleet", "multi").pollUntilDone();
  await run.driveFor();

  const aborted = member(run, "multi");
  expect(aborted?.status.state).toBe("Failed");
  expect(aborted?.status.error?.code).toBe(UPGRADE_ABORTED);
  expect(aborted?.status.error?.message).toBe(
    "the upgrade of managed cluster multi was aborted outside this run (provisioningState Canceled) before the cluster reached the target; start the run again to retry it from where the cluster is",
  );
  expect(run.engine.status().status.state).toBe("Failed");
  expect(member(run, "other")?.status.state).toBe("NotStarted");
  const [canceled] = run.emulator.fleet.toState().clusters.multi?.operations ?? [];
  expect(canceled?.result).toBe("Canceled");

  run.engine.start(run.emulator.clock.now());
  await run.driveFor();
  expect(member(run, "multi")?.status.state).toBe("Completed");
  expect(member(run, "other")?.status.state).toBe("Completed");
  expect(run.engine.status().status.state).toBe("Completed");
  const cluster = await run.client.managedClusters.get("fleet", "multi");
  expect((cluster.agentPoolProfiles ?? []).map((p) => `${p.name} ${p.currentOrchestratorVersion} ${p.nodeImageVersion}`)).toEqual([
    `system 1.32.0 ${NOV}`,
    `user 1.32.0 ${NOV}`,
    `batch 1.32.0 ${NOV}`,
  ]);
  // The retry moved only the pools the aborted upgrade had not reached: system was not upgraded again.
  const operations = run.emulator.fleet.toState().clusters.multi?.operations ?? [];
  expect(operations.map((op) => op.result)).toEqual(["Canceled", "Succeeded"]);
  expect(Object.keys(operations[1]?.request.nodeImageVersions ?? {})).toEqual(["user", "batch"]);
});
