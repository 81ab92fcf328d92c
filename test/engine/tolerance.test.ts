/**
 * Issue 5 failure tolerance (docs/behaviour.md "Failure tolerance"): `maxAllowedFailures` on groups and
 * stages; within tolerance the run goes on, past it the item fails and the run halts; `failureCount`
 * at every level; `summary.outcome` never calls a run with failures a success.
 */
import { describe, expect, it } from "vitest";
import { parseScenario } from "../../src/simulation/scenario";
import { START, member, scenario, simulate } from "./helpers";

const T = (minutes: number) => new Date(Date.parse(START) + minutes * 60_000).toISOString().replace(/\.000Z$/, "Z");

describe("maxAllowedFailures", () => {
  it('"1" with 2 failures in a group: the second failure fails the group and halts the run', async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "g", fail: "boom" }), member("b", { group: "g", fail: "boom" }), member("c", { group: "g" })],
        strategy: '{stages: [{name: s, groups: [{name: g, maxAllowedFailures: "1"}]}]}',
      }),
    );
    expect(o.member("a").status.state).toBe("Failed");
    // After one failure the group went on to the next member...
    expect(o.opStarts("b")).toEqual([T(10)]);
    expect(o.member("b").status.state).toBe("Failed");
    // ...the second exceeded the tolerance: nothing more starts.
    expect(o.member("c").status.state).toBe("NotStarted");
    expect(o.group("g")).toMatchObject({ failureCount: 2, status: { state: "Failed" } });
    expect(o.run.state).toBe("Failed");
    expect(o.result.status.failureCount).toBe(2);
    expect(o.result.summary.outcome).toBe("Failed");
  });

  it('"50%" with 1 of 4 failing: the run goes on to the end, Completed, outcome CompletedWithFailures', async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "g", fail: "boom" }), member("b", { group: "g" }), member("c", { group: "g" }), member("d", { group: "g" }), member("e", { group: "next" })],
        strategy: '{stages: [{name: s, groups: [{name: g, maxAllowedFailures: "50%"}]}, {name: t, groups: [{name: next}]}]}',
      }),
    );
    expect(o.member("a").status.state).toBe("Failed");
    for (const name of ["b", "c", "d", "e"]) expect(o.member(name).status.state).toBe("Completed");
    expect(o.group("g")).toMatchObject({ failureCount: 1, status: { state: "Completed" } });
    expect(o.stage("s")).toMatchObject({ failureCount: 1, status: { state: "Completed" } });
    expect(o.run.state).toBe("Completed");
    expect(o.result.status.failureCount).toBe(1);
    expect(o.result.summary).toMatchObject({ outcome: "CompletedWithFailures", failureCount: 1 });
  });

  it('"100%" with every member failing: Completed, yet the outcome says so (never Succeeded)', async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "g", fail: "boom" }), member("b", { group: "g", fail: "boom" })],
        strategy: '{stages: [{name: s, groups: [{name: g, maxAllowedFailures: "100%"}]}]}',
      }),
    );
    expect(o.run.state).toBe("Completed");
    expect(o.result.summary.outcome).toBe("CompletedWithFailures");
    expect(o.result.summary.members.Failed).toBe(2);
  });

  it("unset is today's fail-fast: the first failure halts the run", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "g", fail: "boom" }), member("b", { group: "g" })],
        strategy: "{stages: [{name: s, groups: [{name: g}]}]}",
      }),
    );
    expect(o.run.state).toBe("Failed");
    expect(o.member("b").status.state).toBe("NotStarted");
  });

  it("a stage's own tolerance counts failures over its groups: each group within its own, the stage past its", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "g1", fail: "boom" }), member("b", { group: "g2", fail: "boom" }), member("c", { group: "g1" })],
        strategy: '{stages: [{name: s, maxAllowedFailures: "1", groups: [{name: g1, maxAllowedFailures: "1"}, {name: g2, maxAllowedFailures: "1"}]}]}',
      }),
    );
    expect(o.stage("s")).toMatchObject({ failureCount: 2, status: { state: "Failed" } });
    expect(o.stage("s").status.error?.message).toMatch(/2 members failed, more than the 1 stage 's' tolerates/);
    expect(o.run.state).toBe("Failed");
    expect(o.member("c").status.state).toBe("NotStarted");
  });

  it("a stage without its own tolerance adds no limit beyond its groups'", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "g1", fail: "boom" }), member("b", { group: "g2", fail: "boom" })],
        strategy: '{stages: [{name: s, groups: [{name: g1, maxAllowedFailures: "1"}, {name: g2, maxAllowedFailures: "1"}]}]}',
      }),
    );
    expect(o.stage("s")).toMatchObject({ failureCount: 2, status: { state: "Completed" } });
    expect(o.result.summary.outcome).toBe("CompletedWithFailures");
  });

  it("percentages round up, resolved against the members at run start", async () => {
    // 10% of 3 members = 0.3 → 1 failure tolerated.
    const o = await simulate(
      scenario({
        members: [member("a", { group: "g", fail: "boom" }), member("b", { group: "g" }), member("c", { group: "g" })],
        strategy: '{stages: [{name: s, groups: [{name: g, maxAllowedFailures: "10%"}]}]}',
      }),
    );
    expect(o.run.state).toBe("Completed");
  });

  it("a percentage is a limit too: one failure past it fails the group, halts the run, and the error names the member", async () => {
    // "25%" of 5 members = 1.25 → 2 failures tolerated; the third (c, ending at 00:30) is one too many.
    const o = await simulate(
      scenario({
        members: ["a", "b", "c", "d", "e"].map((name) => member(name, { group: "g", ...(name <= "c" ? { fail: `${name} broke` } : {}) })),
        strategy: '{stages: [{name: s, groups: [{name: g, maxAllowedFailures: "25%"}]}]}',
      }),
    );
    expect(o.transitions("group", "g")).toEqual([`${START} NotStarted->Running`, `${T(30)} Running->Failed`]);
    expect(o.group("g").status.error).toEqual({ code: "UpgradeFailed", message: "Member 'a' failed: a broke (and 2 more)" });
    expect(o.member("d").status.state).toBe("NotStarted");
  });

  it("a stage's own percentage counts over all its members: \"40%\" of 5 is 2, and a third failure anywhere in the stage fails it", async () => {
    const o = await simulate(
      scenario({
        members: [
          member("a", { group: "g1", fail: "boom" }),
          member("b", { group: "g1" }),
          member("c", { group: "g2", fail: "boom" }),
          member("d", { group: "g2", fail: "boom" }),
          member("e", { group: "g2" }),
        ],
        strategy: '{stages: [{name: s, maxAllowedFailures: "40%", groups: [{name: g1, maxAllowedFailures: "100%"}, {name: g2, maxAllowedFailures: "100%"}]}]}',
      }),
    );
    expect(o.stage("s").status).toMatchObject({ state: "Failed", error: { code: "TooManyFailures", message: "3 members failed, more than the 2 stage 's' tolerates" } });
    expect(o.member("e").status.state).toBe("NotStarted");
  });

  it('a stage tolerating "0" fails at its first failure, though the group tolerates it: "1 member failed"', async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "g", fail: "boom" }), member("b", { group: "g" })],
        strategy: '{stages: [{name: s, maxAllowedFailures: "0", groups: [{name: g, maxAllowedFailures: "1"}]}]}',
      }),
    );
    expect(o.group("g").status.state).toBe("Stopped");
    expect(o.stage("s").status).toMatchObject({ state: "Failed", completedTime: T(10), error: { code: "TooManyFailures", message: "1 member failed, more than the 0 stage 's' tolerates" } });
    expect(o.run).toMatchObject({ state: "Failed", error: { code: "TooManyFailures", message: "Stage 's' failed: 1 member failed, more than the 0 stage 's' tolerates" } });
    expect(o.member("b").status.state).toBe("NotStarted");
  });

  it("a failure retried by a start no longer counts against the stage: the stage that failed on it goes on", async () => {
    // a fails once (the stage tolerates none), is retried at 01:00 and succeeds; b follows.
    const o = await simulate(
      scenario({
        members: [`${member("a", { group: "g" }).slice(0, -1)}, simulation: {fail: {code: UpgradeFailed, message: boom, attempts: 1}}}`, member("b", { group: "g" })],
        strategy: '{stages: [{name: s, maxAllowedFailures: "0", groups: [{name: g, maxAllowedFailures: "1"}]}]}',
        actions: ["{at: 2026-12-05T01:00:00Z, start: true}"],
      }),
    );
    expect(o.opStarts("a")).toEqual([START, T(60)]);
    expect(o.opStarts("b")).toEqual([T(70)]);
    expect(o.stage("s")).toMatchObject({ failureCount: 0, status: { state: "Completed" } });
    expect(o.run.state).toBe("Completed");
  });

  it.each([
    ["-1", "must be a whole number of failures"],
    ["abc", "must be a whole number of failures"],
    ["101%", "must be a whole number of failures"],
  ])("rejects maxAllowedFailures %s with its path", (value, message) => {
    const yaml = scenario({ members: [member("a", { group: "g" })], strategy: `{stages: [{name: s, groups: [{name: g, maxAllowedFailures: "${value}"}]}]}` });
    expect(() => parseScenario(yaml)).toThrow(new RegExp(`strategy\\.stages\\[0\\]\\.groups\\[0\\]\\.maxAllowedFailures: ${message}`));
  });
});

