#!/usr/bin/env node
// Development checkouts only (run by `prepare`): make `require("pulumi-fleet-update/...")` resolve to
// this checkout, as it does in a user's project where the package is installed. The serialized
// dynamic providers load the implementation by package name from the Pulumi program's directory.
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const link = path.join(root, "node_modules", "pulumi-fleet-update");
try {
  if (fs.realpathSync(link) === root) process.exit(0);
  fs.rmSync(link, { recursive: true, force: true });
} catch {
  // no link yet
}
fs.mkdirSync(path.dirname(link), { recursive: true });
fs.symlinkSync(path.relative(path.dirname(link), root), link, "junction");
