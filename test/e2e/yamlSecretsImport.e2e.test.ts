/**
 * Issue 24, two must-shows of the provider plugin through the real CLI, Pulumi's YAML language host and
 * a file backend (beside yamlProvider.e2e.test.ts, which runs the quickstart):
 * - a secret config value used by a run — its webhook's token (`pulumi config set --secret`) — is
 *   encrypted in the state and appears nowhere in plain text: not in `pulumi stack export`, the backend's
 *   raw state file, any file under the project (the run's journal, the fleet's state), nor the CLI's
 *   output; and the webhook received the run's events with it as their bearer token;
 * - `pulumi import` adopts a run `fleet-update run` started, by its journal file, and `pulumi up` of a
 *   program declaring the same run then has no changes (`--expect-no-changes`), no cluster upgraded twice.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2eProject } from "./support/project";
import { REPO_ROOT, yamlHostAvailable } from "./support/pulumiCli";
import { readFleetState } from "../../src/backends/simulator/stateFile";
import { fleetYaml } from "../pulumi/support/fleetYaml";

const RUN_TYPE = "fleet-update:index:UpdateRun";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
const PROJECT = "proj";

/** A YAML project in a scratch folder, served by the plugin from this checkout (as the README installs it). */
function yamlProject(name: string, files: Record<string, string>): E2eProject {
  const project = new E2eProject({ files: [], projectDir: PROJECT, program: path.join(PROJECT, "Pulumi.yaml"), main: PROJECT, projectName: name });
  fs.mkdirSync(project.path(PROJECT, "node_modules"), { recursive: true });
  fs.symlinkSync(REPO_ROOT, project.path(PROJECT, "node_modules", "pulumi-fleet-update"), "junction");
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(project.path(PROJECT, file), text);
  return project;
}

const PLUGINS = `plugins:
  providers:
    - name: fleet-update
      path: node_modules/pulumi-fleet-update/bin
`;

/** Every file under a folder (symlinks not followed), as text. */
function filesUnder(folder: string): Array<{ file: string; text: string }> {
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => ({ file: path.join(e.parentPath, e.name), text: fs.readFileSync(path.join(e.parentPath, e.name), "utf8") }));
}

const timings: Record<string, number> = {};
async function timed<T>(step: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } finally {
    timings[step] = Date.now() - started;
  }
}
afterAll(() => process.stderr.write(`yamlSecretsImport e2e timings (ms): ${JSON.stringify(timings)}\n`));

describe.skipIf(!yamlHostAvailable())("a secret webhook token through the YAML program", () => {
  const TOKEN = "wh00k-T0KEN-e2e-31337";
  let project: E2eProject;
  let server: http.Server;
  const received: Array<{ authorization?: string; body: { scope: string; name: string; to: string } }> = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        received.push({ ...(req.headers.authorization === undefined ? {} : { authorization: req.headers.authorization }), body: JSON.parse(body) });
        res.statusCode = 204;
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
    project = yamlProject("fleet-update-webhook-secret", {
      "fleet.yaml": fleetYaml(["eu-1", "eu-2"]),
      "Pulumi.yaml": `name: fleet-update-webhook-secret
runtime: yaml
${PLUGINS}config:
  webhookUrl:
    type: string
  webhookToken:
    type: string
    secret: true
resources:
  hooked:
    type: ${RUN_TYPE}
    properties:
      backend:
        simulator: { fleetFile: fleet.yaml, timeScale: 20000 }
      members:
        - { name: eu-1 }
        - { name: eu-2 }
      managedClusterUpdate:
        upgrade: { type: Full, kubernetesVersion: 1.32.0 }
      webhook:
        url: \${webhookUrl}
        token: \${webhookToken}
outputs:
  summary: \${hooked.summary}
`,
    });
    for (const args of [["stack", "init", project.stackName], ["config", "set", "webhookUrl", url], ["config", "set", "--secret", "webhookToken", TOKEN]]) {
      const done = await project.cli(args);
      expect(done.code, done.stderr).toBe(0);
    }
  }, 120_000);

  afterAll(async () => {
    project?.cleanup();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  it("up delivers the run's events with the token as bearer; the token is ciphertext in the state and in plain text nowhere", async () => {
    const up = await timed("webhookUp", () => project.cli(["up", "--yes", "--skip-preview"]));
    expect(up.code, `${up.stdout.slice(-3000)}\n${up.stderr.slice(-3000)}`).toBe(0);
    expect(up.stdout).toMatch(/\+ 2 created/);

    // The webhook got every member's transitions, each with the bearer token.
    expect(received.filter((r) => r.body.scope === "member" && r.body.to === "Completed").map((r) => r.body.name).sort()).toEqual(["eu-1", "eu-2"]);
    expect(new Set(received.map((r) => r.authorization))).toEqual(new Set([`Bearer ${TOKEN}`]));

    // The state: the webhook is ciphertext in the run's inputs and outputs.
    const exported = await project.cli(["stack", "export"]);
    expect(exported.code, exported.stderr).toBe(0);
    const run = (JSON.parse(exported.stdout) as { deployment: { resources: Array<{ type: string; inputs: Record<string, unknown>; outputs: Record<string, unknown> }> } }).deployment.resources.find((r) => r.type === RUN_TYPE)!;
    const webhookInState = (props: Record<string, unknown>) => JSON.stringify(props.webhook);
    expect(webhookInState(run.outputs)).toContain(SECRET_SIG);
    expect(webhookInState(run.outputs)).toContain("ciphertext");
    expect(webhookInState(run.inputs)).toContain("ciphertext");

    // Nowhere in plain text.
    const places: Array<[string, string]> = [
      ["`pulumi up`'s output", up.stdout + up.stderr],
      ["`pulumi stack export`", exported.stdout],
      ["the file backend's state", fs.readFileSync(project.stateFile(), "utf8")],
      ...filesUnder(project.path(PROJECT)).map(({ file, text }): [string, string] => [file, text]),
    ];
    expect(places.some(([where]) => where.includes(".runs"))).toBe(true);
    for (const [where, text] of places) expect(text.includes(TOKEN), `${where} holds the token`).toBe(false);
  }, 300_000);
});

