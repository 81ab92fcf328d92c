/**
 * Issue 24: the `fleet-update` package schema (Pulumi's package schema,
 * https://www.pulumi.com/docs/iac/extending-pulumi/schema/), written from the same zod schemas the
 * provider validates with (`src/spec/runSpec.ts`, `src/model/`), through zod 4's JSON Schema
 * (`z.toJSONSchema`, the input side: what a program writes). The plugin returns it from GetSchema;
 * `scripts/gen-schema.js` writes it to `schema.json` for SDK generation. Words come from
 * `descriptions.ts`; every property has one, or no schema is written.
 *
 * Outputs that only the engine produces (the status tree, the summary, the plan, the engine's state)
 * have no zod schema of their own: they are typed `pulumi.json#/Any`, described as a whole.
 */
import { z } from "zod";
import { UpdateRunStrategySchema } from "../../model/strategy";
import { canonicalJson } from "../../spec/identity";
import { UpdateRunInputsSchema } from "../../spec/runSpec";
import { PROJECT_DIR_KEY } from "../projectDir";
import { StrategyBackendSchema } from "../strategyProvider";
import { UPDATE_RUN_SECRET_OUTPUTS } from "../updateRun";
import { PROPERTY_DESCRIPTIONS, RESOURCE_DESCRIPTIONS, TYPE_DESCRIPTIONS, TYPE_NAMES } from "./descriptions";
import { PACKAGE_NAME } from "./provider";
import { publishingOf, readPackageJson, type Publishing } from "./publishing";

/** A JSON Schema node as `z.toJSONSchema` writes one (the parts we read). */
interface JsonNode {
  type?: string;
  properties?: Record<string, JsonNode>;
  required?: string[];
  additionalProperties?: JsonNode | boolean;
  items?: JsonNode;
  enum?: unknown[];
  default?: unknown;
  anyOf?: JsonNode[];
}

/** A Pulumi schema property (the parts we write). */
export interface PropertySpec {
  type?: string;
  $ref?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
  description?: string;
  default?: string | number | boolean;
  secret?: boolean;
}

