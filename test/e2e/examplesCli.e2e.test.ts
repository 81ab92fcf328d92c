/**
 * Issue 33: the examples new with it, run by the real Pulumi CLI as a user types the commands: the
 * gated rollout in TypeScript (`examples/gated`, started by the CLI's Node host) and in YAML
 * (`examples/gated-yaml`, Pulumi's YAML host and the provider plugin), the Fleet Manager rollout in
 * YAML against the emulator's Fleet Manager (`examples/fleet-manager-yaml`), and the Automation API
 * script (`examples/automation`), compiled and run as its header says. The TypeScript quickstart and
 * Fleet Manager examples run in quickstart.e2e.test.ts and examples.e2e.test.ts, the YAML quickstart
 * in yamlProvider.e2e.test.ts; the Python and Go ones in examplesSdk.e2e.test.ts.
 *
 * A YAML example names no plugin folder (a user installs the plugin: docs/installation-configuration.md);
 * here its copy gets a `plugins:` entry pointing at this checkout's `bin/`, the same plugin.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startArmEmulator, type ArmEmulator } from "../../src/emulator";
import { readFleetState } from "../../src/backends/simulator/stateFile";
import type { UpdateRunStatus } from "../../src/model/status";
import { FLEET, RESOURCE_GROUP, SUBSCRIPTION, groupedFleet } from "../emulator/fleetHelpers";
import { E2eProject, processesMentioning } from "./support/project";
import { REPO_ROOT, pulumiCli, realCliAvailable, yamlHostAvailable } from "./support/pulumiCli";

interface Summary {
  state: string;
  outcome: string;
  members: Record<string, number>;
}

const gatesOf = (status: unknown) => ((status as UpdateRunStatus).stages[0]?.afterGates ?? []).map((g) => `${g.gateId} ${g.status.state}`);
const printed = (r: { stdout: string; stderr: string }) => `${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`;

/** A scratch copy of a YAML example whose Pulumi.yaml loads the plugin from this checkout. */
function yamlExample(dir: string, projectName: string, extraFiles: string[] = []): E2eProject {
  const project = new E2eProject({ files: [...extraFiles, dir], projectDir: dir, program: path.join(dir, "Pulumi.yaml"), main: dir, projectName });
  const file = project.path(dir, "Pulumi.yaml");
  const program = parseYaml(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
  expect(program.plugins, `${dir} names no plugin folder`).toBeUndefined();
  // Appended, so the rest of the file is the example's own, byte for byte.
  fs.appendFileSync(file, `\n${stringifyYaml({ plugins: { providers: [{ name: "fleet-update", path: path.join(REPO_ROOT, "bin") }] } })}`);
  return project;
}

/**
 * The gated rollout as its header says: `up` upgrades the canary and returns at the gate; the approval
 * committed to config; `up` again finishes the same run; each cluster was upgraded once.
 */
async function gatedRollout(project: E2eProject, dir: string): Promise<void> {
  const init = await project.cli(["stack", "init", project.stackName]);
  expect(init.code, init.stderr).toBe(0);
  const first = await project.cli(["up", "--yes", "--skip-preview"]);
  expect(first.code, printed(first)).toBe(0);
  expect(first.stdout).toMatch(/Waiting for approval of 'canary\/after\/0'/);
  let outputs = JSON.parse((await project.cli(["stack", "output", "--json"])).stdout) as { status: unknown; summary: Summary };
  expect(outputs.summary.state).toBe("Pending");
  expect(gatesOf(outputs.status)).toEqual(["canary/after/0 Pending"]);
  const fleetState = () => readFleetState(project.path(dir, "fleet.yaml.state.json"))!;
  const upgraded = () => Object.entries(fleetState().clusters).filter(([, c]) => c.operations.length > 0).map(([name, c]) => `${name}×${c.operations.length}`);
  expect(upgraded()).toEqual(["canary-1×1"]);

  const approve = await project.cli(["config", "set", "--path", "approvals[0]", "canary/after/0"]);
  expect(approve.code, approve.stderr).toBe(0);
  const second = await project.cli(["up", "--yes", "--skip-preview"]);
  expect(second.code, printed(second)).toBe(0);
  outputs = JSON.parse((await project.cli(["stack", "output", "--json"])).stdout) as { status: unknown; summary: Summary };
  expect(outputs.summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 5, Completed: 5 } });
  expect(gatesOf(outputs.status)).toEqual(["canary/after/0 Completed"]);
  expect(upgraded().sort()).toEqual(["canary-1×1", "eu-1×1", "eu-2×1", "us-1×1", "us-2×1"]);
  // The same run went on: updated in place, never replaced.
  expect(second.stdout).not.toMatch(/replace/);

  const destroy = await project.cli(["destroy", "--yes"]);
  expect(destroy.code, destroy.stderr).toBe(0);
  expect(project.resources()).toEqual([]);
  expect(processesMentioning(project.dir)).toEqual([]);
}

