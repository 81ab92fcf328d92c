/**
 * The quickstart through the real Pulumi CLI (built from its Go module), as the README runs it: a
 * copy of the repository with the root Pulumi.yaml (`main: examples/quickstart/`), a file backend,
 * no network. preview → up → up again → refresh after an out-of-band change → destroy. And `pulumi up`
 * typed as a user types it: the CLI starting the TypeScript program itself through the Node language
 * host built beside it.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2eProject, processesMentioning, type OperationResult, type StateResource } from "./support/project";
import { REPO_ROOT, realCliAvailable } from "./support/pulumiCli";
import { readFleetState } from "../../src/backends/simulator/stateFile";

const RUN_TYPE = "pulumi-nodejs:dynamic:Resource";
const FLEET = path.join("examples", "quickstart", "fleet.yaml");

interface MemberStatus { name: string; operationId?: string; status: { state: string } }
interface Status { status: { state: string }; stages: Array<{ name: string; status: { state: string }; groups: Array<{ name: string; members: MemberStatus[] }> }> }

describe.skipIf(!realCliAvailable())("quickstart through the real Pulumi CLI", () => {
  let project: E2eProject;
  let preview: OperationResult;
  let fleetAfterPreview: string[];
  let up: OperationResult;
  let fleetStateAfterUp: string;

  beforeAll(async () => {
    project = new E2eProject({
      files: ["Pulumi.yaml", "package.json", "tsconfig.json", "examples/quickstart"],
      program: "examples/quickstart/index.ts",
      main: "examples/quickstart",
      projectName: "fleet-update-quickstart",
    });
    preview = await project.run("preview");
    fleetAfterPreview = fs.readdirSync(project.path("examples", "quickstart"));
    up = await project.run("up");
    fleetStateAfterUp = fs.readFileSync(project.path(`${FLEET}.state.json`), "utf8");
  }, 600_000);

  afterAll(() => project?.cleanup());

  it("preview prints the plan and writes nothing beside the fleet", () => {
    expect(preview.ok, preview.message).toBe(true);
    expect(preview.output).toMatch(/\[k8s-1-32\] plan: 8 members from .*; Completed at/);
    expect(preview.output).toMatch(/plan: stage canary: .* \(1 member, Completed\)/);
    expect(preview.changeSummary).toEqual({ create: 3 });
    expect(fleetAfterPreview.sort()).toEqual(["fleet.yaml", "index.ts"]);
  });

  it("up ends with every member Completed, the outputs as `fleet-update simulate` gives them", () => {
    expect(up.ok, `${up.message}\n${up.output.slice(-3000)}`).toBe(true);
    const status = up.outputs!.status as Status;
    const summary = up.outputs!.summary as { state: string; outcome: string; members: Record<string, number> };
    expect(summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 8, Completed: 8 } });

    // The same fleet, strategy, members and target through the simulator on a virtual clock.
    const run = project.resources(RUN_TYPE).find((r) => r.urn.endsWith("::k8s-1-32"))!;
    const simulated = simulate(project, run);
    expect(shape(status)).toEqual(shape(simulated.status));
    expect(up.outputs!.summary).toMatchObject({ state: simulated.summary.state, outcome: simulated.summary.outcome, members: simulated.summary.members });
  });

  it("keeps each resource's serialized provider under 2 KB in the state file", () => {
    const dynamic = project.resources(RUN_TYPE);
    expect(dynamic.map((r) => r.urn.split("::").pop()).sort()).toEqual(["k8s-1-32", "rollout"]);
    for (const resource of dynamic) {
      const provider = String(resource.outputs?.__provider ?? resource.inputs?.__provider);
      expect(provider.length).toBeGreaterThan(100);
      expect(provider.length).toBeLessThanOrEqual(2048);
    }
  });

  it("a second up changes nothing: no diff, nothing re-run, the fleet untouched", async () => {
    const again = await project.run("up");
    expect(again.ok, again.message).toBe(true);
    expect(again.summary?.resourceChanges).toEqual({ same: 3 });
    expect(again.output).not.toMatch(/NotStarted → Running/);
    expect(fs.readFileSync(project.path(`${FLEET}.state.json`), "utf8")).toBe(fleetStateAfterUp);
  }, 300_000);

  it("refresh after an out-of-band change to a cluster reports the drift", async () => {
    // Someone rolls eu-1's control plane back behind the run's back.
    const statePath = project.path(`${FLEET}.state.json`);
    const fleetState = readFleetState(statePath)!;
    const eu1 = findCluster(fleetState, "eu-1");
    eu1.kubernetesVersion = "1.31.2";
    fs.writeFileSync(statePath, JSON.stringify(fleetState));

    const refresh = await project.run("refresh", { args: { diff: true } });
    expect(refresh.ok, refresh.message).toBe(true);
    const run = project.resources(RUN_TYPE).find((r) => r.urn.endsWith("::k8s-1-32"))!;
    expect(run.outputs?.drift).toEqual([expect.objectContaining({ member: "eu-1" })]);
    expect(refresh.output).toMatch(/drift: eu-1: the control plane reports Kubernetes 1\.31\.2, expected 1\.32\.0/);
    // The engine compares a refreshed resource's inputs (through the provider's diff), not its
    // outputs: the run is unchanged, so the summary says "same"; the drift is in the output and the line.
    expect(refresh.summary?.resourceChanges).toEqual({ same: 3 });
  }, 300_000);

  it("destroy removes the resources and the run's journal; no provider process is left", async () => {
    const journalsBefore = journalFiles(project);
    expect(journalsBefore.length).toBeGreaterThan(0);
    const destroy = await project.run("destroy");
    expect(destroy.ok, destroy.message).toBe(true);
    expect(project.resources(RUN_TYPE)).toEqual([]);
    expect(journalFiles(project)).toEqual([]);
    expect(processesMentioning(project.dir)).toEqual([]);
  }, 300_000);
});

/** Runs `fleet-update simulate` on the fleet, members, strategy and target that Pulumi ran. */
function simulate(project: E2eProject, run: StateResource): { status: Status; summary: { state: string; outcome: string; members: Record<string, number> } } {
  const inputs = run.inputs as { members: Array<{ name: string; group?: string }>; strategy: unknown; managedClusterUpdate: unknown };
  const fleet = parseYaml(fs.readFileSync(project.path(FLEET), "utf8")) as { regions: unknown; members: Array<{ name: string }> };
  const groups = new Map(inputs.members.map((m) => [m.name, m.group]));
  const scenario = {
    start: "2026-12-05T00:00:00Z",
    regions: fleet.regions,
    members: inputs.members.map((m) => ({ ...fleet.members.find((f) => f.name === m.name)!, ...(groups.get(m.name) === undefined ? {} : { group: groups.get(m.name) }) })),
    strategy: inputs.strategy,
    managedClusterUpdate: inputs.managedClusterUpdate,
  };
  const file = path.join(project.backendDir, "scenario.json");
  fs.writeFileSync(file, JSON.stringify(scenario));
  return JSON.parse(execFileSync(process.execPath, [path.join(REPO_ROOT, "dist", "cli", "main.js"), "simulate", file, "--json"], { encoding: "utf8" }));
}

