/**
 * Each api-version's wire schemas (`src/backends/azureFleet/wire/`, generated from the fixtures by
 * `scripts/gen-fleet-wire.js`, so a fixture changed without regenerating fails here) against that
 * version's official swagger definitions (`test/fixtures/fleet-swagger/<version>/fleets.definitions.json`, a trimmed copy
 * of `fleets.json`, source and commit inside): the same definitions, each with exactly the swagger's
 * fields (and ARM's resource envelope), the same nesting, the required fields required, and every
 * enum a request takes with exactly the swagger's values. A field missing from our types fails here;
 * and what the emulator shows at each version (`versions.ts`) agrees with the definitions.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import type { z } from "zod";
import { FLEET_API_FEATURES, FLEET_API_VERSIONS, WIRE_SCHEMAS } from "../../../src/backends/azureFleet/wire";

interface SwaggerProperty {
  type?: string;
  $ref?: string;
  items?: { $ref?: string; type?: string };
  readOnly?: boolean;
  enum?: string[];
}
interface SwaggerDefinition {
  properties?: Record<string, SwaggerProperty>;
  required?: string[];
  allOf?: string[];
  enum?: string[];
}

interface SwaggerFixture {
  source: string;
  commit: string;
  definitions: Record<string, SwaggerDefinition>;
}

function fixture(version: string): SwaggerFixture {
  return JSON.parse(fs.readFileSync(path.join(__dirname, "../../fixtures/fleet-swagger", version, "fleets.definitions.json"), "utf8")) as SwaggerFixture;
}

function swagger(version: string): Record<string, SwaggerDefinition> {
  return fixture(version).definitions;
}

const ENVELOPE: Record<string, string[]> = {
  ProxyResource: ["id", "name", "type", "systemData"],
  TrackedResource: ["id", "name", "type", "systemData", "location", "tags"],
};

type Schema = z.ZodType & { def: { type: string }; unwrap?: () => Schema; element?: Schema; options?: string[]; shape?: Record<string, Schema> };

/** The schema under optional / nullable wrappers, and whether it was optional. */
function unwrap(schema: Schema): { inner: Schema; optional: boolean } {
  let inner = schema;
  let optional = false;
  while (inner.def.type === "optional" || inner.def.type === "nullable") {
    if (inner.def.type === "optional") optional = true;
    inner = (inner.unwrap as () => Schema)();
  }
  return { inner, optional };
}

