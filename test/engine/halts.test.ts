/**
 * Halts meeting other things under way (docs/rules.md §3.7 failure, §3.8 stop, §3.1 and D1 the
 * after-stage wait): a failure while a stop drains the run, and a stop while a stage waits.
 * Issue 34: rules no test failed on when they were broken.
 */
import { describe, expect, it } from "vitest";
import { member, scenario, simulate, startAt, stopAt } from "./helpers";

describe("a member failing while a stop is draining the run", () => {
  // slow-1 fails at 00:30; the stop comes at 00:05, while it runs.
  const stoppedThenFailed = (actions: string[] = []) =>
    simulate(
      scenario({
        members: [member("slow-1", { group: "a", minutes: 30, fail: "node drain timed out" }), member("ok-1", { group: "b", minutes: 60 }), member("later-1", { group: "a" })],
        strategy: "{stages: [{name: one, groups: [{name: a}, {name: b}]}]}",
        actions: [stopAt("2026-12-05T00:05:00Z"), ...actions],
      }),
    );

  it("ends the run Failed, not Stopped, and says the run failed to the members it never reached", async () => {
    const out = await stoppedThenFailed();
    expect(out.transitions("run", "scenario")).toEqual([
      "2026-12-05T00:00:00Z NotStarted->Running",
      "2026-12-05T00:05:00Z Running->Stopping",
      "2026-12-05T01:00:00Z Stopping->Failed",
    ]);
    expect(out.run).toMatchObject({ state: "Failed", completedTime: "2026-12-05T01:00:00Z", error: { code: "UpgradeFailed" } });
    expect(out.member("slow-1").status).toMatchObject({ state: "Failed", completedTime: "2026-12-05T00:30:00Z" });
    expect(out.group("a").status.state).toBe("Failed");
    // The other group's upgrade was followed to its end.
    expect(out.member("ok-1").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T01:00:00Z" });
    expect(out.member("later-1").status).toEqual({ state: "NotStarted" });
    expect(out.member("later-1").message).toBe("Not started: the run failed before this member was reached.");
  });

  it("a start afterwards retries the failed member, as after any failure", async () => {
    const out = await stoppedThenFailed([startAt("2026-12-05T02:00:00Z")]);
    expect(out.opStarts("slow-1")).toEqual(["2026-12-05T00:00:00Z", "2026-12-05T02:00:00Z"]);
    expect(out.member("slow-1").message).toContain("node drain timed out");
  });
});

describe("a stop while a stage's after-stage wait is under way (docs/rules.md §3.1, D1)", () => {
  // c-1 ends at 00:10; canary's one-hour wait runs from 00:10 to 01:10.
  const members = [member("c-1", { group: "c" }), member("p-1", { group: "p" })];
  const strategy = "{stages: [{name: canary, groups: [{name: c}], afterStageWaitInSeconds: 3600}, {name: prod, groups: [{name: p}]}]}";

  it("stops the wait with the run: the wait, its stage and the run are Stopped, and the next stage does not start", async () => {
    const out = await simulate(scenario({ members, strategy, actions: [stopAt("2026-12-05T00:30:00Z")], until: "2026-12-05T06:00:00Z" }));
    expect(out.transitions("wait", "canary")).toEqual(["2026-12-05T00:10:00Z NotStarted->Running", "2026-12-05T00:30:00Z Running->Stopped"]);
    expect(out.stage("canary").afterStageWaitStatus?.status).toEqual({ state: "Stopped", startTime: "2026-12-05T00:10:00Z", completedTime: "2026-12-05T00:30:00Z" });
    expect(out.stage("canary").status).toMatchObject({ state: "Stopped", completedTime: "2026-12-05T00:30:00Z" });
    expect(out.run).toEqual({ state: "Stopped", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:30:00Z" });
    expect(out.ops("p-1")).toEqual([]);
    expect(out.stage("prod").status).toEqual({ state: "NotStarted" });
  });

  it("a start resumes the wait, which still ends an hour after it began", async () => {
    const out = await simulate(scenario({ members, strategy, actions: [stopAt("2026-12-05T00:30:00Z"), startAt("2026-12-05T00:45:00Z")] }));
    expect(out.transitions("wait", "canary")).toEqual([
      "2026-12-05T00:10:00Z NotStarted->Running",
      "2026-12-05T00:30:00Z Running->Stopped",
      "2026-12-05T00:45:00Z Stopped->Running",
      "2026-12-05T01:10:00Z Running->Completed",
    ]);
    expect(out.opStarts("p-1")).toEqual(["2026-12-05T01:10:00Z"]);
  });
});
