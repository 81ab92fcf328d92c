#!/usr/bin/env node
// Issues 24 and 33: packs the provider plugin into the tarballs `pulumi plugin install resource
// fleet-update <version> --file <tarball>` installs, and that Pulumi downloads from the project's GitHub
// releases (the schema's pluginDownloadURL): pulumi-resource-fleet-update-v<version>-<os>-<arch>.tar.gz.
//
//   npm run plugin:pack                       this machine's platform, into dist-plugin/ (builds first)
//   node scripts/pack-plugin.js [--out DIR] [--all | --platform linux-amd64 ...]
//
// prints each tarball's path. `--all` writes the six a release has (RELEASE_PLATFORMS);
// `npm run release:build` (scripts/release-build.js) calls `packPlugin` below.
//
// What is in one, at its root (Pulumi extracts it into ~/.pulumi/plugins/resource-fleet-update-v<version>/
// and starts the executable of the plugin's name there — on Windows the same name with `.cmd`):
//   pulumi-resource-fleet-update      the launcher, a POSIX sh script (linux, darwin), or
//   pulumi-resource-fleet-update.cmd  the launcher for Windows: each finds `node` on PATH, or says
//                                     that Node.js (package.json's engines.node) is needed, and runs
//   launch.js                         which refuses a Node older than engines.node, then loads ./dist
//   dist/                             the compiled package (`npm run build`)
//   package.json, schema.json         the version the plugin reports (read by dist/pulumi/plugin/main.js),
//                                     and the package schema SDKs are generated from
//   node_modules/                     the production dependencies, copied from this checkout's
//                                     node_modules as package-lock.json lists them (no dev dependency):
//                                     installing needs no network and no npm, only Node to run.
// Why not one bundled file: @pulumi/pulumi resolves its own files and @grpc/grpc-js at run time
// (src/pulumi/plugin/engineLog.ts does too), which a bundler would have to be taught file by file.
// No production dependency is native code, so the platforms differ only in their launcher (and name).
"use strict";
const { execFileSync, spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const repo = path.join(__dirname, "..");
const PLUGIN = "pulumi-resource-fleet-update";
/** A release's platforms, in Pulumi's words (`pulumi plugin install` and plugin downloads use them). */
const RELEASE_PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64", "windows-arm64"];

/** This machine's platform in Pulumi's words (`linux-amd64`). */
function hostPlatform() {
  const pulumiOs = { linux: "linux", darwin: "darwin", win32: "windows" }[process.platform] ?? process.platform;
  const pulumiArch = { x64: "amd64", arm64: "arm64" }[process.arch] ?? process.arch;
  return `${pulumiOs}-${pulumiArch}`;
}

function tarballName(version, platform) {
  return `${PLUGIN}-v${version}-${platform}.tar.gz`;
}

/** The launcher of a platform: [file name, text, mode]. The Node version is package.json's engines.node. */
function launcher(platform, nodeRange) {
  const need = `Node.js ${nodeRange.replace(/^>=\s*/, "")} or newer`;
  const missing = `${PLUGIN}: ${need} is required to run this provider plugin, and no 'node' was found on PATH. Install it from https://nodejs.org and run pulumi again.`;
  if (platform.startsWith("windows-")) {
    // Batch: no parentheses in an echo (they would end a block); CRLF line ends, as cmd.exe expects.
    const text = [
      "@echo off",
      `rem The Pulumi provider plugin fleet-update (scripts/pack-plugin.js): Pulumi starts this file; it runs launch.js with ${need}.`,
      "where node >nul 2>nul || goto nonode",
      'node "%~dp0launch.js" %*',
      "exit /b %ERRORLEVEL%",
      ":nonode",
      `echo ${missing} 1>&2`,
      "exit /b 1",
      "",
    ].join("\r\n");
    return [`${PLUGIN}.cmd`, text, 0o755];
  }
  const text = [
    "#!/bin/sh",
    `# The Pulumi provider plugin fleet-update (scripts/pack-plugin.js): Pulumi starts this file; it runs`,
    `# launch.js, beside it, with ${need} from PATH.`,
    'here="${0%/*}"',
    '[ "$here" = "$0" ] && here=.',
    "if ! command -v node >/dev/null 2>&1; then",
    `  echo "${missing}" >&2`,
    "  exit 1",
    "fi",
    'exec node "$here/launch.js" "$@"',
    "",
  ].join("\n");
  return [PLUGIN, text, 0o755];
}

/**
 * launch.js: in syntax any Node parses, so an old one gets this message rather than a syntax error
 * from the package; then the plugin (`serve` prints the port the engine reads first on stdout).
 */
const LAUNCH_JS = `// The Pulumi provider plugin fleet-update, started by its launcher (scripts/pack-plugin.js).
"use strict";
var wanted = (require("./package.json").engines || {}).node || "";
var minimum = Number((/(\\d+)/.exec(wanted) || [0, 0])[1]);
if (Number(process.versions.node.split(".")[0]) < minimum) {
  process.stderr.write("${PLUGIN}: Node.js " + wanted + " is required to run this provider plugin, but " + process.execPath + " is " + process.version + ". Install Node.js " + minimum + " or newer from https://nodejs.org, put it first on PATH, and run pulumi again.\\n");
  process.exit(1);
}
void require("./dist/pulumi/plugin/main.js").serve(process.argv.slice(2));
`;

// Files no one loads when the plugin runs: type declarations and source maps (half the bytes of the
// dependencies, and half their files, which is what installing a plugin spends its time on).
const unused = (source) => /\.(d\.[cm]?ts|map)$/.test(source) || source.endsWith(".tsbuildinfo");

/** Copies what every platform's tarball holds into a fresh folder; returns it and how many packages. */
function stage(pkg) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-update-plugin-"));
  fs.chmodSync(dir, 0o755); // the tarball's root: the installed plugin's folder
  fs.writeFileSync(path.join(dir, "launch.js"), LAUNCH_JS);
  fs.cpSync(path.join(repo, "dist"), path.join(dir, "dist"), { recursive: true, filter: (source) => !unused(source) });
  for (const file of ["package.json", "schema.json"]) fs.copyFileSync(path.join(repo, file), path.join(dir, file));

  // package-lock.json lists every installed package by its folder (nested ones under their parent's
  // node_modules/); each is copied without its own node_modules/, which holds entries listed apart.
  const lock = JSON.parse(fs.readFileSync(path.join(repo, "package-lock.json"), "utf8"));
  let packages = 0;
  for (const [folder, entry] of Object.entries(lock.packages)) {
    // "": this package; dev and devOptional: only there for development (TypeScript is an optional
    // peer of @pulumi/pulumi that the plugin never loads: it compiles no program).
    if (folder === "" || entry.dev || entry.devOptional) continue;
    if (entry.link) throw new Error(`${folder} is a link in package-lock.json; a tarball cannot carry it`);
    const from = path.join(repo, folder);
    if (!fs.existsSync(from)) {
      if (entry.optional) continue; // an optional dependency this platform did not install
      throw new Error(`${folder} is not installed: run \`npm ci\` first`);
    }
    const nested = path.join(from, "node_modules");
    fs.cpSync(from, path.join(dir, folder), { recursive: true, filter: (source) => source !== nested && !unused(source) });
    packages++;
  }
  if (pkg.engines?.node === undefined) throw new Error("package.json has no engines.node: the launcher cannot say which Node it needs");
  return { dir, packages };
}

