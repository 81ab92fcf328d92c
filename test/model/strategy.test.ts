/**
 * docs/rules.md §1/§2 strategy rules: stage and group structure, names, waits, and (§6) maxConcurrency. Each rule
 * is checked through the strategy schema directly (`parseOrThrow(..., ["strategy"])`) and through a
 * scenario file (`parseScenario`), with a valid neighbour that passes.
 */
import { describe, expect, it } from "vitest";
import { friendlyErrors, parseOrThrow, toFieldIssues } from "../../src/model/issues";
import { parseScenario } from "../../src/simulation/scenario";
import { MAX_GROUPS_PER_STAGE, UpdateRunStrategySchema, UpdateStageSchema, allGateIds, gateIdsFor, isImplicitGroup, unknownApprovals, type UpdateGroup, type UpdateStage } from "../../src/model/strategy";
import { expectIssue, expectValid, member, scenarioYaml, type Doc } from "./helpers";

const strategy = (input: unknown) => parseOrThrow(UpdateRunStrategySchema, input, ["strategy"]);
const stages = (...list: Doc[]) => ({ stages: list });
const stage = (name: string, ...groups: string[]) => ({ name, groups: groups.map((g) => ({ name: g })) });

describe("docs/rules.md §2: stage names are unique", () => {
  it("rejects a second stage with the same name, at the second stage's name", () => {
    const issues = expectIssue(() => strategy(stages(stage("canary", "a"), stage("canary", "b"))), "strategy.stages[1].name", "duplicate stage name 'canary'");
    expect(issues).toHaveLength(1);
  });

  it("reports every repeat, each at its own index", () => {
    const input = stages(stage("x", "a"), stage("y", "b"), stage("x", "c"), stage("x", "d"));
    expectIssue(() => strategy(input), "strategy.stages[2].name", "also stages[0]");
    expectIssue(() => strategy(input), "strategy.stages[3].name", "also stages[0]");
  });

  it("through a scenario", () => {
    expectIssue(() => parseScenario(scenarioYaml((s) => (s.strategy.stages[1].name = "canary"))), "strategy.stages[1].name", "duplicate stage name");
  });

  it("accepts distinct stage names", () => {
    expectValid(() => strategy(stages(stage("canary", "a"), stage("canary-2", "b"))));
    expectValid(() => parseScenario(scenarioYaml()));
  });
});

describe("docs/rules.md §2: a group appears at most once in the whole strategy", () => {
  it("rejects a group listed twice within one stage", () => {
    const issues = expectIssue(() => strategy(stages(stage("prod", "eu", "eu"))), "strategy.stages[0].groups[1].name", "group 'eu' is listed twice (also stages[0].groups[0])");
    expect(issues).toHaveLength(1);
  });

  it("rejects a group listed again in a later stage", () => {
    expectIssue(() => strategy(stages(stage("canary", "eu"), stage("prod", "us", "eu"))), "strategy.stages[1].groups[1].name", "listed twice (also stages[0].groups[0])");
  });

  it("through a scenario (within a stage and across stages)", () => {
    expectIssue(
      () => parseScenario(scenarioYaml((s) => s.strategy.stages[1].groups.push({ name: "prod-eu" }))),
      "strategy.stages[1].groups[2].name",
      "listed twice",
    );
    expectIssue(
      () => parseScenario(scenarioYaml((s) => (s.strategy.stages[1].groups[0].name = "canary"))),
      "strategy.stages[1].groups[0].name",
      "listed twice",
    );
  });

  it("accepts the same text as a stage name and a group name", () => {
    expectValid(() => strategy(stages(stage("canary", "canary"), stage("prod", "eu", "us"))));
  });
});

