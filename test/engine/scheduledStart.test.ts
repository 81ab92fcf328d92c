/**
 * Issue 22, docs/rules.md §17: ScheduledStart gates. A gate reached opens at the next occurrence of
 * its weekday and local time (a week later if that time has passed that day); its status shows the
 * instant; an approval naming it opens it early; maintenance windows still apply after it opens; the
 * plan predicts it; it is a before-gate only.
 */
import { describe, expect, it } from "vitest";
import { nextScheduledStart } from "../../src/engine/scheduledStart";
import { ValidationError } from "../../src/model/issues";
import { parseScenario } from "../../src/simulation/scenario";
import { buildPlan } from "../../src/plan/buildPlan";
import { worldFromScenario } from "../../src/plan/fromScenario";
import { approveAt, daily, member, scenario, simulate } from "./helpers";

const at = (iso: string) => Date.parse(iso);
const TUESDAY_9_CET = { startDay: "Tuesday", startTime: "09:00", utcOffset: "+01:00" } as const;

describe("the next occurrence", () => {
  it.each([
    ["from a Saturday: the coming Tuesday", "2026-12-05T00:00:00Z", TUESDAY_9_CET, "2026-12-08T08:00:00Z"],
    ["on that Tuesday before the time: the same day", "2026-12-08T07:59:00Z", TUESDAY_9_CET, "2026-12-08T08:00:00Z"],
    ["at the very instant: now", "2026-12-08T08:00:00Z", TUESDAY_9_CET, "2026-12-08T08:00:00Z"],
    ["on that Tuesday after the time: a week later", "2026-12-08T08:01:00Z", TUESDAY_9_CET, "2026-12-15T08:00:00Z"],
    ["a local day other than the UTC day (-05:00)", "2026-12-07T12:00:00Z", { startDay: "Monday", startTime: "23:30", utcOffset: "-05:00" }, "2026-12-08T04:30:00Z"],
    ["+14:00: Monday 06:00 local is Sunday 16:00 UTC", "2026-12-05T00:00:00Z", { startDay: "Monday", startTime: "06:00", utcOffset: "+14:00" }, "2026-12-06T16:00:00Z"],
    ["+05:30: Monday 06:00 local is Monday 00:30 UTC", "2026-12-05T00:00:00Z", { startDay: "Monday", startTime: "06:00", utcOffset: "+05:30" }, "2026-12-07T00:30:00Z"],
    ["-05:00, reached on a local Saturday evening (Sunday in UTC): that Saturday's 22:00", "2026-12-06T01:00:00Z", { startDay: "Saturday", startTime: "22:00", utcOffset: "-05:00" }, "2026-12-06T03:00:00Z"],
    ["a weekday earlier in the week than today: next week's", "2026-12-05T00:00:00Z", { startDay: "Friday", startTime: "09:00", utcOffset: "+00:00" }, "2026-12-11T09:00:00Z"],
  ] as const)("%s", (_name, from, config, expected) => {
    expect(new Date(nextScheduledStart(config, at(from))).toISOString()).toBe(new Date(expected).toISOString());
  });
});

const PROD_ON_TUESDAY = `{stages: [{name: canary, groups: [{name: canary}]}, {name: prod, beforeGates: [{type: ScheduledStart, scheduledStartConfiguration: {startDay: Tuesday, startTime: "09:00", utcOffset: "+01:00"}}], groups: [{name: prod}]}]}`;

describe("in a run", () => {
  it("production waits for Tuesday 09:00 +01:00; the gate's status shows the instant", async () => {
    const out = await simulate(scenario({ members: [member("c-1", { group: "canary" }), member("p-1", { group: "prod" })], strategy: PROD_ON_TUESDAY }));
    const gate = out.stage("prod").beforeGates?.[0];
    expect(gate).toMatchObject({ gateId: "prod/before/0", displayName: "Scheduled start", status: { state: "Completed", startTime: "2026-12-05T00:10:00Z", completedTime: "2026-12-08T08:00:00Z" } });
    expect(gate?.scheduledStartProperties).toEqual({ ...TUESDAY_9_CET, absoluteStartTime: "2026-12-08T08:00:00Z" });
    expect(out.member("p-1").status).toMatchObject({ state: "Completed", startTime: "2026-12-08T08:00:00Z" });
    expect(out.run.state).toBe("Completed");
  });

  it("an approval naming the gate opens it early", async () => {
    const out = await simulate(
      scenario({ members: [member("c-1", { group: "canary" }), member("p-1", { group: "prod" })], strategy: PROD_ON_TUESDAY, actions: [approveAt("2026-12-06T00:00:00Z", { stage: "prod", timing: "Before" })] }),
    );
    expect(out.member("p-1").status.startTime).toBe("2026-12-06T00:00:00Z");
  });

  it("maintenance windows still apply once it opens", async () => {
    const out = await simulate(scenario({ members: [member("c-1", { group: "canary" }), member("p-1", { group: "prod", window: daily("12:00") })], strategy: PROD_ON_TUESDAY }));
    expect(out.member("p-1").status.startTime).toBe("2026-12-08T12:00:00Z");
  });

  it("the plan predicts production's members at the gate's instant", async () => {
    const plan = await buildPlan(worldFromScenario(parseScenario(scenario({ members: [member("c-1", { group: "canary" }), member("p-1", { group: "prod" })], strategy: PROD_ON_TUESDAY }))));
    expect(plan.members.find((m) => m.name === "p-1")?.predictedStart).toBe("2026-12-08T08:00:00Z");
    expect(plan.run.predictedEnd).toBe("2026-12-08T08:10:00Z");
  });
});

describe("refused, naming the field path", () => {
  const issues = (strategy: string): string[] => {
    try {
      parseScenario(scenario({ members: [member("c-1", { group: "canary" })], strategy }));
    } catch (e) {
      if (e instanceof ValidationError) return e.issues.map((i) => `${i.path}: ${i.message}`);
      throw e;
    }
    return [];
  };
  it("as an after-gate", () => {
    expect(issues(`{stages: [{name: s, groups: [{name: canary}], afterGates: [{type: ScheduledStart, scheduledStartConfiguration: {startDay: Monday, startTime: "09:00", utcOffset: "+00:00"}}]}]}`)).toContain(
      "strategy.stages[0].afterGates[0].type: a ScheduledStart gate holds a start: it is a before-gate only",
    );
  });
  it("without its configuration, or with a bad day, time or offset", () => {
    expect(issues(`{stages: [{name: s, groups: [{name: canary}], beforeGates: [{type: ScheduledStart}]}]}`)).toContain("strategy.stages[0].beforeGates[0].scheduledStartConfiguration: is required for a ScheduledStart gate");
    const bad = issues(`{stages: [{name: s, groups: [{name: canary, beforeGates: [{type: ScheduledStart, scheduledStartConfiguration: {startDay: Tuesdy, startTime: "9:00", utcOffset: "+15:00"}}]}]}]}`);
    expect(bad.map((i) => i.split(":")[0])).toEqual(
      expect.arrayContaining(["strategy.stages[0].groups[0].beforeGates[0].scheduledStartConfiguration.startDay", "strategy.stages[0].groups[0].beforeGates[0].scheduledStartConfiguration.startTime", "strategy.stages[0].groups[0].beforeGates[0].scheduledStartConfiguration.utcOffset"]),
    );
  });
});
