/**
 * Gates as a user follows them (docs/behaviour.md "Approval gates", docs/rules.md §17): what each
 * gate event says, what a refused approval says, a gate's status after a stop, and several
 * ScheduledStart gates each opening at its own instant. Issue 34: these could be broken without a
 * test failing.
 */
import { describe, expect, it } from "vitest";
import { ApprovalRefusedError } from "../../src/engine/gates";
import { START, approveAt, driveScenario, member, scenario, simulate, startAt, stopAt } from "./helpers";

const T = (minutes: number) => new Date(Date.parse(START) + minutes * 60_000).toISOString().replace(/\.000Z$/, "Z");
const gateEvents = (o: Awaited<ReturnType<typeof simulate>>, id: string) => o.eventsOf("gate", id).map((e) => `${e.time} ${e.from}->${e.to}${e.message === undefined ? "" : ` ${e.message}`}`);

describe("what gate events say", () => {
  it("an Approval gate: waiting for its approval, then approved", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "g" })],
        strategy: "{stages: [{name: s, groups: [{name: g, beforeGates: [{type: Approval}]}]}]}",
        actions: [approveAt(T(30), { stage: "s", group: "g", timing: "Before" })],
      }),
    );
    expect(gateEvents(o, "s/g/before/0")).toEqual([`${START} NotStarted->Pending Waiting for approval of gate 's/g/before/0'.`, `${T(30)} Pending->Completed Approved.`]);
  });

  it("an approval given before the gate is reached: approved the moment it is reached", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "a" }), member("b", { group: "b" })],
        strategy: "{stages: [{name: one, groups: [{name: a}]}, {name: two, beforeGates: [{type: Approval}], groups: [{name: b}]}]}",
        actions: [approveAt(START, { stage: "two", timing: "Before" })],
      }),
    );
    expect(gateEvents(o, "two/before/0")).toEqual([`${T(10)} NotStarted->Completed Approved.`]);
  });

  it("a ScheduledStart gate: waiting until its instant, then open", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "g" })],
        strategy: '{stages: [{name: s, beforeGates: [{type: ScheduledStart, scheduledStartConfiguration: {startDay: Monday, startTime: "09:00", utcOffset: "+00:00"}}], groups: [{name: g}]}]}',
      }),
    );
    expect(gateEvents(o, "s/before/0")).toEqual([
      `${START} NotStarted->Pending Waiting until 2026-12-07T09:00:00Z (scheduled start).`,
      "2026-12-07T09:00:00Z Pending->Completed Scheduled start reached.",
    ]);
  });

  it("a ScheduledStart gate reached again after its instant passed (a stop in between) opens at once", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "g" })],
        strategy: '{stages: [{name: s, beforeGates: [{type: ScheduledStart, scheduledStartConfiguration: {startDay: Saturday, startTime: "01:00", utcOffset: "+00:00"}}], groups: [{name: g}]}]}',
        actions: [stopAt(T(30)), startAt(T(120))],
      }),
    );
    expect(gateEvents(o, "s/before/0")).toEqual([
      `${START} NotStarted->Pending Waiting until 2026-12-05T01:00:00Z (scheduled start).`,
      `${T(30)} Pending->NotStarted`,
      `${T(120)} NotStarted->Completed Scheduled start reached.`,
    ]);
    expect(o.opStarts("a")).toEqual([T(120)]);
  });
});