describe("docs/rules.md §1/§2: a stage has 1..50 groups", () => {
  const groups = (n: number) => Array.from({ length: n }, (_, i) => `g-${i}`);

  it("rejects a stage without groups", () => {
    expectIssue(() => strategy(stages(stage("canary", "a"), { name: "empty", groups: [] })), "strategy.stages[1].groups", "at least one group");
  });

  it("rejects a stage whose groups are missing, saying they are required", () => {
    expectIssue(() => strategy(stages({ name: "empty" })), "strategy.stages[0].groups", "required");
  });

  it(`rejects ${MAX_GROUPS_PER_STAGE + 1} groups and accepts ${MAX_GROUPS_PER_STAGE}`, () => {
    expect(MAX_GROUPS_PER_STAGE).toBe(50);
    expectIssue(() => strategy(stages(stage("big", ...groups(51)))), "strategy.stages[0].groups", "at most 50 groups");
    expectValid(() => strategy(stages(stage("big", ...groups(50)))));
  });

  it("through a scenario: no groups, 51 groups, and 50 groups (each with a member) accepted", () => {
    expectIssue(() => parseScenario(scenarioYaml((s) => (s.strategy.stages[0].groups = []))), "strategy.stages[0].groups", "at least one group");
    expectIssue(
      () => parseScenario(scenarioYaml((s) => s.strategy.stages.push({ name: "big", groups: groups(51).map((name) => ({ name })) }))),
      "strategy.stages[2].groups",
      "at most 50 groups",
    );
    expectValid(() =>
      parseScenario(
        scenarioYaml((s) => {
          s.strategy.stages.push({ name: "big", groups: groups(50).map((name) => ({ name })) });
          s.members.push(...groups(50).map((g) => member(`m-${g}`, g)));
        }),
      ),
    );
  });

  it("rejects a strategy without stages", () => {
    expectIssue(() => strategy({ stages: [] }), "strategy.stages", "at least one stage");
  });
});

describe("docs/rules.md §2: names are 1-50 chars of ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", () => {
  const bad: Array<[label: string, name: string, message: string | RegExp]> = [
    ["empty", "", "must not be empty"],
    ["uppercase", "Canary", "lowercase"],
    ["leading '-'", "-canary", "starting and ending with a letter or digit"],
    ["trailing '-'", "canary-", "starting and ending with a letter or digit"],
    ["51 characters", "a".repeat(51), "at most 50 characters"],
    ["an underscore", "prod_eu", "lowercase letters, digits and '-'"],
    ["a dot", "prod.eu", "lowercase letters, digits and '-'"],
  ];
  const good = ["a", "0", "a-1", "prod--eu", "9-z", "a".repeat(50)];

  describe("stage names", () => {
    it.each(bad)("rejects %s", (_label, name, message) => {
      expectIssue(() => strategy(stages(stage("ok", "a"), stage(name, "b"))), "strategy.stages[1].name", message);
      expectIssue(() => parseScenario(scenarioYaml((s) => (s.strategy.stages[1].name = name))), "strategy.stages[1].name", message);
    });
    it.each(good)("accepts %j", (name) => {
      expectValid(() => strategy(stages(stage(name, "a"))));
      expectValid(() => parseScenario(scenarioYaml((s) => (s.strategy.stages[1].name = name))));
    });
    it("rejects a non-string name, saying what it must be", () => {
      expectIssue(() => strategy(stages({ name: 7, groups: [{ name: "a" }] })), "strategy.stages[0].name", "must be a string");
      expectIssue(() => strategy(stages({ groups: [{ name: "a" }] })), "strategy.stages[0].name", "is required");
    });
  });

  describe("group names", () => {
    it.each(bad)("rejects %s", (_label, name, message) => {
      expectIssue(() => strategy(stages(stage("ok", "a"), stage("prod", name))), "strategy.stages[1].groups[0].name", message);
      expectIssue(
        () => parseScenario(scenarioYaml((s) => (s.strategy.stages[1].groups[0].name = name))),
        "strategy.stages[1].groups[0].name",
        message,
      );
    });
    it.each(good)("accepts %j", (name) => {
      expectValid(() => strategy(stages(stage("prod", name))));
      expectValid(() =>
        parseScenario(
          scenarioYaml((s) => {
            s.strategy.stages[1].groups[0].name = name;
            s.members[1].group = name;
            s.members[2].group = name;
          }),
        ),
      );
    });
  });

  describe("member names (and a member's group)", () => {
    it.each(bad)("rejects %s", (_label, name, message) => {
      expectIssue(() => parseScenario(scenarioYaml((s) => (s.members[2].name = name))), "members[2].name", message);
      expectIssue(() => parseScenario(scenarioYaml((s) => (s.members[2].group = name))), "members[2].group", message);
    });
    it.each(good)("accepts %j", (name) => {
      expectValid(() => parseScenario(scenarioYaml((s) => (s.members[2].name = name))));
    });
  });
});

