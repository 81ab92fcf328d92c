/**
 * `UpdateRunEngine`'s surface as its callers use it (the drivers, `pulumi refresh`, the journal): observe
 * without acting, whether the run is busy or settled, the members changed since the last look and where
 * they sit, the events not delivered yet, the gates, and what the run leaves for the next one.
 * Issue 34: these were exercised only through the drivers, outside the engine's own tests.
 */
import { describe, expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import { VirtualClock } from "../../src/engine/clock";
import { UpdateRunEngine } from "../../src/engine/engine";
import type { EngineOptions } from "../../src/engine/context";
import { updateChoiceOf } from "../../src/model/autoUpgrade";
import { parseScenario, resolveScenarioStrategy } from "../../src/simulation/scenario";
import type { RunEvent } from "../../src/model/status";
import { ValidationError } from "../../src/model/issues";
import { AnalysisSchema } from "../../src/model/analysis";
import { START, member, scenario } from "./helpers";

const at = (minutes: number) => Date.parse(START) + minutes * 60_000;

function engineFor(yaml: string, options: EngineOptions = {}) {
  const parsed = parseScenario(yaml);
  const clock = new VirtualClock(Date.parse(parsed.start));
  const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
  const engine = UpdateRunEngine.create({ name: "run", members: parsed.members, strategy: resolveScenarioStrategy(parsed), ...updateChoiceOf(parsed) }, fleet, options);
  return { engine, clock, fleet };
}

const TWO_GROUPS = scenario({
  members: [member("a-1", { group: "a" }), member("a-2", { group: "a" }), member("b-1", { group: "b", minutes: 30 })],
  strategy: "{stages: [{name: s, groups: [{name: a}, {name: b, beforeGates: [{type: Approval, displayName: hold b}]}]}]}",
});

describe("UpdateRunEngine", () => {
  it("create refuses members and a strategy or analysis that disagree, naming each field path", () => {
    const parsed = parseScenario(TWO_GROUPS);
    const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, new VirtualClock(Date.parse(parsed.start)));
    const refusal = (() => {
      try {
        UpdateRunEngine.create(
          {
            name: "run",
            // a-1 twice.
            members: [...parsed.members, { name: "a-1", group: "b" }],
            strategy: resolveScenarioStrategy(parsed),
            ...updateChoiceOf(parsed),
            // A stage the strategy does not have.
            analysis: AnalysisSchema.parse({
              templates: [{ name: "err", provider: { prometheus: { address: "http://prometheus:9090", query: "err" } }, interval: "5m", successCondition: "result < 0.05" }],
              stages: [{ name: "prod", soak: ["err"] }],
            }),
          },
          fleet,
        );
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(ValidationError);
    expect((refusal as ValidationError).issues.map((i) => i.path)).toEqual(expect.arrayContaining(["members[3].name", "analysis.stages[0].name"]));
  });

  it("observe follows an upgrade under way to its end but starts nothing (pulumi refresh)", async () => {
    const { engine, clock } = engineFor(TWO_GROUPS);
    expect(engine.settled).toBe(true);
    engine.start(at(0));
    expect(engine.settled).toBe(false);
    await engine.reconcile(at(0));
    expect(engine.busy).toBe(true);
    await clock.sleepUntil(at(10));
    await engine.observe(at(10));
    const members = engine.status().stages[0]!.groups[0]!.members;
    expect(members.map((m) => [m.name, m.status.state])).toEqual([
      ["a-1", "Completed"],
      ["a-2", "NotStarted"],
    ]);
    expect(engine.busy).toBe(false);
    expect(engine.settled).toBe(false);
    await engine.reconcile(at(10));
    expect(engine.status().stages[0]!.groups[0]!.members[1]!.status.state).toBe("Running");
  });

  it("is settled once stopped and drained, or finished; never while an upgrade runs", async () => {
    const { engine, clock } = engineFor(scenario({ members: [member("m-1"), member("m-2")] }));
    engine.start(at(0));
    await engine.reconcile(at(0));
    engine.stop(at(5));
    expect(engine.settled).toBe(false);
    await clock.sleepUntil(at(10));
    await engine.reconcile(at(10));
    expect([engine.state, engine.settled, engine.busy]).toEqual(["Stopped", true, false]);
    engine.start(at(20));
    for (const t of [20, 30]) {
      await clock.sleepUntil(at(t));
      await engine.reconcile(at(t));
    }
    expect([engine.state, engine.settled]).toEqual(["Completed", true]);
  });

  it("says when to look next: the upgrade's end, or nothing once the run waits on a person", async () => {
    const { engine, clock } = engineFor(TWO_GROUPS);
    engine.start(at(0));
    expect((await engine.reconcile(at(0))).nextWakeAt).toBe(at(10));
    expect(engine.nextWakeAt).toBe(at(10));
    for (const t of [10, 20]) {
      await clock.sleepUntil(at(t));
      await engine.reconcile(at(t));
    }
    // Group a is done; b waits for its gate: nothing happens until someone approves it.
    expect(engine.nextWakeAt).toBeUndefined();
  });

  it("a ScheduledStart gate approved before its instant wakes nothing at that instant: the run then waits only on a person", async () => {
    const { engine, clock } = engineFor(
      scenario({
        members: [member("a-1", { group: "a" })],
        strategy: '{stages: [{name: s, beforeGates: [{type: ScheduledStart, scheduledStartConfiguration: {startDay: Monday, startTime: "09:00", utcOffset: "+00:00"}}], groups: [{name: a, afterGates: [{type: Approval}]}]}]}',
      }),
    );
    engine.start(at(0));
    expect((await engine.reconcile(at(0))).nextWakeAt).toBe(Date.parse("2026-12-07T09:00:00Z"));
    engine.approve(["s/before/0"], at(30));
    for (const t of [30, 40]) {
      await clock.sleepUntil(at(t));
      await engine.reconcile(at(t));
    }
    // a-1 upgraded from 00:30 to 00:40; its group's after-gate waits for an approval.
    expect(engine.gates().map((g) => [g.gateId, g.state])).toEqual([["s/before/0", "Completed"], ["s/a/after/0", "Pending"]]);
    expect(engine.nextWakeAt).toBeUndefined();
  });

  it("lists the gates with their state, and approving one by id lets its group go", async () => {
    const { engine, clock } = engineFor(TWO_GROUPS);
    engine.start(at(0));
    await engine.reconcile(at(0));
    // An Approval gate has no schedule and no instant: the fields are left out, not undefined.
    expect(engine.gates()).toStrictEqual([{ gateId: "s/b/before/0", displayName: "hold b", state: "Pending" }]);
    engine.approve(["s/b/before/0"], at(5));
    expect(engine.gates()[0]?.state).toBe("Completed");
    await clock.sleepUntil(at(5));
    await engine.reconcile(at(5));
    expect(engine.status().stages[0]!.groups[1]!.members[0]!.status).toEqual({ state: "Running", startTime: "2026-12-05T00:05:00Z" });
  });

  it("approving a group's after-gate completes the group at once, before the next pass", async () => {
    const { engine, clock } = engineFor(scenario({ members: [member("a-1", { group: "a" }), member("b-1", { group: "b" })], strategy: "{stages: [{name: one, groups: [{name: a, afterGates: [{type: Approval}]}]}, {name: two, groups: [{name: b}]}]}" }));
    engine.start(at(0));
    for (const t of [0, 10]) {
      await clock.sleepUntil(at(t));
      await engine.reconcile(at(t));
    }
    expect(engine.status().stages[0]!.groups[0]!.status.state).toBe("Pending");
    engine.approve(["one/a/after/0"], at(15));
    expect(engine.status().stages[0]!.groups[0]!.status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:15:00Z" });
  });

  it("a ScheduledStart gate is listed with its schedule, and once reached with the instant it opens", async () => {
    const { engine } = engineFor(
      scenario({
        members: [member("m-1")],
        strategy: '{stages: [{name: s, beforeGates: [{type: ScheduledStart, scheduledStartConfiguration: {startDay: Monday, startTime: "09:00", utcOffset: "+01:00"}}], groups: [{name: default}]}]}',
      }).replace("  - {name: m-1,", "  - {name: m-1, group: default,"),
    );
    const schedule = { startDay: "Monday", startTime: "09:00", utcOffset: "+01:00" };
    expect(engine.gates()).toStrictEqual([{ gateId: "s/before/0", displayName: "Scheduled start", state: "NotStarted", scheduledStart: schedule }]);
    engine.start(at(0));
    await engine.reconcile(at(0));
    // Saturday 00:00 UTC: the next Monday 09:00 at +01:00 is Monday 08:00 UTC.
    expect(engine.gates()).toEqual([{ gateId: "s/before/0", displayName: "Scheduled start", state: "Pending", scheduledStart: schedule, absoluteStartTime: Date.parse("2026-12-07T08:00:00Z") }]);
  });

  it("takeChanges: the members changed since the last call, each with its stage, group and place", async () => {
    const { engine, clock } = engineFor(TWO_GROUPS, { trackChanges: true });
    engine.start(at(0));
    await engine.reconcile(at(0));
    expect(engine.takeChanges().map(({ at: position, member: m }) => [m.name, position, m.state])).toEqual([["a-1", [0, 0, 0], "Running"]]);
    expect(engine.takeChanges()).toEqual([]);
    await clock.sleepUntil(at(10));
    await engine.reconcile(at(10));
    expect(engine.takeChanges().map(({ at: position, member: m }) => [m.name, position, m.state])).toEqual([
      ["a-1", [0, 0, 0], "Completed"],
      ["a-2", [0, 0, 1], "Running"],
    ]);
    expect(engine.positionOf(engine.live.stages[0]!.groups[1]!.members[0]!)).toEqual([0, 1, 0]);
    expect(() => engineFor(TWO_GROUPS).engine.takeChanges()).toThrow("takeChanges needs EngineOptions.trackChanges");
    // A member of another run (here, of another engine over the same scenario) has no place in this one.
    const stranger = engineFor(TWO_GROUPS).engine.live.stages[0]!.groups[0]!.members[0]!;
    expect(() => engine.positionOf(stranger)).toThrow("member a-1 is not in the run");
  });

  it("takeChanges includes a member changed by its state alone: a Pending member put back to NotStarted by a stop", async () => {
    const { engine } = engineFor(scenario({ members: [member("busy-1", { busyUntil: "2026-12-05T05:00:00Z" })] }), { trackChanges: true });
    engine.start(at(0));
    await engine.reconcile(at(0));
    expect(engine.takeChanges().map(({ member: m }) => [m.name, m.state])).toEqual([["busy-1", "Pending"]]);
    engine.stop(at(1));
    await engine.reconcile(at(1));
    expect(engine.takeChanges().map(({ member: m }) => [m.name, m.state])).toEqual([["busy-1", "NotStarted"]]);
  });

  it("the events of a pass are undelivered while its state is checkpointed, and delivered after", async () => {
    const delivered: RunEvent[] = [];
    const atCheckpoint: RunEvent[][] = [];
    let engine: UpdateRunEngine | undefined;
    const made = engineFor(scenario({ members: [member("m-1")] }), {
      onEvent: (e) => delivered.push(e),
      checkpoint: (intent) => {
        if (intent === undefined) atCheckpoint.push(engine!.undeliveredEvents());
      },
    });
    engine = made.engine;
    engine.start(at(0));
    await engine.reconcile(at(0));
    expect(atCheckpoint.at(-1)?.map((e) => `${e.scope} ${e.name} ${e.from}->${e.to}`).sort()).toEqual([
      "group default NotStarted->Running",
      "member m-1 NotStarted->Running",
      "run run NotStarted->Running",
      "stage default NotStarted->Running",
    ]);
    expect(delivered).toEqual(atCheckpoint.at(-1));
    expect(engine.undeliveredEvents()).toEqual([]);
  });

  it("a start retries a failed member: until it is picked again it is NotStarted, saying why, with no operation", async () => {
    const { engine, clock } = engineFor(scenario({ members: [member("f-1", { fail: "drain timed out" }), member("m-2")] }));
    engine.start(at(0));
    for (const t of [0, 10]) {
      await clock.sleepUntil(at(t));
      await engine.reconcile(at(t));
    }
    expect(engine.status().stages[0]!.groups[0]!.members[0]).toMatchObject({ operationId: "op-f-1-1", status: { state: "Failed" } });
    engine.start(at(30));
    expect(engine.status().stages[0]!.groups[0]!.members[0]).toEqual({ name: "f-1", message: "Retrying: the previous attempt failed (UpgradeFailed).", status: { state: "NotStarted" } });
    // Skipped before it is picked again: nothing of the failed attempt is left in its status.
    engine.skip([{ type: "Member", name: "f-1" }], at(30));
    expect(engine.status().stages[0]!.groups[0]!.members[0]).toEqual({ name: "f-1", message: "Skipped by user.", status: { state: "Skipped", completedTime: "2026-12-05T00:30:00Z" } });
  });

  it("a start after a stop resumes a wait under way at once", async () => {
    const { engine, clock } = engineFor(
      scenario({ members: [member("c-1", { group: "c" }), member("p-1", { group: "p" })], strategy: "{stages: [{name: canary, groups: [{name: c}], afterStageWaitInSeconds: 3600}, {name: prod, groups: [{name: p}]}]}" }),
    );
    engine.start(at(0));
    for (const t of [0, 10]) {
      await clock.sleepUntil(at(t));
      await engine.reconcile(at(t));
    }
    engine.stop(at(20));
    expect(engine.status().stages[0]!.afterStageWaitStatus?.status.state).toBe("Stopped");
    engine.start(at(30));
    expect(engine.status().stages[0]!.afterStageWaitStatus?.status).toEqual({ state: "Running", startTime: "2026-12-05T00:10:00Z" });
  });

  it("results: the members that failed, for a retry run", async () => {
    const { engine, clock } = engineFor(scenario({ members: [member("ok-1", { group: "g" }), member("bad-1", { group: "g", fail: "drain timed out" })], strategy: '{stages: [{name: s, groups: [{name: g, maxAllowedFailures: "1"}]}]}' }));
    engine.start(at(0));
    for (const t of [0, 10, 20]) {
      await clock.sleepUntil(at(t));
      await engine.reconcile(at(t));
    }
    // A run with no autoUpgradeProfile generated no update: the field is left out, not undefined.
    expect(engine.results()).toStrictEqual({ failedMembers: [expect.objectContaining({ name: "bad-1" })], appliedNodeImageVersions: [] });
  });
});