describe("a start after a stop, with tolerated failures (regressions found by the property tests)", () => {
  it("does not reopen a group that completed within its tolerance, nor its finished stage (docs/rules.md §3.1)", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "canary", fail: "boom" }), member("b", { group: "prod", minutes: 60 })],
        strategy: '{stages: [{name: canary, groups: [{name: canary, maxAllowedFailures: "1"}]}, {name: prod, groups: [{name: prod}]}]}',
        actions: ["{at: 2026-12-05T00:30:00Z, stop: true}", "{at: 2026-12-05T00:40:00Z, start: true}"],
      }),
    );
    expect(o.ops("a")).toHaveLength(1);
    expect(o.transitions("stage", "canary")).toEqual([`${START} NotStarted->Running`, `${T(10)} Running->Completed`]);
    expect(o.member("a").status.state).toBe("Failed");
    expect(o.result.summary.outcome).toBe("CompletedWithFailures");
  });

  it("a stage in its wait, stopped and started after the wait's end, finishes at once (no endless loop)", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "g", fail: "boom" }), member("b", { group: "g" })],
        strategy: '{stages: [{name: s, afterStageWaitInSeconds: 3600, groups: [{name: g, maxAllowedFailures: "1"}]}]}',
        actions: ["{at: 2026-12-05T00:30:00Z, stop: true}", "{at: 2026-12-05T02:00:00Z, start: true}"],
      }),
    );
    expect(o.run.state).toBe("Completed");
    expect(o.ops("a")).toHaveLength(1);
    expect(o.stage("s").afterStageWaitStatus?.status).toMatchObject({ state: "Completed", completedTime: T(120) });
  });
});