describe.skipIf(!realCliAvailable())("the TypeScript gated rollout through the real CLI", () => {
  let project: E2eProject;
  afterAll(() => project?.cleanup());

  it("examples/gated: up stops at the canary's gate, the approval in config lets the same run finish", async () => {
    project = new E2eProject({ files: ["examples/quickstart/fleet.yaml", "examples/gated"], projectDir: "examples/gated", program: "examples/gated/index.ts", main: "examples/gated", projectName: "fleet-update-gated" });
    await gatedRollout(project, "examples/gated");
  }, 600_000);
});

describe.skipIf(!yamlHostAvailable())("the YAML gated rollout and Fleet Manager rollout through the real CLI", () => {
  const projects: E2eProject[] = [];
  afterAll(() => projects.forEach((p) => p.cleanup()));

  it("examples/gated-yaml: up stops at the canary's gate, the approval in config lets the same run finish", async () => {
    const project = yamlExample("examples/gated-yaml", "fleet-update-gated-yaml", ["examples/quickstart/fleet.yaml"]);
    projects.push(project);
    await gatedRollout(project, "examples/gated-yaml");
  }, 600_000);

  describe("examples/fleet-manager-yaml against the emulator's Fleet Manager", () => {
    const fleetId = `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.ContainerService/fleets/${FLEET}`;
    let emulator: ArmEmulator;
    let project: E2eProject;
    let env: Record<string, string>;

    beforeAll(async () => {
      emulator = await startArmEmulator({ fleet: groupedFleet(), msPerSimulatedMinute: 20, throttling: false });
      project = yamlExample("examples/fleet-manager-yaml", "fleet-update-fleet-manager-yaml");
      projects.push(project);
      // The program has no trustedCaFile (YAML has no optional input): the plugin trusts the
      // emulator's certificate through Node's own setting, as its header says.
      fs.writeFileSync(project.path("emulator-ca.pem"), emulator.certificatePem);
      env = { NODE_EXTRA_CA_CERTS: project.path("emulator-ca.pem") };
    }, 120_000);

    afterAll(async () => {
      await emulator?.close();
    });

    it("up waits at the canary's gate in Fleet; the approval in config completes the same fleet run; destroy removes run and strategy", async () => {
      const init = await project.cli(["stack", "init", project.stackName]);
      expect(init.code, init.stderr).toBe(0);
      const config = await project.cli(["config", "set-all", "--plaintext", `fleetId=${fleetId}`, "--plaintext", "kubernetesVersion=1.32.0", "--plaintext", `armEndpoint=${emulator.url}`, "--plaintext", "credential=emulator", "--plaintext", "pollSeconds=1"]);
      expect(config.code, config.stderr).toBe(0);

      const first = await project.cli(["up", "--yes", "--skip-preview"], env);
      expect(first.code, printed(first)).toBe(0);
      let outputs = JSON.parse((await project.cli(["stack", "output", "--json"])).stdout) as { status: unknown; summary: Summary; fleetRun: { id: string } };
      expect(outputs.summary.state).toBe("Pending");
      expect(gatesOf(outputs.status)).toEqual(["canary/after/0 Pending"]);
      expect(emulator.fleet.operationLog().map((op) => op.member)).toEqual(["canary-1"]);

      const approve = await project.cli(["config", "set", "--path", "approvals[0]", "canary/after/0"]);
      expect(approve.code, approve.stderr).toBe(0);
      const second = await project.cli(["up", "--yes", "--skip-preview"], env);
      expect(second.code, printed(second)).toBe(0);
      outputs = JSON.parse((await project.cli(["stack", "output", "--json"])).stdout) as { status: unknown; summary: Summary; fleetRun: { id: string } };
      expect(outputs.summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 5, Completed: 5 } });
      expect(outputs.fleetRun.id).toBe(`${fleetId}/updateRuns/k8s-upgrade`);
      expect(emulator.fleet.operationLog().map((op) => op.member).sort()).toEqual(["canary-1", "dev-1", "prod-1", "prod-2", "prod-3"]);
      // One run and one strategy, each put once; the gate approved by one PATCH.
      const writes = emulator.requests.filter((r) => r.method !== "GET" && r.status < 300).map((r) => `${r.method} ${r.path.slice(fleetId.length)}`);
      expect(writes.filter((w) => w.startsWith("PUT /updateRuns/"))).toEqual(["PUT /updateRuns/k8s-upgrade"]);
      expect(writes.filter((w) => w.startsWith("PUT /updateStrategies/"))).toEqual(["PUT /updateStrategies/rollout"]);
      expect(writes.filter((w) => w.startsWith("PATCH /gates/"))).toHaveLength(1);

      const destroy = await project.cli(["destroy", "--yes"], env);
      expect(destroy.code, destroy.stderr).toBe(0);
      expect(emulator.requests.filter((r) => r.method === "DELETE" && r.status < 300).map((r) => r.path.slice(fleetId.length)).sort()).toEqual(["/updateRuns/k8s-upgrade", "/updateStrategies/rollout"]);
    }, 600_000);
  });
});

