/**
 * Write-ahead evidence: the engine's state is checkpointed just before each upgrade starts, so a
 * process that dies between "start the upgrade" and "record its id" leaves enough to resume
 * truthfully — the resumed engine adopts the upgrade (src/engine/interrupted.ts): the member is Running
 * under its operation id while it runs (holding its slot), Completed with that id once it ends, and the
 * cluster is not upgraded twice.
 */
import { expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import { VirtualClock } from "../../src/engine/clock";
import { drive } from "../../src/engine/drive";
import { UpdateRunEngine } from "../../src/engine/engine";
import type { RunState } from "../../src/engine/runState";
import type { ClusterBackend } from "../../src/engine/backend";
import { parseScenario } from "../../src/simulation/scenario";
import type { RunEvent } from "../../src/model/status";
import { updateChoiceOf } from "../../src/model/autoUpgrade";

const scenario = parseScenario(`
start: 2026-12-05T00:00:00Z
regions: {westeurope: {kubernetesVersions: [{version: 1.32.0}]}}
members:
  - {name: a, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: AKSUbuntu-2204gen2containerd-202610.01.0}]}
  - {name: b, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: AKSUbuntu-2204gen2containerd-202610.01.0}]}
managedClusterUpdate: {upgrade: {type: ControlPlaneOnly, kubernetesVersion: 1.32.0}}
`);

/**
 * A first process that starts the run on `firstBackend` (default the fleet) and dies in its first
 * pass: `lastWords` is its write-ahead checkpoint, taken just before it asked for `a`'s upgrade.
 */
async function interruptedRun(firstBackend?: (fleet: SimulatedFleet, clock: VirtualClock) => SimulatedFleet) {
  const start = Date.parse(scenario.start);
  const clock = new VirtualClock(start);
  const fleet = new SimulatedFleet({ regions: scenario.regions, members: scenario.members }, clock);
  const run = { name: "r", members: scenario.members, ...updateChoiceOf(scenario) };
  const checkpoints: RunState[] = [];
  const first = UpdateRunEngine.create(run, firstBackend?.(fleet, clock) ?? fleet, { checkpoint: (intent) => void (intent !== undefined && checkpoints.push(first.snapshot())) });
  first.start(start);
  await first.reconcile(start);
  return { start, clock, fleet, lastWords: checkpoints[0]! };
}

it("resumes from a checkpoint taken just before an upgrade started: the member is Completed with its operation id and upgraded once", async () => {
  // The first process checkpoints before starting `a`, starts it, and dies before recording the answer.
  const { start, clock, fleet, lastWords } = await interruptedRun();
  expect(lastWords.stages[0]!.groups[0]!.members[0]).toMatchObject({ name: "a", state: "NotStarted", startRequestedAt: start });

  // The second process resumes from that checkpoint.
  const second = UpdateRunEngine.resume(lastWords, fleet, {});
  await drive(second, clock);
  const [a, b] = second.status().stages[0]!.groups[0]!.members;
  expect(a!.status).toMatchObject({ state: "Completed", startTime: "2026-12-05T00:00:00Z" });
  expect(a!.operationId).toBe("op-a-1");
  expect(b!.status.state).toBe("Completed");
  expect(b!.operationId).toBe("op-b-1");
  expect(fleet.operationLog().map((op) => op.member)).toEqual(["a", "b"]);
});

it("without the intent, a cluster found at target is Skipped as already there", async () => {
  const start = Date.parse(scenario.start);
  const clock = new VirtualClock(start);
  const fleet = new SimulatedFleet({ regions: scenario.regions, members: scenario.members }, clock);
  const run = { name: "r", members: scenario.members, ...updateChoiceOf(scenario) };
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

it("an upgrade still running when the run resumes is adopted: Running under its id, holding the group's one slot", async () => {
  const { start, clock, fleet, lastWords } = await interruptedRun();

  // Five minutes later (a's upgrade takes ten) a new process resumes from the write-ahead checkpoint.
  await clock.sleepUntil(start + 5 * 60_000);
  const events: RunEvent[] = [];
  const second = UpdateRunEngine.resume(lastWords, fleet, { onEvent: (e) => events.push(e) });
  await second.reconcile(clock.now());
  const [a, b] = second.status().stages[0]!.groups[0]!.members;
  expect(a).toMatchObject({ operationId: "op-a-1", status: { state: "Running", startTime: "2026-12-05T00:00:00Z" } });
  // One slot (maxConcurrency 1): b waits for a, and nothing was asked of b's cluster.
  expect(b!.status.state).toBe("NotStarted");
  expect(fleet.startUpgradeCalls().map((c) => c.member)).toEqual(["a"]);
  // The event's time is the member's start: its operation's, as the fleet recorded it (docs/rules.md §20).
  expect(events.filter((e) => e.scope === "member")).toEqual([{ time: "2026-12-05T00:00:00Z", scope: "member", name: "a", from: "NotStarted", to: "Running", message: expect.any(String) }]);

  await drive(second, clock);
  expect(fleet.operationLog().map((op) => [op.member, op.operationId])).toEqual([["a", "op-a-1"], ["b", "op-b-1"]]);
  const ops = fleet.operationLog();
  expect(Date.parse(ops[1]!.startTime)).toBeGreaterThanOrEqual(Date.parse(ops[0]!.endTime!));
});

it("a start that never reached the cluster is asked for again, once", async () => {
  // The checkpoint is taken, and the process dies before the request leaves it: it went to another fleet.
  const { clock, fleet, lastWords } = await interruptedRun((_fleet, clock) => new SimulatedFleet({ regions: scenario.regions, members: scenario.members }, clock));

  const second = UpdateRunEngine.resume(lastWords, fleet, {});
  await drive(second, clock);
  const [a] = second.status().stages[0]!.groups[0]!.members;
  expect(a).toMatchObject({ operationId: "op-a-1", status: { state: "Completed" } });
  expect(fleet.startUpgradeCalls().map((c) => c.member)).toEqual(["a", "b"]);
});

/** The fleet as a backend, counting the questions "did this start reach the cluster?". */
function askingFleet(fleet: SimulatedFleet) {
  const asked: string[] = [];
  const backend: ClusterBackend = {
    getCluster: (m) => fleet.getCluster(m),
    getRegionOffer: (region) => fleet.getRegionOffer(region),
    startUpgrade: (m, request) => fleet.startUpgrade(m, request),
    getOperation: (m, id) => fleet.getOperation(m, id),
    findStartedUpgrade: (m, request, since) => {
      asked.push(m.name);
      return fleet.findStartedUpgrade(m, request, since);
    },
  };
  return { backend, asked };
}

it("an intent recorded without its request (a journal from before requests were kept) asks nothing: the member is decided afresh", async () => {
  // The first process's request reached the cluster, but the checkpoint does not say what it asked for.
  const { clock, fleet, lastWords } = await interruptedRun();
  const a = lastWords.stages[0]!.groups[0]!.members[0]!;
  const { backend, asked } = askingFleet(fleet);
  const second = UpdateRunEngine.resume({ ...lastWords, stages: [{ ...lastWords.stages[0]!, groups: [{ ...lastWords.stages[0]!.groups[0]!, members: [{ ...a, request: undefined }, lastWords.stages[0]!.groups[0]!.members[1]!] }] }] }, backend, {});
  await drive(second, clock);
  expect(asked).toEqual([]);
  // Not adopted: Pending while the operation it cannot name runs, then found at target.
  const [ra, rb] = second.status().stages[0]!.groups[0]!.members;
  expect(ra!.status.state).toBe("Skipped");
  expect(ra!.operationId).toBeUndefined();
  expect(rb!.status.state).toBe("Completed");
  expect(fleet.operationLog().map((op) => op.member)).toEqual(["a", "b"]);
});

it("a start found not to have reached the cluster is asked about once: a run stopped at once and started later does not ask again", async () => {
  const { clock, fleet, lastWords } = await interruptedRun((_fleet, clock) => new SimulatedFleet({ regions: scenario.regions, members: scenario.members }, clock));
  const { backend, asked } = askingFleet(fleet);
  const second = UpdateRunEngine.resume(lastWords, backend, {});
  second.stop(clock.now());
  await second.reconcile(clock.now());
  expect(asked).toEqual(["a"]);
  // The intent is dropped from the state persisted, so no later process asks either.
  const kept = second.snapshot().stages[0]!.groups[0]!.members[0]!;
  expect([kept.state, kept.startRequestedAt, kept.request]).toEqual(["NotStarted", undefined, undefined]);
  await clock.sleepUntil(clock.now() + 60 * 60_000);
  second.start(clock.now());
  await drive(second, clock);
  expect(asked).toEqual(["a"]);
  expect(second.status().stages[0]!.groups[0]!.members.map((m) => m.status.state)).toEqual(["Completed", "Completed"]);
  expect(fleet.startUpgradeCalls().map((c) => c.member)).toEqual(["a", "b"]);
});

it("an upgrade under way in a journal that does not say what it asked for is followed to its end, and judged by its operation alone", async () => {
  const { start, clock, fleet, lastWords } = await interruptedRun();
  await clock.sleepUntil(start + 5 * 60_000);
  const second = UpdateRunEngine.resume(lastWords, fleet, {});
  await second.reconcile(clock.now());
  const running = second.snapshot();
  const g = running.stages[0]!.groups[0]!;
  const [a, b] = g.members;
  expect(a).toMatchObject({ state: "Running", operationId: "op-a-1" });
  const third = UpdateRunEngine.resume({ ...running, stages: [{ ...running.stages[0]!, groups: [{ ...g, members: [{ ...a!, request: undefined }, b!] }] }] }, fleet, {});
  await drive(third, clock);
  const [ra, rb] = third.status().stages[0]!.groups[0]!.members;
  expect(ra).toMatchObject({ operationId: "op-a-1", status: { state: "Completed", completedTime: "2026-12-05T00:10:00Z" } });
  expect(rb!.status.state).toBe("Completed");
});
