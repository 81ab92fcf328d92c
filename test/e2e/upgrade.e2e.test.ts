/**
 * Issue 33: upgrading the plugin keeps stacks — Pulumi providertest's PreviewProviderUpgrade. Stacks are
 * made with the previous release's plugin (`scripts/previous-plugin.js`: its tarball, built once from
 * that commit and cached outside the repository), then previewed with this checkout's: no strategy or
 * run is replaced. Two stacks, both Pulumi YAML programs: the quickstart, its run Completed; and the
 * gated rollout, its run in flight (Pending at the canary's approval gate). Under the new plugin the
 * completed stack previews with no change at all, and the run in flight goes on from where the old
 * plugin left it — the approval committed, `up` finishes the same run, no cluster upgraded twice.
 *
 * Both plugins come from a `plugins:` entry with a path (the two carry the same version while the
 * package's version has not moved, so both could not sit in one PULUMI_HOME side by side).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { stringify as stringifyYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFleetState } from "../../src/backends/simulator/stateFile";
import { E2eProject } from "./support/project";
import { REPO_ROOT, yamlHostAvailable } from "./support/pulumiCli";

const RUN_TYPE = "fleet-update:index:UpdateRun";
const STRATEGY_TYPE = "fleet-update:index:UpdateStrategy";
/** The step kinds that would lose a run or a strategy: the engine would delete it and make another. */
const REPLACING = ["replace", "create-replacement", "delete-replaced", "delete", "create", "discard"];

interface Step {
  op: string;
  urn: string;
}

const printed = (r: { stdout: string; stderr: string }) => `${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`;

/** The previous release's plugin, as installed from its tarball (Pulumi extracts it as is). */
function previousPlugin(scratch: string): string {
  const built = spawnSync(process.execPath, [path.join(REPO_ROOT, "scripts", "previous-plugin.js")], { encoding: "utf8", timeout: 20 * 60_000 });
  if (built.status !== 0) throw new Error(`the previous release's plugin: ${built.stderr}`);
  const dir = path.join(scratch, "previous-plugin");
  fs.mkdirSync(dir);
  const extracted = spawnSync("tar", ["-xzf", built.stdout.trim(), "-C", dir], { encoding: "utf8" });
  if (extracted.status !== 0) throw new Error(extracted.stderr);
  return dir;
}

/** A YAML example whose plugin is the one in `pluginDir`; `usePlugin` switches it. */
function yamlProject(dir: string, projectName: string, pluginDir: string): E2eProject & { usePlugin(dir: string): void } {
  const project = new E2eProject({ files: ["examples/quickstart/fleet.yaml", dir], projectDir: dir, program: path.join(dir, "Pulumi.yaml"), main: dir, projectName });
  const file = project.path(dir, "Pulumi.yaml");
  // The example's own program without its plugins entry (the quickstart's points at node_modules).
  const own = fs.readFileSync(file, "utf8").replace(/^plugins:\n(?: {2}.*\n)+/m, "");
  const usePlugin = (plugin: string) => fs.writeFileSync(file, `${own}\n${stringifyYaml({ plugins: { providers: [{ name: "fleet-update", path: plugin }] } })}`);
  usePlugin(pluginDir);
  return Object.assign(project, { usePlugin });
}

describe.skipIf(!yamlHostAvailable())("stacks made with the previous release's plugin, under this one (PreviewProviderUpgrade)", () => {
  let scratch: string;
  let completed: ReturnType<typeof yamlProject>;
  let inFlight: ReturnType<typeof yamlProject>;
  const newPlugin = path.join(REPO_ROOT, "bin");

  beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-update-upgrade-"));
    const oldPlugin = previousPlugin(scratch);
    completed = yamlProject("examples/quickstart-yaml", "fleet-update-quickstart-yaml", oldPlugin);
    inFlight = yamlProject("examples/gated-yaml", "fleet-update-gated-yaml", oldPlugin);
    for (const project of [completed, inFlight]) {
      const init = await project.cli(["stack", "init", project.stackName]);
      expect(init.code, init.stderr).toBe(0);
    }
    // The old plugin makes both stacks: one run to its end, one held at its gate.
    const [done, held] = await Promise.all([completed.cli(["up", "--yes", "--skip-preview"]), inFlight.cli(["up", "--yes", "--skip-preview"])]);
    expect(done.code, printed(done)).toBe(0);
    expect(held.code, printed(held)).toBe(0);
    expect(held.stdout).toMatch(/Waiting for approval of 'canary\/after\/0'/);
  }, 25 * 60_000);

  afterAll(() => {
    completed?.cleanup();
    inFlight?.cleanup();
    if (scratch !== undefined) fs.rmSync(scratch, { recursive: true, force: true });
  }, 120_000);

  const preview = async (project: E2eProject): Promise<Step[]> => {
    // Every resource's step, unchanged ones too (the CLI leaves out `same` steps unless asked).
    const result = await project.cli(["preview", "--json", "--show-sames"]);
    expect(result.code, printed(result)).toBe(0);
    return (JSON.parse(result.stdout) as { steps: Step[] }).steps;
  };
  const ofType = (steps: Step[], type: string) => steps.filter((s) => s.urn.includes(`::${type}::`));

  it("the completed stack previews with no change under the new plugin: nothing replaced, nothing updated", async () => {
    completed.usePlugin(newPlugin);
    const steps = await preview(completed);
    for (const type of [RUN_TYPE, STRATEGY_TYPE]) expect(ofType(steps, type).map((s) => s.op), type).toEqual(["same"]);
    expect(steps.filter((s) => REPLACING.includes(s.op))).toEqual([]);
  }, 300_000);

  it("the run in flight: the preview replaces nothing, and the approval lets the new plugin finish the same run, no cluster upgraded twice", async () => {
    const ids = () => Object.fromEntries(inFlight.resources().filter((r) => r.type === RUN_TYPE || r.type === STRATEGY_TYPE).map((r) => [r.type, r.id]));
    const before = ids();
    expect(inFlight.resources(RUN_TYPE)[0]?.outputs?.summary).toMatchObject({ state: "Pending" });

    inFlight.usePlugin(newPlugin);
    const steps = await preview(inFlight);
    expect(steps.filter((s) => REPLACING.includes(s.op))).toEqual([]);
    expect(ofType(steps, STRATEGY_TYPE).map((s) => s.op)).toEqual(["same"]);
    // A run left waiting is an update even with no change, so the next `up` continues it
    // (src/pulumi/provider/runProvider.ts `diff`): the new plugin reads the old plugin's run the same way.
    expect(ofType(steps, RUN_TYPE).map((s) => s.op)).toEqual(["update"]);

    const approve = await inFlight.cli(["config", "set", "--path", "approvals[0]", "canary/after/0"]);
    expect(approve.code, approve.stderr).toBe(0);
    const up = await inFlight.cli(["up", "--yes", "--skip-preview"]);
    expect(up.code, printed(up)).toBe(0);
    expect(up.stdout).not.toMatch(/replace/);
    const run = inFlight.resources(RUN_TYPE)[0]!;
    expect(run.outputs?.summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 5, Completed: 5 } });
    expect(ids()).toEqual(before);
    const clusters = readFleetState(inFlight.path("examples", "gated-yaml", "fleet.yaml.state.json"))!.clusters;
    const upgrades = Object.entries(clusters).filter(([, c]) => c.operations.length > 0).map(([name, c]) => `${name}×${c.operations.length}`).sort();
    expect(upgrades).toEqual(["canary-1×1", "eu-1×1", "eu-2×1", "us-1×1", "us-2×1"]);
  }, 600_000);
});
