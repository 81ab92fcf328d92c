/**
 * docs/rules.md §20: an item's instants are its parts', as the backend recorded them — not when a pass
 * happened to see them. Here the simulated fleet is seen through a backend that tells an ended upgrade
 * late (a slow poll), or whose clock runs ahead of the run's; and gates approved, or a stop given,
 * after the last member ended. Issue 34: these could be broken without a test failing.
 */
import { describe, expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import type { ClusterBackend, OperationState } from "../../src/engine/backend";
import { VirtualClock } from "../../src/engine/clock";
import { drive } from "../../src/engine/drive";
import { UpdateRunEngine } from "../../src/engine/engine";
import type { RunState } from "../../src/engine/runState";
import { updateChoiceOf } from "../../src/model/autoUpgrade";
import { parseScenario, resolveScenarioStrategy } from "../../src/simulation/scenario";
import { runScenario } from "../../src/simulation/simulateScenario";
import { Outcome, START, approveAt, daily, member, scenario, simulate, stopAt } from "./helpers";

const T = (minutes: number) => new Date(Date.parse(START) + minutes * 60_000).toISOString().replace(/\.000Z$/, "Z");
const MINUTE = 60_000;

/**
 * The scenario over the simulated fleet, seen through a backend that tells an ended upgrade only
 * `lateMinutes` after it ended, and stamps every recorded instant `aheadMinutes` later than the
 * fleet's clock.
 */
async function seenThrough(yaml: string, { lateMinutes = 0, aheadMinutes = 0 }: { lateMinutes?: number; aheadMinutes?: number }): Promise<Outcome> {
  const parsed = parseScenario(yaml);
  const clock = new VirtualClock(Date.parse(parsed.start));
  const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
  const ahead = (at: number | undefined) => (at === undefined ? undefined : at + aheadMinutes * MINUTE);
  const backend: ClusterBackend = {
    getCluster: (m) => fleet.getCluster(m),
    getRegionOffer: (region) => fleet.getRegionOffer(region),
    startUpgrade: async (m, request) => {
      const started = await fleet.startUpgrade(m, request);
      return { ...started, ...(started.startedAt === undefined ? {} : { startedAt: ahead(started.startedAt) }) };
    },
    getOperation: async (m, id): Promise<OperationState> => {
      const op = await fleet.getOperation(m, id);
      if (op.status !== "InProgress" && op.endedAt !== undefined && clock.now() < op.endedAt + lateMinutes * MINUTE) {
        return { status: "InProgress", checkAgainAt: op.endedAt + lateMinutes * MINUTE };
      }
      return { ...op, ...(op.startedAt === undefined ? {} : { startedAt: ahead(op.startedAt) }), ...(op.endedAt === undefined ? {} : { endedAt: ahead(op.endedAt) }) };
    },
    findStartedUpgrade: (m, request, since) => fleet.findStartedUpgrade(m, request, since),
  };
  return new Outcome(await runScenario(parsed, { backend, clock, clusters: () => fleet.snapshot().clusters }));
}

// Stage one: group a (10 minutes) and group b (20 minutes), side by side; stage two: group c.
const members = [member("a-1", { group: "a", minutes: 10 }), member("b-1", { group: "b", minutes: 20 }), member("c-1", { group: "c", minutes: 10 })];
const twoStages = (wait = 0) => `{stages: [{name: one, groups: [{name: a}, {name: b}], afterStageWaitInSeconds: ${wait}}, {name: two, groups: [{name: c}]}]}`;

describe("upgrades seen five minutes after they ended", () => {
  it("members, groups, stages and the run end when their upgrades ended; the next stage starts when the end was seen", async () => {
    const o = await seenThrough(scenario({ members, strategy: twoStages() }), { lateMinutes: 5 });
    expect(o.member("a-1").status).toStrictEqual({ state: "Completed", startTime: T(0), completedTime: T(10) });
    expect(o.group("a").status).toMatchObject({ state: "Completed", completedTime: T(10) });
    expect(o.group("b").status).toMatchObject({ state: "Completed", completedTime: T(20) });
    // Stage one ended with b's upgrade (00:20), seen at 00:25: stage two starts then, not before it was seen.
    expect(o.stage("one").status).toMatchObject({ state: "Completed", startTime: T(0), completedTime: T(20) });
    expect(o.stage("two").status).toMatchObject({ startTime: T(25), completedTime: T(35) });
    expect(o.group("c").status).toMatchObject({ startTime: T(25), completedTime: T(35) });
    expect(o.run).toStrictEqual({ state: "Completed", startTime: T(0), completedTime: T(35) });
    // Each event at its item's instant: the group a's end at 00:10, though it was seen at 00:15.
    expect(o.transitions("group", "a")).toStrictEqual([`${T(0)} NotStarted->Running`, `${T(10)} Running->Completed`]);
  });

  it("the after-stage wait runs from the end of the stage's last group, not from when it was seen", async () => {
    const o = await seenThrough(scenario({ members, strategy: twoStages(600) }), { lateMinutes: 5 });
    expect(o.stage("one").afterStageWaitStatus?.status).toStrictEqual({ state: "Completed", startTime: T(20), completedTime: T(30) });
    expect(o.stage("one").status.completedTime).toBe(T(30));
    expect(o.opStarts("c-1")).toStrictEqual([T(30)]);
  });
});

describe("a backend whose clock is two minutes ahead of the run's", () => {
  it("members take the backend's instants; the next stage and its groups start no earlier than the stage before ended", async () => {
    const o = await seenThrough(scenario({ members, strategy: twoStages() }), { aheadMinutes: 2 });
    expect(o.member("a-1").status).toStrictEqual({ state: "Completed", startTime: T(2), completedTime: T(12) });
    expect(o.stage("one").status.completedTime).toBe(T(22));
    // b-1's end was seen at 00:20 on the run's clock, recorded at 00:22 on the backend's.
    expect(o.stage("two").status.startTime).toBe(T(22));
    expect(o.group("c").status.startTime).toBe(T(22));
    expect(o.member("c-1").status).toMatchObject({ startTime: T(22), completedTime: T(32) });
    expect(o.run.completedTime).toBe(T(32));
  });

  it("a group with no member, in a stage started on the backend's clock, ends when it started, not at the pass before that", async () => {
    const o = await seenThrough(scenario({ members, strategy: twoStages().replace("groups: [{name: c}]", "groups: [{name: c}, {name: empty}]") }), { aheadMinutes: 2 });
    expect(o.group("empty").status).toStrictEqual({ state: "Skipped", startTime: T(22), completedTime: T(22) });
  });
});

describe("parts that end after the last member", () => {
  it("a group's after-gate approved an hour after its members ended: the group, its stage and the run end at the approval", async () => {
    const o = await simulate(
      scenario({
        members: [member("a-1", { group: "a" })],
        strategy: "{stages: [{name: one, groups: [{name: a, afterGates: [{displayName: check, type: Approval}]}]}]}",
        actions: [approveAt(T(70), { stage: "one", group: "a", timing: "After" })],
      }),
    );
    expect(o.member("a-1").status.completedTime).toBe(T(10));
    expect(o.group("a").status).toMatchObject({ state: "Completed", completedTime: T(70) });
    expect(o.stage("one").status.completedTime).toBe(T(70));
    expect(o.run.completedTime).toBe(T(70));
  });

  it("a stage's after-gate approved later ends the stage then", async () => {
    const o = await simulate(
      scenario({
        members: [member("a-1", { group: "a" })],
        strategy: "{stages: [{name: one, groups: [{name: a}], afterGates: [{displayName: check, type: Approval}]}]}",
        actions: [approveAt(T(45), { stage: "one", timing: "After" })],
      }),
    );
    expect(o.group("a").status.completedTime).toBe(T(10));
    expect(o.stage("one").status.completedTime).toBe(T(45));
  });

  it("a stop while nothing is in flight ends the run, its stage and group at the stop, not at the last member's end", async () => {
    const o = await simulate(
      scenario({
        members: [member("now", { group: "a" }), member("later", { group: "a", window: daily("06:00") })],
        strategy: "{stages: [{name: one, groups: [{name: a}]}]}",
        actions: [stopAt(T(30))],
        until: T(120),
      }),
    );
    expect(o.member("now").status.completedTime).toBe(T(10));
    expect(o.group("a").status).toMatchObject({ state: "Stopped", completedTime: T(30) });
    expect(o.stage("one").status).toMatchObject({ state: "Stopped", completedTime: T(30) });
    expect(o.run).toMatchObject({ state: "Stopped", completedTime: T(30) });
  });
});

describe("upgrades adopted after a crash, started before the pass that starts their stage", () => {
  /**
   * A process starts three upgrades at 00:00 in the run's first pass and dies before that pass's end
   * is journaled: the journal holds the run's start and each member's intent (the write-ahead record,
   * issue 23), but not the stage's nor the group's start. The backend records each operation's start
   * as its first step began: a at 00:02, b at 00:01, c at 00:03 (ARM's operation status does so).
   * A new process resumes at 00:05.
   */
  async function resumedAfterCrash() {
    const parsed = parseScenario(
      scenario({
        members: ["a", "b", "c"].map((name) => member(name, { group: "g", minutes: 30 })),
        strategy: `{stages: [{name: one, groups: [{name: g, maxConcurrency: "3"}]}]}`,
      }),
    );
    const start = Date.parse(parsed.start);
    const clock = new VirtualClock(start);
    const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
    const firstStep: Record<string, number> = { a: 2, b: 1, c: 3 };
    const recorded = (name: string, at: number | undefined) => (at === undefined ? undefined : at + (firstStep[name] ?? 0) * MINUTE);
    const backend: ClusterBackend = {
      getCluster: (m) => fleet.getCluster(m),
      getRegionOffer: (region) => fleet.getRegionOffer(region),
      startUpgrade: (m, request) => fleet.startUpgrade(m, request),
      getOperation: async (m, id) => {
        const op = await fleet.getOperation(m, id);
        return { ...op, ...(op.startedAt === undefined ? {} : { startedAt: recorded(m.name, op.startedAt) }) };
      },
      findStartedUpgrade: async (m, request, since) => {
        const found = await fleet.findStartedUpgrade(m, request, since);
        return found === undefined ? undefined : { ...found, ...(found.startedAt === undefined ? {} : { startedAt: recorded(m.name, found.startedAt) }) };
      },
    };
    const run = { name: "r", members: parsed.members, strategy: resolveScenarioStrategy(parsed), ...updateChoiceOf(parsed) };
    const intents: RunState["stages"][number]["groups"][number]["members"] = [];
    const first = UpdateRunEngine.create(run, backend, { checkpoint: (place) => void (place !== undefined && intents.push(structuredClone(place.member))) });
    first.start(start);
    const journal = structuredClone(first.snapshot());
    await first.reconcile(start);
    expect(intents.map((m) => m.name)).toStrictEqual(["a", "b", "c"]);
    for (const intent of intents) {
      const journaled = journal.stages[0]!.groups[0]!.members.find((m) => m.name === intent.name)!;
      Object.assign(journaled, { startRequestedAt: intent.startRequestedAt, request: intent.request });
    }
    expect(journal.stages[0]!.startTime).toBeUndefined();
    await clock.sleepUntil(start + 5 * MINUTE);
    const second = UpdateRunEngine.resume(journal, backend, {});
    await drive(second, clock);
    return { status: second.status(), fleet };
  }

  it("the stage and its group start when the earliest of them started, not when the resumed pass reached them", async () => {
    const { status, fleet } = await resumedAfterCrash();
    const [stage] = status.stages;
    const members = Object.fromEntries(stage!.groups[0]!.members.map((m) => [m.name, m.status]));
    expect(members).toStrictEqual({
      a: { state: "Completed", startTime: T(2), completedTime: T(30) },
      b: { state: "Completed", startTime: T(1), completedTime: T(30) },
      c: { state: "Completed", startTime: T(3), completedTime: T(30) },
    });
    expect(stage!.status).toStrictEqual({ state: "Completed", startTime: T(1), completedTime: T(30) });
    expect(stage!.groups[0]!.status).toStrictEqual({ state: "Completed", startTime: T(1), completedTime: T(30) });
    expect(status.status).toStrictEqual({ state: "Completed", startTime: T(0), completedTime: T(30) });
    // Adopted, not started again.
    expect(fleet.startUpgradeCalls().map((c) => c.member)).toStrictEqual(["a", "b", "c"]);
  });
});
