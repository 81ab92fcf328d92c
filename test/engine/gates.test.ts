/**
 * Issue 5 approval gates (docs/behaviour.md "Approval gates"): a gate blocks exactly its scope, is
 * Pending until approved and makes its ancestors Pending; a stage's after-gates run beside its wait;
 * skipping an item skips its gates; approvals may come early.
 */
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../src/model/issues";
import { parseScenario } from "../../src/simulation/scenario";
import { START, approveAt, member, scenario, simulate, skipAt, stopAt, startAt } from "./helpers";

const T = (minutes: number) => new Date(Date.parse(START) + minutes * 60_000).toISOString().replace(/\.000Z$/, "Z");

describe("before-gates", () => {
  it("a stage's before-gate holds every group of the stage until approved, and shows Pending up the tree", async () => {
    const yaml = scenario({
      members: [member("a", { group: "g1" }), member("b", { group: "g2" })],
      strategy: "{stages: [{name: prod, beforeGates: [{displayName: Change board, type: Approval}], groups: [{name: g1}, {name: g2}]}]}",
      actions: [approveAt(T(90), { stage: "prod", timing: "Before" })],
    });
    const o = await simulate(yaml);
    const gate = o.stage("prod").beforeGates?.[0];
    expect(gate).toMatchObject({ displayName: "Change board", gateId: "prod/before/0", status: { state: "Completed", startTime: START, completedTime: T(90) } });
    expect(o.transitions("gate", "prod/before/0")).toEqual([`${START} NotStarted->Pending`, `${T(90)} Pending->Completed`]);
    // Nothing started before the approval; both groups started at it.
    expect(o.opStarts("a")).toEqual([T(90)]);
    expect(o.opStarts("b")).toEqual([T(90)]);
    expect(o.transitions("stage", "prod")[0]).toBe(`${START} NotStarted->Pending`);
    expect(o.transitions("run", "scenario")[0]).toBe(`${START} NotStarted->Pending`);
    expect(o.run.state).toBe("Completed");
  });

  it("a group's before-gate holds only that group: its sibling in the stage proceeds", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "gated" }), member("b", { group: "free" })],
        strategy: "{stages: [{name: prod, groups: [{name: gated, beforeGates: [{type: Approval}]}, {name: free}]}]}",
        actions: [approveAt(T(60), { stage: "prod", group: "gated", timing: "Before" })],
      }),
    );
    expect(o.opStarts("b")).toEqual([START]);
    expect(o.opStarts("a")).toEqual([T(60)]);
    expect(o.group("gated").beforeGates?.[0]).toMatchObject({ gateId: "prod/gated/before/0", displayName: "Approval" });
    expect(o.transitions("group", "gated")[0]).toBe(`${START} NotStarted->Pending`);
    expect(o.transitions("group", "free")[0]).toBe(`${START} NotStarted->Running`);
  });

  it("an approval given before the gate is reached lets it pass the moment it is reached", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "canary" }), member("b", { group: "prod" })],
        strategy: "{stages: [{name: canary, groups: [{name: canary}]}, {name: prod, beforeGates: [{type: Approval}], groups: [{name: prod}]}]}",
        actions: [approveAt(START, { stage: "prod", timing: "Before" })],
      }),
    );
    expect(o.transitions("gate", "prod/before/0")).toEqual([`${T(10)} NotStarted->Completed`]);
    expect(o.opStarts("b")).toEqual([T(10)]);
  });

  it("an unapproved gate leaves the run Pending (outcome Pending) at the horizon, the gate saying what it waits for", async () => {
    const o = await simulate(
      scenario({
        until: T(600),
        members: [member("a", { group: "g" })],
        strategy: "{stages: [{name: s, beforeGates: [{type: Approval}], groups: [{name: g}]}]}",
      }),
    );
    expect(o.run.state).toBe("Pending");
    expect(o.result.summary.outcome).toBe("Pending");
    expect(o.stage("s").beforeGates?.[0]?.status).toEqual({ state: "Pending", startTime: START });
    expect(o.ops("a")).toEqual([]);
  });
});

