#!/usr/bin/env node
// Issue 33: the committed SDKs (sdk/nodejs, sdk/python, sdk/go) are what `npm run sdks` writes from
// schema.json, and schema.json is what the code writes. CI runs this (`npm run sdks:check`, in
// .ci/run and as the first step of `npm run release:build`); on any difference it lists the files
// and says the one command that fixes it.
//
//   node scripts/check-sdks.js [--schema FILE] [--sdk DIR]
//
// --schema and --sdk check another schema and SDK folder than the repository's (the test does, on a
// copy); the code's own schema is checked only for the repository's schema.json.
"use strict";
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const repo = path.join(__dirname, "..");
const FIX = "npm run sdks";

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? path.resolve(process.argv[i + 1]) : fallback;
}
const schema = option("--schema", path.join(repo, "schema.json"));
const sdk = option("--sdk", path.join(repo, "sdk"));

/** A path as a reader wants it: relative to where the command runs, unless it is elsewhere. */
function display(p) {
  const relative = path.relative(process.cwd(), p);
  return relative === "" ? "." : relative.startsWith("..") ? p : relative;
}

/** The scratch folder the SDKs are regenerated into, removed on every way out. */
let fresh;

function fail(lines) {
  if (fresh !== undefined) fs.rmSync(fresh, { recursive: true, force: true });
  process.stderr.write(`${lines.join("\n")}\nRun \`${FIX}\` and commit schema.json and sdk/.\n`);
  process.exit(1);
}

// 1. schema.json against the code (scripts/gen-schema.js --check), for the repository's own schema.
if (schema === path.join(repo, "schema.json")) {
  const checked = spawnSync(process.execPath, [path.join(repo, "scripts", "gen-schema.js"), "--check"], { encoding: "utf8" });
  if (checked.status !== 0) fail([`check-sdks: ${checked.stderr.trim()}`]);
}

// 2. The SDKs, regenerated into a scratch folder, against the committed ones.
fresh = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-update-sdk-check-"));
try {
  const generated = spawnSync("bash", [path.join(repo, "scripts", "gen-sdks.sh"), "--schema", schema, "--out", fresh], { encoding: "utf8" });
  if (generated.status !== 0) fail([`check-sdks: generating the SDKs failed (exit ${generated.status}):`, generated.stderr.trim()]);

  const expected = filesUnder(fresh);
  const committed = committedFiles(sdk);
  const changed = [];
  for (const file of expected) {
    const there = path.join(sdk, file);
    if (committed.has(file) && !fs.readFileSync(there).equals(fs.readFileSync(path.join(fresh, file)))) changed.push(file);
  }
  const missing = expected.filter((f) => !committed.has(f));
  const extra = [...committed].filter((f) => !expected.includes(f)).sort();
  if (changed.length + missing.length + extra.length > 0) {
    const shown = (label, files) => files.map((f) => `  ${label} ${display(path.join(sdk, f))}`);
    const lines = [`check-sdks: the SDKs in ${display(sdk)} are not what ${display(schema)} generates:`, ...shown("changed:", changed), ...shown("missing:", missing), ...shown("not generated:", extra)];
    if (changed.length > 0) {
      const diff = spawnSync("diff", ["-u", path.join(sdk, changed[0]), path.join(fresh, changed[0])], { encoding: "utf8" });
      lines.push(...diff.stdout.split("\n").slice(0, 30).map((l) => `    ${l}`));
    }
    fail(lines);
  }
  process.stdout.write(`check-sdks: the ${expected.length} files in ${display(sdk)} are what ${display(schema)} generates\n`);
} finally {
  fs.rmSync(fresh, { recursive: true, force: true });
}

/** Every file under a folder, relative to it, in sorted order. */
function filesUnder(dir) {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath ?? e.path, e.name)))
    .sort();
}

/**
 * The SDK files a commit would hold: inside a git work tree, what git tracks or would add (so the
 * SDKs' own build outputs, which their .gitignore files leave out, do not count); elsewhere every file.
 */
function committedFiles(dir) {
  const listed = spawnSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", "."], { cwd: dir, encoding: "utf8" });
  if (listed.status === 0) return new Set(listed.stdout.split("\0").filter(Boolean).filter((f) => fs.existsSync(path.join(dir, f))));
  return new Set(filesUnder(dir));
}
