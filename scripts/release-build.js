#!/usr/bin/env node
// Issue 33: builds every artifact of a release, and checks each one as its user would meet it —
// `npm run release:build` (which builds dist/ first), in CI (.ci/run) and in the release workflow
// (.github/workflows/release.yml), which publishes what this writes:
//
//   dist-release/  (or --out DIR)
//     pulumi-resource-fleet-update-v<version>-<os>-<arch>.tar.gz   the plugin: linux, darwin, windows ×
//                                                                 amd64, arm64 (scripts/pack-plugin.js)
//     pulumi_fleet_update-<version>-py3-none-any.whl, pulumi_fleet_update-<version>.tar.gz
//                                                                 the Python SDK (python -m build)
//     pulumi-fleet-update-sdk-<version>.tgz                       the Node.js SDK (npm pack)
//     pulumi-fleet-update_<version>_checksums.txt                 sha256 of each (`sha256sum -c` reads it)
//     manifest.json                                               each artifact's name, bytes and sha256,
//                                                                 and what the tarballs were packed from
//
// The Go SDK is not a file: `go get` takes it from the repository at the tag sdk/go/v<version>.
//
// Checks, in order, each failing the build with what went wrong:
//   1. the committed SDKs are what schema.json generates (scripts/check-sdks.js);
//   2. each tarball's layout: its platform's launcher (executable, or .cmd on Windows) and no other's,
//      launch.js, dist/, package.json at this version, schema.json, production dependencies only;
//   3. the wheel installed with pip in a fresh virtual environment (its dependencies from PyPI, Pulumi's
//      at the CLI's version) and imported, reporting its version; the sdist holding the package, and
//      building into a wheel;
//   4. the Node SDK's package installed with npm into a fresh project beside @pulumi/pulumi, and a
//      program using it type-checked with tsc;
//   5. the Go SDK, required by a fresh module (a `replace` pointing at sdk/go), built and vetted.
// Caches, all outside the repository: Python's environment with `build` (scripts/python-pulumi.sh),
// pip's, npm's and Go's caches.
"use strict";
const { spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { PLUGIN, RELEASE_PLATFORMS, packFingerprint, packPlugin, tarballName } = require("./pack-plugin");

const repo = path.join(__dirname, "..");
const pkg = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8"));
const lock = JSON.parse(fs.readFileSync(path.join(repo, "package-lock.json"), "utf8"));
const outIndex = process.argv.indexOf("--out");
const out = path.resolve(outIndex >= 0 ? process.argv[outIndex + 1] : path.join(repo, "dist-release"));
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-update-release-"));
const started = Date.now();
const timings = {};

function say(line) {
  process.stderr.write(`release:build: ${line}\n`);
}

function fail(message) {
  say(`FAILED: ${message}`);
  fs.rmSync(scratch, { recursive: true, force: true });
  process.exit(1);
}

/** Runs a command; its output is returned, or the build fails with it. */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: options.cwd ?? repo, env: { ...process.env, ...options.env }, encoding: "utf8", maxBuffer: 256 * 1024 * 1024, timeout: options.timeoutMs ?? 15 * 60_000 });
  if (result.status !== 0) {
    fail(`${command} ${args.join(" ")} (in ${options.cwd ?? repo}) exited ${result.status ?? result.signal}:\n${(result.stdout ?? "").slice(-3000)}\n${(result.stderr ?? "").slice(-3000)}${result.error ? `\n${result.error.message}` : ""}`);
  }
  return result.stdout;
}

function step(name, work) {
  const t = Date.now();
  say(`${name}...`);
  const result = work();
  timings[name] = Math.round((Date.now() - t) / 100) / 10;
  return result;
}

function check(condition, message) {
  if (!condition) fail(message);
}

// ---------------------------------------------------------------------------------------------------
step("the committed SDKs against schema.json", () => run(process.execPath, [path.join(repo, "scripts", "check-sdks.js")]));

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

