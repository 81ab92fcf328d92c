#!/usr/bin/env node
// Issue 24: packs the provider plugin into the tarball `pulumi plugin install resource fleet-update
// <version> --file <tarball>` installs: `npm run plugin:pack` (which builds first) writes
// dist-plugin/pulumi-resource-fleet-update-v<version>-<os>-<arch>.tar.gz and prints its path;
// `--out DIR` writes it elsewhere.
//
// What is in it, at its root (Pulumi extracts it into ~/.pulumi/plugins/resource-fleet-update-v<version>/
// and starts the executable of the plugin's name there):
//   pulumi-resource-fleet-update  a Node shim that loads ./dist, relative to itself
//   dist/                         the compiled package (`npm run build`)
//   package.json, schema.json     the version the plugin reports (read by dist/pulumi/plugin/main.js),
//                                 and the package schema SDKs are generated from
//   node_modules/                 the production dependencies, copied from this checkout's
//                                 node_modules as package-lock.json lists them (no dev dependency):
//                                 installing needs no network and no npm, only Node 20+ to run.
// Why not one bundled file: @pulumi/pulumi resolves its own files and @grpc/grpc-js at run time
// (src/pulumi/plugin/engineLog.ts does too), which a bundler would have to be taught file by file.
// The os and arch in the name are Pulumi's words for this machine; the contents are the same on
// every platform Node runs on.
"use strict";
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const repo = path.join(__dirname, "..");
const PLUGIN = "pulumi-resource-fleet-update";

function fail(message) {
  process.stderr.write(`plugin:pack: ${message}\n`);
  process.exit(1);
}

const outIndex = process.argv.indexOf("--out");
const outDir = path.resolve(outIndex >= 0 ? process.argv[outIndex + 1] ?? fail("--out needs a folder") : path.join(repo, "dist-plugin"));

const pkg = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8"));
if (!fs.existsSync(path.join(repo, "dist", "pulumi", "plugin", "main.js"))) fail("dist/ is not built: run `npm run build` first");

const pulumiOs = { linux: "linux", darwin: "darwin", win32: "windows" }[process.platform] ?? process.platform;
const pulumiArch = { x64: "amd64", arm64: "arm64" }[process.arch] ?? process.arch;
const tarball = path.join(outDir, `${PLUGIN}-v${pkg.version}-${pulumiOs}-${pulumiArch}.tar.gz`);

// Files no one loads when the plugin runs: type declarations and source maps (half the bytes of the
// dependencies, and half their files, which is what installing a plugin spends its time on).
const unused = (source) => /\.(d\.[cm]?ts|map)$/.test(source) || source.endsWith(".tsbuildinfo");

const stage = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-update-plugin-"));
fs.chmodSync(stage, 0o755); // the tarball's root: the installed plugin's folder
try {
  // The shim at the root: the package's own bin/ shim reaches dist/ as ../dist, this one as ./dist.
  fs.writeFileSync(
    path.join(stage, PLUGIN),
    [
      "#!/usr/bin/env node",
      "// The Pulumi provider plugin fleet-update, as installed from its tarball (scripts/pack-plugin.js).",
      'void require("./dist/pulumi/plugin/main.js").serve(process.argv.slice(2));',
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  fs.cpSync(path.join(repo, "dist"), path.join(stage, "dist"), { recursive: true, filter: (source) => !unused(source) });
  for (const file of ["package.json", "schema.json"]) fs.copyFileSync(path.join(repo, file), path.join(stage, file));

  // package-lock.json lists every installed package by its folder (nested ones under their parent's
  // node_modules/); each is copied without its own node_modules/, which holds entries listed apart.
  const lock = JSON.parse(fs.readFileSync(path.join(repo, "package-lock.json"), "utf8"));
  let copied = 0;
  for (const [folder, entry] of Object.entries(lock.packages)) {
    // "": this package; dev and devOptional: only there for development (TypeScript is an optional
    // peer of @pulumi/pulumi that the plugin never loads: it compiles no program).
    if (folder === "" || entry.dev || entry.devOptional) continue;
    if (entry.link) fail(`${folder} is a link in package-lock.json; a tarball cannot carry it`);
    const from = path.join(repo, folder);
    if (!fs.existsSync(from)) {
      if (entry.optional) continue; // an optional dependency this platform did not install
      fail(`${folder} is not installed: run \`npm ci\` first`);
    }
    const nested = path.join(from, "node_modules");
    fs.cpSync(from, path.join(stage, folder), { recursive: true, filter: (source) => source !== nested && !unused(source) });
    copied++;
  }

  fs.mkdirSync(outDir, { recursive: true });
  // Sorted names and no owner, so two packs of one checkout differ only in timestamps.
  execFileSync("tar", ["-czf", `${tarball}.partial`, "--sort=name", "--owner=0", "--group=0", "--numeric-owner", "-C", stage, "."], { stdio: ["ignore", "inherit", "inherit"] });
  fs.renameSync(`${tarball}.partial`, tarball);
  const size = fs.statSync(tarball).size;
  process.stderr.write(`plugin:pack: ${tarball}: ${copied} packages, ${(size / 1024 / 1024).toFixed(1)} MiB\n`);
  process.stdout.write(`${tarball}\n`);
} finally {
  fs.rmSync(stage, { recursive: true, force: true });
}