describe("docs/rules.md §2: waits are non-negative whole seconds", () => {
  it.each([
    [-1, "must not be negative"],
    [-3600, "must not be negative"],
    [1.5, "whole number of seconds"],
    [0.001, "whole number of seconds"],
    ["3600", "must be a number of seconds"],
  ])("rejects afterStageWaitInSeconds %j", (wait, message) => {
    expectIssue(() => strategy(stages({ ...stage("ok", "a"), afterStageWaitInSeconds: wait })), "strategy.stages[0].afterStageWaitInSeconds", message);
    expectIssue(
      () => parseScenario(scenarioYaml((s) => (s.strategy.stages[1].afterStageWaitInSeconds = wait))),
      "strategy.stages[1].afterStageWaitInSeconds",
      message,
    );
  });

  it.each([0, 1, 3600, 86_400 * 30])("accepts %j", (wait) => {
    expectValid(() => strategy(stages({ ...stage("ok", "a"), afterStageWaitInSeconds: wait })));
    expectValid(() => parseScenario(scenarioYaml((s) => (s.strategy.stages[1].afterStageWaitInSeconds = wait))));
  });

  it("is optional (default 0)", () => {
    expect(expectValid(() => strategy(stages(stage("ok", "a")))).stages[0]?.afterStageWaitInSeconds).toBeUndefined();
  });
});

describe("docs/rules.md §6: maxConcurrency is \"N\" or \"P%\" (stage and group)", () => {
  it.each([
    ["3", "3"],
    ["25%", "25%"],
    ["1", "1"],
    ["100%", "100%"],
    [3, "3"],
  ] as const)("accepts %j (as %j)", (value, parsed) => {
    const out = expectValid(() => strategy(stages({ name: "s", maxConcurrency: value, groups: [{ name: "g", maxConcurrency: value }] })));
    expect(out.stages[0]?.maxConcurrency).toBe(parsed);
    expect(out.stages[0]?.groups[0]?.maxConcurrency).toBe(parsed);
  });

  it.each(["0", "0%", "101%", "-1", "abc", "", "2.5", "25 %", -1, 0, 2.5, true])("rejects %j on a group and on a stage", (value) => {
    const message = typeof value === "boolean" ? "must be a string such as" : "positive whole number";
    expectIssue(() => strategy(stages({ name: "s", groups: [{ name: "g", maxConcurrency: value }] })), "strategy.stages[0].groups[0].maxConcurrency", message);
    expectIssue(() => strategy(stages({ name: "s", maxConcurrency: value, groups: [{ name: "g" }] })), "strategy.stages[0].maxConcurrency", message);
  });

  it("through a scenario (YAML number 3 is coerced, \"0%\" is rejected)", () => {
    const yaml = scenarioYaml((s) => (s.strategy.stages[1].groups[0].maxConcurrency = 3));
    expect(yaml).toContain("maxConcurrency: 3\n");
    expect(expectValid(() => parseScenario(yaml)).strategy?.stages[1]?.groups[0]?.maxConcurrency).toBe("3");
    expectIssue(
      () => parseScenario(scenarioYaml((s) => (s.strategy.stages[1].groups[1].maxConcurrency = "0%"))),
      "strategy.stages[1].groups[1].maxConcurrency",
      "percentage from 1% to 100%",
    );
    expectIssue(() => parseScenario(scenarioYaml((s) => (s.strategy.stages[0].maxConcurrency = "abc"))), "strategy.stages[0].maxConcurrency", "positive whole number");
  });
});

describe("docs/rules.md §2/§7: every strategy problem is reported at once", () => {
  it("a wrong type in one stage does not hide duplicate stage and group names", () => {
    const input = stages({ ...stage("canary", "a"), afterStageWaitInSeconds: "1h" }, stage("canary", "b", "a"), { ...stage("prod", "c"), maxConcurrency: true });
    const issues = expectIssue(() => strategy(input), "strategy.stages[1].name", "duplicate stage name 'canary'");
    expect(issues.map((i) => i.path).sort()).toEqual([
      "strategy.stages[0].afterStageWaitInSeconds",
      "strategy.stages[1].groups[1].name",
      "strategy.stages[1].name",
      "strategy.stages[2].maxConcurrency",
    ]);
  });

  it("through a scenario", () => {
    const yaml = scenarioYaml((s) => {
      s.strategy.stages[0].afterStageWaitInSeconds = "1h";
      s.strategy.stages[1].name = "canary";
    });
    const issues = expectIssue(() => parseScenario(yaml), "strategy.stages[1].name", "duplicate stage name 'canary'");
    expect(issues.map((i) => i.path).sort()).toEqual(["strategy.stages[0].afterStageWaitInSeconds", "strategy.stages[1].name"]);
  });

  it("a malformed list of groups is reported alone, without a crash", () => {
    const issues = expectIssue(() => strategy(stages(stage("canary", "a"), { name: "canary", groups: "a" })), "strategy.stages[1].groups", "must be a list of groups");
    expect(issues).toHaveLength(1);
  });
});