// ---------------------------------------------------------------------------------------------------
const fingerprint = packFingerprint();
const tarballs = step("plugin tarballs", () => packPlugin({ outDir: out, platforms: RELEASE_PLATFORMS, log: say }));
step("plugin tarball layouts", () => {
  const devOnly = Object.entries(lock.packages).filter(([folder, e]) => folder.startsWith("node_modules/") && (e.dev || e.devOptional) && !folder.slice("node_modules/".length).includes("node_modules/"));
  for (const platform of RELEASE_PLATFORMS) {
    const tarball = path.join(out, tarballName(pkg.version, platform));
    check(tarballs.includes(tarball), `no tarball for ${platform}`);
    const entries = new Map(
      run("tar", ["-tzvf", tarball])
        .split("\n")
        .filter(Boolean)
        .map((line) => [line.split(/\s+/).slice(5).join(" ").replace(/^\.\//, ""), line.slice(0, 10)]),
    );
    const windows = platform.startsWith("windows-");
    const [own, other] = windows ? [`${PLUGIN}.cmd`, PLUGIN] : [PLUGIN, `${PLUGIN}.cmd`];
    check(entries.has(own), `${path.basename(tarball)}: no launcher ${own}`);
    check(windows || /^-rwx/.test(entries.get(own)), `${path.basename(tarball)}: ${own} is not executable (${entries.get(own)})`);
    check(!entries.has(other), `${path.basename(tarball)}: holds ${other}, another platform's launcher`);
    for (const file of ["launch.js", "package.json", "schema.json", "dist/pulumi/plugin/main.js", "node_modules/@pulumi/pulumi/package.json", "node_modules/@grpc/grpc-js/package.json", "node_modules/zod/package.json"]) {
      check(entries.has(file), `${path.basename(tarball)}: no ${file}`);
    }
    for (const [folder] of devOnly) check(!entries.has(`${folder}/`) && !entries.has(`${folder}/package.json`), `${path.basename(tarball)}: holds the dev dependency ${folder}`);
    check(![...entries.keys()].some((e) => e.startsWith("node_modules/.bin/") || /\.d\.ts$|\.map$/.test(e)), `${path.basename(tarball)}: holds node_modules/.bin, type declarations or source maps`);
  }
  // What a tarball says of itself: the version (its package.json) and the launcher's words.
  const linux = path.join(out, tarballName(pkg.version, "linux-amd64"));
  const packed = JSON.parse(run("tar", ["-xzOf", linux, "./package.json"]));
  check(packed.version === pkg.version, `the tarball's package.json is ${packed.version}, not ${pkg.version}`);
  const sh = run("tar", ["-xzOf", linux, PLUGIN]);
  check(sh.startsWith("#!/bin/sh\n") && sh.includes(`Node.js ${pkg.engines.node.replace(/^>=\s*/, "")} or newer`), "the sh launcher does not start with #!/bin/sh or does not name the Node it needs");
  const cmd = run("tar", ["-xzOf", path.join(out, tarballName(pkg.version, "windows-amd64")), `${PLUGIN}.cmd`]);
  check(cmd.includes("\r\n") && cmd.includes('node "%~dp0launch.js" %*'), "the .cmd launcher has no CRLF line ends or does not run launch.js");
});

// ---------------------------------------------------------------------------------------------------
const python = step("Python environment with build", () => run("bash", [path.join(repo, "scripts", "python-pulumi.sh")]).trim());
const pythonSdk = path.join(scratch, "python");
const { wheel, sdist } = step("Python wheel and sdist", () => {
  fs.cpSync(path.join(repo, "sdk", "python"), pythonSdk, { recursive: true });
  run(python, ["-m", "build", "--no-isolation", "--outdir", out, pythonSdk]);
  const name = pkg.name.replace(/-/g, "_");
  const built = { wheel: path.join(out, `${name}-${pkg.version}-py3-none-any.whl`), sdist: path.join(out, `${name}-${pkg.version}.tar.gz`) };
  for (const file of Object.values(built)) check(fs.existsSync(file), `python -m build wrote no ${path.basename(file)} (it wrote ${fs.readdirSync(out).join(", ")})`);
  return built;
});
step("Python wheel in a fresh virtual environment", () => {
  const venv = path.join(scratch, "venv");
  run("python3", ["-m", "venv", venv]);
  const venvPython = path.join(venv, "bin", "python");
  // Pulumi's Python SDK at the CLI's version (already in pip's cache), the rest as the wheel asks.
  const constraints = path.join(scratch, "constraints.txt");
  fs.writeFileSync(constraints, `pulumi==${/PULUMI_PY_VERSION="([^"]+)"/.exec(fs.readFileSync(path.join(repo, "scripts", "python-pulumi.sh"), "utf8"))[1]}\n`);
  run(venvPython, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-c", constraints, wheel], { cwd: scratch });
  const imported = JSON.parse(
    run(venvPython, ["-c", "import json, pulumi_fleet_update as f, pulumi_fleet_update._utilities as u; print(json.dumps({'version': u.get_version(), 'resources': [f.UpdateRun.__name__, f.UpdateStrategy.__name__], 'file': f.__file__}))"], { cwd: scratch }),
  );
  check(imported.version === pkg.version, `the installed wheel reports version ${imported.version}, not ${pkg.version}`);
  check(imported.file.startsWith(venv), `pulumi_fleet_update was imported from ${imported.file}, not the fresh environment`);
  const members = run(python, ["-c", "import sys, tarfile; print('\\n'.join(tarfile.open(sys.argv[1]).getnames()))", sdist]).split("\n");
  const root = `${pkg.name.replace(/-/g, "_")}-${pkg.version}`;
  for (const member of ["PKG-INFO", "pyproject.toml", "README.md", "pulumi_fleet_update/update_run.py", "pulumi_fleet_update/pulumi-plugin.json", "pulumi_fleet_update/py.typed"]) {
    check(members.includes(`${root}/${member}`), `the sdist has no ${root}/${member}`);
  }
  // The sdist builds on its own (what pip does with it where no wheel fits).
  run(python, ["-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps", "--no-build-isolation", "--wheel-dir", path.join(scratch, "from-sdist"), sdist]);
  return imported;
});

// ---------------------------------------------------------------------------------------------------
const nodeSdk = path.join(scratch, "nodejs");
const nodePackage = step("Node.js SDK package", () => {
  fs.cpSync(path.join(repo, "sdk", "nodejs"), nodeSdk, { recursive: true });
  // Its build needs @pulumi/pulumi, TypeScript and @types/node: this checkout's.
  fs.symlinkSync(path.join(repo, "node_modules"), path.join(nodeSdk, "node_modules"), "junction");
  run(path.join(repo, "node_modules", ".bin", "tsc"), ["-p", nodeSdk]);
  // The package is the compiled bin/ with its package.json and README, as Pulumi's providers pack it
  // (the SDK reads its version from the package.json beside its compiled files).
  for (const file of ["package.json", "README.md"]) fs.copyFileSync(path.join(nodeSdk, file), path.join(nodeSdk, "bin", file));
  const packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", out], { cwd: path.join(nodeSdk, "bin") }))[0];
  const file = path.join(out, packed.filename);
  check(packed.version === pkg.version && packed.name === `${pkg.name}-sdk`, `npm pack made ${packed.name}@${packed.version}`);
  for (const entry of ["index.js", "index.d.ts", "updateRun.js", "updateRun.d.ts", "types/input.d.ts", "package.json", "README.md"]) check(packed.files.some((f) => f.path === entry), `the Node SDK package has no ${entry}`);
  check(!packed.files.some((f) => f.path.endsWith(".ts") && !f.path.endsWith(".d.ts")), "the Node SDK package holds TypeScript sources");
  return file;
});
step("Node.js SDK in a fresh project, type-checked", () => {
  const project = path.join(scratch, "node-consumer");
  fs.mkdirSync(project);
  const version = (name) => lock.packages[`node_modules/${name}`].version;
  fs.writeFileSync(
    path.join(project, "package.json"),
    JSON.stringify({ name: "fleet-update-sdk-consumer", private: true, dependencies: { "@pulumi/pulumi": version("@pulumi/pulumi"), [`${pkg.name}-sdk`]: `file:${nodePackage}` }, devDependencies: { typescript: version("typescript"), "@types/node": version("@types/node") } }, null, 2),
  );
  // From npm's cache where it can (the checkout's `npm ci` filled it), from the registry otherwise.
  run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], { cwd: project });
  fs.writeFileSync(
    path.join(project, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: "nodenext", moduleResolution: "nodenext", target: "ES2022", types: ["node"] }, files: ["index.ts"] }, null, 2),
  );
  fs.writeFileSync(
    path.join(project, "index.ts"),
    [
      'import * as fleet from "pulumi-fleet-update-sdk";',
      "",
      'const strategy = new fleet.UpdateStrategy("rollout", {',
      '  stages: [{ name: "canary", groups: [{ name: "canary" }], afterStageWaitInSeconds: 600 }, { name: "prod", groups: [{ name: "prod" }] }],',
      "});",
      'const run = new fleet.UpdateRun("k8s-1-32", {',
      '  backend: { simulator: { fleetFile: "fleet.yaml", timeScale: 600 } },',
      '  members: [{ name: "canary-1", group: "canary" }, { name: "prod-1", group: "prod" }],',
      "  strategy: strategy.strategy,",
      '  managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Consistent" } },',
      "});",
      "export const summary = run.summary;",
      "export const stages: fleet.types.output.UpdateRunStrategy = undefined as unknown as fleet.types.output.UpdateRunStrategy;",
      "",
    ].join("\n"),
  );
  run(path.join(project, "node_modules", ".bin", "tsc"), ["-p", project]);
  const installed = JSON.parse(fs.readFileSync(path.join(project, "node_modules", `${pkg.name}-sdk`, "package.json"), "utf8"));
  check(installed.version === pkg.version && installed.pulumi?.name === "fleet-update", `the installed Node SDK is ${installed.version} for ${installed.pulumi?.name}`);
});