/** States, order and operation ids; times differ (real against virtual clock). */
function shape(status: Status): unknown {
  return {
    state: status.status.state,
    stages: status.stages.map((s) => ({
      name: s.name,
      state: s.status.state,
      groups: s.groups.map((g) => ({ name: g.name, members: g.members.map((m) => [m.name, m.status.state, m.operationId]) })),
    })),
  };
}

function findCluster(fleetState: { clusters: Record<string, { kubernetesVersion: string }> }, name: string): { kubernetesVersion: string } {
  const found = fleetState.clusters[name];
  if (found === undefined) throw new Error(`no cluster ${name} in the fleet state`);
  return found;
}

function journalFiles(project: E2eProject): string[] {
  const runs = project.path(`${FLEET}.state.runs`);
  return fs.existsSync(runs) ? fs.readdirSync(runs) : [];
}

describe.skipIf(!realCliAvailable())("`pulumi up` as a user types it, from the root Pulumi.yaml", () => {
  let project: E2eProject;
  afterAll(() => project?.cleanup());

  it("the CLI starts the quickstart's TypeScript program itself: up completes the fleet, a second up changes nothing, destroy removes it", async () => {
    project = new E2eProject({
      files: ["Pulumi.yaml", "package.json", "tsconfig.json", "examples/quickstart"],
      program: "examples/quickstart/index.ts",
      main: "examples/quickstart",
      projectName: "fleet-update-quickstart",
    });
    const init = await project.cli(["stack", "init", project.stackName]);
    expect(init.code, init.stderr).toBe(0);
    const up = await project.cli(["up", "--yes", "--skip-preview"]);
    expect(up.code, `${up.stdout.slice(-3000)}\n${up.stderr.slice(-3000)}`).toBe(0);
    expect(up.stdout).toMatch(/\+ 3 created/);
    const outputs = await project.cli(["stack", "output", "--json"]);
    const summary = (JSON.parse(outputs.stdout) as { summary: { state: string; outcome: string; members: Record<string, number> } }).summary;
    expect(summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 8, Completed: 8 } });

    const again = await project.cli(["up", "--yes"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/3 unchanged/);

    const destroy = await project.cli(["destroy", "--yes"]);
    expect(destroy.code, destroy.stderr).toBe(0);
    expect(project.resources()).toEqual([]);
  }, 600_000);
});