describe.each(FLEET_API_VERSIONS)("api-version %s", (version) => {
  const official = swagger(version);

  test("the commit the fixture was read at is its source's, and the docs name it", () => {
    const { source, commit } = fixture(version);
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(source).toContain(`/blob/${commit}/`);
    expect(source).toMatch(new RegExp(`/fleet/(stable|preview)/${version}/fleets\\.json$`));
    for (const doc of ["test/fixtures/fleet-swagger/README.md", "docs/fleet-api-versions.md"]) {
      const text = fs.readFileSync(path.join(__dirname, "../../..", doc), "utf8");
      expect(text, `${doc} names the commit ${version} was checked at`).toContain(commit.slice(0, 7));
    }
  });
  const ours = WIRE_SCHEMAS[version];
  const objects = Object.entries(official).filter(([, d]) => d.properties !== undefined);
  const enumNames = Object.entries(official).filter(([, d]) => d.enum !== undefined);

  test("every definition of ours is an official one, and every official one is ours", () => {
    expect(Object.keys(ours.definitions).sort()).toEqual(objects.map(([name]) => name).sort());
    expect(Object.keys(ours.enums).sort()).toEqual(enumNames.map(([name]) => name).sort());
  });

  test("what the emulator shows at this version (versions.ts) is what the definitions have", () => {
    const f = FLEET_API_FEATURES[version];
    const fields = (name: string) => Object.keys((official[name]?.properties ?? {}) as object);
    expect({
      gates: official.GateConfiguration !== undefined,
      gateTypes: official.GateType?.enum ?? [],
      gateStates: official.GateState?.enum ?? [],
      maxConcurrency: fields("UpdateGroup").includes("maxConcurrency"),
      maxAllowedFailures: fields("UpdateGroup").includes("maxAllowedFailures") && fields("UpdateRunStatus").includes("failureCount"),
      memberSelector: fields("UpdateGroup").includes("memberSelector"),
      scheduledStartGates: (official.GateType?.enum ?? []).includes("ScheduledStart"),
      updateStates: official.UpdateState?.enum,
      // Every fixture carries the fleet member definitions (issue 29).
      memberLabels: fields("FleetMemberProperties").includes("labels") && fields("FleetMemberUpdateProperties").includes("labels"),
    }).toEqual({
      gates: f.gates,
      gateTypes: [...f.gateTypes],
      gateStates: [...f.gateStates],
      maxConcurrency: f.maxConcurrency,
      maxAllowedFailures: f.maxAllowedFailures,
      memberSelector: f.memberSelector,
      scheduledStartGates: f.scheduledStartGates,
      updateStates: [...f.updateStates],
      memberLabels: f.memberLabels,
    });
  });

  test("auto-upgrade profiles (versions.ts): the channels and generateUpdateRun the definitions have", () => {
    const f = FLEET_API_FEATURES[version];
    const profileFields = Object.keys(official.AutoUpgradeProfileProperties?.properties ?? {});
    expect({
      channels: official.UpgradeChannel?.enum,
      targetFields: ["targetKubernetesVersion", "longTermSupport"].filter((field) => profileFields.includes(field)),
      generateUpdateRun: official.GenerateResponse !== undefined && profileFields.includes("autoUpgradeProfileStatus"),
      schemas: [ours.AutoUpgradeProfile !== undefined, ours.GenerateResponse !== undefined],
    }).toEqual({
      channels: [...f.autoUpgradeChannels],
      targetFields: f.autoUpgradeChannels.includes("TargetKubernetesVersion") ? ["targetKubernetesVersion", "longTermSupport"] : [],
      generateUpdateRun: f.generateUpdateRun,
      schemas: [true, f.generateUpdateRun],
    });
  });

  test.each(objects.map(([name]) => name))("%s has exactly the official fields, nested as officially", (name) => {
    const definition = official[name] as SwaggerDefinition;
    const schema = ours.definitions[name] as unknown as Schema;
    const shape = schema.shape as Record<string, Schema>;
    const expected = [...Object.keys(definition.properties ?? {}), ...(definition.allOf ?? []).flatMap((base) => ENVELOPE[base] ?? [])];
    expect(Object.keys(shape).sort(), `${name}'s fields`).toEqual(expected.sort());
    for (const [field, property] of Object.entries(definition.properties ?? {})) {
      const { inner, optional } = unwrap(shape[field] as Schema);
      if (definition.required?.includes(field) && property.readOnly !== true) expect(optional, `${name}.${field} is required`).toBe(false);
      const named = property.$ref ?? (property.type === "array" ? property.items?.$ref : undefined);
      // A definition that is only `allOf` another (2025-04-01-preview's GateTargetProperties) is that one.
      const aliased = named === undefined ? undefined : official[named]?.allOf;
      const ref = named !== undefined && official[named]?.properties === undefined && aliased?.length === 1 && official[aliased[0] as string] !== undefined ? aliased[0] : named;
      const target = property.type === "array" ? (inner.element as Schema) : inner;
      if (property.type === "array") expect(inner.def.type, `${name}.${field} is a list`).toBe("array");
      if (ref !== undefined && official[ref]?.properties !== undefined) {
        expect(unwrap(target).inner, `${name}.${field} is a ${ref}`).toBe(ours.definitions[ref]);
      } else if (ref !== undefined && official[ref]?.enum !== undefined) {
        const values = official[ref].enum as string[];
        // A request takes exactly the version's values; a read-only state is an extensible enum (a string).
        if (target.def.type === "enum") expect([...(target.options as string[])].sort(), `${name}.${field}'s values`).toEqual([...values].sort());
        else expect([property.readOnly, target.def.type], `${name}.${field} (read-only ${ref})`).toEqual([true, "string"]);
        expect(ours.enums[ref], `enum ${ref}`).toEqual(values);
      } else if (property.type === "integer") {
        expect(target.def.type, `${name}.${field} is a number`).toBe("number");
      } else if (property.type === "string" || (ref !== undefined && official[ref] === undefined)) {
        // A string, or a type the trimmed copy names without copying (arm ids, KubernetesVersion, ErrorDetail).
        expect(["string", "object"], `${name}.${field}`).toContain(target.def.type);
      }
    }
  });
});