// ---------------------------------------------------------------------------------------------------
step("Go SDK in a fresh module, built and vetted", () => {
  const module = /^module (\S+)$/m.exec(fs.readFileSync(path.join(repo, "sdk", "go", "go.mod"), "utf8"))[1];
  const consumer = path.join(scratch, "go-consumer");
  fs.mkdirSync(consumer);
  fs.writeFileSync(path.join(consumer, "go.mod"), `module example.com/fleet-update-consumer\n\ngo 1.25\n\nrequire ${module} v${pkg.version}\n\nreplace ${module} => ${path.join(repo, "sdk", "go")}\n`);
  fs.writeFileSync(
    path.join(consumer, "main.go"),
    `package main

import (
	"${module}/fleetupdate"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		strategy, err := fleetupdate.NewUpdateStrategy(ctx, "rollout", &fleetupdate.UpdateStrategyArgs{
			Stages: fleetupdate.UpdateStageArray{
				fleetupdate.UpdateStageArgs{Name: pulumi.String("canary"), Groups: fleetupdate.UpdateGroupArray{fleetupdate.UpdateGroupArgs{Name: pulumi.String("canary")}}},
			},
		})
		if err != nil {
			return err
		}
		run, err := fleetupdate.NewUpdateRun(ctx, "k8s-1-32", &fleetupdate.UpdateRunArgs{
			Backend: fleetupdate.BackendArgs{Simulator: fleetupdate.SimulatorBackendArgs{FleetFile: pulumi.String("fleet.yaml")}},
			Members: fleetupdate.MemberArray{fleetupdate.MemberArgs{Name: pulumi.String("canary-1"), Group: pulumi.String("canary")}},
			Strategy: strategy.Strategy,
			ManagedClusterUpdate: fleetupdate.ManagedClusterUpdateArgs{
				Upgrade:            fleetupdate.ManagedClusterUpgradeSpecArgs{Type: pulumi.String("Full"), KubernetesVersion: pulumi.String("1.32.0")},
				NodeImageSelection: fleetupdate.NodeImageSelectionArgs{Type: pulumi.String("Consistent")},
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("summary", run.Summary)
		return nil
	})
}
`,
  );
  // The CLI's build flags, so Go's build cache already holds Pulumi's packages; the local toolchain.
  const env = { GOFLAGS: "-trimpath -buildvcs=false -mod=mod", GOTOOLCHAIN: "local" };
  run("go", ["mod", "tidy"], { cwd: consumer, env });
  run("go", ["build", "-o", path.join(scratch, "go-consumer-bin"), "."], { cwd: consumer, env });
  run("go", ["vet", ".", `${module}/...`], { cwd: consumer, env });
});

