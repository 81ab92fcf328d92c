/**
 * Issue 24: the quickstart as a Pulumi YAML program (`examples/quickstart-yaml/`), run by the real CLI
 * through Pulumi's own YAML language host (`scripts/pulumi-yaml.sh`) and the provider plugin
 * `pulumi-resource-fleet-update`, installed as the README says: the package in the project's
 * node_modules (a symlink to this checkout, as `npm install <folder>` makes), and the README's
 * `plugins:` entry in Pulumi.yaml. preview → up → up again → destroy, as a user types them; and one
 * SIGINT during a slower `up` (the engine's Cancel reaching the plugin).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2eProject, processesMentioning } from "./support/project";
import { REPO_ROOT, yamlHostAvailable } from "./support/pulumiCli";
import { simulateStoredRun, statusShape, type RunStatus, type RunSummaryShape } from "./support/simulate";
import { readFleetState } from "../../src/backends/simulator/stateFile";

const PROJECT = path.join("examples", "quickstart-yaml");
const RUN_TYPE = "fleet-update:index:UpdateRun";
const STRATEGY_TYPE = "fleet-update:index:UpdateStrategy";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** The fenced YAML block of the README that installs the plugin (the one with `plugins:`). */
function readmePluginsEntry(): unknown {
  const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const block = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).find((text) => /^plugins:/m.test(text));
  if (block === undefined) throw new Error("README.md has no ```yaml block with `plugins:`");
  return (parseYaml(block) as { plugins: unknown }).plugins;
}

/** The YAML quickstart in a scratch project, with `npm install pulumi-fleet-update` done from this checkout (npm links a folder). */
function quickstartYamlProject(): E2eProject {
  const made = new E2eProject({
    files: ["examples/quickstart/fleet.yaml", PROJECT],
    projectDir: PROJECT,
    program: path.join(PROJECT, "Pulumi.yaml"),
    main: PROJECT,
    projectName: "fleet-update-quickstart-yaml",
  });
  fs.mkdirSync(made.path(PROJECT, "node_modules"), { recursive: true });
  fs.symlinkSync(REPO_ROOT, made.path(PROJECT, "node_modules", "pulumi-fleet-update"), "junction");
  return made;
}

describe.skipIf(!yamlHostAvailable())("the quickstart as a Pulumi YAML program, through the provider plugin", () => {
  let project: E2eProject;
  const timings: Record<string, number> = {};

  const pulumi = async (step: string, args: string[]) => {
    const started = Date.now();
    const result = await project.cli(args);
    timings[step] = Date.now() - started;
    return result;
  };
  // The project folder's files, less the stack's own settings file (`Pulumi.<stack>.yaml`).
  const beside = () => fs.readdirSync(project.path(PROJECT)).filter((f) => !/^Pulumi\..+\.yaml$/.test(f)).sort();
  const fleetState = () => project.path(PROJECT, "fleet.yaml.state.json");
  const journals = () => {
    const runs = project.path(PROJECT, "fleet.yaml.state.runs");
    return fs.existsSync(runs) ? fs.readdirSync(runs) : [];
  };

  beforeAll(async () => {
    project = quickstartYamlProject();
    const init = await project.cli(["stack", "init", project.stackName]);
    expect(init.code, init.stderr).toBe(0);
  }, 120_000);

  afterAll(() => {
    process.stderr.write(`yamlProvider e2e timings (ms): ${JSON.stringify(timings)}\n`);
    project?.cleanup();
  });

  it("the example installs the plugin exactly as the README says", () => {
    const example = parseYaml(fs.readFileSync(project.path(PROJECT, "Pulumi.yaml"), "utf8")) as { runtime: string; plugins: unknown };
    expect(example.runtime).toBe("yaml");
    expect(example.plugins).toEqual(readmePluginsEntry());
  });

  it("preview prints the plan and writes nothing: no fleet state, no journal, no resource", async () => {
    const before = beside();
    const preview = await pulumi("preview", ["preview"]);
    expect(preview.code, `${preview.stdout.slice(-3000)}\n${preview.stderr.slice(-3000)}`).toBe(0);
    expect(preview.stdout).toMatch(/\[k8s-1-32\] plan: 8 members from .*; Completed at/);
    expect(preview.stdout).toMatch(/\+ 3 to create/);
    expect(beside()).toEqual(before);
    expect(fs.existsSync(fleetState())).toBe(false);
    expect(project.resources()).toEqual([]);
  }, 300_000);

  let fleetStateAfterUp: string;

  it("up completes every member; status and summary equal `fleet-update simulate` for the same fleet; engineState is encrypted", async () => {
    const up = await pulumi("up", ["up", "--yes", "--skip-preview"]);
    expect(up.code, `${up.stdout.slice(-3000)}\n${up.stderr.slice(-3000)}`).toBe(0);
    expect(up.stdout).toMatch(/\+ 3 created/);
    fleetStateAfterUp = fs.readFileSync(fleetState(), "utf8");

    const outputs = JSON.parse((await project.cli(["stack", "output", "--json"])).stdout) as { status: RunStatus; summary: RunSummaryShape };
    expect(outputs.summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 8, Completed: 8 } });

    const [run] = project.resources(RUN_TYPE);
    expect(run, "the UpdateRun in the state").toBeDefined();
    expect(project.resources(STRATEGY_TYPE)).toHaveLength(1);
    const simulated = simulateStoredRun(run!.inputs!, project.path("examples", "quickstart", "fleet.yaml"), project.backendDir);
    expect(statusShape(outputs.status)).toEqual(statusShape(simulated.status));
    expect(outputs.summary).toMatchObject({ state: simulated.summary.state, outcome: simulated.summary.outcome, members: simulated.summary.members });

    // A real provider's secret output: ciphertext in the state, not the engine's state in plain text.
    const engineState = run!.outputs!.engineState as Record<string, unknown>;
    expect(Object.values(engineState)).toContain(SECRET_SIG);
    expect(engineState).toHaveProperty("ciphertext");
    expect(JSON.stringify(engineState)).not.toMatch(/canary-1/);
  }, 300_000);

  it("a second up is a no-op: 3 unchanged, nothing re-run, the fleet untouched", async () => {
    const again = await pulumi("upAgain", ["up", "--yes"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/3 unchanged/);
    expect(again.stdout).not.toMatch(/NotStarted → Running/);
    expect(fs.readFileSync(fleetState(), "utf8")).toBe(fleetStateAfterUp);
  }, 300_000);

  it("destroy removes the resources and the run's journal; no plugin process is left", async () => {
    expect(journals().length).toBeGreaterThan(0);
    const destroy = await pulumi("destroy", ["destroy", "--yes"]);
    expect(destroy.code, destroy.stderr).toBe(0);
    expect(project.resources()).toEqual([]);
    expect(journals()).toEqual([]);
    expect(processesMentioning(project.dir)).toEqual([]);
  }, 300_000);
});

