/**
 * Issue 32: each description of the Pulumi surface has one source (the zod schemas' `.meta()`), and every
 * copy agrees with it: schema.json, the TypeScript Args' doc comments, docs/reference.md
 * (`scripts/surface.js`; `npm run surface` writes them). The checker is also shown to catch a copy
 * that differs, a field the Args lack, and a member the schema does not have.
 */
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { packageSurface } from "../../src/pulumi/plugin/schema";

const ROOT = path.resolve(__dirname, "../..");
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
type Surface = ReturnType<typeof packageSurface>;
const { check } = createRequire(__filename)("../../scripts/surface.js") as { check: (surface: Surface) => string[] };

const HEALTH_CHECK = "fleet-update:index:HealthCheck";

/** The surface as the code writes it now, with `change` applied (a copy, never the real one). */
function surfaceWith(change: (surface: Surface) => void): Surface {
  const surface = packageSurface(VERSION);
  const copy: Surface = { schema: structuredClone(surface.schema), descriptions: new Map(surface.descriptions) };
  change(copy);
  return copy;
}

describe("one description for each field of the Pulumi surface", () => {
  it("schema.json, the TypeScript Args' doc comments and docs/reference.md all say what the zod schemas say (else: npm run surface)", () => {
    expect(check(packageSurface(VERSION))).toEqual([]);
  });

  it("names every copy that differs when a description changes at its source", () => {
    const changed = "HTTP(S) URL; changed at the source.";
    const problems = check(
      surfaceWith((s) => {
        s.descriptions.set("HealthCheck.url", changed);
        s.schema.types[HEALTH_CHECK]!.properties.url!.description = changed;
      }),
    );
    expect(problems).toEqual(["schema.json is not what the schemas write", "docs/reference.md is not what the schemas write", "src/pulumi/program/updateRun.ts: HealthCheckArgs.url: its doc comment differs from the schema's description"]);
  });

  it("names a field the zod schemas have and the TypeScript Args lack", () => {
    const problems = check(
      surfaceWith((s) => {
        s.descriptions.set("HealthCheck.timeoutSeconds", "Seconds a probe may take.");
        s.schema.types[HEALTH_CHECK]!.properties.timeoutSeconds = { type: "number", description: "Seconds a probe may take." };
      }),
    );
    expect(problems).toContain(
      "src/pulumi/program/updateRun.ts: HealthCheckArgs has no `timeoutSeconds` (HealthCheck.timeoutSeconds: add it, typed as a Pulumi input/output; its doc comment is written by `npm run surface`)",
    );
  });

  it("names an Args member the schema does not have, and a type with no Args interface", () => {
    const problems = check(
      surfaceWith((s) => {
        s.descriptions.delete("HealthCheck.retries");
        delete s.schema.types[HEALTH_CHECK]!.properties.retries;
        s.schema.types["fleet-update:index:RolloutNote"] = { type: "object", description: "A note.", properties: {} };
      }),
    );
    expect(problems).toContain("src/pulumi/program/updateRun.ts: HealthCheckArgs.retries is not in the schema (HealthCheck has no `retries`): add it to the zod schema, or remove it here");
    expect(problems).toContain("type RolloutNote has no TypeScript Args interface: add one and a line to ARGS in scripts/surface.js (or to INLINE_TYPES)");
  });
});
