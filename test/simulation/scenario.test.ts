/**
 * docs/rules.md §7 scenario files: world/run consistency (regions, actions, horizon), YAML/JSON text handling,
 * reporting every problem at once, and the example scenarios (examples/scenarios).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../src/model/issues";
import { parseScenario, scenarioHorizon, validateScenario } from "../../src/simulation/scenario";
import { MAX_HORIZON_DAYS } from "../../src/model/limits";
import { expectIssue, expectValid, issuesOf, scenarioYaml, validScenario, type Doc } from "../model/helpers";

const EXAMPLE_SCENARIOS = path.resolve(__dirname, "../../examples/scenarios");

describe("docs/rules.md §7: a member's region must be declared", () => {
  it("rejects an unknown region, at members[i].region", () => {
    expectIssue(() => parseScenario(scenarioYaml((s) => (s.members[0].region = "northpole"))), "members[0].region", "region 'northpole' is not declared under regions");
  });

  it("rejects a region name that is not an Azure region name", () => {
    expectIssue(() => parseScenario(scenarioYaml((s) => (s.members[0].region = "West Europe"))), "members[0].region", "Azure region name");
  });

  it("accepts a declared region", () => {
    expectValid(() => parseScenario(scenarioYaml((s) => (s.members[0].region = "eastus"))));
  });
});

describe("docs/rules.md §7: actions", () => {
  it("rejects an action before start, at actions[i].at", () => {
    expectIssue(
      () => parseScenario(scenarioYaml((s) => (s.actions = [{ at: "2026-12-05T02:00:00Z", stop: true }, { at: "2026-12-04T23:59:59Z", start: true }]))),
      "actions[1].at",
      "must not be before start",
    );
  });

  it("accepts an action exactly at start, and later ones", () => {
    expectValid(() => parseScenario(scenarioYaml((s) => (s.actions = [{ at: "2026-12-05T00:00:00Z", stop: true }, { at: "2026-12-05T01:00:00+01:00", start: true }]))));
  });

  it("rejects an action with two verbs, and one with none, at the action", () => {
    expectIssue(
      () => parseScenario(scenarioYaml((s) => (s.actions = [{ at: "2026-12-05T02:00:00Z", stop: true, start: true }]))),
      "actions[0]",
      "an action does exactly one of skip, stop, start",
    );
    expectIssue(
      () => parseScenario(scenarioYaml((s) => (s.actions = [{ at: "2026-12-05T02:00:00Z", stop: true, skip: [{ type: "Member", name: "eu-1" }] }]))),
      "actions[0]",
      "exactly one of",
    );
    expectIssue(() => parseScenario(scenarioYaml((s) => (s.actions = [{ at: "2026-12-05T02:00:00Z" }]))), "actions[0]", "exactly one of");
  });

  it("rejects stop: false and an empty skip list", () => {
    expectIssue(() => parseScenario(scenarioYaml((s) => (s.actions = [{ at: "2026-12-05T02:00:00Z", stop: false }]))), "actions[0].stop", "must be true");
    expectIssue(() => parseScenario(scenarioYaml((s) => (s.actions = [{ at: "2026-12-05T02:00:00Z", skip: [] }]))), "actions[0].skip", "at least one item");
  });

  it.each([
    ["Member", "eu-9", "no member named 'eu-9'"],
    ["Group", "prod-asia", "no group named 'prod-asia'"],
    ["Stage", "staging", "no stage named 'staging'"],
    ["AfterStageWait", "staging", "no stage named 'staging'"],
  ])("rejects a %s skip naming an unknown item, at actions[0].skip[j].name", (type, name, message) => {
    const yaml = scenarioYaml((s) => (s.actions = [{ at: "2026-12-05T02:00:00Z", skip: [{ type: "Member", name: "eu-1" }, { type, name }] }]));
    const issues = expectIssue(() => parseScenario(yaml), "actions[0].skip[1].name", message);
    expect(issues).toHaveLength(1);
  });

  it("does not accept a member name for a group, or a group name for a stage", () => {
    expectIssue(() => parseScenario(scenarioYaml((s) => (s.actions = [{ at: "2026-12-05T02:00:00Z", skip: [{ type: "Group", name: "eu-1" }] }]))), "actions[0].skip[0].name", "no group named 'eu-1'");
    expectIssue(() => parseScenario(scenarioYaml((s) => (s.actions = [{ at: "2026-12-05T02:00:00Z", skip: [{ type: "Stage", name: "prod-eu" }] }]))), "actions[0].skip[0].name", "no stage named 'prod-eu'");
  });

  it("accepts skips of known items", () => {
    const skip = [
      { type: "Member", name: "eu-1" },
      { type: "Group", name: "prod-us" },
      { type: "Stage", name: "production" },
      { type: "AfterStageWait", name: "canary" },
    ];
    expectValid(() => parseScenario(scenarioYaml((s) => (s.actions = [{ at: "2026-12-05T02:00:00Z", skip }]))));
  });

  it("knows the default stage and group when there is no strategy", () => {
    const skip = [
      { type: "Group", name: "default" },
      { type: "Stage", name: "default" },
    ];
    expectValid(() => parseScenario(scenarioYaml((s) => { delete s.strategy; s.actions = [{ at: "2026-12-05T02:00:00Z", skip }]; })));
    expectIssue(
      () => parseScenario(scenarioYaml((s) => { delete s.strategy; s.actions = [{ at: "2026-12-05T02:00:00Z", skip: [{ type: "Stage", name: "canary" }] }]; })),
      "actions[0].skip[0].name",
      "no stage named 'canary'",
    );
  });

  it("rejects an unknown skip type", () => {
    expectIssue(() => parseScenario(scenarioYaml((s) => (s.actions = [{ at: "2026-12-05T02:00:00Z", skip: [{ type: "Run", name: "x" }] }]))), "actions[0].skip[0].type", "Member, Group, Stage, AfterStageWait");
  });
});

describe("docs/rules.md §7: start and until", () => {
  it.each(["2026-12-04T00:00:00Z", "2026-12-05T00:00:00Z", "2026-12-05T01:00:00+02:00"])("rejects until %j (not after start)", (until) => {
    expectIssue(() => parseScenario(scenarioYaml((s) => (s.until = until))), "until", "must be after start");
  });

  it("accepts until after start, and defaults to start + 30 days", () => {
    expect(scenarioHorizon(expectValid(() => parseScenario(scenarioYaml((s) => (s.until = "2026-12-06T00:00:00Z")))))).toBe(Date.parse("2026-12-06T00:00:00Z"));
    expect(scenarioHorizon(expectValid(() => parseScenario(scenarioYaml())))).toBe(Date.parse("2027-01-04T00:00:00Z"));
  });

  it.each(["2026-12-05", "2026-12-05T00:00:00", "yesterday", "2026-12-32T00:00:00Z"])("rejects start %j", (start) => {
    expectIssue(() => parseScenario(scenarioYaml((s) => (s.start = start))), "start", "ISO 8601 date-time with a zone");
  });

  it("requires start", () => {
    expectIssue(() => parseScenario(scenarioYaml((s) => delete s.start)), "start", "is required");
  });
});

describe("docs/rules.md §7: text that is not a scenario", () => {
  it.each([
    ["an unclosed flow sequence", "start: [1, 2\n"],
    ["a bad indentation", "start: 2026-12-05T00:00:00Z\n  regions: {}\n members: []\n"],
    ["a repeated key", "start: 2026-12-05T00:00:00Z\nstart: 2026-12-06T00:00:00Z\n"],
    ["unbalanced JSON", "{\"start\": \"2026-12-05T00:00:00Z\",\n"],
  ])("reports %s as one clear issue (not a raw YAML error)", (_label, text) => {
    let thrown: unknown;
    try {
      parseScenario(text);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    const issues = (thrown as ValidationError).issues;
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toMatch(/^\(line \d+, column \d+\)$|^\(file\)$/);
    expect(issues[0]?.message).toMatch(/^not valid YAML or JSON: /);
    expect(issues[0]?.message).not.toContain("\n");
  });

  it.each([
    ["a list", "- start: 2026-12-05T00:00:00Z\n"],
    ["a number", "42\n"],
    ["a string", "just some text\n"],
    ["an empty file", ""],
    ["null", "null\n"],
  ])("rejects a document that is %s, at (root)", (_label, text) => {
    const issues = expectIssue(() => parseScenario(text), "(root)", "a scenario is a mapping with start, regions, members and managedClusterUpdate");
    expect(issues).toHaveLength(1);
  });

  it("validateScenario rejects a non-object at (root) too", () => {
    expectIssue(() => validateScenario([]), "(root)", "must be a mapping");
    expectIssue(() => validateScenario(null), "(root)", "must be a mapping");
  });

  it("accepts JSON text", () => {
    expectValid(() => parseScenario(JSON.stringify(validScenario())));
  });

  it("names every missing top-level field", () => {
    const issues = issuesOf(() => parseScenario("start: 2026-12-05T00:00:00Z\n"));
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: "regions", message: "is required" },
        { path: "members", message: "is required" },
        { path: "managedClusterUpdate", message: "is required (or autoUpgradeProfile, to generate the update when the run starts)" },
      ]),
    );
  });
});

describe("docs/rules.md §7: every problem is reported at once", () => {
  it("reports shape, cross-field and scenario problems together, each at its path", () => {
    const yaml = scenarioYaml((s) => {
      s.until = "2026-12-04T00:00:00Z"; // before start
      s.strategy.stages[0].name = "Canary"; // bad name
      s.strategy.stages[1].afterStageWaitInSeconds = -5; // negative wait
      s.members[2].name = "eu-1"; // duplicate member
      s.members[3].region = "northpole"; // undeclared region
      s.members[1].simulation = { upgradeMinutes: "ten" }; // wrong type
      s.members[0].maintenanceConfigurations = {
        aksManagedAutoUpgradeSchedule: { maintenanceWindow: { schedule: {}, startTime: "24:00", durationHours: 3 } },
      };
      s.managedClusterUpdate = { upgrade: { type: "NodeImageOnly", kubernetesVersion: "1.32" } };
      s.actions = [
        { at: "2026-12-04T12:00:00Z", stop: true }, // before start
        { at: "2026-12-05T01:00:00Z", stop: 5 }, // wrong type
        { at: "2026-12-05T02:00:00Z", skip: [{ type: "Stage", name: "staging" }] }, // unknown stage
      ];
    });
    const issues = issuesOf(() => parseScenario(yaml));
    const mw = "members[0].maintenanceConfigurations.aksManagedAutoUpgradeSchedule.maintenanceWindow";
    expect(new Set(issues.map((i) => i.path))).toEqual(
      new Set([
        "until",
        "strategy.stages[0].name",
        "strategy.stages[1].afterStageWaitInSeconds",
        "members[2].name",
        "members[3].region",
        "members[1].simulation.upgradeMinutes",
        `${mw}.schedule`,
        `${mw}.startTime`,
        `${mw}.durationHours`,
        "managedClusterUpdate.upgrade.kubernetesVersion",
        "actions[0].at",
        "actions[1].stop",
        "actions[2].skip[0].name",
      ]),
    );
    expect(issues.find((i) => i.path === "members[2].name")?.message).toContain("duplicate member name 'eu-1'");
    expect(issues.find((i) => i.path === "members[1].simulation.upgradeMinutes")?.message).toContain("must be a number of minutes");
    // NodeImageOnly with a (malformed) version: both problems are named
    const kv = issues.filter((i) => i.path === "managedClusterUpdate.upgrade.kubernetesVersion").map((i) => i.message);
    expect(kv).toEqual(expect.arrayContaining([expect.stringContaining("major.minor.patch")]));
  });

  it("a wrong type in one place does not hide a cross-field problem elsewhere", () => {
    const yaml = scenarioYaml((s) => {
      s.members[2].name = "eu-1"; // duplicate member
      s.strategy.stages[1].name = "canary"; // duplicate stage
      s.managedClusterUpdate.nodeImageSelection = { type: "Newest" }; // wrong enum value
    });
    const issues = issuesOf(() => parseScenario(yaml));
    expect(issues.map((i) => i.path).sort()).toEqual(["managedClusterUpdate.nodeImageSelection.type", "members[2].name", "strategy.stages[1].name"]);
  });

  it("an unknown field does not hide a cross-field problem either", () => {
    const yaml = scenarioYaml((s) => {
      s.members[0].grop = "canary"; // typo'd key
      s.members[2].name = "eu-1"; // duplicate member
    });
    const issues = issuesOf(() => parseScenario(yaml));
    expect(issues).toContainEqual({ path: "members[0].grop", message: "unknown field" });
    expect(issues.some((i) => i.path === "members[2].name" && i.message.includes("duplicate member name"))).toBe(true);
  });

  it.each([
    ["members[1].nodePools", (s: Doc) => (s.members[1].nodePools = "system")],
    ["members[1]", (s: Doc) => (s.members[1] = null)],
    ["strategy.stages[0].groups", (s: Doc) => (s.strategy.stages[0].groups = { name: "canary" })],
    ["actions[0].skip[0].type", (s: Doc) => (s.actions = [{ at: "2026-12-05T01:00:00Z", skip: [{ type: 1, name: "eu-1" }] }])],
    ["regions", (s: Doc) => (s.regions = ["westeurope"])],
  ])("a malformed %s is reported as such, without follow-on errors or a crash", (where, mutate) => {
    const issues = issuesOf(() => parseScenario(scenarioYaml(mutate)));
    expect(issues.map((i) => i.path)).toEqual([where]);
  });

  // The scenario's own checks across fields run only when the fields they read have their type
  // (CROSS_CHECKED; a name that breaks only its format is still read): each value of the wrong type
  // below would otherwise bring a second, misleading refusal, or a crash.
  const referenced = (s: Doc) => {
    s.strategies = { blue: s.strategy };
    delete s.strategy;
    s.updateStrategyId = "blue";
    return s.strategies.blue;
  };
  const at = "2026-12-05T02:00:00Z";
  it.each([
    ["start", (s: Doc) => { s.start = 2027; s.actions = [{ at, stop: true }]; }, ["start"]],
    ["until", (s: Doc) => (s.until = 2026), ["until"]],
    ["updateStrategyId", (s: Doc) => { referenced(s); s.updateStrategyId = 5; }, ["updateStrategyId"]],
    ["analysis.stages[0].name", (s: Doc) => (s.analysis = { templates: [{ name: "probe", provider: { web: { url: "https://status.example/healthz" } } }], stages: [{ name: 5, soak: ["probe"] }] }), ["analysis.stages[0].name"]],
    ["members[i].name", (s: Doc) => (s.members[1].name = s.members[2].name = 5), ["members[1].name", "members[2].name"]],
    ["members[i].group", (s: Doc) => { s.members[1].group = 5; s.actions = [{ at, skip: [{ type: "Member", name: "eu-1" }] }]; }, ["members[1].group"]],
    ["members[i].region", (s: Doc) => (s.members[0].region = 5), ["members[0].region"]],
    ["members[i].nodePools[j].name", (s: Doc) => (s.members[0].nodePools = [{ ...s.members[0].nodePools[0], name: 5 }, { ...s.members[0].nodePools[0], name: 5 }]), ["members[0].nodePools[0].name", "members[0].nodePools[1].name"]],
    ["strategy.stages[i].name", (s: Doc) => { s.strategy.stages[0].name = 5; s.actions = [{ at, skip: [{ type: "Stage", name: "canary" }] }]; }, ["strategy.stages[0].name"]],
    ["strategy.stages[i].groups[j].name", (s: Doc) => { s.strategy.stages[0].groups[0].name = 5; s.actions = [{ at, skip: [{ type: "Member", name: "canary-1" }] }]; }, ["strategy.stages[0].groups[0].name"]],
    ["strategies.<name>.stages[i].name", (s: Doc) => { referenced(s).stages[0].name = 5; s.actions = [{ at, skip: [{ type: "Stage", name: "canary" }] }]; }, ["strategies.blue.stages[0].name"]],
    ["strategies.<name>.stages[i].groups[j].name", (s: Doc) => { referenced(s).stages[0].groups[0].name = 5; s.actions = [{ at, skip: [{ type: "Member", name: "canary-1" }] }]; }, ["strategies.blue.stages[0].groups[0].name"]],
    ...(["beforeGates", "afterGates"] as const).flatMap((gates) => {
      const timing = gates === "beforeGates" ? "Before" : "After";
      return [
        [`strategy.stages[i].${gates}`, (s: Doc) => { s.strategy.stages[0][gates] = "Approval"; s.actions = [{ at, approve: [{ stage: "canary", timing }] }]; }, [`strategy.stages[0].${gates}`]],
        [`strategy.stages[i].groups[j].${gates}`, (s: Doc) => { s.strategy.stages[0].groups[0][gates] = "Approval"; s.actions = [{ at, approve: [{ stage: "canary", group: "canary", timing }] }]; }, [`strategy.stages[0].groups[0].${gates}`]],
        [`strategies.<name>.stages[i].${gates}`, (s: Doc) => { referenced(s).stages[0][gates] = "Approval"; s.actions = [{ at, approve: [{ stage: "canary", timing }] }]; }, [`strategies.blue.stages[0].${gates}`]],
        [`strategies.<name>.stages[i].groups[j].${gates}`, (s: Doc) => { referenced(s).stages[0].groups[0][gates] = "Approval"; s.actions = [{ at, approve: [{ stage: "canary", group: "canary", timing }] }]; }, [`strategies.blue.stages[0].groups[0].${gates}`]],
      ] as Array<[string, (s: Doc) => void, string[]]>;
    }),
    ["actions[i].at", (s: Doc) => (s.actions = [{ at: 2026, stop: true }]), ["actions[0].at"]],
    ["actions[i].skip[j].name", (s: Doc) => (s.actions = [{ at, skip: [{ type: "Member", name: 5 }] }]), ["actions[0].skip[0].name"]],
    ["actions[i].approve[j].stage", (s: Doc) => (s.actions = [{ at, approve: [{ stage: 5, timing: "Before" }] }]), ["actions[0].approve[0].stage"]],
    ["actions[i].approve[j].group", (s: Doc) => (s.actions = [{ at, approve: [{ stage: "canary", group: 5, timing: "Before" }] }]), ["actions[0].approve[0].group"]],
    ["actions[i].approve[j].timing", (s: Doc) => (s.actions = [{ at, approve: [{ stage: "canary", timing: "before" }] }]), ["actions[0].approve[0].timing"]],
  ] as Array<[string, (s: Doc) => void, string[]]>)("%s of the wrong type is refused alone: the checks that read it wait for it", (_where, mutate, paths) => {
    const issues = issuesOf(() => parseScenario(scenarioYaml(mutate)));
    expect(issues.map((i) => i.path), issues.map((i) => `${i.path}: ${i.message}`).join("\n")).toEqual(paths);
  });

  it("the error message lists one line per problem, each starting with its path", () => {
    let message = "";
    try {
      parseScenario(scenarioYaml((s) => { s.members[0].region = "northpole"; s.start = "soon"; }));
    } catch (e) {
      message = (e as Error).message;
    }
    const lines = message.split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines).toContain("start: must be an ISO 8601 date-time with a zone, e.g. 2026-12-05T00:00:00Z");
  });
});

describe("docs/rules.md §7: the example scenarios (examples/scenarios)", () => {
  const files = fs.existsSync(EXAMPLE_SCENARIOS) ? fs.readdirSync(EXAMPLE_SCENARIOS).filter((f) => /\.(ya?ml|json)$/.test(f)).sort() : [];

  it("exist", () => {
    expect(fs.existsSync(EXAMPLE_SCENARIOS), `${EXAMPLE_SCENARIOS} is missing`).toBe(true);
    expect(files.length).toBeGreaterThanOrEqual(3);
  });

  it.each(files)("%s parses without error", (file) => {
    const scenario = expectValid(() => parseScenario(fs.readFileSync(path.join(EXAMPLE_SCENARIOS, file), "utf8")));
    expect(scenario.members.length).toBeGreaterThan(0);
  });

  it("02-staged-parallel keeps its strategy", () => {
    const file = path.join(EXAMPLE_SCENARIOS, "02-staged-parallel.yaml");
    const scenario = parseScenario(fs.readFileSync(file, "utf8"));
    expect(scenario.strategy?.stages.map((s) => [s.name, s.groups.map((g) => g.name), s.afterStageWaitInSeconds])).toEqual([
      ["canary", ["canary"], 3600],
      ["production", ["prod-eu", "prod-us"], undefined],
    ]);
    expect(scenario.managedClusterUpdate!.nodeImageSelection?.type).toBe("Consistent");
  });
});

describe("docs/rules.md §7: each refusal once, at its path, and nothing more", () => {
  const referenced = (s: Doc) => {
    s.strategies = { blue: s.strategy };
    delete s.strategy;
    s.updateStrategyId = "blue";
    return s.strategies.blue;
  };
  const exactly = (mutate: (s: Doc) => void) => issuesOf(() => parseScenario(scenarioYaml(mutate)));

  it("an inline strategy beside a reference to none is refused once, as both", () => {
    expect(exactly((s) => (s.updateStrategyId = "nope"))).toEqual([{ path: "updateStrategyId", message: "give either an inline strategy or a strategy reference, not both" }]);
  });

  it("a referenced strategy's problems are named under strategies.<name>; the members' stay where they are", () => {
    const issues = exactly((s) => {
      const blue = referenced(s);
      blue.stages[1].groups = [{ name: "prod-eu", memberSelector: { byLabel: "env=prod" } }, { name: "prod-us", memberSelector: { byLabel: "env=prod" } }];
      s.members[1].labels = { env: "prod" };
      s.members[2].name = "eu-1";
    });
    expect(issues).toEqual([
      { path: "members[2].name", message: "duplicate member name 'eu-1' (also members[1])" },
      { path: "strategies.blue.stages[1].groups[1].memberSelector.byLabel", message: "member 'eu-1' is selected by group 'prod-eu' (stages[1].groups[0]) and by group 'prod-us': a member belongs to one group of a run" },
    ]);
  });

  it("an inline strategy's problems stay under strategy, even beside a reference", () => {
    const conflict = (s: Doc) => {
      s.strategy.stages[1].groups = [{ name: "prod-eu", memberSelector: { byLabel: "env=prod" } }, { name: "prod-us", memberSelector: { byLabel: "env=prod" } }];
      s.members[1].labels = { env: "prod" };
    };
    const selected = { path: "strategy.stages[1].groups[1].memberSelector.byLabel", message: "member 'eu-1' is selected by group 'prod-eu' (stages[1].groups[0]) and by group 'prod-us': a member belongs to one group of a run" };
    expect(exactly(conflict)).toEqual([selected]);
    expect(exactly((s) => { conflict(s); s.strategies = { blue: { stages: [{ name: "one", groups: [{ name: "canary" }] }] } }; s.updateStrategyId = "blue"; })).toEqual([
      { path: "updateStrategyId", message: "give either an inline strategy or a strategy reference, not both" },
      selected,
    ]);
  });

  it("a duplicate member name, which the fleet and the run both check, is named once", () => {
    expect(exactly((s) => (s.members[2].name = "eu-1"))).toEqual([{ path: "members[2].name", message: "duplicate member name 'eu-1' (also members[1])" }]);
  });

  it("a scenario without its update says so once, beside its other missing fields", () => {
    const issues = issuesOf(() => parseScenario("start: 2026-12-05T00:00:00Z\n"));
    expect(issues.filter((i) => i.path === "managedClusterUpdate")).toHaveLength(1);
  });

  it.each([[[]], [5], ["text"], [null]])("validateScenario(%j) is refused at (root) alone", (input) => {
    expect(issuesOf(() => validateScenario(input))).toEqual([{ path: "(root)", message: expect.stringContaining("must be a mapping") }]);
  });

  it("an instant out of range has its own refusal, not a horizon one too", () => {
    const range = /^must be from /;
    expect(exactly((s) => { s.start = "0001-01-01T00:00:00Z"; s.until = "2026-12-06T00:00:00Z"; })).toEqual([{ path: "start", message: expect.stringMatching(range) }]);
    expect(exactly((s) => (s.until = "9999-01-01T00:00:00Z"))).toEqual([{ path: "until", message: expect.stringMatching(range) }]);
  });

  it("until may be at most the horizon's days after start", () => {
    const limit = new Date(Date.parse("2026-12-05T00:00:00Z") + MAX_HORIZON_DAYS * 86_400_000).toISOString().replace(".000Z", "Z");
    expectValid(() => parseScenario(scenarioYaml((s) => (s.until = limit))));
    const past = limit.replace(/:00Z$/, ":01Z");
    expect(exactly((s) => (s.until = past))).toEqual([{ path: "until", message: `must be at most ${MAX_HORIZON_DAYS} days after start` }]);
  });

  it("a scenario without a strategy or a reference has the default one, even beside a strategy named 'undefined'", () => {
    expect(exactly((s) => { s.strategies = { undefined: { stages: [{ name: "canary", beforeGates: [{ type: "Approval" }], groups: [{ name: "canary" }] }] } }; delete s.strategy; s.actions = [{ at: "2026-12-05T02:00:00Z", approve: [{ stage: "canary", timing: "Before" }] }]; })).toEqual([
      { path: "actions[0].approve[0]", message: "stage 'canary' has no before-gates to approve" },
    ]);
  });

  it("an action's start and stop must be true", () => {
    expect(exactly((s) => (s.actions = [{ at: "2026-12-05T02:00:00Z", start: false }]))).toEqual([{ path: "actions[0].start", message: "must be true" }]);
  });
});
