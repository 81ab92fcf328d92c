/**
 * Issue 22, docs/rules.md §16: stages and groups choose their members by label. Each rule in process,
 * and (property) that a strategy built from selectors never upgrades a member twice, nor one that no
 * group selects.
 */
import fc from "fast-check";
import { describe, expect, it, test } from "vitest";
import { ValidationError } from "../../src/model/issues";
import { parseScenario } from "../../src/simulation/scenario";
import { simulateScenario } from "../../src/simulation/simulateScenario";
import { matchesLabels, parseLabelSelector } from "../../src/model/labelSelector";
import { member, scenario, simulate } from "./helpers";

function issuesOf(yaml: string): Array<{ path: string; message: string }> {
  try {
    parseScenario(yaml);
  } catch (e) {
    if (e instanceof ValidationError) return e.issues;
    throw e;
  }
  return [];
}

describe("who each group holds", () => {
  it("a group's selector replaces matching by group name: its name only identifies it", async () => {
    const out = await simulate(
      scenario({
        members: [member("a", { group: "blue", labels: { env: "prod" } }), member("b", { group: "prod", labels: { env: "dev" } })],
        strategy: `{stages: [{name: s, groups: [{name: prod, memberSelector: {byLabel: "env=prod"}}]}]}`,
      }),
    );
    expect(out.group("prod").members.map((m) => m.name)).toEqual(["a"]);
    expect(out.report.excludedMembers).toEqual([{ name: "b", group: "prod", reason: "no group of the strategy selects it, by group name or by label" }]);
    expect(out.cluster("b").operations).toEqual([]);
  });

  it("a stage's selector filters the members before its groups choose theirs, by name or by label", async () => {
    const out = await simulate(
      scenario({
        members: [member("eu-1", { group: "eu", labels: { ring: "1" } }), member("eu-2", { group: "eu", labels: { ring: "2" } }), member("us-1", { group: "us", labels: { ring: "1" } })],
        strategy: `{stages: [{name: ring1, memberSelector: {byLabel: "ring=1"}, groups: [{name: eu}, {name: us}]}]}`,
      }),
    );
    expect(out.group("eu").members.map((m) => m.name)).toEqual(["eu-1"]);
    expect(out.group("us").members.map((m) => m.name)).toEqual(["us-1"]);
    expect(out.report.excludedMembers.map((m) => m.name)).toEqual(["eu-2"]);
  });

  it("a stage with a selector and no groups has one implicit group of every member that matches, at the stage's pace", async () => {
    const out = await simulate(
      scenario({
        members: [member("a", { labels: { tier: "web" } }), member("b", { labels: { tier: "web" } }), member("c", { labels: { tier: "web" } }), member("d", { labels: { tier: "db" } })],
        strategy: `{stages: [{name: web, memberSelector: {byLabel: "tier=web"}, maxConcurrency: "2"}, {name: db, memberSelector: {byLabel: "tier=db"}}]}`,
      }),
    );
    expect(out.stage("web").groups.map((g) => [g.name, g.members.map((m) => m.name)])).toEqual([["web", ["a", "b", "c"]]]);
    expect(out.member("a").status.startTime).toBe(out.member("b").status.startTime);
    expect(Date.parse(out.member("c").status.startTime ?? "")).toBeGreaterThan(Date.parse(out.member("a").status.startTime ?? ""));
    expect(out.stage("db").groups.map((g) => [g.name, g.members.map((m) => m.name)])).toEqual([["db", ["d"]]]);
    expect(out.run.state).toBe("Completed");
  });

  it("a stage with neither groups nor a selector is refused", () => {
    expect(issuesOf(scenario({ members: [member("a", { group: "x" })], strategy: `{stages: [{name: s}]}` })).map((i) => i.path)).toContain("strategy.stages[0].groups");
  });

  it("a selector that matches nobody gives an empty group, which ends Skipped; the run goes on", async () => {
    const out = await simulate(
      scenario({
        members: [member("a", { labels: { env: "prod" } })],
        strategy: `{stages: [{name: s, groups: [{name: qa, memberSelector: {byLabel: "env=qa"}, beforeGates: [{type: Approval}]}, {name: prod, memberSelector: {byLabel: "env"}}]}]}`,
      }),
    );
    expect(out.group("qa").status.state).toBe("Skipped");
    expect(out.group("qa").beforeGates?.[0]?.status.state).toBe("Skipped");
    expect(out.member("a").status.state).toBe("Completed");
    expect(out.run.state).toBe("Completed");
  });
});

