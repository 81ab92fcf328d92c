#!/usr/bin/env node
// Issue 24: writes schema.json, the `fleet-update` package schema the provider plugin serves, from the
// compiled zod schemas (`npm run build` first; `npm run sdks` runs both, then writes the SDKs).
// `--check` exits 1 when schema.json is not what the current code writes (test/pulumi/plugin/schema.test.ts
// asserts the same; scripts/check-sdks.js runs it in CI).
const fs = require("node:fs");
const path = require("node:path");
const { packageSchema } = require("../dist/pulumi/plugin/schema");
const { packageVersion } = require("../dist/pulumi/plugin/main");

const file = path.join(__dirname, "..", "schema.json");
const text = `${JSON.stringify(packageSchema(packageVersion()), null, 2)}\n`;
if (process.argv.includes("--check")) {
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  if (current !== text) {
    process.stderr.write("schema.json is out of date: run `npm run sdks` (it rewrites schema.json and the SDKs)\n");
    process.exit(1);
  }
} else {
  fs.writeFileSync(file, text);
}