describe.skipIf(!yamlHostAvailable())("one Ctrl-C during `pulumi up` of the YAML quickstart", () => {
  let project: E2eProject;
  afterAll(() => project?.cleanup());

  it("stops at the next checkpoint: the CLI exits within 30 s, the state keeps the run's partial status and no pending operation, and the next up completes it with no cluster upgraded twice", async () => {
    project = quickstartYamlProject();
    // A slower rollout: each 10-minute upgrade takes 10 s of real time.
    const program = project.path(PROJECT, "Pulumi.yaml");
    fs.writeFileSync(program, fs.readFileSync(program, "utf8").replace("timeScale: 600", "timeScale: 60"));
    expect((await project.cli(["stack", "init", project.stackName])).code).toBe(0);

    const up = project.startCli(["up", "--yes", "--skip-preview"]);
    for (const deadline = Date.now() + 120_000; !/member canary-1 NotStarted → Running/.test(up.printed()); ) {
      if (Date.now() > deadline) throw new Error(`canary-1 did not start; printed:\n${up.printed().slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const signalled = Date.now();
    up.child.kill("SIGINT");
    const interrupted = await up.result;
    const exitedAfterMs = Date.now() - signalled;
    process.stderr.write(`yamlProvider e2e: the CLI exited ${exitedAfterMs} ms after SIGINT\n`);
    expect(exitedAfterMs).toBeLessThan(30_000);
    expect(interrupted.code).not.toBe(0);
    expect(interrupted.stdout + interrupted.stderr).toMatch(/cancelled \(Ctrl-C\): the run is Stopped \(1 of 8 members done\)/);

    const latest = project.state().checkpoint.latest!;
    expect(latest.pending_operations ?? []).toEqual([]);
    const [run] = project.resources(RUN_TYPE);
    expect(run?.outputs?.summary).toMatchObject({ state: "Stopped", members: { Completed: 1, NotStarted: 7 } });

    const again = await project.cli(["up", "--yes", "--skip-preview"]);
    expect(again.code, `${again.stdout.slice(-3000)}\n${again.stderr.slice(-3000)}`).toBe(0);
    const outputs = JSON.parse((await project.cli(["stack", "output", "--json"])).stdout) as { summary: RunSummaryShape };
    expect(outputs.summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 8, Completed: 8 } });
    const clusters = readFleetState(project.path(PROJECT, "fleet.yaml.state.json"))!.clusters!;
    expect(Object.entries(clusters).map(([name, c]) => [name, c.operations.length])).toEqual(Object.keys(clusters).map((name) => [name, 1]));
  }, 300_000);
});
