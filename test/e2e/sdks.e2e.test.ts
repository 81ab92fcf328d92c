/**
 * Issue 24: the SDKs generated from schema.json with Pulumi's own code generators
 * (`scripts/gen-sdks.sh`, v3.248.0's pkg/v3/codegen), each built with its own toolchain here, and each
 * then used: a probe program (`test/e2e/sdks/`) declares an UpdateStrategy and an UpdateRun through the
 * SDK under its mocks and reports what the SDK registered. Issue 33: the SDKs are the committed ones
 * (`sdk/`, which `npm run sdks:check` holds to what schema.json generates: test/e2e/sdkCheck.e2e.test.ts),
 * copied to a scratch folder so their builds write nothing into the checkout. .NET is not here: the
 * machine has no `dotnet`, and Pulumi's .NET generator (github.com/pulumi/pulumi-dotnet) is not served
 * by the module proxy (docs/provider-plugin.md).
 *
 * Cold (empty Go module and pip caches) the Go build downloads Pulumi's Go SDK's dependencies and
 * the Python environment installs `pulumi` from PyPI, both cached outside the repo for the next run.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, realCliAvailable } from "./support/pulumiCli";

const PROBES = path.join(__dirname, "sdks");
const RUN_TYPE = "fleet-update:index:UpdateRun";
const STRATEGY_TYPE = "fleet-update:index:UpdateStrategy";

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Ran {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: options.timeoutMs ?? 10 * 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: result.status, stdout: result.stdout ?? "", stderr: `${result.stderr ?? ""}${result.error ? `\n${result.error.message}` : ""}` };
}

const failure = (r: Ran) => `exit ${r.code}\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`;

/** The Python environment with `pulumi` from PyPI (scripts/python-pulumi.sh), or why there is none. */
function pythonWithPulumi(): string | undefined {
  const made = run("bash", [path.join(REPO_ROOT, "scripts", "python-pulumi.sh")], { timeoutMs: 15 * 60_000 });
  if (made.code === 0) return made.stdout.trim();
  if (process.env.CI === "true") throw new Error(`the Python SDK's environment is required under CI: ${failure(made)}`);
  process.stderr.write(`skipping the Python SDK: ${made.stderr.trim().split("\n").slice(-2).join(" ")}\n`);
  return undefined;
}

// The schema's own names for UpdateRun's and UpdateStrategy's inputs, and each language's spelling.
const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8")) as {
  resources: Record<string, { inputProperties: Record<string, unknown> }>;
};
const inputsOf = (type: string) => Object.keys(schema.resources[type]!.inputProperties).sort();
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const pascal = (name: string) => name[0]!.toUpperCase() + name.slice(1);

/** What every SDK's probe must register: the engine sees the schema's names, whatever the language's. */
const EXPECTED_REGISTRATIONS = [
  {
    type: RUN_TYPE,
    name: "k8s-1-32",
    inputs: {
      backend: { simulator: { fleetFile: "fleet.yaml", timeScale: 600 } },
      members: [{ name: "canary-1", group: "canary" }],
      // The strategy's output, passed as the run's input (the mocks give it the strategy's stages).
      strategy: { stages: [{ name: "canary", groups: [{ name: "canary", maxConcurrency: "1" }], afterStageWaitInSeconds: 600 }] },
      managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Consistent" } },
      // The schema's default, filled in by each SDK.
      state: "Running",
      timeoutMinutes: 10,
    },
  },
  {
    type: STRATEGY_TYPE,
    name: "rollout",
    inputs: { stages: [{ name: "canary", groups: [{ name: "canary", maxConcurrency: "1" }], afterStageWaitInSeconds: 600 }] },
  },
];

/** The probe's one JSON line (the Go probe prefixes it with `PROBE `). */
function registrations(output: string): unknown {
  const line = output.split("\n").find((l) => l.startsWith("[") || l.startsWith("PROBE "));
  if (line === undefined) throw new Error(`no probe line in:\n${output.slice(-3000)}`);
  return JSON.parse(line.replace(/^PROBE /, ""));
}