describe("strategy shape", () => {
  it("names an unknown field in a stage", () => {
    expectIssue(() => strategy(stages({ ...stage("s", "g"), afterStageWait: 5 })), "strategy.stages[0].afterStageWait", "unknown field");
  });

  it("UpdateStageSchema on its own uses paths relative to the stage", () => {
    expectIssue(() => parseOrThrow(UpdateStageSchema, { name: "S", groups: [] }), "name", "lowercase");
    expectIssue(() => parseOrThrow(UpdateStageSchema, { name: "S", groups: [] }), "groups", "at least one group");
  });
});

const issuesOfStrategy = (input: unknown) => {
  const parsed = UpdateRunStrategySchema.safeParse(input, { error: friendlyErrors });
  return parsed.success ? [] : toFieldIssues(parsed.error, ["strategy"]);
};

describe("docs/rules.md §16: a stage with a selector and no groups (its implicit group)", () => {
  it("is one group named after the stage, with its selector and maxConcurrency only when the stage has one", () => {
    const parsed = strategy(stages({ name: "web", memberSelector: { byLabel: "tier=web" } }, { name: "db", memberSelector: { byLabel: "tier=db" }, maxConcurrency: "2" }));
    expect(parsed.stages.map((s) => s.groups)).toStrictEqual([[{ name: "web", memberSelector: { byLabel: "tier=web" } }], [{ name: "db", memberSelector: { byLabel: "tier=db" }, maxConcurrency: "2" }]]);
    expect(parsed.stages.map((s) => isImplicitGroup(s, s.groups[0] as UpdateGroup))).toEqual([true, true]);
  });

  it("a group the user wrote is not it, whatever differs", () => {
    const implicit = strategy(stages({ name: "web", memberSelector: { byLabel: "tier=web" }, maxConcurrency: "2" })).stages[0] as UpdateStage;
    const group = implicit.groups[0] as UpdateGroup;
    const written: Array<[string, UpdateStage, UpdateGroup]> = [
      ["a stage without a selector", { ...implicit, memberSelector: undefined }, group],
      ["a stage of two groups", { ...implicit, groups: [group, { name: "other" }] }, group],
      ["another name", implicit, { ...group, name: "web-1" }],
      ["another selector", implicit, { ...group, memberSelector: { byLabel: "tier=db" } }],
      ["no selector", implicit, { ...group, memberSelector: undefined }],
      ["another maxConcurrency", implicit, { ...group, maxConcurrency: "3" }],
      ["maxAllowedFailures", implicit, { ...group, maxAllowedFailures: "1" }],
      ["before-gates", implicit, { ...group, beforeGates: [{ type: "Approval" }] }],
      ["after-gates", implicit, { ...group, afterGates: [{ type: "Approval" }] }],
    ];
    expect(isImplicitGroup(implicit, group)).toBe(true);
    for (const [label, s, g] of written) expect(isImplicitGroup(s, g), label).toBe(false);
  });

  it("a stage that is not a mapping is refused as such (nothing to write out)", () => {
    expect(issuesOfStrategy(stages(null, "x", [1]))).toStrictEqual([
      { path: "strategy.stages[0]", message: "must be a mapping, got null" },
      { path: "strategy.stages[1]", message: "must be a mapping, got string" },
      { path: "strategy.stages[2]", message: "must be a mapping, got a list" },
    ]);
  });
});

describe("docs/rules.md §2/§7: the strategy's name checks run unless a name is malformed", () => {
  it("stage names that are not strings: refused as such, not also as duplicates", () => {
    expect(issuesOfStrategy(stages({ name: 7, groups: [{ name: "a" }] }, { name: 7, groups: [{ name: "b" }] }))).toStrictEqual([
      { path: "strategy.stages[0].name", message: "must be a string" },
      { path: "strategy.stages[1].name", message: "must be a string" },
    ]);
  });

  it("group names that are not strings: the same", () => {
    expect(issuesOfStrategy(stages({ name: "s", groups: [{ name: 7 }, { name: 7 }] }))).toStrictEqual([
      { path: "strategy.stages[0].groups[0].name", message: "must be a string" },
      { path: "strategy.stages[0].groups[1].name", message: "must be a string" },
    ]);
  });

  it("groups that are not a list: refused as such", () => {
    expect(issuesOfStrategy(stages({ name: "s", groups: "a" }))).toStrictEqual([{ path: "strategy.stages[0].groups", message: "must be a list of groups" }]);
  });
});

