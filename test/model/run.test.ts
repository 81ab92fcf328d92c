/**
 * docs/rules.md §2 rules that need members and strategy together (`crossValidateRun`), member identity
 * (unique names, well-formed `clusterResourceId`), and the excluded-member warning. Checked on
 * `UpdateRunSpecSchema` + `crossValidateRun` directly and through scenario YAML.
 */
import { describe, expect, it } from "vitest";
import { ValidationError, parseOrThrow, type FieldIssue } from "../../src/model/issues";
import { ClusterResourceIdSchema, MemberSchema } from "../../src/model/member";
import { UpdateRunSpecSchema, crossValidateRun, unknownSkipTargets } from "../../src/model/run";
import { parseScenario } from "../../src/simulation/scenario";
import { CLUSTER_ID, expectIssue, expectValid, issuesOf, member, scenarioYaml, type Doc } from "./helpers";

const FULL = { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } };

/** What a caller of the run schema does: shape first, then the cross-field rules (throwing like parseOrThrow). */
function validateRun(input: Doc) {
  const spec = parseOrThrow(UpdateRunSpecSchema, input);
  const { issues, excluded } = crossValidateRun(spec);
  if (issues.length > 0) throw new ValidationError(issues);
  return excluded;
}

const twoStages = { stages: [{ name: "canary", groups: [{ name: "canary" }] }, { name: "prod", groups: [{ name: "eu" }, { name: "us" }] }] };
const runMembers = () => [
  { name: "c-1", group: "canary" },
  { name: "eu-1", group: "eu" },
  { name: "us-1", group: "us" },
];

describe("docs/rules.md §2: member names are unique", () => {
  it("rejects a repeated name, at the repeat", () => {
    const members = [...runMembers(), { name: "eu-1", group: "us" }];
    expectIssue(() => validateRun({ members, strategy: twoStages, managedClusterUpdate: FULL }), "members[3].name", "duplicate member name 'eu-1' (also members[1])");
  });

  it("rejects it without a strategy too", () => {
    expectIssue(() => validateRun({ members: [{ name: "a" }, { name: "a" }], managedClusterUpdate: FULL }), "members[1].name", "duplicate member name 'a'");
  });

  it("through a scenario, reported once", () => {
    const issues = expectIssue(() => parseScenario(scenarioYaml((s) => (s.members[3].name = "canary-1"))), "members[3].name", "duplicate member name 'canary-1' (also members[0])");
    expect(issues.filter((i) => i.path === "members[3].name")).toHaveLength(1);
  });

  it("accepts distinct names", () => {
    expect(expectValid(() => validateRun({ members: runMembers(), strategy: twoStages, managedClusterUpdate: FULL }))).toEqual([]);
  });
});

describe("docs/rules.md §2: clusterResourceId is an ARM managed cluster id", () => {
  const malformed: Array<[string, string]> = [
    ["wrong provider", CLUSTER_ID.replace("Microsoft.ContainerService/managedClusters", "Microsoft.Compute/virtualMachines")],
    ["wrong resource type", CLUSTER_ID.replace("managedClusters", "fleets")],
    ["missing resourceGroups segment", "/subscriptions/00000000-1111-2222-3333-444444444444/providers/Microsoft.ContainerService/managedClusters/aks-1"],
    ["missing cluster name", "/subscriptions/00000000-1111-2222-3333-444444444444/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/"],
    ["missing subscriptions segment", "/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/aks-1"],
    ["subscription not a guid", CLUSTER_ID.replace("00000000-1111-2222-3333-444444444444", "my-subscription")],
    ["subscription guid too short", CLUSTER_ID.replace("00000000-1111-2222-3333-444444444444", "0000000-1111-2222-3333-444444444444")],
    ["subscription guid with non-hex", CLUSTER_ID.replace("00000000", "0000000g")],
    ["no leading slash", CLUSTER_ID.slice(1)],
    ["a segment before /subscriptions", `/tenants/t1${CLUSTER_ID}`],
    ["trailing extra segment", `${CLUSTER_ID}/agentPools/system`],
    ["trailing slash", `${CLUSTER_ID}/`],
    ["a bare cluster name", "aks-canary-1"],
    ["empty", ""],
  ];

  it.each(malformed)("rejects %s", (_label, id) => {
    expectIssue(() => parseOrThrow(MemberSchema, { name: "m", clusterResourceId: id }, ["members", 0]), "members[0].clusterResourceId", "must be an ARM managed cluster id");
    expectIssue(
      () => validateRun({ members: [{ name: "m", clusterResourceId: id }], managedClusterUpdate: FULL }),
      "members[0].clusterResourceId",
      "/subscriptions/<guid>/resourceGroups/<group>/providers/Microsoft.ContainerService/managedClusters/<name>",
    );
    expectIssue(() => parseScenario(scenarioYaml((s) => (s.members[2].clusterResourceId = id))), "members[2].clusterResourceId", "must be an ARM managed cluster id");
  });

  it("rejects a non-string id", () => {
    expectIssue(() => parseOrThrow(ClusterResourceIdSchema, 42, ["clusterResourceId"]), "clusterResourceId", "must be a string");
    expect(issuesOf(() => parseScenario(scenarioYaml((s) => (s.members[2].clusterResourceId = 42))))).toEqual([{ path: "members[2].clusterResourceId", message: "must be a string" }]);
  });

  it.each([
    ["a well-formed id", CLUSTER_ID],
    ["lowercase fixed segments (ARM is case-insensitive)", CLUSTER_ID.replace("resourceGroups", "resourcegroups").replace("Microsoft.ContainerService", "microsoft.containerservice")],
    ["an uppercase guid", CLUSTER_ID.replace("00000000-1111-2222-3333-444444444444", "ABCDEF01-2345-6789-ABCD-EF0123456789")],
    ["a resource group with dots and parentheses", CLUSTER_ID.replace("rg-fleet", "rg.fleet_(prod)")],
    ["a cluster name of one character", CLUSTER_ID.replace("aks-canary-1", "a")],
  ])("accepts %s", (_label, id) => {
    expectValid(() => parseOrThrow(ClusterResourceIdSchema, id));
    expectValid(() => validateRun({ members: [{ name: "m", clusterResourceId: id }], managedClusterUpdate: FULL }));
    expectValid(() => parseScenario(scenarioYaml((s) => (s.members[2].clusterResourceId = id))));
  });
});