describe.skipIf(!realCliAvailable())("the committed SDKs, generated from schema.json", () => {
  let out: string;
  const timings: Record<string, number> = {};
  const timed = <T>(step: string, work: () => T): T => {
    const started = Date.now();
    try {
      return work();
    } finally {
      timings[step] = (timings[step] ?? 0) + Date.now() - started;
    }
  };

  beforeAll(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-update-sdks-"));
    // The committed files only: not a build a developer left in sdk/ (node_modules, bin/, egg-info).
    const listed = run("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", "sdk"]);
    expect(listed.code, failure(listed)).toBe(0);
    for (const file of listed.stdout.split("\0").filter(Boolean)) {
      fs.mkdirSync(path.join(out, path.dirname(path.relative("sdk", file))), { recursive: true });
      fs.copyFileSync(path.join(REPO_ROOT, file), path.join(out, path.relative("sdk", file)));
    }
    expect(fs.readdirSync(out).sort()).toEqual(["go", "nodejs", "python"]);
  }, 60_000);

  afterAll(() => {
    process.stderr.write(`sdks e2e timings (ms): ${JSON.stringify(timings)}\n`);
    if (out !== undefined) fs.rmSync(out, { recursive: true, force: true });
  });

  it("each SDK has UpdateRun and UpdateStrategy with every input of the schema, in its language's names", () => {
    const ts = {
      run: fs.readFileSync(path.join(out, "nodejs", "updateRun.ts"), "utf8"),
      strategy: fs.readFileSync(path.join(out, "nodejs", "updateStrategy.ts"), "utf8"),
    };
    const py = {
      run: fs.readFileSync(path.join(out, "python", "pulumi_fleet_update", "update_run.py"), "utf8"),
      strategy: fs.readFileSync(path.join(out, "python", "pulumi_fleet_update", "update_strategy.py"), "utf8"),
    };
    const go = {
      run: fs.readFileSync(path.join(out, "go", "fleetupdate", "updateRun.go"), "utf8"),
      strategy: fs.readFileSync(path.join(out, "go", "fleetupdate", "updateStrategy.go"), "utf8"),
    };
    expect(ts.run).toMatch(/export class UpdateRun extends pulumi\.CustomResource/);
    expect(ts.strategy).toMatch(/export class UpdateStrategy extends pulumi\.CustomResource/);
    expect(py.run).toMatch(/^class UpdateRun\(pulumi\.CustomResource\):/m);
    expect(py.strategy).toMatch(/^class UpdateStrategy\(pulumi\.CustomResource\):/m);
    expect(go.run).toMatch(/^func NewUpdateRun\(ctx \*pulumi\.Context,/m);
    expect(go.strategy).toMatch(/^func NewUpdateStrategy\(ctx \*pulumi\.Context,/m);

    for (const [type, file] of [[RUN_TYPE, "run"], [STRATEGY_TYPE, "strategy"]] as const) {
      const names = inputsOf(type);
      const argsOf = (text: string, pattern: RegExp) => text.match(pattern)?.[1] ?? "";
      const resource = type === RUN_TYPE ? "UpdateRun" : "UpdateStrategy";
      const tsArgs = argsOf(ts[file], new RegExp(`export interface ${resource}Args \\{([\\s\\S]*?)\\n\\}`));
      const pyArgs = argsOf(py[file], new RegExp(`class ${resource}Args:\\n    def __init__\\(([\\s\\S]*?)\\):`));
      const goArgs = argsOf(go[file], new RegExp(`type ${resource}Args struct \\{([\\s\\S]*?)\\n\\}`));
      expect(names.filter((n) => !new RegExp(`\\b${n}\\??:`).test(tsArgs)), `TypeScript ${resource}Args`).toEqual([]);
      expect(names.filter((n) => !new RegExp(`\\b${snake(n)}:`).test(pyArgs)), `Python ${resource}Args`).toEqual([]);
      expect(names.filter((n) => !new RegExp(`^\\s*${pascal(n)}\\s`, "m").test(goArgs)), `Go ${resource}Args`).toEqual([]);
    }
    // The names the issue asks for, spelled out once.
    expect(py.run).toMatch(/\bmanaged_cluster_update: pulumi\.Input/);
    expect(py.run).toMatch(/\bauto_upgrade_profile: pulumi\.Input/);
  });

  it("each SDK asks for the plugin at the schema's version (what a tarball installs), from the schema's download URL", () => {
    const version = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
    const plugin = { resource: true, name: "fleet-update", version, server: (schema as unknown as { pluginDownloadURL: string }).pluginDownloadURL };
    expect(plugin.server).toMatch(/^github:\/\/api\.github\.com\/[\w.-]+\/pulumi-fleet-update$/);
    const nodePkg = JSON.parse(fs.readFileSync(path.join(out, "nodejs", "package.json"), "utf8")) as { version: string; pulumi: unknown };
    expect(nodePkg.version).toBe(version);
    expect(nodePkg.pulumi).toEqual(plugin);
    for (const file of [path.join(out, "python", "pulumi_fleet_update", "pulumi-plugin.json"), path.join(out, "go", "fleetupdate", "pulumi-plugin.json")]) {
      expect(JSON.parse(fs.readFileSync(file, "utf8")), file).toEqual(plugin);
    }
  });

  const probed: Record<string, unknown> = {};

  it("TypeScript: tsc builds the SDK, and the SDK registers the schema's resources and inputs", () => {
    const dir = path.join(out, "nodejs");
    // The package's dependencies (@pulumi/pulumi, TypeScript, @types/node) as `npm install` would give.
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "junction");
    const built = timed("tsc", () => run(path.join(REPO_ROOT, "node_modules", ".bin", "tsc"), ["-p", dir]));
    expect(built.code, failure(built)).toBe(0);
    expect(fs.existsSync(path.join(dir, "bin", "index.d.ts"))).toBe(true);
    // The compiled SDK reads its version from a package.json beside it: Pulumi's own build of a Node
    // SDK (the local SDK's postinstall script) copies it there after tsc.
    fs.copyFileSync(path.join(dir, "package.json"), path.join(dir, "bin", "package.json"));
    const probe = timed("probeTs", () => run(process.execPath, [path.join(PROBES, "probe.cjs"), dir]));
    expect(probe.code, failure(probe)).toBe(0);
    probed.typescript = registrations(probe.stdout);
    expect(probed.typescript).toEqual(EXPECTED_REGISTRATIONS);
  }, 120_000);

  it("Python: compileall builds the SDK, pip installs it beside `pulumi` from PyPI, and it registers the schema's resources and inputs", (context) => {
    const python = timed("pythonEnv", pythonWithPulumi);
    if (python === undefined) return context.skip();
    const dir = path.join(out, "python");
    const compiled = timed("compileall", () => run(python, ["-m", "compileall", "-q", dir]));
    expect(compiled.code, failure(compiled)).toBe(0);
    // Installed (not only put on the path): the SDK reads its own version from its distribution.
    const site = path.join(out, "python-site");
    const installed = timed("pipInstall", () =>
      run(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--no-build-isolation", "--no-index", "--target", site, dir]),
    );
    expect(installed.code, failure(installed)).toBe(0);

    const signature = run(python, ["-c", "import inspect, json, pulumi_fleet_update as f; print(json.dumps(sorted(p for p in inspect.signature(f.UpdateRunArgs.__init__).parameters if p != '__self__')))"], { env: { PYTHONPATH: site } });
    expect(signature.code, failure(signature)).toBe(0);
    expect(JSON.parse(signature.stdout)).toEqual(expect.arrayContaining(["managed_cluster_update", "auto_upgrade_profile", "update_strategy_id", "timeout_minutes"]));

    const probe = timed("probePython", () => run(python, [path.join(PROBES, "probe.py")], { env: { PYTHONPATH: site } }));
    expect(probe.code, failure(probe)).toBe(0);
    probed.python = registrations(probe.stdout);
    expect(probed.python).toEqual(EXPECTED_REGISTRATIONS);
  }, 15 * 60_000);

  it("Go: go build and go vet against github.com/pulumi/pulumi/sdk/v3, and the SDK registers the schema's resources and inputs", () => {
    const dir = path.join(out, "go");
    // The CLI's build flags, so Go's build cache already holds the Pulumi SDK's packages; the local
    // toolchain, never one go.mod might name.
    const env = { GOFLAGS: "-trimpath -buildvcs=false", GOTOOLCHAIN: "local" };
    // The SDK's go.mod requires the CLI's Pulumi SDK (tools/pulumi-cli/gensdk pins it); Go writes go.sum
    // (from the module proxy, cached in Go's module cache).
    expect(fs.readFileSync(path.join(dir, "go.mod"), "utf8")).toMatch(/^require github\.com\/pulumi\/pulumi\/sdk\/v3 v3\.248\.0$/m);
    const tidy = timed("goModules", () => run("go", ["mod", "tidy"], { cwd: dir, env }));
    expect(tidy.code, failure(tidy)).toBe(0);
    const built = timed("goBuild", () => run("go", ["build", "./..."], { cwd: dir, env }));
    expect(built.code, failure(built)).toBe(0);
    const vetted = timed("goVet", () => run("go", ["vet", "./..."], { cwd: dir, env }));
    expect(vetted.code, failure(vetted)).toBe(0);

    // The probe imports the SDK by the module path go.mod names (package.json's repository).
    const module = /^module (\S+)$/m.exec(fs.readFileSync(path.join(dir, "go.mod"), "utf8"))![1]!;
    const probeGo = fs.readFileSync(path.join(PROBES, "probe_test.go"), "utf8").replace(/"[^"\s]+\/sdk\/go\/fleetupdate"/, `"${module}/fleetupdate"`);
    fs.writeFileSync(path.join(dir, "fleetupdate", "probe_test.go"), probeGo);
    // The mocks beside it, in the probe's package.
    const mocksGo = fs.readFileSync(path.join(PROBES, "mocks_test.go"), "utf8").replace(/^package \w+$/m, "package fleetupdate_test");
    fs.writeFileSync(path.join(dir, "fleetupdate", "mocks_test.go"), mocksGo);
    const probe = timed("probeGo", () => run("go", ["test", "-count=1", "-run", "^TestProbe$", "-v", "./fleetupdate/"], { cwd: dir, env }));
    expect(probe.code, failure(probe)).toBe(0);
    probed.go = registrations(probe.stdout);
    expect(probed.go).toEqual(EXPECTED_REGISTRATIONS);
  }, 15 * 60_000);

  it("the three SDKs register the same resources with the same inputs", () => {
    const languages = Object.keys(probed);
    expect(languages.length, "probes that ran").toBeGreaterThanOrEqual(2);
    for (const language of languages) expect(probed[language], language).toEqual(probed[languages[0]!]);
  });
});