describe("refused at validation, naming the field path", () => {
  it("a member that two groups of the run select, naming the member and both groups", () => {
    const issues = issuesOf(
      scenario({
        members: [member("a", { labels: { env: "prod", tier: "eu" } })],
        strategy: `{stages: [{name: s1, groups: [{name: g1, memberSelector: {byLabel: "env=prod"}}]}, {name: s2, groups: [{name: g2, memberSelector: {byLabel: "tier=eu"}}]}]}`,
      }),
    );
    expect(issues).toContainEqual({ path: "strategy.stages[1].groups[0].memberSelector.byLabel", message: "member 'a' is selected by group 'g1' (stages[0].groups[0]) and by group 'g2': a member belongs to one group of a run" });
  });

  it("a selector that does not parse, with the position of the fault", () => {
    const issues = issuesOf(scenario({ members: [member("a", { labels: { env: "prod" } })], strategy: `{stages: [{name: s, groups: [{name: g, memberSelector: {byLabel: "env in prod"}}]}]}` }));
    expect(issues).toContainEqual({ path: "strategy.stages[0].groups[0].memberSelector.byLabel", message: "is not a label selector: expected '(' after 'in' at position 8" });
  });

  it("a label whose key or value breaks Kubernetes' syntax", () => {
    const issues = issuesOf(scenario({ members: [member("a", { labels: { "-bad": "x", ok: "no spaces" } })] }));
    expect(issues.map((i) => i.path)).toEqual(expect.arrayContaining(["members[0].labels.-bad", "members[0].labels.ok"]));
  });
});

const labelValue = fc.constantFrom("a", "b", "c");
const labelsArb = fc.record({ env: labelValue, ring: labelValue }, { requiredKeys: [] });
const requirementArb = fc.oneof(
  fc.tuple(fc.constantFrom("env", "ring"), labelValue).map(([k, v]) => `${k}=${v}`),
  fc.tuple(fc.constantFrom("env", "ring"), labelValue).map(([k, v]) => `${k}!=${v}`),
  fc.constantFrom("env", "!ring", "ring in (a, b)", "env notin (c)"),
);
const selectorArb = fc.array(requirementArb, { minLength: 1, maxLength: 2 }).map((r) => r.join(", "));

test("a selector-built strategy never upgrades a member twice, nor one that no group selects (property)", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(labelsArb, { minLength: 1, maxLength: 6 }), fc.array(fc.array(selectorArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 2 }), async (labels, stages) => {
      const strategy = `{stages: [${stages.map((groups, s) => `{name: s${s}, groups: [${groups.map((sel, g) => `{name: g${s}-${g}, memberSelector: {byLabel: "${sel}"}, maxConcurrency: "2"}`).join(", ")}]}`).join(", ")}]}`;
      const yaml = scenario({ members: labels.map((l, i) => member(`m${i}`, { labels: l })), strategy });
      let parsed;
      try {
        parsed = parseScenario(yaml);
      } catch (e) {
        // Two groups selecting one member: refused, and that is the only refusal these cases can meet.
        expect((e as ValidationError).issues.every((i) => /is selected by group/.test(i.message))).toBe(true);
        return;
      }
      const report = await simulateScenario(parsed);
      const selected = new Set<string>();
      stages.forEach((groups) => groups.forEach((sel) => labels.forEach((l, i) => matchesLabels(parseLabelSelector(sel), l) && selected.add(`m${i}`))));
      for (const cluster of report.result.clusters) {
        const upgrades = cluster.operations.length;
        expect(upgrades, cluster.name).toBe(selected.has(cluster.name) ? 1 : 0);
      }
      // Every group empty: every stage, and the run, Skipped.
      expect(report.result.status.status.state).toBe(selected.size === 0 ? "Skipped" : "Completed");
    }),
    { numRuns: 150 },
  );
});
