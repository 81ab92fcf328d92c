#!/usr/bin/env node
// Issue 24, 32: writes schema.json — and every other copy of the surface's descriptions (the TypeScript
// Args' doc comments, docs/reference.md) — from the compiled zod schemas (`npm run build` first; `npm
// run sdks` runs both, then writes the SDKs). `--check` exits 1 naming each copy that differs
// (scripts/check-sdks.js runs it in CI). The same as `node scripts/surface.js`, which says more.
require("./surface").main(process.argv);
