/**
 * Issue 24: the `fleet-update` package schema (Pulumi's package schema,
 * https://www.pulumi.com/docs/iac/extending-pulumi/schema/), written from the zod schemas of the Pulumi
 * surface (`../surface.ts`: the resources' inputs and outputs), through zod 4's JSON Schema
 * (`z.toJSONSchema`, the input side: what a program writes). The plugin returns it from GetSchema;
 * `scripts/surface.js` writes it to `schema.json` for SDK generation. Its words are the schemas'
 * `.meta()`: a property's `description`, an object type's `objectType: { name, description }`, and
 * `secret`. A property or type without one is refused, naming where to add it, so no field reaches the
 * schema undescribed (docs/architecture.md "Describing a field").
 */
import { z } from "zod";
import { canonicalJson } from "../../spec/identity";
import { UpdateRunInputsSchema } from "../../spec/runSpec";
import {
  UPDATE_RUN_DESCRIPTION,
  UPDATE_STRATEGY_DESCRIPTION,
  UpdateRunOutputsSchema,
  UpdateRunResourceInputsSchema,
  UpdateStrategyOutputsSchema,
  UpdateStrategyResourceInputsSchema,
} from "../surface";
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
  /** From the zod schema's `.meta()`. */
  description?: string;
  objectType?: { name: string; description: string };
  secret?: boolean;
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

/** Thrown when the zod schemas do not make a whole schema; every problem is listed. */
export class SchemaProblems extends Error {
  constructor(readonly problems: string[]) {
    super(`cannot write the ${PACKAGE_NAME} package schema:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.name = "SchemaProblems";
  }
}

/**
 * Every description of the surface as its schema gives it, before the schema adds an enum's values:
 * `Owner` (a resource or an object type) and `Owner.property`. What the TypeScript Args' doc comments
 * and docs/reference.md are checked against (`scripts/surface.js`).
 */
export type Descriptions = Map<string, string>;

const WHERE = "src/pulumi/surface.ts, src/spec/runSpec.ts or src/model/";

class SchemaWriter {
  readonly types: Record<string, ObjectTypeSpec> = {};
  readonly problems: string[] = [];
  readonly descriptions: Descriptions = new Map();

  /**
   * The resource's or type's properties from a JSON Schema object node; `path` names it in problems.
   * `opaque`: a node of no JSON type (a `z.custom` output the engine alone produces) is `Any`.
   */
  properties(owner: string, node: JsonNode, path: string, opaque = false): { properties: Record<string, PropertySpec>; required: string[] } {
    const properties: Record<string, PropertySpec> = {};
    for (const [name, child] of Object.entries(node.properties ?? {})) {
      const spec = this.property(name, child, `${path}.${name}`, opaque);
      const description = this.describe(owner, name, child, path);
      const values = child.enum ?? child.items?.enum;
      const oneOf = values === undefined ? "" : ` One of: ${values.map((v) => `\`${String(v)}\``).join(", ")}.`;
      properties[name] = { ...spec, description: `${description}${oneOf}`, ...(child.secret === true ? { secret: true } : {}) };
    }
    // A field with a default may be left out (the provider fills it in), whatever zod's output side says.
    const required = (node.required ?? []).filter((name) => node.properties?.[name]?.default === undefined);
    return { properties, required };
  }

  describe(owner: string, name: string, node: JsonNode, path: string): string {
    const description = node.description?.trim();
    if (description) {
      this.descriptions.set(`${owner}.${name}`, description);
      return description;
    }
    this.problems.push(`${path}.${name}: no description (give its zod schema \`.meta({ description: "…" })\`, in ${WHERE})`);
    return "";
  }

  property(name: string, node: JsonNode, path: string, opaque = false): PropertySpec {
    if (opaque && node.type === undefined && node.anyOf === undefined) return ANY;
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
        return { type: "array", items: this.property(name, node.items, `${path}[]`, opaque) };
      case "object":
        if (node.properties !== undefined) return this.objectRef(node, path);
        if (typeof node.additionalProperties === "object") return { type: "object", additionalProperties: this.property(name, node.additionalProperties, `${path}{}`) };
        break;
    }
    this.problems.push(`${path}: a JSON Schema node the package schema cannot type (${canonicalJson(node).slice(0, 120)})`);
    return ANY;
  }