describe("several ScheduledStart gates", () => {
  it("each opens at its own instant; the stage starts when the last has", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "g" })],
        strategy:
          '{stages: [{name: s, beforeGates: [{type: ScheduledStart, scheduledStartConfiguration: {startDay: Monday, startTime: "09:00", utcOffset: "+00:00"}}, {type: ScheduledStart, scheduledStartConfiguration: {startDay: Tuesday, startTime: "09:00", utcOffset: "+00:00"}}], groups: [{name: g, beforeGates: [{type: ScheduledStart, scheduledStartConfiguration: {startDay: Sunday, startTime: "09:00", utcOffset: "+00:00"}}, {type: ScheduledStart, scheduledStartConfiguration: {startDay: Wednesday, startTime: "09:00", utcOffset: "+00:00"}}]}]}]}',
      }),
    );
    expect(o.stage("s").beforeGates?.map((g) => g.status.completedTime)).toEqual(["2026-12-07T09:00:00Z", "2026-12-08T09:00:00Z"]);
    // The group's gates are reached when the stage's have passed (Tuesday): Sunday's next is the 13th.
    expect(o.group("g").beforeGates?.map((g) => g.status.completedTime)).toEqual(["2026-12-13T09:00:00Z", "2026-12-09T09:00:00Z"]);
    expect(o.opStarts("a")).toEqual(["2026-12-13T09:00:00Z"]);
  });
});

describe("approvals and stops", () => {
  it("an approval naming unknown gates is refused whole, naming them", async () => {
    const { engine } = await driveScenario(scenario({ members: [member("a", { group: "g" })], strategy: "{stages: [{name: s, beforeGates: [{type: Approval}], groups: [{name: g}]}]}" }), { until: T(10) });
    const approve = () => engine.approve(["s/before/0", "s/after/0", "nope"], Date.parse(T(10)));
    expect(approve).toThrow(ApprovalRefusedError);
    expect(approve).toThrow("approval refused, nothing was approved: no gate 's/after/0', 'nope' in this run");
    expect(engine.gates().map((g) => g.state)).toEqual(["Pending"]);
  });

  it("a gate put back to NotStarted by a stop shows no start; reached again, it starts anew", async () => {
    const strategy = "{stages: [{name: s, beforeGates: [{type: Approval}], groups: [{name: g}]}]}";
    const stopped = await simulate(scenario({ members: [member("a", { group: "g" })], strategy, actions: [stopAt(T(5))] }));
    expect(stopped.stage("s").beforeGates?.[0]?.status).toEqual({ state: "NotStarted" });
    const restarted = await simulate(scenario({ members: [member("a", { group: "g" })], strategy, actions: [stopAt(T(5)), startAt(T(20))] }));
    expect(restarted.stage("s").beforeGates?.[0]?.status).toEqual({ state: "Pending", startTime: T(20) });
  });
});

describe("a gate reached again, and at its very instant", () => {
  it("an Approval gate stays Pending through the passes of its sibling group, until it is approved", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "gated" }), member("b-1", { group: "free" }), member("b-2", { group: "free" }), member("b-3", { group: "free" })],
        strategy: "{stages: [{name: s, groups: [{name: gated, beforeGates: [{type: Approval}]}, {name: free}]}]}",
        actions: [approveAt(T(200), { stage: "s", group: "gated", timing: "Before" })],
      }),
    );
    // The free group's passes at 00:10, 00:20 and 00:30 each reach the gate again: it waits on.
    expect(o.opStarts("b-3")).toEqual([T(20)]);
    expect(gateEvents(o, "s/gated/before/0")).toEqual([`${START} NotStarted->Pending Waiting for approval of gate 's/gated/before/0'.`, `${T(200)} Pending->Completed Approved.`]);
    expect(o.opStarts("a")).toEqual([T(200)]);
  });

  it("a ScheduledStart gate reached at the very instant it opens passes then, and its stage starts", async () => {
    const o = await simulate(
      scenario({
        start: "2026-12-07T09:00:00Z",
        members: [member("a", { group: "g" })],
        strategy: '{stages: [{name: s, beforeGates: [{type: ScheduledStart, scheduledStartConfiguration: {startDay: Monday, startTime: "09:00", utcOffset: "+00:00"}}], groups: [{name: g}]}]}',
      }),
    );
    expect(gateEvents(o, "s/before/0")).toEqual(["2026-12-07T09:00:00Z NotStarted->Completed Scheduled start reached."]);
    expect(o.opStarts("a")).toEqual(["2026-12-07T09:00:00Z"]);
    expect(o.run.state).toBe("Completed");
  });
});
