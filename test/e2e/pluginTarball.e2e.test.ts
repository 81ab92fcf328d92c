/**
 * Issues 24 and 33: the provider plugin installed from its linux-amd64 tarball — the one a release
 * carries, packed by the same code (`scripts/pack-plugin.js`, which `npm run release:build` calls) —
 * the way docs/installation-configuration.md tells a newcomer: on a fresh machine, in a scratch HOME
 * holding nothing but the tarball, with nothing on PATH but the Pulumi CLI (v3.248.0, with its YAML
 * host), Node.js 20 and the system's tools, the doc's own command block and files run the YAML
 * quickstart `up` end to end. Around it: the tarball's layout; that before the install nothing provides
 * `fleet-update`; that without Node.js the launcher says what is missing; the Python example previewed
 * through the CLI where a Python language host is installed (not here: docs/installation-configuration.md);
 * destroy leaving no process. Automatic plugin downloads are off throughout.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processesMentioning } from "./support/project";
import { REPO_ROOT, pulumiCli, yamlHostAvailable } from "./support/pulumiCli";

const DOC = path.join(REPO_ROOT, "docs", "installation-configuration.md");
const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
const TARBALL = `pulumi-resource-fleet-update-v${VERSION}-linux-amd64.tar.gz`;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The doc's fenced blocks of a language, each as text. */
function docBlocks(language: string): string[] {
  return [...fs.readFileSync(DOC, "utf8").matchAll(new RegExp("```" + language + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);
}

/**
 * The newcomer's commands and files, as the doc gives them (each block names itself on its first line).
 * One word differs: `pulumi login --local` is the local backend in `~`, which Pulumi resolves from the
 * system's user database rather than $HOME; here `~` is the scratch HOME, so the login names it.
 */
function newcomerFromDoc(home = "~"): { commands: string[]; files: Record<string, string> } {
  const script = docBlocks("sh").find((b) => b.startsWith("# The quickstart on a fresh machine"));
  if (script === undefined) throw new Error(`${DOC} has no sh block starting "# The quickstart on a fresh machine"`);
  const lines = script.split("\n").map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#"));
  if (!lines.includes("pulumi login --local")) throw new Error(`${DOC}: the quickstart no longer logs in with \`pulumi login --local\``);
  const commands = lines.map((l) => (l === "pulumi login --local" && home !== "~" ? `pulumi login file://${home}` : l));
  const files: Record<string, string> = {};
  for (const block of docBlocks("yaml")) {
    const name = /^# (Pulumi\.yaml|fleet\.yaml):/.exec(block)?.[1];
    if (name !== undefined) files[name] = block;
  }
  return { commands, files };
}

/** dist-release/'s linux-amd64 tarball, if its manifest says it was packed from what this checkout holds now. */
function releasedTarball(): string | undefined {
  const manifest = path.join(REPO_ROOT, "dist-release", "manifest.json");
  if (!fs.existsSync(manifest)) return undefined;
  const { packFingerprint } = require(path.join(REPO_ROOT, "scripts", "pack-plugin.js")) as { packFingerprint(): string };
  const recorded = JSON.parse(fs.readFileSync(manifest, "utf8")) as { packFingerprint?: string };
  const file = path.join(REPO_ROOT, "dist-release", TARBALL);
  return recorded.packFingerprint === packFingerprint() && fs.existsSync(file) ? file : undefined;
}

describe.skipIf(!yamlHostAvailable())("the provider plugin installed from its linux-amd64 tarball, as docs/installation-configuration.md says", () => {
  let scratch: string;
  let home: string;
  let tools: string;
  let tarball: string;
  const timings: Record<string, number> = {};

  /**
   * A shell in the newcomer's world: their HOME, and PATH = the CLI's folder, then the system's (Node.js
   * 20 is /usr/bin/node here). Pulumi finds its home (`~/.pulumi`) from the system's user database, not
   * from $HOME, so PULUMI_HOME puts it in the scratch HOME, as on the newcomer's own machine.
   */
  const newcomerEnv = (extra: Record<string, string> = {}) => ({
    HOME: home,
    PULUMI_HOME: path.join(home, ".pulumi"),
    PATH: `${tools}:/usr/local/bin:/usr/bin:/bin`,
    LANG: "C.UTF-8",
    // No network here: no update check, and the installed tarball is the only `fleet-update`.
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    ...extra,
  });
  /** Runs one line in bash, in `cwd`, with the newcomer's environment; the shell's state carries over (`state` file). */
  const sh = (line: string, cwd: string, extra: Record<string, string> = {}): Promise<Ran> =>
    new Promise((resolve) => {
      const started = Date.now();
      const child = spawn("/bin/bash", ["-c", line], { cwd, env: newcomerEnv(extra), stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      child.on("error", (error) => resolve({ code: null, stdout, stderr: `${stderr}\n${error.message}`, ms: Date.now() - started }));
      child.on("close", (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
    });

  beforeAll(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-update-newcomer-"));
    home = path.join(scratch, "home");
    tools = path.join(scratch, "pulumi-bin");
    fs.mkdirSync(home);
    fs.mkdirSync(tools);
    // "The Pulumi CLI on PATH": the CLI and the YAML host it bundles, nothing of this checkout.
    const cli = pulumiCli().cli!;
    for (const tool of ["pulumi", "pulumi-language-yaml"]) fs.symlinkSync(path.join(cli.root, "bin", tool), path.join(tools, tool));

    // The release's tarball when `npm run release:build` packed it from this very checkout (CI runs it
    // first), else packed here by the same code.
    const started = Date.now();
    tarball = releasedTarball() ?? "";
    if (tarball === "") {
      const packed = spawnSync(process.execPath, [path.join(REPO_ROOT, "scripts", "pack-plugin.js"), "--out", path.join(scratch, "packed"), "--platform", "linux-amd64"], { encoding: "utf8", timeout: 10 * 60_000 });
      expect(packed.status, packed.stderr).toBe(0);
      tarball = packed.stdout.trim();
    }
    timings[tarball.startsWith(path.join(REPO_ROOT, "dist-release")) ? "releaseTarball" : "pack"] = Date.now() - started;
    expect(path.basename(tarball)).toBe(TARBALL);
    // The newcomer's folder: the tarball, downloaded from the release.
    fs.copyFileSync(tarball, path.join(home, TARBALL));
  }, 10 * 60_000);

  afterAll(() => {
    process.stderr.write(`pluginTarball e2e timings (ms): ${JSON.stringify(timings)}\n`);
    if (scratch !== undefined) fs.rmSync(scratch, { recursive: true, force: true });
  }, 120_000);

  it("the tarball: the sh launcher and launch.js at its root, dist/, schema.json, package.json, production dependencies only", () => {
    const listing = spawnSync("tar", ["-tzvf", tarball], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    expect(listing.status, listing.stderr).toBe(0);
    const entries = new Map(listing.stdout.split("\n").filter(Boolean).map((line) => [line.split(/\s+/).slice(5).join(" ").replace(/^\.\//, ""), line.slice(0, 10)]));
    expect(entries.get("pulumi-resource-fleet-update"), "the launcher, executable").toMatch(/^-rwx/);
    expect(entries.has("pulumi-resource-fleet-update.cmd"), "Windows' launcher").toBe(false);
    for (const file of ["launch.js", "dist/pulumi/plugin/main.js", "schema.json", "package.json", "node_modules/@pulumi/pulumi/package.json", "node_modules/zod/package.json"]) {
      expect(entries.has(file), file).toBe(true);
    }
    for (const devOnly of ["node_modules/vitest/", "node_modules/typescript/", "node_modules/@pulumi/azure-native/", "node_modules/.bin/"]) {
      expect(entries.has(devOnly), devOnly).toBe(false);
    }
    expect(fs.statSync(tarball).size, "bytes").toBeLessThan(30 * 1024 * 1024);
    // The doc installs this very file, at this version.
    expect(newcomerFromDoc().commands).toContain(`pulumi plugin install resource fleet-update ${VERSION} --file ${TARBALL}`);
  });

  it("before the install the quickstart cannot find `fleet-update`", async () => {
    const project = path.join(scratch, "before-install");
    fs.mkdirSync(project);
    for (const [name, text] of Object.entries(newcomerFromDoc().files)) fs.writeFileSync(path.join(project, name), text);
    const preview = await sh(`pulumi login file://${project} >/dev/null && pulumi stack init before --non-interactive >/dev/null && pulumi preview --non-interactive`, project, { PULUMI_CONFIG_PASSPHRASE: "x", PULUMI_HOME: path.join(scratch, "empty-pulumi-home") });
    expect(preview.code).not.toBe(0);
    expect(preview.stdout + preview.stderr).toMatch(/no resource plugin 'pulumi-resource-fleet-update' found/);
  }, 300_000);

  it("a newcomer following the doc gets the YAML quickstart to run: install, login, stack init, up — every member completes", async () => {
    const { commands, files } = newcomerFromDoc(home);
    expect(Object.keys(files).sort()).toEqual(["Pulumi.yaml", "fleet.yaml"]);
    // The doc's `mkdir -p fleet-quickstart && cd fleet-quickstart`, then "save Pulumi.yaml and fleet.yaml here".
    const project = path.join(home, "fleet-quickstart");
    fs.mkdirSync(project);
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(project, name), text);
    // The block runs as one shell session (its `cd` and `export` carry over), each line timed.
    const stamps = path.join(scratch, "stamps");
    const script = commands.map((c, i) => `${c}\necho "${i} $(date +%s%3N)" >> ${stamps}`).join("\n");
    const started = Date.now();
    const ran = await sh(`set -e\necho "start $(date +%s%3N)" > ${stamps}\n${script}`, home);
    timings.newcomerTotal = Date.now() - started;
    expect(ran.code, `${ran.stdout.slice(-4000)}\n${ran.stderr.slice(-4000)}`).toBe(0);
    const at = fs.readFileSync(stamps, "utf8").trim().split("\n").map((l) => Number(l.split(" ")[1]));
    commands.forEach((command, i) => (timings[command.split(" ").slice(0, 3).join(" ")] = at[i + 1]! - at[i]!));

    expect(ran.stdout).toMatch(/\+ 3 created/);
    const summary = JSON.parse(ran.stdout.slice(ran.stdout.lastIndexOf("\n{"))) as unknown;
    expect(summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 4, Completed: 4 } });
    // Where Pulumi keeps an installed plugin: the tarball's root, launcher and all, under ~/.pulumi.
    const installed = path.join(home, ".pulumi", "plugins", `resource-fleet-update-v${VERSION}`);
    expect(fs.statSync(path.join(installed, "pulumi-resource-fleet-update")).mode & 0o111, "the launcher is executable").not.toBe(0);
    const listed = await sh("pulumi plugin ls --json", home);
    expect((JSON.parse(listed.stdout) as Array<{ name: string; kind: string; version: string }>).filter((p) => p.name === "fleet-update")).toEqual([expect.objectContaining({ kind: "resource", version: VERSION })]);
    // The stack, in the local backend the doc logged in to.
    const stack = JSON.parse(fs.readFileSync(path.join(home, ".pulumi", "stacks", "fleet-quickstart", "dev.json"), "utf8")) as { checkpoint: { latest: { resources: Array<{ type: string }> } } };
    expect(stack.checkpoint.latest.resources.map((r) => r.type)).toEqual(expect.arrayContaining(["fleet-update:index:UpdateRun", "fleet-update:index:UpdateStrategy", "pulumi:providers:fleet-update"]));
  }, 600_000);

  it("without Node.js on PATH, `pulumi preview` stops with the launcher's words: Node.js 20 or newer is required", async () => {
    const project = path.join(home, "fleet-quickstart");
    // PATH without /usr/bin, where node is: only the CLI (sh and the launcher's shebang are absolute).
    const preview = await sh("pulumi preview --non-interactive", project, { PATH: tools, PULUMI_CONFIG_PASSPHRASE: "quickstart" });
    expect(preview.code).not.toBe(0);
    expect(preview.stdout + preview.stderr).toContain("pulumi-resource-fleet-update: Node.js 20 or newer is required to run this provider plugin, and no 'node' was found on PATH.");
  }, 300_000);

  it("the Python quickstart previews through the CLI with the installed plugin and the committed SDK, where a Python language host is installed", async (context) => {
    const host = spawnSync("bash", ["-c", "command -v pulumi-language-python"], { encoding: "utf8", env: { PATH: `${path.dirname(pulumiCli().cli!.root)}:${process.env.PATH ?? ""}` } });
    if (host.status !== 0) {
      // Pulumi's Python host is not served here (docs/installation-configuration.md): say so, and skip.
      process.stderr.write("skipping the Python example's preview: no pulumi-language-python on PATH\n");
      return context.skip();
    }
    const project = path.join(scratch, "quickstart-python");
    fs.cpSync(path.join(REPO_ROOT, "examples", "quickstart-python"), project, { recursive: true });
    fs.cpSync(path.join(REPO_ROOT, "examples", "quickstart", "fleet.yaml"), path.join(scratch, "quickstart", "fleet.yaml"));
    const venv = await sh(`python3 -m venv venv && venv/bin/pip install --quiet -r requirements.txt ${path.join(REPO_ROOT, "sdk", "python")}`, project, { PATH: `${path.dirname(host.stdout.trim())}:${tools}:/usr/local/bin:/usr/bin:/bin` });
    expect(venv.code, venv.stderr).toBe(0);
    const preview = await sh("pulumi stack init dev --non-interactive && pulumi preview --non-interactive", project, { PATH: `${path.dirname(host.stdout.trim())}:${tools}:/usr/local/bin:/usr/bin:/bin`, PULUMI_CONFIG_PASSPHRASE: "quickstart" });
    expect(preview.code, `${preview.stdout.slice(-3000)}\n${preview.stderr.slice(-3000)}`).toBe(0);
    expect(preview.stdout).toMatch(/\+ 3 to create/);
  }, 600_000);

  it("destroy removes the quickstart's resources and leaves no plugin process", async () => {
    const project = path.join(home, "fleet-quickstart");
    const destroy = await sh("pulumi destroy --yes --non-interactive", project, { PULUMI_CONFIG_PASSPHRASE: "quickstart" });
    expect(destroy.code, destroy.stderr).toBe(0);
    const stack = JSON.parse(fs.readFileSync(path.join(home, ".pulumi", "stacks", "fleet-quickstart", "dev.json"), "utf8")) as { checkpoint: { latest?: { resources?: unknown[] } } };
    expect(stack.checkpoint.latest?.resources ?? []).toEqual([]);
    expect(processesMentioning(home)).toEqual([]);
    expect((parseYaml(fs.readFileSync(path.join(project, "Pulumi.yaml"), "utf8")) as { plugins?: unknown }).plugins, "no plugins entry: the installed plugin served it").toBeUndefined();
  }, 300_000);
});
