/**
 * Issue 24: the provider plugin installed from its tarball, as the README says — `npm run plugin:pack`
 * (here `scripts/pack-plugin.js --out <scratch>`, after the test run's own build), then
 * `pulumi plugin install resource fleet-update <version> --file <tarball>` with the real CLI into the
 * project's own PULUMI_HOME — and the YAML quickstart without its `plugins:` entry, so the engine finds
 * the plugin by name and version among the installed ones. Automatic plugin downloads are off
 * throughout: before the install, nothing else provides `fleet-update`.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2eProject, processesMentioning } from "./support/project";
import { REPO_ROOT, yamlHostAvailable } from "./support/pulumiCli";

const PROJECT = path.join("examples", "quickstart-yaml");
const RUN_TYPE = "fleet-update:index:UpdateRun";
const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
// No download of a plugin the program names: the installed tarball is the only `fleet-update`.
const NO_DOWNLOADS = { PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true" };

/** The README's tarball install: its `npm run plugin:pack` line and its `pulumi plugin install` words. */
function readmeTarballInstall(): { pack: string; install: string[] } {
  const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).find((text) => /^pulumi plugin install /m.test(text));
  if (block === undefined) throw new Error("README.md has no ```sh block with `pulumi plugin install`");
  const lines = block.split("\n").map((l) => l.replace(/#.*$/, "").trim()).filter(Boolean);
  return { pack: lines.find((l) => l.startsWith("npm run"))!, install: lines.find((l) => l.startsWith("pulumi plugin install "))!.split(/\s+/).slice(1) };
}

describe.skipIf(!yamlHostAvailable())("the provider plugin installed from its tarball", () => {
  let project: E2eProject;
  let scratch: string;
  let tarball: string;
  const timings: Record<string, number> = {};
  const pulumi = async (step: string, args: string[]) => {
    const started = Date.now();
    const result = await project.cli(args, NO_DOWNLOADS);
    timings[step] = Date.now() - started;
    return result;
  };

  beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-update-tarball-"));
    const started = Date.now();
    const packed = spawnSync(process.execPath, [path.join(REPO_ROOT, "scripts", "pack-plugin.js"), "--out", scratch], { cwd: REPO_ROOT, encoding: "utf8", timeout: 5 * 60_000 });
    timings.pack = Date.now() - started;
    expect(packed.status, packed.stderr).toBe(0);
    tarball = packed.stdout.trim();

    project = new E2eProject({
      files: ["examples/quickstart/fleet.yaml", PROJECT],
      projectDir: PROJECT,
      program: path.join(PROJECT, "Pulumi.yaml"),
      main: PROJECT,
      projectName: "fleet-update-quickstart-yaml",
    });
    // The quickstart with nothing pointing at a plugin folder: no `plugins:` entry, no node_modules.
    const program = project.path(PROJECT, "Pulumi.yaml");
    const { plugins, ...rest } = parseYaml(fs.readFileSync(program, "utf8")) as Record<string, unknown>;
    expect(plugins, "the example's plugins entry, removed here").toBeDefined();
    fs.writeFileSync(program, stringifyYaml(rest));
    const init = await project.cli(["stack", "init", project.stackName]);
    expect(init.code, init.stderr).toBe(0);
  }, 5 * 60_000);

  afterAll(() => {
    process.stderr.write(`pluginTarball e2e timings (ms): ${JSON.stringify(timings)}\n`);
    project?.cleanup();
    if (scratch !== undefined) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("the pack writes the tarball the README names: the shim at its root, dist/, schema.json, package.json and only production dependencies", () => {
    const { pack, install } = readmeTarballInstall();
    expect(pack).toBe("npm run plugin:pack");
    expect(install.slice(0, 4)).toEqual(["plugin", "install", "resource", "fleet-update"]);
    expect(install[4], "the README's version").toBe(VERSION);
    expect(install[5]).toBe("--file");
    expect(path.basename(install[6]!), "the README's file name").toBe(path.basename(tarball));
    expect(path.basename(tarball)).toBe(`pulumi-resource-fleet-update-v${VERSION}-${process.platform === "darwin" ? "darwin" : "linux"}-${process.arch === "arm64" ? "arm64" : "amd64"}.tar.gz`);

    const listing = spawnSync("tar", ["-tzvf", tarball], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    expect(listing.status, listing.stderr).toBe(0);
    const entries = new Map(listing.stdout.split("\n").filter(Boolean).map((line) => [line.split(/\s+/).slice(5).join(" ").replace(/^\.\//, ""), line.slice(0, 10)]));
    expect(entries.get("pulumi-resource-fleet-update"), "the shim, executable").toMatch(/^-rwx/);
    for (const file of ["dist/pulumi/plugin/main.js", "schema.json", "package.json", "node_modules/@pulumi/pulumi/package.json", "node_modules/zod/package.json"]) {
      expect(entries.has(file), file).toBe(true);
    }
    for (const devOnly of ["node_modules/vitest/", "node_modules/typescript/", "node_modules/@pulumi/azure-native/", "node_modules/.bin/"]) {
      expect(entries.has(devOnly), devOnly).toBe(false);
    }
    expect(fs.statSync(tarball).size, "bytes").toBeLessThan(30 * 1024 * 1024);
  });

  it("before the install the program cannot find `fleet-update`", async () => {
    const preview = await pulumi("previewBeforeInstall", ["preview"]);
    expect(preview.code).not.toBe(0);
    expect(preview.stdout + preview.stderr).toMatch(/no resource plugin 'pulumi-resource-fleet-update' found/);
  }, 120_000);

  it("`pulumi plugin install resource fleet-update <version> --file <tarball>` installs it, and `pulumi up` finds it by name: every member completes", async () => {
    const installed = await pulumi("install", [...readmeTarballInstall().install.slice(0, 6), tarball]);
    expect(installed.code, installed.stderr).toBe(0);
    const listed = JSON.parse((await project.cli(["plugin", "ls", "--json"])).stdout) as Array<{ name: string; kind: string; version: string }>;
    expect(listed.filter((p) => p.name === "fleet-update")).toEqual([expect.objectContaining({ kind: "resource", version: VERSION })]);
    // Where Pulumi keeps an installed plugin: the tarball's root, shim and all, in the project's PULUMI_HOME.
    const folder = path.join(project.backendDir, "home", "plugins", `resource-fleet-update-v${VERSION}`);
    expect(fs.statSync(path.join(folder, "pulumi-resource-fleet-update")).mode & 0o111, "the shim is executable").not.toBe(0);

    const up = await pulumi("up", ["up", "--yes", "--skip-preview"]);
    expect(up.code, `${up.stdout.slice(-3000)}\n${up.stderr.slice(-3000)}`).toBe(0);
    expect(up.stdout).toMatch(/\+ 3 created/);
    const outputs = JSON.parse((await project.cli(["stack", "output", "--json"])).stdout) as { summary: unknown };
    expect(outputs.summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 8, Completed: 8 } });
    expect(project.resources(RUN_TYPE)).toHaveLength(1);
    // The engine's default provider for the package: with downloads off and no `plugins:` entry, the
    // installed plugin (the preview before the install found none).
    expect(project.resources("pulumi:providers:fleet-update")).toHaveLength(1);
  }, 300_000);

  it("destroy works and leaves no plugin process", async () => {
    const destroy = await pulumi("destroy", ["destroy", "--yes"]);
    expect(destroy.code, destroy.stderr).toBe(0);
    expect(project.resources()).toEqual([]);
    expect(processesMentioning(project.dir)).toEqual([]);
    expect(processesMentioning(path.join(project.backendDir, "home"))).toEqual([]);
  }, 300_000);
});
