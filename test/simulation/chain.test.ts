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