describe("after-gates", () => {
  it("a group's after-gate keeps the group from counting as done: the next stage waits for the approval", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "canary" }), member("b", { group: "prod" })],
        strategy: "{stages: [{name: canary, groups: [{name: canary, afterGates: [{type: Approval}]}]}, {name: prod, groups: [{name: prod}]}]}",
        actions: [approveAt(T(45), { stage: "canary", group: "canary", timing: "After" })],
      }),
    );
    expect(o.member("a").status).toMatchObject({ state: "Completed", completedTime: T(10) });
    expect(o.transitions("gate", "canary/canary/after/0")).toEqual([`${T(10)} NotStarted->Pending`, `${T(45)} Pending->Completed`]);
    expect(o.transitions("group", "canary")).toEqual([`${START} NotStarted->Running`, `${T(10)} Running->Pending`, `${T(45)} Pending->Completed`]);
    expect(o.opStarts("b")).toEqual([T(45)]);
  });

  it("a stage's after-gate and its wait run side by side: the next stage starts when both are over (approval first)", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "canary" }), member("b", { group: "prod" })],
        strategy:
          "{stages: [{name: canary, afterStageWaitInSeconds: 3600, afterGates: [{type: Approval}], groups: [{name: canary}]}, {name: prod, groups: [{name: prod}]}]}",
        actions: [approveAt(T(30), { stage: "canary", timing: "After" })],
      }),
    );
    expect(o.stage("canary").afterGates?.[0]?.status).toEqual({ state: "Completed", startTime: T(10), completedTime: T(30) });
    expect(o.stage("canary").afterStageWaitStatus?.status).toMatchObject({ startTime: T(10), completedTime: T(70) });
    expect(o.opStarts("b")).toEqual([T(70)]);
  });

  it("...and when the approval comes after the wait, the next stage starts at the approval", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "canary" }), member("b", { group: "prod" })],
        strategy:
          "{stages: [{name: canary, afterStageWaitInSeconds: 3600, afterGates: [{type: Approval}], groups: [{name: canary}]}, {name: prod, groups: [{name: prod}]}]}",
        actions: [approveAt(T(200), { stage: "canary", timing: "After" })],
      }),
    );
    expect(o.stage("canary").afterStageWaitStatus?.status).toMatchObject({ state: "Completed", completedTime: T(70) });
    // After the wait, only the gate holds the stage: Pending, not Running.
    expect(o.transitions("stage", "canary")).toEqual([`${START} NotStarted->Running`, `${T(70)} Running->Pending`, `${T(200)} Pending->Completed`]);
    expect(o.opStarts("b")).toEqual([T(200)]);
  });
});