interface ObjectTypeSpec {
  type: "object";
  description: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

interface ResourceSpec {
  description: string;
  inputProperties: Record<string, PropertySpec>;
  requiredInputs: string[];
  properties: Record<string, PropertySpec>;
  required: string[];
}

export interface PackageSchema {
  name: string;
  displayName: string;
  version: string;
  description: string;
  keywords: string[];
  license: string;
  homepage: string;
  repository: string;
  publisher: string;
  logoUrl: string;
  pluginDownloadURL: string;
  types: Record<string, ObjectTypeSpec>;
  resources: Record<string, ResourceSpec>;
  meta: { supportPack: boolean };
  language: Record<string, unknown>;
}

/**
 * What Pulumi's code generators need beyond the resources, for the SDKs `npm run sdks` (or
 * `pulumi package gen-sdk`) writes from this schema; every name comes from package.json
 * (`publishing.ts`). `supportPack` makes each SDK carry the schema's version — so a program asks the
 * engine for the plugin of that version, the one a release's tarball installs (docs/releasing.md) —
 * and the Go SDK its own go.mod. The Node SDK is named apart from this package (whose dynamic
 * resources keep `pulumi-fleet-update`) and from Pulumi's `@pulumi/` scope; the Python distribution is
 * the package's name in Python's spelling; the Go module lives in the repository, under `sdk/go`, as
 * `go get` finds it from a tag `sdk/go/v<version>`.
 */
export function sdkLanguageSettings(publishing: Publishing) {
  const repository = new URL(publishing.repository);
  const readme = (language: string) =>
    `The ${language} SDK of the Pulumi package \`${PACKAGE_NAME}\`: staged, maintenance-window-aware upgrades of AKS fleets (UpdateStrategy, UpdateRun).\n\n` +
    `It needs the provider plugin, which Pulumi downloads from the project's GitHub releases, and ${publishing.node} to run it: ` +
    `${publishing.repository}/blob/main/docs/installation-configuration.md\n`;
  return {
    nodejs: { packageName: `${publishing.npmName}-sdk`, respectSchemaVersion: true, typescriptVersion: publishing.typescript, readme: readme("Node.js") },
    python: { packageName: publishing.npmName.replace(/-/g, "_"), respectSchemaVersion: true, pyproject: { enabled: true }, readme: readme("Python") },
    go: { importBasePath: `${repository.host}${repository.pathname}/sdk/go/fleetupdate`, respectSchemaVersion: true },
  } as const;
}

const ANY: PropertySpec = { $ref: "pulumi.json#/Any" };

/** Thrown when the zod schemas and `descriptions.ts` do not make a whole schema; every problem is listed. */
export class SchemaProblems extends Error {
  constructor(readonly problems: string[]) {
    super(`cannot write the ${PACKAGE_NAME} package schema:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.name = "SchemaProblems";
  }
}

class SchemaWriter {
  readonly types: Record<string, ObjectTypeSpec> = {};
  readonly problems: string[] = [];

  /** The resource's or type's properties from a JSON Schema object node; `path` names it in problems. */
  properties(owner: string, node: JsonNode, path: string): { properties: Record<string, PropertySpec>; required: string[] } {
    const properties: Record<string, PropertySpec> = {};
    for (const [name, child] of Object.entries(node.properties ?? {})) {
      const spec = this.property(owner, name, child, `${path}.${name}`);
      const values = child.enum ?? child.items?.enum;
      const oneOf = values === undefined ? "" : ` One of: ${values.map((v) => `\`${String(v)}\``).join(", ")}.`;
      properties[name] = { ...spec, description: `${this.describe(owner, name, path)}${oneOf}` };
    }
    // A field with a default may be left out (the provider fills it in), whatever zod's output side says.
    const required = (node.required ?? []).filter((name) => node.properties?.[name]?.default === undefined);
    return { properties, required };
  }

  describe(owner: string, name: string, path: string): string {
    const description = PROPERTY_DESCRIPTIONS[`${owner}.${name}`];
    if (description !== undefined) return description;
    this.problems.push(`${path}: no description (add "${owner}.${name}" to src/pulumi/plugin/descriptions.ts)`);
    return "";
  }

  property(owner: string, name: string, node: JsonNode, path: string): PropertySpec {
    const withDefault = (spec: PropertySpec): PropertySpec => {
      const value = node.default;
      return typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? { ...spec, default: value } : spec;
    };
    switch (node.type) {
      // Enums are plain strings, their values listed in the description (`properties`): an enum type
      // in an output (an `UpdateStrategy`'s `strategy`) is not assignable to the same enum in an input
      // for Pulumi YAML v1.25.0 ("Cannot assign 'WeekDay' to 'WeekDay'").
      case "string":
        return withDefault({ type: "string" });
      case "number":
      case "integer":
      case "boolean":
        return withDefault({ type: node.type });
      case "array":
        if (node.items === undefined) break;
        return { type: "array", items: this.property(owner, name, node.items, `${path}[]`) };
      case "object":
        if (node.properties !== undefined) return this.objectRef(owner, name, node, path);
        if (typeof node.additionalProperties === "object") return { type: "object", additionalProperties: this.property(owner, name, node.additionalProperties, `${path}{}`) };
        break;
    }
    this.problems.push(`${path}: a JSON Schema node the package schema cannot type (${canonicalJson(node).slice(0, 120)})`);
    return ANY;
  }

  objectRef(owner: string, name: string, node: JsonNode, path: string): PropertySpec {
    const typeName = TYPE_NAMES[`${owner}.${name}`] ?? TYPE_NAMES[name];
    if (typeName === undefined) {
      this.problems.push(`${path}: an object type without a name (add "${owner}.${name}" to TYPE_NAMES in src/pulumi/plugin/descriptions.ts)`);
      return ANY;
    }
    const { properties, required } = this.properties(typeName, node, path);
    this.define(typeName, { type: "object", description: this.typeDescription(typeName, path), properties, ...(required.length === 0 ? {} : { required }) }, path);
    return { $ref: `#/types/${token(typeName)}` };
  }

  typeDescription(typeName: string, path: string): string {
    const description = TYPE_DESCRIPTIONS[typeName];
    if (description !== undefined) return description;
    this.problems.push(`${path}: type ${typeName} has no description (add it to TYPE_DESCRIPTIONS in src/pulumi/plugin/descriptions.ts)`);
    return "";
  }

  /** One name, one shape: a name given to two different shapes is a problem, not a silent overwrite. */
  define(typeName: string, spec: ObjectTypeSpec, path: string): void {
    const known = this.types[token(typeName)];
    if (known !== undefined && canonicalJson(known) !== canonicalJson(spec)) this.problems.push(`${path}: type ${typeName} already names another shape`);
    this.types[token(typeName)] = spec;
  }
}

function token(name: string): string {
  return `${PACKAGE_NAME}:index:${name}`;
}

/** The input side of a zod schema as JSON Schema: what a program writes, before defaults and transforms. */
function jsonSchemaOf(schema: z.ZodType): JsonNode {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonNode;
}

/**
 * `UpdateRun`'s inputs as a program gives them: the run spec without `runName`, which is the
 * resource's name, plus `projectDir` (`projectDir.ts`).
 */
const UpdateRunResourceInputs = UpdateRunInputsSchema.omit({ runName: true }).extend({ [PROJECT_DIR_KEY]: z.string().optional() });

/** `UpdateStrategy`'s inputs: its stages, and where else it is kept. */
const UpdateStrategyResourceInputs = z.strictObject({ stages: UpdateRunStrategySchema.shape.stages, backend: StrategyBackendSchema.optional() });

/** `UpdateRun`'s properties: its inputs and its outputs (`runOutputs.ts`, `RunView`). */
function runProperties(inputs: Record<string, PropertySpec>): Record<string, PropertySpec> {
  const outputs: Record<string, PropertySpec> = {
    runName: { type: "string" },
    status: ANY,
    summary: ANY,
    strategySnapshot: { $ref: `#/types/${token("UpdateRunStrategy")}` },
    selectedNodeImageVersions: { type: "array", items: { type: "string" } },
    excludedMembers: { type: "array", items: ANY },
    failedMembers: { type: "array", items: ANY },
    appliedNodeImageVersions: { type: "array", items: { $ref: `#/types/${token("NodeImageVersion")}` } },
    plan: ANY,
    drift: { type: "array", items: ANY },
    engineState: ANY,
    fleetRun: ANY,
    generatedUpdate: { $ref: `#/types/${token("ManagedClusterUpdate")}` },
  };
  const described = Object.entries(outputs).map(([name, spec]) => [name, { ...spec, description: PROPERTY_DESCRIPTIONS[`UpdateRun.${name}`] ?? "" }]);
  return { ...inputs, ...Object.fromEntries(described) };
}

/**
 * The package schema for this version of the package, published where package.json says. Throws
 * `SchemaProblems` naming every gap.
 */
export function packageSchema(version: string, publishing: Publishing = publishingOf(readPackageJson())): PackageSchema {
  const writer = new SchemaWriter();

  const runIn = writer.properties("UpdateRun", jsonSchemaOf(UpdateRunResourceInputs), "UpdateRun");
  const runProps = runProperties(runIn.properties);
  // Outputs that can hold a secret (issue 24): the engine's state copies the inputs that define the
  // run; a member's probe URL may carry a token (`HealthCheck.url`, marked on its type below).
  for (const name of UPDATE_RUN_SECRET_OUTPUTS) runProps[name] = { ...runProps[name], secret: true };

  const strategyIn = writer.properties("UpdateStrategy", jsonSchemaOf(UpdateStrategyResourceInputs), "UpdateStrategy");
  const strategyProperties: Record<string, PropertySpec> = {
    ...strategyIn.properties,
    strategy: { $ref: `#/types/${token("UpdateRunStrategy")}`, description: PROPERTY_DESCRIPTIONS["UpdateStrategy.strategy"] ?? "" },
    strategyName: { type: "string", description: PROPERTY_DESCRIPTIONS["UpdateStrategy.strategyName"] ?? "" },
    updateStrategyId: { type: "string", description: PROPERTY_DESCRIPTIONS["UpdateStrategy.updateStrategyId"] ?? "" },
    eTag: { type: "string", description: PROPERTY_DESCRIPTIONS["UpdateStrategy.eTag"] ?? "" },
  };

  const healthCheck = writer.types[token("HealthCheck")] as ObjectTypeSpec | undefined;
  if (healthCheck?.properties.url !== undefined) healthCheck.properties.url.secret = true;
  // Issue 31: a header's value may be a token, a web probe's URL may hold one.
  const header = writer.types[token("AnalysisHeader")] as ObjectTypeSpec | undefined;
  if (header?.properties.value !== undefined) header.properties.value.secret = true;
  const web = writer.types[token("WebAnalysisProvider")] as ObjectTypeSpec | undefined;
  if (web?.properties.url !== undefined) web.properties.url.secret = true;
  // Issue 24: a webhook's bearer token is a secret; so may its URL be (a token in its path or query).
  const webhook = writer.types[token("Webhook")] as ObjectTypeSpec | undefined;
  for (const name of ["url", "token"]) if (webhook?.properties[name] !== undefined) webhook.properties[name].secret = true;

  for (const [resource, properties] of [["UpdateRun", runProps], ["UpdateStrategy", strategyProperties]] as const) {
    for (const [name, spec] of Object.entries(properties)) if (!spec.description) writer.problems.push(`${resource}.${name}: no description`);
  }
  if (writer.problems.length > 0) throw new SchemaProblems(writer.problems);

  return {
    name: PACKAGE_NAME,
    displayName: "AKS Fleet Update",
    version,
    description: "Staged, maintenance-window-aware upgrades of AKS fleets: UpdateStrategy and UpdateRun, on a simulated fleet, real AKS through ARM, or Azure Kubernetes Fleet Manager.",
    // What the Pulumi Registry reads (docs/_index.md is its overview page): `kind/native` — a provider
    // of its own, not bridged from Terraform; the plugin is downloaded from the project's GitHub
    // releases (`github://` finds `pulumi-resource-<name>-v<version>-<os>-<arch>.tar.gz` under tag
    // `v<version>`), so `pulumi up` fetches it itself when a program's SDK asks for it.
    keywords: ["pulumi", "aks", "kubernetes", "fleet", "category/cloud", "kind/native"],
    license: "Apache-2.0",
    homepage: publishing.repository,
    repository: publishing.repository,
    publisher: publishing.org,
    logoUrl: `https://raw.githubusercontent.com/${publishing.org}/${publishing.repo}/main/docs/logo.png`,
    pluginDownloadURL: `github://api.github.com/${publishing.org}/${publishing.repo}`,
    types: writer.types,
    resources: {
      [token("UpdateRun")]: {
        description: RESOURCE_DESCRIPTIONS.UpdateRun!,
        inputProperties: runIn.properties,
        requiredInputs: runIn.required,
        properties: runProps,
        required: ["runName", "status", "summary", "strategySnapshot", "selectedNodeImageVersions", "excludedMembers", "failedMembers", "appliedNodeImageVersions", "drift", ...runIn.required],
      },
      [token("UpdateStrategy")]: {
        description: RESOURCE_DESCRIPTIONS.UpdateStrategy!,
        inputProperties: strategyIn.properties,
        requiredInputs: strategyIn.required,
        properties: strategyProperties,
        required: ["stages", "strategy"],
      },
    },
    meta: { supportPack: true },
    language: sdkLanguageSettings(publishing),
  };
}
