/**
 * Issue 19: `fleet-update plan` of a chained scenario (`runs:`) plans each run of the chain in turn, as
 * `simulate` runs them: one fleet (a run starts from the clusters as the run before it leaves them),
 * one clock (a run starts when the one before ends, or at its own `start`), references read from the
 * earlier runs' predictions. Before, it refused the project's own chained example ("runs: unknown
 * field", "managedClusterUpdate: is required").
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { planCommand } from "../../src/cli/plan";
import { validateChainScenario } from "../../src/simulation/chain";
import { parseScenarioDocument } from "../../src/simulation/scenario";
import type { ChainPlan } from "../../src/plan/fromChain";
import type { Plan } from "../../src/plan/types";
import { simulateChain } from "../../src/simulation/simulateChain";

const PROMOTION = path.resolve(__dirname, "../../examples/promotion/scenario.yaml");
const POOL = "{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: AKSUbuntu-2204gen2containerd-202610.01.0}";

async function plan(file: string, json = false) {
  let stdout = "";
  let stderr = "";
  const code = await planCommand(file, json ? { json: true } : {}, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

function write(text: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "plan-chain-")), "chain.yaml");
  fs.writeFileSync(file, text);
  return file;
}

/** Each member's predicted start, end and state, by run: what `simulate` must agree with when nothing fails. */
function predicted(chainPlan: ChainPlan): Record<string, Record<string, string>> {
  return Object.fromEntries(
    chainPlan.runs.map((run) => [run.name, "notPlanned" in run ? {} : Object.fromEntries((run as Plan).members.map((m) => [m.name, `${m.predictedState} ${m.predictedStart ?? "-"} ${m.predictedEnd ?? "-"}`]))]),
  );
}

async function simulated(file: string): Promise<Record<string, Record<string, string>>> {
  const chain = validateChainScenario(parseScenarioDocument(fs.readFileSync(file, "utf8")));
  const { result } = await simulateChain(chain);
  return Object.fromEntries(
    result.runs.map((run) => [
      run.name,
      Object.fromEntries(run.status.stages.flatMap((s) => s.groups.flatMap((g) => g.members.map((m) => [m.name, `${m.status.state} ${m.status.startTime ?? "-"} ${m.status.completedTime ?? "-"}`])))),
    ]),
  );
}

describe("fleet-update plan of a chained scenario", () => {
  it("plans the project's own promotion example: each run under its name; the retry of no predicted failure is said to be not planned", async () => {
    const { code, stdout, stderr } = await plan(PROMOTION);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain("Run staging\nPlan from 2026-12-14T08:00:00Z: run Completed, ends 2026-12-14T08:20:00Z");
    expect(stdout).toContain("Run staging-retry: not planned: runs[1].members: run 'staging' is predicted to leave no failed members to retry (the plan assumes nothing fails)");
    // Production starts at its own start and promotes exactly the image staging is predicted to apply.
    expect(stdout).toContain("Run production\nPlan from 2026-12-21T08:00:00Z: run Completed, ends 2026-12-21T09:40:00Z\n  node images: AKSUbuntu-2204gen2containerd-202612.10.0");

    const json = JSON.parse((await plan(PROMOTION, true)).stdout) as ChainPlan;
    expect(json.runs.map((r) => ("notPlanned" in r ? `${r.name}: not planned` : `${r.name}: ${(r as Plan).run.predictedState}`))).toEqual(["staging: Completed", "staging-retry: not planned", "production: Completed"]);
    // Where nothing fails the plan agrees with simulate, run by run.
    const sim = await simulated(PROMOTION);
    expect(predicted(json).production).toEqual(sim.production);
    expect(predicted(json).staging!["staging-1"]).toBe(sim.staging!["staging-1"]);
  });

  it("runs share one fleet and one clock: the next run starts when the one before ends and finds its clusters as that run left them", async () => {
    const file = write(`start: 2026-12-05T00:00:00Z
regions: {westeurope: {kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}], nodeImages: [{version: AKSUbuntu-2204gen2containerd-202611.24.0}]}}
members:
  - {name: a, group: canary, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [${POOL}]}
  - {name: b, group: prod, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [${POOL}], simulation: {upgradeMinutes: 30}}
  - {name: c, group: prod, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [${POOL}]}
runs:
  - name: control-planes
    members: [{name: a, group: canary}, {name: b, group: prod}]
    strategy: {stages: [{name: canary, groups: [{name: canary}], afterStageWaitInSeconds: 600}, {name: prod, groups: [{name: prod}]}]}
    managedClusterUpdate: {upgrade: {type: ControlPlaneOnly, kubernetesVersion: 1.32.0}}
  - name: everything
    managedClusterUpdate: {upgrade: {type: ControlPlaneOnly, kubernetesVersion: 1.32.0}}
`);
    const json = JSON.parse((await plan(file, true)).stdout) as ChainPlan;
    const [first, second] = json.runs as Array<Plan & { name: string }>;
    expect(first!.run.predictedEnd).toBe("2026-12-05T00:50:00Z");
    expect(second!.plannedFrom).toBe(first!.run.predictedEnd);
    // a and b were upgraded by the first run: the second skips them and upgrades c only.
    expect(Object.fromEntries(second!.members.map((m) => [m.name, m.predictedState]))).toEqual({ a: "Skipped", b: "Skipped", c: "Completed" });
    expect(predicted(json)).toEqual(await simulated(file));
  });

  it("a run not predicted to end by the horizon leaves the runs after it not planned, saying why", async () => {
    const file = write(`start: 2026-12-05T00:00:00Z
until: 2026-12-05T00:05:00Z
regions: {westeurope: {kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}], nodeImages: [{version: AKSUbuntu-2204gen2containerd-202611.24.0}]}}
members:
  - {name: a, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [${POOL}]}
runs:
  - {name: first, managedClusterUpdate: {upgrade: {type: ControlPlaneOnly, kubernetesVersion: 1.32.0}}}
  - {name: second, managedClusterUpdate: {upgrade: {type: NodeImageOnly}}}
`);
    const { code, stdout } = await plan(file);
    expect(code).toBe(0);
    expect(stdout).toContain("Run first\nPlan from 2026-12-05T00:00:00Z: run Running, not finished by 2026-12-05T00:05:00Z");
    expect(stdout).toContain("Run second: not planned: it follows run 'first', which is not predicted to end by 2026-12-05T00:05:00Z");
  });

  it("an invalid chain is still refused with one line per problem naming the field path", async () => {
    const file = write(`start: 2026-12-05T00:00:00Z
regions: {westeurope: {kubernetesVersions: [{version: 1.31.2}], nodeImages: []}}
members: [{name: a, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [${POOL}]}]
runs: [{name: first, updateStrategyId: nowhere, managedClusterUpdate: {upgrade: {type: NodeImageOnly}}}]
`);
    const { code, stdout, stderr } = await plan(file);
    expect([code, stdout]).toEqual([2, ""]);
    expect(stderr).toBe(`${file}: runs[0].updateStrategyId: no strategy named 'nowhere' under strategies\n`);
  });
});
