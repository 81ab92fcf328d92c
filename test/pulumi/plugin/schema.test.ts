/**
 * Issue 24: the package schema the plugin serves, written from the zod schemas: schema.json is what the
 * code writes now, every property is described, the outputs that can hold a secret are marked, and
 * UpdateRun's and UpdateStrategy's inputs are the TypeScript Args' fields.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { packageSchema, type PackageSchema, type PropertySpec } from "../../../src/pulumi/plugin/schema";

const ROOT = path.resolve(__dirname, "../../..");
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
/**
 * Written inside each test, not when the file is imported: a schema the code cannot write then fails the
 * tests, where a file that fails to import has none (and mutation testing counts no test failing as a
 * mutant surviving: docs/bench.md "Mutation testing").
 */
let written: PackageSchema | undefined;
const schema = (): PackageSchema => (written ??= packageSchema(VERSION));

/** Every property of every resource (inputs and outputs) and type, as `owner.property`. */
function everyProperty(): Array<[string, PropertySpec]> {
  const found: Array<[string, PropertySpec]> = [];
  for (const [token, resource] of Object.entries(schema().resources)) {
    for (const [name, spec] of Object.entries(resource.inputProperties)) found.push([`${token} input ${name}`, spec]);
    for (const [name, spec] of Object.entries(resource.properties)) found.push([`${token} ${name}`, spec]);
  }
  for (const [token, type] of Object.entries(schema().types)) for (const [name, spec] of Object.entries(type.properties)) found.push([`${token}.${name}`, spec]);
  return found;
}

describe("the fleet-update package schema", () => {
  it("schema.json is what the code writes (else: npm run surface, or npm run sdks which also writes the SDKs)", () => {
    const committed = JSON.parse(fs.readFileSync(path.join(ROOT, "schema.json"), "utf8")) as unknown;
    expect(committed).toEqual(JSON.parse(JSON.stringify(schema())));
  });

  it("describes every property, type and resource", () => {
    const undescribed = everyProperty().filter(([, spec]) => !spec.description?.trim()).map(([where]) => where);
    expect(undescribed).toEqual([]);
    for (const [token, type] of Object.entries(schema().types)) expect(type.description, token).toMatch(/\S/);
    for (const [token, resource] of Object.entries(schema().resources)) expect(resource.description, token).toMatch(/\S/);
  });

  it("lists an enum's values in its description", () => {
    const state = schema().resources["fleet-update:index:UpdateRun"]!.inputProperties.state!;
    expect(state).toMatchObject({ type: "string", default: "Running" });
    expect(state.description).toContain("One of: `Running`, `Stopped`, `NotStarted`.");
  });

  it("marks as secret the outputs that can hold one: the engine's state, the webhook, a member's probe URL, a webhook's URL and token, the analysis, its headers' values and web URLs", () => {
    const secret = everyProperty().filter(([, spec]) => spec.secret === true).map(([where]) => where);
    expect(secret.sort()).toEqual(
      [
        "fleet-update:index:UpdateRun engineState",
        "fleet-update:index:UpdateRun webhook",
        "fleet-update:index:UpdateRun analysis",
        "fleet-update:index:HealthCheck.url",
        "fleet-update:index:Webhook.url",
        "fleet-update:index:Webhook.token",
        "fleet-update:index:AnalysisHeader.value",
        "fleet-update:index:WebAnalysisProvider.url",
      ].sort(),
    );
  });

  it("takes the TypeScript Args' inputs, and types every object it refers to", () => {
    const run = schema().resources["fleet-update:index:UpdateRun"]!;
    // UpdateRunArgs (src/pulumi/program/updateRun.ts); the run's name is the resource's.
    expect(Object.keys(run.inputProperties).sort()).toEqual(
      ["backend", "members", "strategy", "updateStrategyId", "managedClusterUpdate", "autoUpgradeProfile", "state", "skip", "timeoutMinutes", "approvals", "returnAfterMinutes", "projectDir", "webhook", "analysis"].sort(),
    );
    // Exactly one of managedClusterUpdate and autoUpgradeProfile (docs/rules.md §18): neither is required alone.
    expect(run.requiredInputs.sort()).toEqual(["backend", "members"]);
    const strategy = schema().resources["fleet-update:index:UpdateStrategy"]!;
    expect(Object.keys(strategy.inputProperties).sort()).toEqual(["backend", "stages"]);

    const refs = JSON.stringify(schema()).match(/"#\/types\/[^"]+"/g) ?? [];
    for (const ref of new Set(refs)) expect(Object.keys(schema().types), ref).toContain(ref.slice("\"#/types/".length, -1));
  });
});