/**
 * Writes one tarball per platform into `outDir` and returns their paths. The shared files are staged
 * and archived once (reading 10,000 files is most of a pack's time); each platform's tarball is that
 * archive with its own launcher appended, gzipped. Sorted names, no owner and no gzip timestamp, so
 * two packs of one checkout differ only in the files' times.
 */
function packPlugin({ outDir, platforms = [hostPlatform()], log = (line) => process.stderr.write(`${line}\n`) }) {
  const pkg = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8"));
  if (!fs.existsSync(path.join(repo, "dist", "pulumi", "plugin", "main.js"))) throw new Error("dist/ is not built: run `npm run build` first");
  for (const platform of platforms) if (!/^(linux|darwin|windows)-(amd64|arm64)$/.test(platform)) throw new Error(`--platform ${platform}: one of ${RELEASE_PLATFORMS.join(", ")}`);
  const shared = stage(pkg);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-update-launcher-"));
  const owner = ["--owner=0", "--group=0", "--numeric-owner"];
  try {
    const sharedTar = path.join(work, "shared.tar");
    execFileSync("tar", ["-cf", sharedTar, "--sort=name", ...owner, "-C", shared.dir, "."], { stdio: ["ignore", "inherit", "inherit"] });
    fs.mkdirSync(outDir, { recursive: true });
    return platforms.map((platform) => {
      const [name, text, mode] = launcher(platform, pkg.engines.node);
      const own = path.join(work, platform);
      fs.mkdirSync(own);
      fs.writeFileSync(path.join(own, name), text, { mode });
      const plain = path.join(own, "plugin.tar");
      fs.copyFileSync(sharedTar, plain);
      execFileSync("tar", ["-rf", plain, ...owner, "-C", own, name], { stdio: ["ignore", "inherit", "inherit"] });
      const tarball = path.join(outDir, tarballName(pkg.version, platform));
      const out = fs.openSync(`${tarball}.partial`, "w");
      try {
        const zipped = spawnSync("gzip", ["-c", "-n", plain], { stdio: ["ignore", out, "inherit"] });
        if (zipped.status !== 0) throw new Error(`gzip ${plain} exited ${zipped.status}`);
      } finally {
        fs.closeSync(out);
      }
      fs.renameSync(`${tarball}.partial`, tarball);
      fs.rmSync(plain);
      log(`plugin:pack: ${tarball}: ${shared.packages} packages, ${(fs.statSync(tarball).size / 1024 / 1024).toFixed(1)} MiB`);
      return tarball;
    });
  } finally {
    fs.rmSync(shared.dir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * What a pack is made of, as one hash: package.json, package-lock.json, schema.json and every file of
 * dist/ a tarball carries. `npm run release:build` records it beside its tarballs (manifest.json), so a
 * test can take a release tarball instead of packing again when the two are made of the same.
 */
function packFingerprint() {
  const hash = crypto.createHash("sha256");
  const add = (file) => hash.update(`${path.relative(repo, file)}\0`).update(fs.readFileSync(file));
  for (const file of ["package.json", "package-lock.json", "schema.json", path.join("scripts", "pack-plugin.js")]) add(path.join(repo, file));
  const dist = path.join(repo, "dist");
  const files = fs.readdirSync(dist, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath ?? e.path, e.name));
  for (const file of files.filter((f) => !unused(f)).sort()) add(file);
  return hash.digest("hex");
}

module.exports = { PLUGIN, RELEASE_PLATFORMS, LAUNCH_JS, hostPlatform, tarballName, launcher, packPlugin, packFingerprint };

if (require.main === module) {
  const args = process.argv.slice(2);
  const valueOf = (flag) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const platforms = args.includes("--all") ? RELEASE_PLATFORMS : args.flatMap((arg, i) => (args[i - 1] === "--platform" ? [arg] : []));
  try {
    const tarballs = packPlugin({ outDir: path.resolve(valueOf("--out") ?? path.join(repo, "dist-plugin")), ...(platforms.length > 0 ? { platforms } : {}) });
    process.stdout.write(tarballs.map((t) => `${t}\n`).join(""));
  } catch (error) {
    process.stderr.write(`plugin:pack: ${error.message}\n`);
    process.exit(1);
  }
}