// ---------------------------------------------------------------------------------------------------
const artifacts = step("checksums", () => {
  const files = [...tarballs, wheel, sdist, nodePackage].map((file) => {
    const bytes = fs.readFileSync(file);
    return { name: path.basename(file), bytes: bytes.length, sha256: crypto.createHash("sha256").update(bytes).digest("hex") };
  });
  const sums = path.join(out, `${pkg.name}_${pkg.version}_checksums.txt`);
  fs.writeFileSync(sums, files.map((f) => `${f.sha256}  ${f.name}\n`).join(""));
  run("sha256sum", ["--check", "--quiet", path.basename(sums)], { cwd: out });
  // `packFingerprint`: what the tarballs were packed from (test/e2e/pluginTarball.e2e.test.ts reuses them when it matches).
  fs.writeFileSync(path.join(out, "manifest.json"), `${JSON.stringify({ version: pkg.version, packFingerprint: fingerprint, artifacts: files }, null, 2)}\n`);
  return files;
});

fs.rmSync(scratch, { recursive: true, force: true });
const size = (bytes) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(0)} KiB`);
process.stdout.write(`| artifact | size |\n|---|---|\n${artifacts.map((a) => `| \`${a.name}\` | ${size(a.bytes)} |`).join("\n")}\n`);
say(`${artifacts.length} artifacts and their checksums in ${out}, in ${Math.round((Date.now() - started) / 1000)} s (${JSON.stringify(timings)})`);