describe.skipIf(!realCliAvailable())("examples/automation: a rollout run from a script with the Automation API", () => {
  let scratch: string;
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("compiled and run as its header says, it completes the rollout, prints the report from the stack's outputs and writes them for `fleet-update report`", () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-update-automation-"));
    const built = path.join(scratch, "build");
    const compiled = spawnSync(path.join(REPO_ROOT, "node_modules", ".bin", "tsc"), ["-p", path.join(REPO_ROOT, "examples", "automation"), "--outDir", built], { encoding: "utf8" });
    expect(compiled.status, compiled.stdout + compiled.stderr).toBe(0);
    // The work folder as a user's project folder: its node_modules, where the dynamic provider starts.
    const work = path.join(scratch, "work");
    fs.mkdirSync(work);
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(work, "node_modules"), "junction");
    fs.copyFileSync(path.join(REPO_ROOT, "examples", "quickstart", "fleet.yaml"), path.join(scratch, "fleet.yaml"));
    const cli = pulumiCli().cli!;
    const ran = spawnSync(process.execPath, [path.join(built, "index.js"), "--work-dir", work, "--fleet-file", path.join(scratch, "fleet.yaml"), "--kubernetes-version", "1.32.0"], {
      cwd: scratch,
      encoding: "utf8",
      timeout: 10 * 60_000,
      env: { ...process.env, PATH: cli.path, PULUMI_HOME: path.join(scratch, "home"), PULUMI_SKIP_UPDATE_CHECK: "true", NODE_PATH: path.join(REPO_ROOT, "node_modules") },
    });
    expect(ran.status, `${ran.stdout.slice(-3000)}\n${ran.stderr.slice(-3000)}`).toBe(0);
    const report = ran.stdout.slice(ran.stdout.lastIndexOf("Outcome: "));
    expect(report).toMatch(/^Outcome: Succeeded \(Completed\), 8 members: 8 Completed/);
    expect(report).toMatch(/^stage canary +Completed/m);
    expect(report).toMatch(/^ {2}group prod-us +Completed/m);
    for (const member of ["canary-1", "eu-1", "eu-2", "us-1", "us-2", "us-3", "asia-1", "asia-2"]) expect(report).toMatch(new RegExp(`^ {4}${member} +Completed `, "m"));
    expect(report).toMatch(/No member failed\.\n$/);
    // The stack's outputs, as `fleet-update report` reads them; the stack in the work folder's backend.
    const outputs = JSON.parse(fs.readFileSync(path.join(work, "outputs.json"), "utf8")) as { summary: Summary; failedMembers: unknown[] };
    expect(outputs.summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 8, Completed: 8 } });
    expect(outputs.failedMembers).toEqual([]);
    expect(fs.existsSync(path.join(work, "state", ".pulumi", "stacks", "fleet-update-automation", "dev.json"))).toBe(true);
    const html = spawnSync(process.execPath, [path.join(REPO_ROOT, "dist", "cli", "main.js"), "report", path.join(work, "outputs.json"), "--output", path.join(scratch, "report.html")], { encoding: "utf8" });
    expect(html.status, html.stderr).toBe(0);
    expect(fs.readFileSync(path.join(scratch, "report.html"), "utf8")).toContain("canary-1");
  }, 600_000);
});