describe.skipIf(!yamlHostAvailable())("`pulumi import` of a run `fleet-update run` started", () => {
  let project: E2eProject;
  const MEMBERS = ["canary-1", "eu-1", "eu-2"];
  const journal = "fleet.yaml.state.runs/adopted.json";

  beforeAll(async () => {
    project = yamlProject("fleet-update-import", {
      "fleet.yaml": fleetYaml(MEMBERS),
      // The run spec, named after its file: `adopted`.
      "adopted.yaml": `members:
  - { name: canary-1, group: canary }
  - { name: eu-1, group: prod }
  - { name: eu-2, group: prod }
strategy:
  stages:
    - { name: canary, groups: [{ name: canary }] }
    - { name: prod, groups: [{ name: prod }] }
managedClusterUpdate:
  upgrade: { type: Full, kubernetesVersion: 1.32.0 }
  nodeImageSelection: { type: Consistent }
`,
      // The same run as a Pulumi resource of the same name, defaults left out as a program leaves them.
      "Pulumi.yaml": `name: fleet-update-import
runtime: yaml
${PLUGINS}resources:
  adopted:
    type: ${RUN_TYPE}
    properties:
      backend:
        simulator: { fleetFile: fleet.yaml, timeScale: 20000 }
      members:
        - { name: canary-1, group: canary }
        - { name: eu-1, group: prod }
        - { name: eu-2, group: prod }
      strategy:
        stages:
          - { name: canary, groups: [{ name: canary }] }
          - { name: prod, groups: [{ name: prod }] }
      managedClusterUpdate:
        upgrade: { type: Full, kubernetesVersion: 1.32.0 }
        nodeImageSelection: { type: Consistent }
outputs:
  summary: \${adopted.summary}
`,
    });
    const init = await project.cli(["stack", "init", project.stackName]);
    expect(init.code, init.stderr).toBe(0);
  }, 120_000);

  afterAll(() => project?.cleanup());

  it("fleet-update run completes the run; pulumi import adopts it by its journal; up then has no changes and upgrades nothing again; destroy forgets it", async () => {
    const run = await timed("fleetUpdateRun", async () =>
      spawnSync(process.execPath, [path.join(REPO_ROOT, "dist", "cli", "main.js"), "run", "adopted.yaml", "--backend", "simulator:fleet.yaml", "--time-scale", "20000", "--progress", "lines"], { cwd: project.path(PROJECT), encoding: "utf8" }),
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr + run.stdout).toContain(`journal: ${project.path(PROJECT, journal)}`);
    const fleetState = () => readFleetState(project.path(PROJECT, "fleet.yaml.state.json"))!.clusters!;
    expect(Object.values(fleetState()).map((c) => c.operations.length)).toEqual([1, 1, 1]);

    const imported = await timed("import", () => project.cli(["import", RUN_TYPE, "adopted", journal, "--yes", "--protect=false"]));
    expect(imported.code, `${imported.stdout.slice(-3000)}\n${imported.stderr.slice(-3000)}`).toBe(0);
    // The inputs Read gave back pass the provider's check (the engine warns otherwise), and the YAML code it prints is the program's.
    expect(imported.stdout + imported.stderr).not.toMatch(/failed to validate/);
    expect(imported.stdout).toMatch(/adopted:\n\s+type: fleet-update:(index:)?UpdateRun/);
    // An adopted run is not a run about to be created: no plan is printed for it.
    expect(imported.stdout).not.toMatch(/\[adopted\] plan:/);
    const [resource] = project.resources(RUN_TYPE);
    expect(resource?.id).toMatch(/^adopted-[0-9a-f]{8}$/);
    expect(resource?.outputs?.summary).toMatchObject({ state: "Completed", members: { total: 3, Completed: 3 } });

    const up = await timed("upAfterImport", () => project.cli(["up", "--yes", "--expect-no-changes"]));
    expect(up.code, `${up.stdout.slice(-3000)}\n${up.stderr.slice(-3000)}`).toBe(0);
    expect(up.stdout).toMatch(/2 unchanged/);
    const outputs = JSON.parse((await project.cli(["stack", "output", "--json"])).stdout) as { summary: unknown };
    expect(outputs.summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { Completed: 3 } });
    expect(Object.values(fleetState()).map((c) => c.operations.length)).toEqual([1, 1, 1]);

    const destroy = await timed("destroyAfterImport", () => project.cli(["destroy", "--yes"]));
    expect(destroy.code, destroy.stderr).toBe(0);
    expect(fs.existsSync(project.path(PROJECT, journal))).toBe(false);
  }, 300_000);
});
