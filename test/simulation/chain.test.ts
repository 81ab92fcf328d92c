/**
 * Issue 5 chained runs (`runs:`): one fleet, one virtual clock, later runs taking earlier runs'
 * `failedMembers` and `appliedNodeImageVersions`. examples/promotion/scenario.yaml's expected outcome
 * is asserted here, as the shared scenarios' are elsewhere.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseAnyScenario } from "../../src/simulation/chain";
import { ValidationError } from "../../src/model/issues";
import { simulateChain } from "../../src/simulation/simulateChain";
import { simulateCommand } from "../../src/cli/simulate";

const PROMOTION = path.resolve(__dirname, "../../examples/promotion/scenario.yaml");
const DEC10 = "AKSUbuntu-2204gen2containerd-202612.10.0";
const DEC15 = "AKSUbuntu-2204gen2containerd-202612.15.0";

function chainOf(text: string) {
  const parsed = parseAnyScenario(text);
  if (parsed.kind !== "chain") throw new Error("not a chain");
  return parsed.chain;
}

describe("examples/promotion/scenario.yaml", () => {
  it("staging tolerates its failure, the retry takes only it with staging's image, production gets that image though a newer one exists", async () => {
    const { result } = await simulateChain(chainOf(fs.readFileSync(PROMOTION, "utf8")));
    const [staging, retry, production] = result.runs;
    expect(result.runs.map((r) => r.name)).toEqual(["staging", "staging-retry", "production"]);
    expect(staging!.summary).toMatchObject({ state: "Completed", outcome: "CompletedWithFailures", failureCount: 1 });
    expect(staging!.failedMembers).toEqual([{ name: "staging-2", group: "staging" }]);
    expect(staging!.appliedNodeImageVersions).toEqual([{ version: DEC10 }]);

    expect(retry!.summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 1, Completed: 1 } });
    expect(retry!.status.stages[0]!.groups[0]!.members.map((m) => m.name)).toEqual(["staging-2"]);
    // The retry started the moment staging settled.
    expect(retry!.status.status.startTime).toBe(staging!.status.status.completedTime);

    expect(production!.status.status.startTime).toBe("2026-12-21T08:00:00Z");
    expect(production!.summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 4 } });
    for (const cluster of result.clusters) expect(cluster.nodePools.map((p) => p.nodeImageVersion), cluster.name).toEqual([DEC10]);
    expect(JSON.stringify(result.clusters)).not.toContain(DEC15);
    // Events carry each run's name.
    expect(new Set(production!.events.filter((e) => e.scope === "run").map((e) => e.name))).toEqual(new Set(["production"]));
  });

  it("`simulate --json` prints { runs, clusters }; the tree names every run", async () => {
    let out = "";
    const io = { stdout: (t: string) => void (out += t), stderr: () => {} };
    expect(await simulateCommand(PROMOTION, { json: true }, io)).toBe(0);
    const json = JSON.parse(out) as { runs: Array<{ name: string }>; clusters: unknown[] };
    expect(Object.keys(json)).toEqual(["runs", "clusters"]);
    expect(json.runs.map((r) => r.name)).toEqual(["staging", "staging-retry", "production"]);
    out = "";
    expect(await simulateCommand(PROMOTION, {}, io)).toBe(0);
    expect(out).toContain("Run staging: Completed");
    expect(out).toContain("— 1 member failed");
    expect(out).toContain("Run production: Completed");
  });
});

describe("validation of chained runs", () => {
  const base = fs.readFileSync(PROMOTION, "utf8").split("\nruns:\n")[0]!;
  const issuesOf = (runs: string): Array<{ path: string; message: string }> => {
    try {
      chainOf(`${base}\nruns:\n${runs}`);
      return [];
    } catch (e) {
      return (e as ValidationError).issues;
    }
  };

  it("a reference must name an earlier run and the output that fits where it is used", () => {
    const issues = issuesOf(`
  - name: first
    members: {fromRun: later, output: failedMembers}
    managedClusterUpdate: {upgrade: {type: NodeImageOnly}}
  - name: later
    members: [{name: staging-1}]
    managedClusterUpdate:
      upgrade: {type: NodeImageOnly}
      nodeImageSelection: {type: Custom, customNodeImageVersions: {fromRun: first, output: failedMembers}}
`);
    expect(issues).toEqual([
      { path: "runs[0].members.fromRun", message: "no earlier run named 'later'" },
      { path: "runs[1].managedClusterUpdate.nodeImageSelection.customNodeImageVersions.output", message: "must be appliedNodeImageVersions here" },
    ]);
  });

  it("names unknown fleet members, duplicate runs and bad updates by their path", () => {
    const issues = issuesOf(`
  - name: a
    members: [{name: nobody}]
    managedClusterUpdate: {upgrade: {type: Full}}
  - name: a
    managedClusterUpdate: {upgrade: {type: NodeImageOnly}}
`);
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: "runs[0].members[0].name", message: "no fleet member named 'nobody'" },
        { path: "runs[0].managedClusterUpdate.upgrade.kubernetesVersion", message: "is required for a Full upgrade" },
        { path: "runs[1].name", message: "duplicate run name 'a'" },
      ]),
    );
  });

  it("a single-run scenario is still read as one (no runs: key)", () => {
    const single = parseAnyScenario(fs.readFileSync(path.resolve(__dirname, "../../examples/scenarios/01-default-sequential.yaml"), "utf8"));
    expect(single.kind).toBe("single");
  });

  it("a run whose referenced images are empty is refused when it starts, naming the field", async () => {
    const text = `${base}\nruns:\n  - name: cp\n    members: [{name: staging-1}]\n    managedClusterUpdate: {upgrade: {type: ControlPlaneOnly, kubernetesVersion: 1.31.2}}\n  - name: promote\n    members: [{name: prod-eu-1}]\n    managedClusterUpdate:\n      upgrade: {type: NodeImageOnly}\n      nodeImageSelection: {type: Custom, customNodeImageVersions: {fromRun: cp, output: appliedNodeImageVersions}}\n`;
    await expect(simulateChain(chainOf(text))).rejects.toThrow(/runs\[1\]\.managedClusterUpdate\.nodeImageSelection\.customNodeImageVersions: is required/);
  });
});

describe("validation of chained runs: every refusal names its field path", () => {
  const world = fs.readFileSync(PROMOTION, "utf8").split("\nruns:\n")[0]!;
  const issuesOf = (rest: string): Array<{ path: string; message: string }> => {
    try {
      chainOf(`${world}\n${rest}`);
      return [];
    } catch (e) {
      return (e as ValidationError).issues;
    }
  };
  const NODE_IMAGES = "managedClusterUpdate: {upgrade: {type: NodeImageOnly}}";

  it("runs must be a non-empty list", () => {
    expect(issuesOf("runs: 5\n")).toEqual([{ path: "runs", message: "must be a list of runs" }]);
    expect(issuesOf("runs: []\n")).toEqual([{ path: "runs", message: "needs at least one run" }]);
  });

  it("a run's strategy is inline or referenced, not both, and a reference must name one under strategies", () => {
    const strategies = "strategies:\n  one: {stages: [{name: s, groups: [{name: g}]}]}\n";
    expect(issuesOf(`${strategies}runs:\n  - {name: a, strategy: {stages: [{name: s, groups: [{name: g}]}]}, updateStrategyId: one, ${NODE_IMAGES}}\n  - {name: b, updateStrategyId: two, ${NODE_IMAGES}}\n`)).toEqual([
      { path: "runs[0].updateStrategyId", message: "give either an inline strategy or a strategy reference, not both" },
      { path: "runs[1].updateStrategyId", message: "no strategy named 'two' under strategies" },
    ]);
    expect(issuesOf(`runs:\n  - {name: a, updateStrategyId: one, ${NODE_IMAGES}}\n`)).toEqual([{ path: "runs[0].updateStrategyId", message: "no strategy named 'one' under strategies" }]);
    expect(issuesOf(`${strategies}runs:\n  - {name: a, members: [{name: staging-1, group: g}], updateStrategyId: one, ${NODE_IMAGES}}\n`)).toEqual([]);
  });

  it("a run's own member list is checked as a run's, at the run's path", () => {
    expect(issuesOf(`runs:\n  - {name: a, ${NODE_IMAGES}}\n  - {name: b, members: [{name: staging-1}, {name: staging-2}, {name: staging-1}], ${NODE_IMAGES}}\n`)).toEqual([
      { path: "runs[1].members[2].name", message: "duplicate member name 'staging-1' (also members[0])" },
    ]);
  });

  it("a run of every fleet member is checked against its strategy before anything runs, at the strategy's path (once)", () => {
    // Bug fixed: this was refused only when `second` started, after `first` had run, at runs[1].strategy.
    const labelled = world.replace("{name: prod-eu-1, region: westeurope,", "{name: prod-eu-1, labels: {env: prod}, region: westeurope,");
    const twoGroups = "{stages: [{name: s, groups: [{name: a, memberSelector: {byLabel: env=prod}}, {name: b, memberSelector: {byLabel: env=prod}}]}]}";
    const message = "member 'prod-eu-1' is selected by group 'a' (stages[0].groups[0]) and by group 'b': a member belongs to one group of a run";
    const refused = (runs: string, fleet = labelled) => {
      try {
        chainOf(`${fleet}\n${runs}`);
        return [];
      } catch (e) {
        return (e as ValidationError).issues;
      }
    };
    expect(refused(`strategies:\n  two: ${twoGroups}\nruns:\n  - {name: first, ${NODE_IMAGES}}\n  - {name: second, updateStrategyId: two, ${NODE_IMAGES}}\n  - {name: third, updateStrategyId: two, ${NODE_IMAGES}}\n`)).toEqual([
      { path: "strategies.two.stages[0].groups[1].memberSelector.byLabel", message },
    ]);
    expect(refused(`runs:\n  - {name: first, strategy: ${twoGroups}, ${NODE_IMAGES}}\n`)).toEqual([{ path: "runs[0].strategy.stages[0].groups[1].memberSelector.byLabel", message }]);
    // Both (refused as such): the inline strategy is the one checked.
    expect(refused(`strategies:\n  one: {stages: [{name: s, groups: [{name: g}]}]}\nruns:\n  - {name: first, strategy: ${twoGroups}, updateStrategyId: one, ${NODE_IMAGES}}\n`)).toEqual([
      { path: "runs[0].updateStrategyId", message: "give either an inline strategy or a strategy reference, not both" },
      { path: "runs[0].strategy.stages[0].groups[1].memberSelector.byLabel", message },
    ]);
    // The fleet's own problems are the fleet's, named once at its path.
    const twice = world.replace("{name: prod-eu-2,", "{name: prod-eu-1,");
    expect(refused(`runs:\n  - {name: first, ${NODE_IMAGES}}\n`, twice)).toEqual([{ path: "members[3].name", message: "duplicate member name 'prod-eu-1' (also members[2])" }]);
    // A retry's members are known when it starts (checked then): not the fleet's.
    expect(refused(`runs:\n  - {name: first, ${NODE_IMAGES}}\n  - {name: retry, members: {fromRun: first, output: failedMembers}, strategy: ${twoGroups}, ${NODE_IMAGES}}\n`)).toEqual([]);
    // A listed member carries no labels here: the run selects none of them, and that is no conflict.
    expect(refused(`runs:\n  - {name: first, members: [{name: prod-eu-1}], strategy: ${twoGroups}, ${NODE_IMAGES}}\n`)).toEqual([]);
  });

  it("members is a list or a failedMembers reference to an earlier run", () => {
    expect(issuesOf(`runs:\n  - {name: a, members: all, ${NODE_IMAGES}}\n`)).toEqual([{ path: "runs[0].members", message: "must be a list of members or { fromRun, output: failedMembers }" }]);
    expect(issuesOf(`runs:\n  - {name: a, ${NODE_IMAGES}}\n  - {name: b, members: {fromRun: a, output: appliedNodeImageVersions}, ${NODE_IMAGES}}\n`)).toEqual([
      { path: "runs[1].members.output", message: "must be failedMembers here" },
    ]);
    expect(issuesOf(`runs:\n  - {name: a, ${NODE_IMAGES}}\n  - {name: b, members: {fromRun: a, output: failedMembers}, ${NODE_IMAGES}}\n`)).toEqual([]);
  });

  it("a customNodeImageVersions reference is checked as one, and a list of versions as versions", () => {
    const custom = (versions: string) => `managedClusterUpdate: {upgrade: {type: NodeImageOnly}, nodeImageSelection: {type: Custom, customNodeImageVersions: ${versions}}}`;
    const at = "runs[1].managedClusterUpdate.nodeImageSelection.customNodeImageVersions";
    const run = (versions: string) => issuesOf(`runs:\n  - {name: a, ${NODE_IMAGES}}\n  - {name: b, ${custom(versions)}}\n`);
    expect(run("{fromRun: a}")).toEqual([{ path: `${at}.output`, message: "is required" }]);
    expect(run("{fromRun: 5, output: appliedNodeImageVersions}")).toEqual([{ path: `${at}.fromRun`, message: "must be a string" }]);
    expect(run("{fromRun: a, output: everything}")).toEqual([{ path: `${at}.output`, message: "must be one of failedMembers, appliedNodeImageVersions" }]);
    expect(run("{fromRun: a, output: appliedNodeImageVersions, extra: 1}")).toEqual([{ path: `${at}.extra`, message: "unknown field" }]);
    expect(run("{fromRun: nobody, output: appliedNodeImageVersions}")).toEqual([{ path: `${at}.fromRun`, message: "no earlier run named 'nobody'" }]);
    expect(run("{fromRun: a, output: appliedNodeImageVersions}")).toEqual([]);
    expect(run("[{version: AKSUbuntu-2204gen2containerd-202612.10.0}]")).toEqual([]);
    // Not a reference: the update's own refusal, once.
    expect(run("null")).toEqual([{ path: at, message: "must be a list, got null" }]);
    expect(run("AKSUbuntu-2204gen2containerd-202612.10.0")).toEqual([{ path: at, message: "must be a list, got string" }]);
    expect(run("[]")).toEqual([{ path: at, message: "is required (one version per image family) when type is Custom" }]);
  });

  it("a run without an update, or with a bad one, is refused at runs[i].managedClusterUpdate", () => {
    expect(issuesOf("runs:\n  - {name: a}\n")).toEqual([{ path: "runs[0].managedClusterUpdate", message: "is required" }]);
    expect(issuesOf("runs:\n  - {name: a, managedClusterUpdate: null}\n")).toEqual([{ path: "runs[0].managedClusterUpdate", message: "must be a mapping, got null" }]);
    expect(issuesOf("runs:\n  - {name: a, managedClusterUpdate: {upgrade: {type: Sideways}}}\n")).toEqual([
      { path: "runs[0].managedClusterUpdate.upgrade.type", message: expect.stringContaining("must be one of") },
    ]);
  });

  it("a run's actions: not before the scenario's start, and approvals only of gates its strategy has", () => {
    const strategy = "strategy: {stages: [{name: s, beforeGates: [{type: Approval}], groups: [{name: g}]}]}";
    const issues = issuesOf(`runs:\n  - {name: a, members: [{name: staging-1, group: g}], ${strategy}, ${NODE_IMAGES}, actions: [{at: 2026-12-14T07:59:59Z, stop: true}, {at: 2026-12-14T09:00:00Z, approve: [{stage: s, timing: Before}, {stage: s, timing: After}]}]}\n`);
    expect(issues).toEqual([
      { path: "runs[0].actions[0].at", message: "must not be before start" },
      { path: "runs[0].actions[1].approve[1]", message: "stage 's' has no after-gates to approve" },
    ]);
    expect(issuesOf(`runs:\n  - {name: a, members: [{name: staging-1, group: g}], ${strategy}, ${NODE_IMAGES}, actions: [{at: 2026-12-14T08:00:00Z, approve: [{stage: s, timing: Before}]}]}\n`)).toEqual([]);
    // A referenced strategy's gates, likewise.
    const referenced = `strategies:\n  gated: {stages: [{name: s, beforeGates: [{type: Approval}], groups: [{name: g}]}]}\nruns:\n  - {name: a, members: [{name: staging-1, group: g}], updateStrategyId: gated, ${NODE_IMAGES}, actions: [{at: 2026-12-14T08:00:00Z, approve: [{stage: s, timing: Before}]}, {at: 2026-12-14T08:00:00Z, approve: [{stage: s, group: g, timing: Before}]}]}\n`;
    expect(issuesOf(referenced)).toEqual([{ path: "runs[0].actions[1].approve[0]", message: "group 'g' of stage 's' has no before-gates to approve" }]);
    // A run without a strategy has the default one, even beside a strategy named "undefined".
    const unnamed = referenced.replace("  gated:", "  undefined:").replace("updateStrategyId: gated, ", "");
    expect(issuesOf(unnamed).map((i) => i.path)).toEqual(["runs[0].actions[0].approve[0]", "runs[0].actions[1].approve[0]"]);
  });

  it("until must be after start", () => {
    expect(issuesOf(`until: 2026-12-14T08:00:00Z\nruns:\n  - {name: a, ${NODE_IMAGES}}\n`)).toEqual([{ path: "until", message: "must be after start" }]);
  });
});