describe("gates: fields", () => {
  const gate = (g: Doc) => issuesOfStrategy(stages({ name: "s", groups: [{ name: "a" }], beforeGates: [g] }));

  it("a display name must be a string", () => {
    expect(gate({ type: "Approval", displayName: 7 })).toStrictEqual([{ path: "strategy.stages[0].beforeGates[0].displayName", message: "must be a string" }]);
  });

  it("a scheduled start's time is HH:mm and its offset ±HH:mm, nothing around them", () => {
    const at = (startTime: string, utcOffset: string) => gate({ type: "ScheduledStart", scheduledStartConfiguration: { startDay: "Tuesday", startTime, utcOffset } });
    expect(at("09:00", "+01:00")).toStrictEqual([]);
    for (const time of ["109:00", "09:000"]) expect(at(time, "+01:00")).toStrictEqual([{ path: "strategy.stages[0].beforeGates[0].scheduledStartConfiguration.startTime", message: "must be a time HH:mm, 00:00 to 23:59" }]);
    for (const offset of ["x+01:00", "+01:000"]) expect(at("09:00", offset)).toStrictEqual([{ path: "strategy.stages[0].beforeGates[0].scheduledStartConfiguration.utcOffset", message: "must be an offset +HH:mm or -HH:mm from -14:00 to +14:00" }]);
  });
});

describe("gate ids and approvals", () => {
  const gated = strategy(
    stages(
      { name: "canary", groups: [{ name: "c", beforeGates: [{ type: "Approval" }], afterGates: [{ type: "Approval" }, { type: "Approval" }] }], beforeGates: [{ type: "Approval" }], afterGates: [{ type: "Approval" }] },
      stage("prod", "eu"),
    ),
  );
  const where = { strategy: "this run", noGates: "the strategy has no gates" };

  it("an approval names the gates of a stage, or of one of its groups, at one timing", () => {
    expect(gateIdsFor(gated, { stage: "canary", timing: "Before" })).toEqual(["canary/before/0"]);
    expect(gateIdsFor(gated, { stage: "canary", group: "c", timing: "After" })).toEqual(["canary/c/after/0", "canary/c/after/1"]);
    expect(gateIdsFor(gated, { stage: "prod", timing: "After" })).toEqual([]);
    expect(gateIdsFor(gated, { stage: "qa", timing: "Before" })).toEqual([]);
    expect(gateIdsFor(gated, { stage: "qa", group: "c", timing: "Before" })).toEqual([]);
    expect(gateIdsFor(gated, { stage: "canary", group: "eu", timing: "Before" })).toEqual([]);
    expect(gateIdsFor(undefined, { stage: "canary", timing: "Before" })).toEqual([]);
  });

  it("every gate id of a strategy, in order: stage before, its groups' before and after, stage after", () => {
    expect(allGateIds(gated)).toEqual(["canary/before/0", "canary/c/before/0", "canary/c/after/0", "canary/c/after/1", "canary/after/0"]);
    expect(allGateIds(undefined)).toEqual([]);
  });

  it("an approval naming no gate is refused at its index, with the gates there are", () => {
    expect(unknownApprovals(["canary/c/after/1", "canary/c/after/2"], gated, where)).toEqual([
      { path: "approvals[1]", message: "no gate 'canary/c/after/2' in this run (its gates: canary/before/0, canary/c/before/0, canary/c/after/0, canary/c/after/1, canary/after/0)" },
    ]);
    expect(unknownApprovals(["prod/before/0"], strategy(stages(stage("prod", "eu"))), where)).toEqual([{ path: "approvals[0]", message: "no gate 'prod/before/0' in this run (the strategy has no gates)" }]);
    expect(unknownApprovals(["prod/before/0"], undefined, where)).toEqual([{ path: "approvals[0]", message: "no gate 'prod/before/0' in this run (the strategy has no gates)" }]);
  });
});