describe("docs/rules.md §2: a strategy group no member belongs to is accepted (as Fleet Manager accepts it)", () => {
  it("accepts a group no member belongs to: it is a group of the run with no members", () => {
    const members = runMembers().filter((m) => m.group !== "us");
    expectValid(() => validateRun({ members, strategy: twoStages, managedClusterUpdate: FULL }));
    const { issues, assignment } = crossValidateRun({ members, strategy: twoStages });
    expect(issues).toEqual([]);
    expect(assignment.groups[1]?.[1]).toEqual([]);
  });

  it("through a scenario (a typo in a member's group): the member is left out, the group is empty, nothing refused", () => {
    expectValid(() => parseScenario(scenarioYaml((s) => (s.members[3].group = "prod-usa"))));
  });

  it("through a referenced strategy", () => {
    const yaml = scenarioYaml((s) => {
      s.strategies = { rollout: s.strategy };
      delete s.strategy;
      s.updateStrategyId = "rollout";
      s.members[0].group = "canry";
    });
    expectValid(() => parseScenario(yaml));
  });

  it("accepts when every group has a member", () => {
    expectValid(() => validateRun({ members: runMembers(), strategy: twoStages, managedClusterUpdate: FULL }));
  });
});

describe("docs/rules.md §1/§2: an inline strategy or a strategy reference, not both", () => {
  it("rejects both, at updateStrategyId", () => {
    expectIssue(
      () => validateRun({ members: runMembers(), strategy: twoStages, updateStrategyId: "rollout", managedClusterUpdate: FULL }),
      "updateStrategyId",
      "give either an inline strategy or a strategy reference, not both",
    );
  });

  it("through a scenario", () => {
    const yaml = scenarioYaml((s) => {
      s.strategies = { rollout: s.strategy };
      s.updateStrategyId = "rollout";
    });
    expectIssue(() => parseScenario(yaml), "updateStrategyId", "not both");
  });

  it("accepts a reference alone (resolved), an inline strategy alone, or neither", () => {
    const referenced = expectValid(() =>
      parseScenario(
        scenarioYaml((s) => {
          s.strategies = { rollout: s.strategy };
          delete s.strategy;
          s.updateStrategyId = "rollout";
        }),
      ),
    );
    expect(referenced.updateStrategyId).toBe("rollout");
    expectValid(() => validateRun({ members: runMembers(), updateStrategyId: "rollout", managedClusterUpdate: FULL }));
    expectValid(() => parseScenario(scenarioYaml()));
    expectValid(() => parseScenario(scenarioYaml((s) => delete s.strategy)));
  });

  it("rejects a reference to a strategy that does not exist", () => {
    expectIssue(() => parseScenario(scenarioYaml((s) => { delete s.strategy; s.updateStrategyId = "nope"; })), "updateStrategyId", "no strategy named 'nope'");
  });
});

