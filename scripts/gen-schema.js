#!/usr/bin/env node
// Issue 24, 32: writes schema.json — and every other copy of the surface's descriptions — from the
// compiled zod schemas (`npm run build` first); `--check` exits 1 naming each copy that differs. The
// same as `node scripts/surface.js`, which says more.
require("./surface").main(process.argv);