describe("skips, stops and validation", () => {
  it("empty gate lists are no gates: nothing waits, and the status shows no gate lists", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "a" })],
        strategy: "{stages: [{name: s, beforeGates: [], afterGates: [], groups: [{name: a, beforeGates: [], afterGates: []}]}]}",
      }),
    );
    expect(o.stage("s")).not.toHaveProperty("beforeGates");
    expect(o.stage("s")).not.toHaveProperty("afterGates");
    expect(o.stage("s").groups[0]).not.toHaveProperty("beforeGates");
    expect(o.stage("s").groups[0]).not.toHaveProperty("afterGates");
    expect(o.opStarts("a")).toEqual([START]);
    expect(o.run.state).toBe("Completed");
  });

  it("skipping a gated stage skips its gates; the next stage goes on without any approval", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "canary" }), member("b", { group: "prod" })],
        strategy: "{stages: [{name: canary, beforeGates: [{type: Approval}], afterGates: [{type: Approval}], groups: [{name: canary}]}, {name: prod, groups: [{name: prod}]}]}",
        actions: [skipAt(T(5), ["Stage", "canary"])],
      }),
    );
    expect(o.stage("canary").beforeGates?.[0]?.status.state).toBe("Skipped");
    expect(o.stage("canary").afterGates?.[0]?.status.state).toBe("Skipped");
    expect(o.stage("canary").status.state).toBe("Skipped");
    expect(o.ops("a")).toEqual([]);
    expect(o.opStarts("b")).toEqual([T(5)]);
    expect(o.run.state).toBe("Completed");
  });

  it("skipping a gated group skips its gates and leaves the stage's own gates alone", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "g1" }), member("b", { group: "g2" })],
        strategy: "{stages: [{name: s, groups: [{name: g1, beforeGates: [{type: Approval}]}, {name: g2}]}]}",
        actions: [skipAt(T(1), ["Group", "g1"])],
      }),
    );
    expect(o.group("g1").beforeGates?.[0]?.status.state).toBe("Skipped");
    expect(o.group("g1").status.state).toBe("Skipped");
    expect(o.run.state).toBe("Completed");
  });

  it("skipping a group whose members and gate are done leaves the gate Completed, as it was", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "g1" }), member("b", { group: "g2", minutes: 30 })],
        strategy: "{stages: [{name: s, groups: [{name: g1, beforeGates: [{type: Approval}]}, {name: g2}]}]}",
        actions: [approveAt(START, { stage: "s", group: "g1", timing: "Before" }), skipAt(T(15), ["Group", "g1"])],
      }),
    );
    expect(o.refusedActions).toEqual([]);
    expect(o.group("g1").beforeGates?.[0]?.status).toEqual({ state: "Completed", startTime: START, completedTime: START });
    expect(o.transitions("gate", "s/g1/before/0")).toEqual([`${START} NotStarted->Completed`]);
    expect(o.group("g1").status.state).toBe("Completed");
  });

  it("a stop while a gate waits puts it back to NotStarted; starting again makes it Pending again", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "g" })],
        strategy: "{stages: [{name: s, beforeGates: [{type: Approval}], groups: [{name: g}]}]}",
        actions: [stopAt(T(5)), startAt(T(20)), approveAt(T(30), { stage: "s", timing: "Before" })],
      }),
    );
    expect(o.transitions("gate", "s/before/0")).toEqual([
      `${START} NotStarted->Pending`,
      `${T(5)} Pending->NotStarted`,
      `${T(20)} NotStarted->Pending`,
      `${T(30)} Pending->Completed`,
    ]);
    expect(o.opStarts("a")).toEqual([T(30)]);
  });

  it("an approval naming a stage or group without gates at that timing is refused with its field path", () => {
    const yaml = scenario({
      members: [member("a", { group: "g" })],
      strategy: "{stages: [{name: s, beforeGates: [{type: Approval}], groups: [{name: g}]}]}",
      actions: [approveAt(T(5), { stage: "s", timing: "After" }, { stage: "nope", timing: "Before" })],
    });
    try {
      parseScenario(yaml);
      expect.unreachable();
    } catch (e) {
      expect((e as ValidationError).issues).toEqual([
        { path: "actions[0].approve[0]", message: "stage 's' has no after-gates to approve" },
        { path: "actions[0].approve[1]", message: "stage 'nope' has no before-gates to approve" },
      ]);
    }
  });

  it("a gate of a type other than Approval is refused with its path", () => {
    const yaml = scenario({ members: [member("a", { group: "g" })], strategy: "{stages: [{name: s, beforeGates: [{type: Wait}], groups: [{name: g}]}]}" });
    expect(() => parseScenario(yaml)).toThrow(/strategy\.stages\[0\]\.beforeGates\[0\]\.type: must be Approval or ScheduledStart/);
  });
});

describe("regressions found by the property tests", () => {
  it("a stage whose groups the user skipped has its after-gates skipped too (G7)", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "canary" }), member("b", { group: "prod" })],
        strategy: "{stages: [{name: canary, afterGates: [{type: Approval}], groups: [{name: canary}]}, {name: prod, groups: [{name: prod}]}]}",
        actions: [skipAt(START, ["Group", "canary"])],
      }),
    );
    expect(o.stage("canary").status.state).toBe("Skipped");
    expect(o.stage("canary").afterGates?.[0]?.status.state).toBe("Skipped");
    expect(o.opStarts("b")).toEqual([START]);
  });

  it("a group whose members were all skipped one by one has its gates skipped too", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "g1" }), member("b", { group: "g2" })],
        strategy: "{stages: [{name: s, groups: [{name: g1, afterGates: [{type: Approval}]}, {name: g2}]}]}",
        actions: [skipAt(START, ["Member", "a"])],
      }),
    );
    expect(o.group("g1").afterGates?.[0]?.status.state).toBe("Skipped");
    expect(o.run.state).toBe("Completed");
  });
});
