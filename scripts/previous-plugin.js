#!/usr/bin/env node
// Issue 33: the previous release's plugin tarball (linux-amd64), for the upgrade test
// (test/e2e/upgrade.e2e.test.ts, Pulumi providertest's PreviewProviderUpgrade): a stack made with it
// must preview with no replacement under this checkout's plugin.
//
//   node scripts/previous-plugin.js [REF]      prints the tarball's path
//
// REF defaults to PREVIOUS_RELEASE below: the commit main stood at before issue 33 — there is no
// release tag yet. At each release, set it to the release's tag (docs/releasing.md). The tarball is
// built once per commit, from that commit's own sources and its own scripts/pack-plugin.js, and kept
// outside the repository ($PULUMI_CLI_CACHE, default ~/.cache/pulumi-fleet-update/previous-plugin/<commit>/).
// Its dependencies are this checkout's node_modules when the two package-lock.json files are the same
// (no network, seconds), else that commit's own `npm ci` (npm's cache, a minute or more once).
"use strict";
const { execFileSync, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const PREVIOUS_RELEASE = "55fb07b";

const repo = path.join(__dirname, "..");
const ref = process.argv[2] ?? PREVIOUS_RELEASE;

/** Scratch folders, removed on every way out. */
const scratch = [];

function fail(message) {
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
  process.stderr.write(`previous-plugin: ${message}\n`);
  process.exit(1);
}

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024, stdio: ["ignore", "pipe", "pipe"] });
  if (result.status !== 0) fail(`${command} ${args.join(" ")} (in ${cwd}) exited ${result.status}:\n${result.stdout.slice(-2000)}\n${result.stderr.slice(-2000)}`);
  return result.stdout;
}

const resolved = spawnSync("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { cwd: repo, encoding: "utf8" });
if (resolved.status !== 0) fail(`${ref} is not a commit of this clone (a shallow clone? \`git fetch --unshallow\`)`);
const commit = resolved.stdout.trim();

const cacheRoot = process.env.PULUMI_CLI_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-fleet-update");
const folder = path.join(cacheRoot, "previous-plugin", commit);
const found = () => (fs.existsSync(folder) ? fs.readdirSync(folder).find((f) => /-linux-amd64\.tar\.gz$/.test(f)) : undefined);

if (found() === undefined) {
  const started = Date.now();
  process.stderr.write(`previous-plugin: building the plugin of ${ref} (${commit.slice(0, 12)}) into ${folder} (once)...\n`);
  const source = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-update-previous-"));
  const staging = `${folder}.partial-${process.pid}`;
  scratch.push(source, staging);
  try {
    execFileSync("bash", ["-c", 'git -C "$1" archive "$2" | tar -x -C "$3"', "archive", repo, commit, source]);
    const sameLock = fs.readFileSync(path.join(source, "package-lock.json"), "utf8") === fs.readFileSync(path.join(repo, "package-lock.json"), "utf8");
    if (sameLock) fs.symlinkSync(path.join(repo, "node_modules"), path.join(source, "node_modules"), "junction");
    else run("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], source);
    run(path.join(source, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.build.json"], source);
    fs.rmSync(staging, { recursive: true, force: true });
    run(process.execPath, [path.join(source, "scripts", "pack-plugin.js"), "--out", staging], source);
    if (!fs.readdirSync(staging).some((f) => /-linux-amd64\.tar\.gz$/.test(f))) fail(`${ref}'s scripts/pack-plugin.js wrote no linux-amd64 tarball`);
    fs.mkdirSync(path.dirname(folder), { recursive: true });
    fs.rmSync(folder, { recursive: true, force: true });
    fs.renameSync(staging, folder);
    process.stderr.write(`previous-plugin: built in ${Math.round((Date.now() - started) / 1000)} s (node_modules: ${sameLock ? "this checkout's" : "npm ci"})\n`);
  } finally {
    fs.rmSync(source, { recursive: true, force: true });
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
process.stdout.write(`${path.join(folder, found())}\n`);
