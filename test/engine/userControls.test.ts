/**
 * docs/rules.md §3.8-§3.9, what the user's start, stop and skip do and say: each skip's message by what
 * was skipped (a member, a group, a stage and its wait and gates, a wait under way or not), which waits a
 * skip ends (not started, stopped by a halt, under way; never one already over), a refusal naming what
 * is unknown, a stop of a run that is not running, a start of a run already running.
 * Issue 34: each of these could be broken without a test failing.
 */
import { describe, expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import { VirtualClock } from "../../src/engine/clock";
import { drive } from "../../src/engine/drive";
import { UpdateRunEngine } from "../../src/engine/engine";
import { updateChoiceOf } from "../../src/model/autoUpgrade";
import { parseScenario, resolveScenarioStrategy } from "../../src/simulation/scenario";
import { member, scenario, simulate, skipAt, startAt, stopAt, type SkipType } from "./helpers";

const T = (hhmm: string) => `2026-12-05T${hhmm}:00Z`;
/** s1 (a-1, a-2 one at a time, then an hour's wait), s2 (b-1, a before-gate, a 10-minute wait), s3 (c-1). */
const STRATEGY =
  "{stages: [{name: s1, groups: [{name: g1}], afterStageWaitInSeconds: 3600}, {name: s2, groups: [{name: g2}], beforeGates: [{type: Approval}], afterGates: [{type: Approval}], afterStageWaitInSeconds: 600}, {name: s3, groups: [{name: g3}]}]}";
const MEMBERS = [member("a-1", { group: "g1" }), member("a-2", { group: "g1" }), member("b-1", { group: "g2" }), member("c-1", { group: "g3" })];
const run = (actions: string[]) => simulate(scenario({ members: MEMBERS, strategy: STRATEGY, actions }));

const messagesOf = (out: Awaited<ReturnType<typeof run>>, name: string, to = "Skipped") => out.events.filter((e) => e.name === name && e.to === to).map((e) => [e.scope, e.time, e.message]);

describe("skip messages, by what the user skipped", () => {
  it("a member alone (its group running), a stage (its members, gates and wait), a group", async () => {
    const out = await run([skipAt(T("00:05"), ["Member", "a-2"], ["Stage", "s2"], ["Group", "g3"])]);
    expect(out.refusedActions).toEqual([]);
    expect(messagesOf(out, "a-2")).toEqual([["member", T("00:05"), "Skipped by user."]]);
    expect(out.member("a-1").status.state).toBe("Completed");
    expect(messagesOf(out, "b-1")).toEqual([["member", T("00:05"), "Skipped by user (stage 's2')."]]);
    expect(out.events.filter((e) => e.scope === "gate" && e.to === "Skipped").map((e) => e.message)).toEqual(["Skipped by user (stage 's2').", "Skipped by user (stage 's2')."]);
    expect(out.events.filter((e) => e.scope === "wait" && e.name === "s2").map((e) => [e.to, e.message])).toEqual([["Skipped", "Skipped by user (stage skipped)."]]);
    expect(messagesOf(out, "c-1")).toEqual([["member", T("00:05"), "Skipped by user (group 'g3')."]]);
  });
});

describe("skipping an after-stage wait", () => {
  it("under way: it ends now, saying so, and the next stage starts", async () => {
    const out = await run([skipAt(T("00:30"), ["AfterStageWait", "s1"], ["Stage", "s2"])]);
    expect(out.events.filter((e) => e.scope === "wait" && e.name === "s1").map((e) => [e.time, e.to, e.message])).toEqual([
      [T("00:20"), "Running", "Waiting until 2026-12-05T01:20:00Z."],
      [T("00:30"), "Skipped", "Skipped by user: the wait ends now."],
    ]);
    expect(out.member("c-1").status.startTime).toBe(T("00:30"));
  });

  it("not started yet: Skipped by user", async () => {
    const out = await run([skipAt(T("00:00"), ["AfterStageWait", "s1"])]);
    expect(out.events.filter((e) => e.scope === "wait" && e.name === "s1").map((e) => [e.time, e.to, e.message])).toEqual([[T("00:00"), "Skipped", "Skipped by user."]]);
  });

  it("already over: it stays Completed", async () => {
    const out = await run([skipAt(T("01:30"), ["AfterStageWait", "s1"])]);
    expect(out.refusedActions).toEqual([]);
    expect(out.stage("s1").afterStageWaitStatus?.status.state).toBe("Completed");
  });

  it("stopped by a halt: Skipped, and the next stage starts when the run is started again", async () => {
    const out = await run([stopAt(T("00:30")), skipAt(T("00:40"), ["AfterStageWait", "s1"], ["Stage", "s2"]), startAt(T("00:50"))]);
    expect(out.events.filter((e) => e.scope === "wait" && e.name === "s1").map((e) => [e.time, e.to])).toEqual([
      [T("00:20"), "Running"],
      [T("00:30"), "Stopped"],
      [T("00:40"), "Skipped"],
    ]);
    expect(out.member("c-1").status.startTime).toBe(T("00:50"));
  });
});

describe("names shared by a stage, a group and a member: each skip takes the item of its own type", () => {
  // Stage `first` holds group `first` with member `second`; stage `second` holds group `second` with member `first`.
  // (A stage whose every member was skipped ends Skipped, and its wait never starts: docs/rules.md §3.1.)
  const yaml = (skip: [SkipType, string]) =>
    scenario({
      members: [member("second", { group: "first" }), member("first", { group: "second" })],
      strategy: "{stages: [{name: first, groups: [{name: first}], afterStageWaitInSeconds: 600}, {name: second, groups: [{name: second}], afterStageWaitInSeconds: 600}]}",
      actions: [skipAt(T("00:00"), skip)],
    });
  const outcome = async (skip: [SkipType, string]) => {
    const out = await simulate(yaml(skip));
    expect(out.refusedActions).toEqual([]);
    return [
      ...["second", "first"].map((name) => `${name} ${out.member(name).status.state} ${out.member(name).message ?? ""}`.trim()),
      ...["first", "second"].map((stage) => `wait ${stage} ${out.stage(stage).afterStageWaitStatus?.status.state}`),
    ];
  };

  it("Group first", async () => {
    expect(await outcome(["Group", "first"])).toEqual(["second Skipped Skipped by user (group 'first').", "first Completed", "wait first NotStarted", "wait second Completed"]);
  });
  it("Member first", async () => {
    expect(await outcome(["Member", "first"])).toEqual(["second Completed", "first Skipped Skipped by user.", "wait first Completed", "wait second NotStarted"]);
  });
  it("Group second", async () => {
    expect(await outcome(["Group", "second"])).toEqual(["second Completed", "first Skipped Skipped by user (group 'second').", "wait first Completed", "wait second NotStarted"]);
  });
  it("AfterStageWait second", async () => {
    expect(await outcome(["AfterStageWait", "second"])).toEqual(["second Completed", "first Completed", "wait first Completed", "wait second Skipped"]);
  });
});

describe("what a skip leaves as it is", () => {
  it("a group's finished members keep their state; a stage with one group running is refused", async () => {
    const out = await simulate(
      scenario({
        members: [member("a-1", { group: "g1" }), member("a-2", { group: "g1" }), member("x-1", { group: "gx", minutes: 60 }), member("y-1", { group: "gy" })],
        strategy: "{stages: [{name: s1, groups: [{name: g1}]}, {name: s2, groups: [{name: gx}, {name: gy}]}]}",
        actions: [stopAt(T("00:05")), skipAt(T("00:20"), ["Group", "g1"]), startAt(T("00:30")), skipAt(T("00:45"), ["Stage", "s2"])],
      }),
    );
    expect(out.member("a-1").status.state).toBe("Completed");
    expect(out.member("a-2").status.state).toBe("Skipped");
    // At 00:45 x-1 runs (until 01:30) while y-1 is done: the stage is running.
    expect(out.refusedActions.map((r) => r.message)).toEqual(["skip refused, nothing was skipped: Stage 's2' is running and cannot be skipped"]);
    expect(out.member("x-1").status.state).toBe("Completed");
  });
});

describe("refusals and controls that change nothing", () => {
  function engineFor(yaml: string) {
    const parsed = parseScenario(yaml);
    const clock = new VirtualClock(Date.parse(parsed.start));
    const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
    const engine = UpdateRunEngine.create({ name: "run", members: parsed.members, strategy: resolveScenarioStrategy(parsed), ...updateChoiceOf(parsed) }, fleet);
    return { engine, clock };
  }
  const at = (hhmm: string) => Date.parse(T(hhmm));

  it("a skip naming an unknown item, or a running member, is refused whole, naming each", async () => {
    const { engine } = engineFor(scenario({ members: MEMBERS, strategy: STRATEGY }));
    engine.start(at("00:00"));
    await engine.reconcile(at("00:00"));
    expect(() => engine.skip([{ type: "Member", name: "zz-9" }, { type: "Member", name: "a-1" }, { type: "Member", name: "a-2" }], at("00:01"))).toThrow(
      "skip refused, nothing was skipped: no Member named 'zz-9' in this run; Member 'a-1' is running and cannot be skipped",
    );
    expect(engine.status().stages[0]?.groups[0]?.members.map((m) => m.status.state)).toEqual(["Running", "NotStarted"]);
  });

  it("a stop before the run was started leaves it NotStarted; it starts later as any run", async () => {
    const { engine, clock } = engineFor(scenario({ members: [member("m-1")] }));
    engine.stop(at("00:00"));
    await engine.reconcile(at("00:00"));
    expect(engine.status().status.state).toBe("NotStarted");
    expect(engine.status().stages[0]?.groups[0]?.members[0]?.message).toBe("The run has not been started.");
    engine.start(at("01:00"));
    await drive(engine, clock);
    expect(engine.status().status).toMatchObject({ state: "Completed", startTime: T("01:00") });
  });

  it("a start while the run is running changes nothing: a failure within the group's tolerance is not retried", async () => {
    const yaml = scenario({
      members: [member("f-1", { group: "g", fail: "boom" }), member("g-2", { group: "g" })],
      strategy: '{stages: [{name: s, groups: [{name: g, maxAllowedFailures: "1"}]}]}',
      actions: [startAt(T("00:15"))],
    });
    const out = await simulate(yaml);
    expect(out.member("f-1").status.state).toBe("Failed");
    expect(out.ops("f-1")).toHaveLength(1);
    expect(out.run.state).toBe("Completed");
  });
});
