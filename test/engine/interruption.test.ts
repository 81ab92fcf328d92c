/**
 * Write-ahead evidence: the engine's state is checkpointed just before each upgrade starts, so a
 * process that dies between "start the upgrade" and "record its id" leaves enough to resume
 * truthfully — the cluster is not upgraded twice and the member is reported Completed, not Skipped.
 */
import { expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import { VirtualClock } from "../../src/engine/clock";
import { drive } from "../../src/engine/drive";
import { UpdateRunEngine } from "../../src/engine/engine";
import type { RunState } from "../../src/engine/runState";
import { parseScenario } from "../../src/model/scenario";

const scenario = parseScenario(`
start: 2026-12-05T00:00:00Z
regions: {westeurope: {kubernetesVersions: [{version: 1.32.0}]}}
members:
  - {name: a, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: AKSUbuntu-2204gen2containerd-202610.01.0}]}
  - {name: b, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: AKSUbuntu-2204gen2containerd-202610.01.0}]}
managedClusterUpdate: {upgrade: {type: ControlPlaneOnly, kubernetesVersion: 1.32.0}}
`);

it("resumes from a checkpoint taken just before an upgrade started: the member is Completed and upgraded once", async () => {
  const start = Date.parse(scenario.start);
  const clock = new VirtualClock(start);
  const fleet = new SimulatedFleet({ regions: scenario.regions, members: scenario.members }, clock);
  const run = { name: "r", members: scenario.members, managedClusterUpdate: scenario.managedClusterUpdate };

  // The first process checkpoints before starting `a`, starts it, and dies before recording the answer.
  const checkpoints: RunState[] = [];
  const first = UpdateRunEngine.create(run, fleet, { checkpoint: () => checkpoints.push(first.snapshot()) });
  first.start(start);
  await first.reconcile(start);
  const lastWords = checkpoints[0]!;
  expect(lastWords.stages[0]!.groups[0]!.members[0]).toMatchObject({ name: "a", state: "NotStarted", startRequestedAt: start });

  // The second process resumes from that checkpoint.
  const second = UpdateRunEngine.resume(lastWords, fleet, {});
  await drive(second, clock);
  const [a, b] = second.status().stages[0]!.groups[0]!.members;
  expect(a!.status).toMatchObject({ state: "Completed", startTime: "2026-12-05T00:00:00Z" });
  expect(a!.message).toBe("Upgraded by an earlier attempt of this run, interrupted before it recorded the result.");
  expect(b!.status.state).toBe("Completed");
  expect(fleet.operationLog().map((op) => op.member)).toEqual(["a", "b"]);
});

it("without the intent, a cluster found at target is Skipped as already there", async () => {
  const start = Date.parse(scenario.start);
  const clock = new VirtualClock(start);
  const fleet = new SimulatedFleet({ regions: scenario.regions, members: scenario.members }, clock);
  const run = { name: "r", members: scenario.members, managedClusterUpdate: scenario.managedClusterUpdate };
  const first = UpdateRunEngine.create(run, fleet, {});
  const before = first.snapshot();
  first.start(start);
  await first.reconcile(start);
  const second = UpdateRunEngine.resume(before, fleet, {});
  second.start(start);
  await drive(second, clock);
  expect(second.status().stages[0]!.groups[0]!.members[0]!.status.state).toBe("Skipped");
  expect(fleet.operationLog().map((op) => op.member)).toEqual(["a", "b"]);
});
