#!/usr/bin/env node
/**
 * `npm test` runs the report's browser test in Debian's chromium (playwright-core downloads no
 * browser). So that `npm test` alone works on a fresh Debian machine, install it when it is missing
 * and we may (root with apt-get); otherwise say how, and let the browser test fail with its hint.
 */
const { existsSync } = require("node:fs");
const { spawnSync } = require("node:child_process");

const CHROMIUM = "/usr/bin/chromium";
if (existsSync(CHROMIUM)) process.exit(0);
const canInstall = process.getuid?.() === 0 && spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
if (!canInstall) {
  console.warn(`${CHROMIUM} is missing: the report's browser test needs Debian's chromium (sudo apt-get install chromium).`);
  process.exit(0);
}
console.warn("Installing Debian's chromium for the report's browser test (once)...");
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
for (const args of [["update", "-qq"], ["install", "-y", "-qq", "--no-install-recommends", "chromium"]]) {
  const result = spawnSync("apt-get", args, { stdio: ["ignore", "ignore", "inherit"], env });
  if (result.status !== 0) {
    console.warn(`apt-get ${args[0]} failed (exit ${result.status}); the browser test will say what is missing.`);
    process.exit(0);
  }
}