  objectRef(node: JsonNode, path: string): PropertySpec {
    const type = node.objectType;
    if (type === undefined || !type.name || !type.description?.trim()) {
      this.problems.push(`${path}: an object type without a name or description (give its zod object schema \`.meta({ objectType: { name, description } })\`, in ${WHERE})`);
      return ANY;
    }
    this.descriptions.set(type.name, type.description);
    const { properties, required } = this.properties(type.name, node, path);
    this.define(type.name, { type: "object", description: type.description, properties, ...(required.length === 0 ? {} : { required }) }, path);
    return { $ref: `#/types/${token(type.name)}` };
  }

  /** One name, one shape: a name given to two different shapes is a problem, not a silent overwrite. */
  define(typeName: string, spec: ObjectTypeSpec, path: string): void {
    const known = this.types[token(typeName)];
    if (known !== undefined && canonicalJson(known) !== canonicalJson(spec)) this.problems.push(`${path}: type ${typeName} already names another shape`);
    this.types[token(typeName)] = spec;
  }

  /** A resource's inputs and outputs (outputs after the inputs, as Pulumi lists a resource's properties). */
  resource(name: string, description: string, inputs: z.ZodType, outputs: z.ZodType, extraOutputs: Record<string, z.ZodType> = {}): ResourceSpec {
    this.descriptions.set(name, description);
    const input = this.properties(name, jsonSchemaOf(inputs), name);
    const outputNode = jsonSchemaOf(outputs);
    const extra = jsonSchemaOf(z.object(extraOutputs));
    const output = this.properties(name, { ...outputNode, properties: { ...extra.properties, ...outputNode.properties }, required: [...(extra.required ?? []), ...(outputNode.required ?? [])] }, name, true);
    // A top-level secret is the resource's to keep (its outputs); a program's input is its own to mark.
    const inputProperties = Object.fromEntries(Object.entries(input.properties).map(([key, { secret: _secret, ...spec }]) => [key, spec]));
    return {
      description,
      inputProperties,
      requiredInputs: input.required,
      properties: { ...input.properties, ...output.properties },
      required: [...output.required, ...input.required],
    };
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
 * The package schema for this version of the package, published where package.json says, and every
 * description in it. Throws `SchemaProblems` naming every gap.
 */
export function packageSurface(version: string, publishing: Publishing = publishingOf(readPackageJson())): { schema: PackageSchema; descriptions: Descriptions } {
  const writer = new SchemaWriter();
  // `runName` is an input of the run spec that the resource fills in from its name: an output here.
  const runName = { runName: UpdateRunInputsSchema.shape.runName };
  const run = writer.resource("UpdateRun", UPDATE_RUN_DESCRIPTION, UpdateRunResourceInputsSchema, UpdateRunOutputsSchema, runName);
  const strategy = writer.resource("UpdateStrategy", UPDATE_STRATEGY_DESCRIPTION, UpdateStrategyResourceInputsSchema, UpdateStrategyOutputsSchema);
  if (writer.problems.length > 0) throw new SchemaProblems(writer.problems);

  const schema: PackageSchema = {
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
    resources: { [token("UpdateRun")]: run, [token("UpdateStrategy")]: strategy },
    meta: { supportPack: true },
    language: sdkLanguageSettings(publishing),
  };
  return { schema, descriptions: writer.descriptions };
}

/** The package schema for this version of the package, published where package.json says. Throws `SchemaProblems` naming every gap. */
export function packageSchema(version: string, publishing: Publishing = publishingOf(readPackageJson())): PackageSchema {
  return packageSurface(version, publishing).schema;
}
