/**
 * The status tree and the summary a user reads (docs/rules.md §5), at each point of a run's life, and a
 * run read back from its stored state (`UpdateRunEngine.resume`): what it shows and what it does next.
 * Issue 34: these parts were tested mostly through whole scenarios that looked at a few fields.
 */
import { describe, expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import { VirtualClock } from "../../src/engine/clock";
import type { EngineOptions } from "../../src/engine/context";
import { UpdateRunEngine } from "../../src/engine/engine";
import { summarize } from "../../src/engine/summary";
import { updateChoiceOf } from "../../src/model/autoUpgrade";
import { parseScenario, resolveScenarioStrategy } from "../../src/simulation/scenario";
import { IMAGE, START, member, scenario } from "./helpers";

const at = (minutes: number) => Date.parse(START) + minutes * 60_000;
const T = (minutes: number) => new Date(at(minutes)).toISOString().replace(/\.000Z$/, "Z");
const NONE = { NotStarted: 0, Running: 0, Pending: 0, Stopping: 0, Stopped: 0, Skipped: 0, Failed: 0, Completed: 0 };

function engineFor(yaml: string, options: EngineOptions = {}) {
  const parsed = parseScenario(yaml);
  const clock = new VirtualClock(Date.parse(parsed.start));
  const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
  const engine = UpdateRunEngine.create({ name: "run", members: parsed.members, strategy: resolveScenarioStrategy(parsed), ...updateChoiceOf(parsed) }, fleet, options);
  /** Passes at each of `minutes`, in order. */
  const passes = async (...minutes: number[]) => {
    for (const m of minutes) {
      await clock.sleepUntil(at(m));
      await engine.reconcile(at(m));
    }
  };
  return { engine, clock, fleet, passes };
}

const TWO = scenario({ members: [member("m-1"), member("m-2")] });

describe("summary", () => {
  it("before the start: Pending, every member NotStarted, and no times", () => {
    const { engine } = engineFor(TWO);
    expect(summarize(engine.status())).toStrictEqual({ state: "NotStarted", outcome: "Pending", failureCount: 0, members: { ...NONE, total: 2, NotStarted: 2 } });
  });

  it("under way: its start, and neither an end nor a duration", async () => {
    const { engine, passes } = engineFor(TWO);
    engine.start(at(0));
    await passes(0);
    expect(summarize(engine.status())).toStrictEqual({
      state: "Running",
      outcome: "Pending",
      failureCount: 0,
      members: { ...NONE, total: 2, Running: 1, NotStarted: 1 },
      startTime: T(0),
    });
  });

  it("stopping is still Pending; once the last upgrade ended, Stopped with its end and duration", async () => {
    const { engine, passes } = engineFor(TWO);
    engine.start(at(0));
    await passes(0);
    engine.stop(at(5));
    expect(summarize(engine.status())).toMatchObject({ state: "Stopping", outcome: "Pending" });
    await passes(10);
    expect(summarize(engine.status())).toStrictEqual({
      state: "Stopped",
      outcome: "Stopped",
      failureCount: 0,
      members: { ...NONE, total: 2, Completed: 1, NotStarted: 1 },
      startTime: T(0),
      completedTime: T(10),
      durationSeconds: 600,
    });
  });

  it("every stage skipped before the start: Skipped, Succeeded, with its end and neither a start nor a duration", () => {
    const { engine } = engineFor(TWO);
    engine.skip([{ type: "Stage", name: "default" }], at(1));
    expect(summarize(engine.status())).toStrictEqual({
      state: "Skipped",
      outcome: "Succeeded",
      failureCount: 0,
      members: { ...NONE, total: 2, Skipped: 2 },
      completedTime: T(1),
    });
  });

  it("finished: Succeeded, with the run's duration in seconds", async () => {
    const { engine, passes } = engineFor(TWO);
    engine.start(at(0));
    await passes(0, 10, 20);
    expect(summarize(engine.status())).toStrictEqual({
      state: "Completed",
      outcome: "Succeeded",
      failureCount: 0,
      members: { ...NONE, total: 2, Completed: 2 },
      startTime: T(0),
      completedTime: T(20),
      durationSeconds: 1200,
    });
  });
});

describe("status tree", () => {
  it("a run that picks no node image shows an empty selection, before its start as after its end", async () => {
    const { engine, passes } = engineFor(TWO);
    expect(engine.status().nodeImageSelection).toStrictEqual({ selectedNodeImageVersions: [] });
    engine.start(at(0));
    await passes(0, 10, 20);
    expect(engine.status().nodeImageSelection).toStrictEqual({ selectedNodeImageVersions: [] });
  });

  it("an approval gate shows its name, id and state, and no schedule; a ScheduledStart gate its schedule, and its instant once reached", async () => {
    const { engine, passes } = engineFor(
      scenario({
        members: [member("a-1", { group: "a" }), member("b-1", { group: "b" })],
        strategy:
          '{stages: [{name: one, groups: [{name: a, afterGates: [{type: Approval, displayName: check a}]}]}, {name: two, beforeGates: [{type: ScheduledStart, scheduledStartConfiguration: {startDay: Monday, startTime: "09:00", utcOffset: "+01:00"}}], groups: [{name: b}]}]}',
      }),
    );
    const schedule = { startDay: "Monday", startTime: "09:00", utcOffset: "+01:00" };
    engine.start(at(0));
    await passes(0, 10);
    const stages = engine.status().stages;
    expect(stages[0]!.groups[0]!.afterGates).toStrictEqual([{ displayName: "check a", gateId: "one/a/after/0", status: { state: "Pending", startTime: T(10) } }]);
    expect(stages[1]!.beforeGates).toStrictEqual([{ displayName: "Scheduled start", gateId: "two/before/0", status: { state: "NotStarted" }, scheduledStartProperties: schedule }]);
    engine.approve(["one/a/after/0"], at(15));
    await passes(15);
    // Saturday 00:15 UTC: the next Monday 09:00 at +01:00 is Monday 08:00 UTC.
    expect(engine.status().stages[1]!.beforeGates).toStrictEqual([
      { displayName: "Scheduled start", gateId: "two/before/0", status: { state: "Pending", startTime: T(15) }, scheduledStartProperties: { ...schedule, absoluteStartTime: "2026-12-07T08:00:00Z" } },
    ]);
  });

  it("a member shows its cluster's resource id when the run was given one", async () => {
    const id = "/subscriptions/00000000-1111-2222-3333-444444444444/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/m-1";
    const { engine, passes } = engineFor(TWO.replace("  - {name: m-1,", `  - {name: m-1, clusterResourceId: "${id}",`));
    engine.start(at(0));
    await passes(0);
    expect(engine.status().stages[0]!.groups[0]!.members).toStrictEqual([
      { name: "m-1", clusterResourceId: id, operationId: "op-m-1-1", message: expect.any(String), status: { state: "Running", startTime: T(0) } },
      { name: "m-2", message: "Waiting for its turn in group 'default' (1 member at a time).", status: { state: "NotStarted" } },
    ]);
  });

  it("a NotStarted member says why: its turn (counting the group's members at a time) from the start, and a run stopping", async () => {
    const { engine, passes } = engineFor(
      scenario({
        members: [member("a-1", { group: "a" }), member("a-2", { group: "a" }), member("a-3", { group: "a" }), member("b-1", { group: "b" }), member("b-2", { group: "b" })],
        strategy: '{stages: [{name: s, groups: [{name: a, maxConcurrency: "2"}, {name: b}]}]}',
      }),
    );
    const messages = () => engine.status().stages[0]!.groups.flatMap((g) => g.members.filter((m) => m.status.state === "NotStarted").map((m) => `${m.name}: ${m.message}`));
    engine.start(at(0));
    // Started, before its first pass: the stage is the one under way, not one to wait for.
    expect(messages()).toEqual([
      "a-1: Waiting for its turn in group 'a' (2 members at a time).",
      "a-2: Waiting for its turn in group 'a' (2 members at a time).",
      "a-3: Waiting for its turn in group 'a' (2 members at a time).",
      "b-1: Waiting for its turn in group 'b' (1 member at a time).",
      "b-2: Waiting for its turn in group 'b' (1 member at a time).",
    ]);
    await passes(0);
    engine.stop(at(5));
    expect(messages()).toEqual(["a-3: Not started: the run is stopping.", "b-2: Not started: the run is stopping."]);
  });
});

describe("a run read back from its stored state", () => {
  it("keeps its gates: one waiting for approval still holds its group until approved", async () => {
    const yaml = scenario({
      members: [member("a-1", { group: "a" }), member("b-1", { group: "b" })],
      strategy: "{stages: [{name: s, groups: [{name: a}, {name: b, beforeGates: [{type: Approval, displayName: hold b}]}]}]}",
    });
    const first = engineFor(yaml);
    first.engine.start(at(0));
    await first.passes(0);
    const engine = UpdateRunEngine.resume(first.engine.snapshot(), first.fleet);
    expect(engine.status().stages[0]!.groups[1]!.beforeGates).toStrictEqual([{ displayName: "hold b", gateId: "s/b/before/0", status: { state: "Pending", startTime: T(0) } }]);
    await first.clock.sleepUntil(at(10));
    await engine.reconcile(at(10));
    expect(engine.status().stages[0]!.groups[1]!.members[0]!.status).toStrictEqual({ state: "NotStarted" });
    engine.approve(["s/b/before/0"], at(12));
    await first.clock.sleepUntil(at(12));
    await engine.reconcile(at(12));
    expect(engine.status().stages[0]!.groups[1]!.members[0]!.status).toStrictEqual({ state: "Running", startTime: T(12) });
  });

  it("a Completed member stored without its request (a journal from before requests were kept) adds no image to what the run applied", async () => {
    const first = engineFor(scenario({ members: [member("old-1"), member("new-1")], update: "{upgrade: {type: NodeImageOnly}}" }));
    first.engine.start(at(0));
    await first.passes(0, 10, 20);
    const stored = first.engine.snapshot();
    delete stored.stages[0]!.groups[0]!.members[0]!.request;
    const engine = UpdateRunEngine.resume(stored, first.fleet);
    expect(engine.results()).toStrictEqual({ failedMembers: [], appliedNodeImageVersions: [{ version: IMAGE.NOV }] });
  });
});

describe("what follows from a change (settle)", () => {
  it("an empty group's gates wait with it, NotStarted, until its stage starts; then they are skipped, needing no approval", async () => {
    const { engine, passes } = engineFor(
      scenario({
        members: [member("a-1", { group: "a" }), member("p-1", { labels: { env: "prod" } })],
        strategy:
          '{stages: [{name: one, groups: [{name: a}]}, {name: two, groups: [{name: qa, memberSelector: {byLabel: "env=qa"}, beforeGates: [{type: Approval}], afterGates: [{type: Approval}]}, {name: prod, memberSelector: {byLabel: "env=prod"}}]}]}',
      }),
      { onEvent: (e) => events.push(e) },
    );
    const events: Array<{ scope: string; name: string; to: string; message?: string; time: string }> = [];
    const qa = () => engine.status().stages[1]!.groups[0]!;
    engine.start(at(0));
    await passes(0, 5);
    expect(qa()).toMatchObject({ status: { state: "NotStarted" }, beforeGates: [{ status: { state: "NotStarted" } }], afterGates: [{ status: { state: "NotStarted" } }] });
    await passes(10);
    expect(qa()).toMatchObject({ status: { state: "Skipped" }, beforeGates: [{ status: { state: "Skipped" } }], afterGates: [{ status: { state: "Skipped" } }] });
    expect(events.filter((e) => e.scope === "gate").map((e) => `${e.time} ${e.name} ${e.to}: ${e.message}`)).toEqual([
      `${T(10)} two/qa/before/0 Skipped: Group skipped: no approval needed.`,
      `${T(10)} two/qa/after/0 Skipped: Group skipped: no approval needed.`,
    ]);
  });

  it("a stage whose groups were all skipped by the user has its gates skipped, needing no approval", async () => {
    const { engine, passes } = engineFor(
      scenario({
        members: [member("a-1", { group: "a" }), member("b-1", { group: "b" })],
        strategy: "{stages: [{name: one, groups: [{name: a}]}, {name: two, beforeGates: [{type: Approval}], afterGates: [{type: Approval}], groups: [{name: b}]}]}",
      }),
      { onEvent: (e) => events.push(e) },
    );
    const events: Array<{ scope: string; name: string; to: string; message?: string; time: string }> = [];
    engine.start(at(0));
    await passes(0);
    engine.skip([{ type: "Group", name: "b" }], at(5));
    await passes(10);
    expect(events.filter((e) => e.scope === "gate").map((e) => `${e.time} ${e.name} ${e.to}: ${e.message}`)).toEqual([
      `${T(5)} two/before/0 Skipped: Stage skipped: no approval needed.`,
      `${T(5)} two/after/0 Skipped: Stage skipped: no approval needed.`,
    ]);
    expect(engine.status().status.state).toBe("Completed");
  });

  it("a group skipped before its stage started never starts: when the stage starts, it still shows only when it ended", async () => {
    const { engine, passes } = engineFor(
      scenario({
        members: [member("a-1", { group: "a" }), member("b-1", { group: "b" }), member("c-1", { group: "c" })],
        strategy: "{stages: [{name: one, groups: [{name: a}]}, {name: two, groups: [{name: b}, {name: c}]}]}",
      }),
    );
    engine.start(at(0));
    await passes(0);
    engine.skip([{ type: "Group", name: "b" }], at(5));
    await passes(10);
    expect(engine.status().stages[1]!.status).toStrictEqual({ state: "Running", startTime: T(10) });
    expect(engine.status().stages[1]!.groups.map((g) => g.status)).toStrictEqual([
      { state: "Skipped", completedTime: T(5) },
      { state: "Running", startTime: T(10) },
    ]);
  });
});

describe("a stage's analyses in the tree", () => {
  it("a failed pre-check started again leaves the stage with none shown until the next pass measures it anew", async () => {
    const yaml =
      scenario({ members: [member("c-1")] }).replace("  - {name: c-1,", "  - {simulation: {metrics: [{name: err, value: 0.01}]}, name: c-1,") +
      [
        "analysis:",
        "  templates:",
        `    - {name: missing, provider: {prometheus: {address: "http://prometheus:9090", query: 'missing{cluster="{{member.name}}"}'}}, successCondition: result < 0.05}`,
        "  stages:",
        "    - {name: default, preCheck: [missing]}",
      ].join("\n");
    const parsed = parseScenario(yaml);
    const clock = new VirtualClock(Date.parse(parsed.start));
    const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
    const engine = UpdateRunEngine.create({ name: "run", members: parsed.members, strategy: resolveScenarioStrategy(parsed), ...updateChoiceOf(parsed), analysis: parsed.analysis! }, fleet);
    engine.start(at(0));
    await engine.reconcile(at(0));
    expect(engine.status().stages[0]).toMatchObject({ status: { state: "Failed" }, analysisRuns: [{ kind: "preCheck", template: "missing", phase: "Inconclusive" }] });
    engine.start(at(30));
    expect(engine.status().stages[0]).not.toHaveProperty("analysisRuns");
    await clock.sleepUntil(at(30));
    await engine.reconcile(at(30));
    expect(engine.status().stages[0]).toMatchObject({ analysisRuns: [{ kind: "preCheck", template: "missing", startedAt: T(30) }] });
  });
});

describe("aggregation in the tree (docs/rules.md §4)", () => {
  it("a member failure within its group's tolerance leaves the group Completed with no error; one past it fails group, stage and run, each naming the failed child", async () => {
    const { engine, passes } = engineFor(
      scenario({
        members: [member("a-1", { group: "a", fail: "boom" }), member("a-2", { group: "a" }), member("b-1", { group: "b", fail: "boom" }), member("b-2", { group: "b", fail: "bang" })],
        strategy: '{stages: [{name: one, groups: [{name: a, maxAllowedFailures: "1"}]}, {name: two, groups: [{name: b, maxAllowedFailures: "1"}]}]}',
      }),
    );
    engine.start(at(0));
    await passes(0, 10, 20, 30, 40);
    const status = engine.status();
    expect(status.stages[0]!.groups[0]!.status).toStrictEqual({ state: "Completed", startTime: T(0), completedTime: T(20) });
    const upgradeFailed = (message: string) => ({ code: "UpgradeFailed", message });
    expect(status.stages[1]!.groups[0]!.status.error).toStrictEqual(upgradeFailed("Member 'b-1' failed: boom (and 1 more)"));
    expect(status.stages[1]!.status.error).toStrictEqual(upgradeFailed("Group 'b' failed: Member 'b-1' failed: boom (and 1 more)"));
    expect(status.status).toStrictEqual({ state: "Failed", startTime: T(0), completedTime: T(40), error: upgradeFailed("Stage 'two' failed: Group 'b' failed: Member 'b-1' failed: boom (and 1 more)") });
  });

  it("while a failed run stops, it shows Stopping with no error of its own; once the last upgrade ends, Failed with it", async () => {
    const { engine, passes } = engineFor(
      scenario({ members: [member("f-1", { group: "g", fail: "boom" }), member("s-1", { group: "g", minutes: 30 })], strategy: '{stages: [{name: s, groups: [{name: g, maxConcurrency: "2"}]}]}' }),
    );
    engine.start(at(0));
    await passes(0, 10);
    expect(engine.status().status).toStrictEqual({ state: "Stopping", startTime: T(0) });
    await passes(30);
    expect(engine.status().status).toMatchObject({ state: "Failed", completedTime: T(30), error: { message: "Stage 's' failed: Group 'g' failed: Member 'f-1' failed: boom" } });
  });

  it("a group whose members were all skipped is Skipped, even past an approved gate", async () => {
    const { engine, passes } = engineFor(
      scenario({
        members: [member("a-1", { group: "a" }), member("b-1", { group: "b", busyUntil: "2026-12-05T05:00:00Z" })],
        strategy: "{stages: [{name: s, groups: [{name: a}, {name: b, beforeGates: [{type: Approval}]}]}]}",
      }),
    );
    engine.start(at(0));
    await passes(0);
    engine.approve(["s/b/before/0"], at(1));
    await passes(1);
    expect(engine.status().stages[0]!.groups[1]!.members[0]!.status.state).toBe("Pending");
    engine.skip([{ type: "Member", name: "b-1" }], at(2));
    expect(engine.status().stages[0]!.groups[1]!.status).toStrictEqual({ state: "Skipped", startTime: T(0), completedTime: T(2) });
  });

  it("a stage not started whose groups were all skipped is Skipped at once, its wait not counted", async () => {
    const { engine, passes } = engineFor(
      scenario({
        members: [member("a-1", { group: "a" }), member("b-1", { group: "b" })],
        strategy: "{stages: [{name: one, groups: [{name: a}]}, {name: two, groups: [{name: b}], afterStageWaitInSeconds: 600}]}",
      }),
    );
    engine.start(at(0));
    await passes(0);
    engine.skip([{ type: "Group", name: "b" }], at(5));
    expect(engine.status().stages[1]!.status).toStrictEqual({ state: "Skipped", completedTime: T(5) });
  });

  it("a soak that outlasts its stage's wait holds the next stage: its members wait for the stage, not for the wait that ended", async () => {
    const yaml =
      scenario({
        members: [member("c-1", { group: "canary" }), member("r-1", { group: "rest" })],
        strategy: "{stages: [{name: canary, groups: [{name: canary}], afterStageWaitInSeconds: 600}, {name: rest, groups: [{name: rest}]}]}",
      }).replaceAll("  - {name: ", "  - {simulation: {metrics: [{name: err, value: 0.01}]}, name: ") +
      [
        "analysis:",
        "  templates:",
        `    - {name: err, provider: {prometheus: {address: "http://prometheus:9090", query: 'err{cluster="{{member.name}}"}'}}, interval: 5m, count: 4, successCondition: result < 0.05}`,
        "  stages:",
        "    - {name: canary, soak: [err]}",
      ].join("\n");
    const parsed = parseScenario(yaml);
    const clock = new VirtualClock(Date.parse(parsed.start));
    const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
    const engine = UpdateRunEngine.create({ name: "run", members: parsed.members, strategy: resolveScenarioStrategy(parsed), ...updateChoiceOf(parsed), analysis: parsed.analysis! }, fleet);
    const messageAt = async (minutes: number) => {
      await clock.sleepUntil(at(minutes));
      await engine.reconcile(at(minutes));
      return engine.status().stages[1]!.groups[0]!.members[0]!.message;
    };
    engine.start(at(0));
    expect(await messageAt(0)).toBe("Waiting for stage 'canary' to finish.");
    expect(await messageAt(10)).toBe(`Waiting for the after-stage wait of stage 'canary' to end at ${T(20)}.`);
    expect(await messageAt(15)).toBe(`Waiting for the after-stage wait of stage 'canary' to end at ${T(20)}.`);
    expect(await messageAt(20)).toBe("Waiting for stage 'canary' to finish.");
    expect(engine.status().stages[0]!.afterStageWaitStatus?.status.state).toBe("Completed");
  });
});