describe("docs/rules.md §2: members whose group is in no stage are left out (a warning, not an error)", () => {
  it("lists a member of an unstaged group, and a member without a group, in `excluded`", () => {
    const members = [...runMembers(), { name: "stray-1", group: "staging" }, { name: "loose-1" }];
    const { issues, excluded } = crossValidateRun({ members, strategy: twoStages });
    expect(issues).toEqual([]);
    expect(excluded).toEqual([
      { name: "stray-1", group: "staging", reason: expect.stringContaining("group 'staging' is in no stage") },
      { name: "loose-1", reason: expect.stringContaining("has no group") },
    ]);
  });

  it("excludes no one without a strategy (the default stage holds every member)", () => {
    const { issues, excluded } = crossValidateRun({ members: [{ name: "a", group: "x" }, { name: "b" }] });
    expect(issues).toEqual([]);
    expect(excluded).toEqual([]);
  });

  it("a scenario with such members is valid", () => {
    expectValid(() =>
      parseScenario(
        scenarioYaml((s) => {
          s.members.push(member("stray-1", "staging"), member("loose-1"));
        }),
      ),
    );
  });

  it("a misspelt group: the member is excluded and the strategy group is empty (a plan finding, EMPTY_GROUP), not an error", () => {
    const members = [{ name: "c-1", group: "canary" }, { name: "eu-1", group: "eu" }, { name: "us-1", group: "usa" }];
    const { issues, excluded, assignment } = crossValidateRun({ members, strategy: twoStages });
    expect(issues.map((i: FieldIssue) => i.path)).toEqual([]);
    expect(excluded.map((m) => m.name)).toEqual(["us-1"]);
    expect(assignment.groups[1]?.[1]).toEqual([]);
  });
});

describe("run spec shape", () => {
  it("names fields inside members", () => {
    const issues = issuesOf(() => validateRun({ members: [{ name: "a", grop: "x" }, "b"], managedClusterUpdate: FULL }));
    expect(issues).toContainEqual({ path: "members[0].grop", message: "unknown field" });
    expect(issues.some((i) => i.path === "members[1]" && i.message.includes("must be a mapping"))).toBe(true);
  });

  it("requires managedClusterUpdate", () => {
    expectIssue(() => validateRun({ members: [] }), "managedClusterUpdate", "is required (or autoUpgradeProfile, to generate the update when the run starts)");
  });
});

describe("docs/rules.md §16: groups and stages choosing their members by label (crossValidateRun)", () => {
  const labelled = (name: string, labels: Record<string, string>, group?: string) => ({ name, labels, ...(group === undefined ? {} : { group }) });
  const byLabel = (name: string, selector: string) => ({ name, memberSelector: { byLabel: selector } });

  it("a group selecting `env in (b, a)` holds its members in the members' order, not the order of the values", () => {
    const members = [labelled("m0", { env: "a" }), labelled("m1", { env: "b" }), labelled("m2", { env: "c" }), labelled("m3", { env: "a" }), labelled("m4", { env: "b" })];
    const { issues, assignment } = crossValidateRun({ members, strategy: { stages: [{ name: "s", groups: [byLabel("g", "env in (b, a)")] }] } });
    expect(issues).toEqual([]);
    expect(assignment.groups).toEqual([[["m0", "m1", "m3", "m4"]]]);
    expect(assignment.excluded).toStrictEqual([{ name: "m2", reason: "no group of the strategy selects it, by group name or by label" }]);
  });

  it("a strategy whose groups choose by label and by name alike, with no stage selector: each group holds its own", () => {
    const members = [labelled("a", { env: "prod" }), labelled("b", { env: "dev" }, "blue"), labelled("c", { env: "dev" }, "green")];
    const { issues, assignment } = crossValidateRun({ members, strategy: { stages: [{ name: "s", groups: [byLabel("prod", "env=prod"), { name: "blue" }] }] } });
    expect(issues).toEqual([]);
    expect(assignment.groups).toEqual([[["a"], ["b"]]]);
    // A member with a group, left out of a strategy that chooses by label, keeps its group in the warning.
    expect(assignment.excluded).toStrictEqual([{ name: "c", group: "green", reason: "no group of the strategy selects it, by group name or by label" }]);
  });

  it("a member chosen by label and again by its group's name is refused at the second group's name", () => {
    const members = [labelled("a", { env: "prod" }, "blue")];
    const { issues } = crossValidateRun({ members, strategy: { stages: [{ name: "s1", groups: [byLabel("prod", "env=prod")] }, { name: "s2", groups: [{ name: "blue" }] }] } });
    expect(issues).toEqual([{ path: "strategy.stages[1].groups[0].name", message: "member 'a' is selected by group 'prod' (stages[0].groups[0]) and by group 'blue': a member belongs to one group of a run" }]);
  });

  it("through a scenario: a group listed twice is refused once, as listed twice (its members are not also 'selected by two groups')", () => {
    const issues = issuesOf(() => parseScenario(scenarioYaml((s) => s.strategy.stages[1].groups.push({ name: "canary" }))));
    expect(issues).toEqual([{ path: "strategy.stages[1].groups[2].name", message: expect.stringContaining("group 'canary' is listed twice") }]);
  });

  it("through a scenario: selectors that do not parse are refused each with its fault, and select nobody (no member is 'selected by two groups')", () => {
    const issues = issuesOf(() =>
      parseScenario(
        scenarioYaml((s) => {
          s.strategy.stages[1].groups = [byLabel("prod-eu", "env in prod"), byLabel("prod-us", "env in us")];
        }),
      ),
    );
    expect(issues).toEqual([
      { path: "strategy.stages[1].groups[0].memberSelector.byLabel", message: "is not a label selector: expected '(' after 'in' at position 8" },
      { path: "strategy.stages[1].groups[1].memberSelector.byLabel", message: "is not a label selector: expected '(' after 'in' at position 8" },
    ]);
  });
});

describe("docs/rules.md §19: an analysis used at a stage names a stage of the run", () => {
  const analysis = (stage: string) => ({
    templates: [{ name: "t", provider: { web: { url: "https://probe.example/health" } } }],
    stages: [{ name: stage }],
  });

  it("without a strategy the run's one stage is `default`", () => {
    const spec = (stage: string) => parseOrThrow(UpdateRunSpecSchema, { members: [{ name: "a" }], managedClusterUpdate: FULL, analysis: analysis(stage) });
    expect(crossValidateRun(spec("default")).issues).toEqual([]);
    expect(crossValidateRun(spec("prod")).issues).toEqual([{ path: "analysis.stages[0].name", message: "no stage named 'prod' in the run's strategy (its stages: default)" }]);
  });
});

describe("docs/rules.md §3.9: a skip naming nothing in the run (unknownSkipTargets)", () => {
  const members = [...runMembers(), { name: "stray-1", group: "staging" }];
  const skipIssues = (skip: Array<{ type: "Member" | "Group" | "Stage" | "AfterStageWait"; name: string }>, strategy: typeof twoStages | undefined) => {
    const { excluded } = crossValidateRun({ members, ...(strategy === undefined ? {} : { strategy }) });
    return unknownSkipTargets(members, strategy, excluded, skip, "skip");
  };

  it("accepts a member, a group, a stage and an after-stage wait of the run", () => {
    expect(skipIssues([{ type: "Member", name: "eu-1" }, { type: "Group", name: "us" }, { type: "Stage", name: "canary" }, { type: "AfterStageWait", name: "prod" }], twoStages)).toEqual([]);
  });

  it("refuses each unknown one at its path, by what it is", () => {
    expect(skipIssues([{ type: "Member", name: "eu-9" }, { type: "Group", name: "prod" }, { type: "Stage", name: "eu" }, { type: "AfterStageWait", name: "later" }], twoStages)).toEqual([
      { path: "skip[0].name", message: "no member named 'eu-9' in this run" },
      { path: "skip[1].name", message: "no group named 'prod' in this run" },
      { path: "skip[2].name", message: "no stage named 'eu' in this run" },
      { path: "skip[3].name", message: "no stage named 'later' in this run" },
    ]);
  });

  it("refuses a member left out of the run, saying so", () => {
    expect(skipIssues([{ type: "Member", name: "stray-1" }], twoStages)).toEqual([{ path: "skip[0].name", message: "member 'stray-1' is left out of the run (its group is in no stage), so it cannot be skipped" }]);
    // A group by that name is not that member.
    expect(skipIssues([{ type: "Group", name: "stray-1" }], twoStages)).toEqual([{ path: "skip[0].name", message: "no group named 'stray-1' in this run" }]);
  });

  it("without a strategy: the stage and the group `default`, and every member", () => {
    expect(skipIssues([{ type: "Member", name: "stray-1" }, { type: "Group", name: "default" }, { type: "Stage", name: "default" }], undefined)).toEqual([]);
    expect(skipIssues([{ type: "Group", name: "canary" }], undefined)).toEqual([{ path: "skip[0].name", message: "no group named 'canary' in this run" }]);
  });
});

describe("run spec: members", () => {
  it("must be a list of members, and is required", () => {
    expectIssue(() => validateRun({ members: "a", managedClusterUpdate: FULL }), "members", "must be a list of members");
    expect(issuesOf(() => validateRun({ managedClusterUpdate: FULL }))).toEqual([{ path: "members", message: "is required" }]);
  });
});
