#!/usr/bin/env node
// Issue 32: every copy of the Pulumi surface's descriptions, written from its one source — the zod
// schemas' `.meta()` (src/pulumi/surface.ts, src/spec/runSpec.ts, src/model/), read through the package
// schema (`packageSurface`, src/pulumi/plugin/schema.ts) — and checked against it:
//
//   - schema.json (the plugin's GetSchema, and the SDKs generated from it);
//   - the doc comments of the TypeScript Args interfaces and resource classes (ARGS below);
//   - docs/reference.md.
//
//   node scripts/surface.js           write every copy (`npm run surface` builds first)
//   node scripts/surface.js --check   exit 1 listing every copy that differs (`npm run surface:check`;
//                                      test/pulumi/surface.test.ts asserts the same in `npm test`)
//
// How to add a field: docs/architecture.md "Describing a field".
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

const ROOT = path.join(__dirname, "..");
const SCHEMA_FILE = "schema.json";
const REFERENCE_FILE = "docs/reference.md";
const TOKEN_PREFIX = "fleet-update:index:";

/**
 * Which TypeScript declaration carries which part of the surface. An object type (`Member`): the
 * interface's doc is the type's description, each member's doc its property's, and every property is
 * a member. `{ inputs: R }`: the members are resource R's inputs (own or inherited). `{ outputs: R }`: a
 * class whose doc is R's description and whose `declare readonly` fields are R's properties; every
 * output that is not an input is declared. A new object type needs a line here (or `inline`).
 */
const ARGS = {
  "src/pulumi/program/backendArgs.ts": {
    SimulatorBackendArgs: "SimulatorBackend",
    AzureBackendArgs: "AzureBackend",
    AzureFleetBackendArgs: "AzureFleetBackend",
  },
  "src/pulumi/program/updateRun.ts": {
    BackendArgs: "Backend",
    MemberArgs: "Member",
    HealthCheckArgs: "HealthCheck",
    ManagedClusterUpgradeSpecArgs: "ManagedClusterUpgradeSpec",
    NodeImageVersionArgs: "NodeImageVersion",
    NodeImageSelectionArgs: "NodeImageSelection",
    ManagedClusterUpdateArgs: "ManagedClusterUpdate",
    AutoUpgradeProfileArgs: "AutoUpgradeProfile",
    WebhookArgs: "Webhook",
    AnalysisArgs: "Analysis",
    AnalysisTemplateArgs: "AnalysisTemplate",
    AnalysisProviderArgs: "AnalysisProvider",
    WebAnalysisProviderArgs: "WebAnalysisProvider",
    PrometheusAnalysisProviderArgs: "PrometheusAnalysisProvider",
    PrometheusAuthenticationArgs: "PrometheusAuthentication",
    AzureIdentityAuthenticationArgs: "AzureIdentityAuthentication",
    AnalysisHeaderArgs: "AnalysisHeader",
    StageAnalysisArgs: "StageAnalysis",
    UpdateRunArgs: { inputs: "UpdateRun" },
    UpdateRun: { outputs: "UpdateRun" },
  },
  "src/pulumi/program/updateStrategy.ts": {
    GateArgs: "Gate",
    ScheduledStartConfigurationArgs: "ScheduledStartConfiguration",
    MemberSelectorArgs: "MemberSelector",
    UpdateGroupArgs: "UpdateGroup",
    UpdateStageArgs: "UpdateStage",
    UpdateStrategyArgs: "UpdateRunStrategy",
    UpdateStrategyResourceArgs: { inputs: "UpdateStrategy" },
    UpdateStrategy: { outputs: "UpdateStrategy" },
  },
};

/** Object types the TypeScript Args write inline (`pulumi.Input<{ initial; steady }>`), with no interface of their own. */
const INLINE_TYPES = new Set(["PollIntervals", "StrategyBackend", "AutoUpgradeNodeImageSelection", "SkipTarget"]);

const normalize = (text) => text.replace(/\s+/g, " ").trim();

/** The text of a JSDoc comment, its lines joined. */
function jsDocText(doc, source) {
  const raw = source.text.slice(doc.getStart(source), doc.end);
  return normalize(
    raw
      .replace(/^\/\*\*/, "")
      .replace(/\*\/$/, "")
      .split("\n")
      .map((line) => line.replace(/^\s*\*( |$)/, ""))
      .join(" "),
  );
}

/** A JSDoc comment of `text`, at `indent`, on one line if it fits in 120 columns, else wrapped at 110. */
function formatJsDoc(text, indent) {
  const one = `${indent}/** ${text} */`;
  if (one.length <= 120) return one.slice(indent.length);
  const lines = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && `${indent} * ${line} ${word}`.length > 110) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return ["/**", ...lines.map((l) => `${indent} * ${l}`), `${indent} */`].join("\n");
}

/** The declarations of a file by name: interfaces (with the members of the interfaces they extend) and classes. */
function declarationsOf(source) {
  const found = new Map();
  for (const statement of source.statements) {
    if ((ts.isInterfaceDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) found.set(statement.name.text, statement);
  }
  return found;
}

function memberName(member) {
  return member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)) ? member.name.text : undefined;
}

/** Own members by name, plus inherited ones (interfaces of the same file) for completeness. */
function membersOf(decl, declarations) {
  const own = new Map();
  for (const member of decl.members) {
    if (!ts.isPropertySignature(member) && !ts.isPropertyDeclaration(member)) continue;
    const name = memberName(member);
    if (name !== undefined) own.set(name, member);
  }
  const inherited = new Set();
  for (const clause of decl.heritageClauses ?? []) {
    for (const type of clause.types) {
      const base = declarations.get(type.expression.getText());
      if (base !== undefined) for (const name of membersOf(base, declarations).all) inherited.add(name);
    }
  }
  return { own, all: new Set([...own.keys(), ...inherited]) };
}

/** What each mapped declaration and member must say: `[{ file, node, expected, where }]`, and missing members. */
function expectedDocs(surface) {
  const { schema, descriptions } = surface;
  const resource = (name) => schema.resources[`${TOKEN_PREFIX}${name}`];
  const wanted = [];
  const problems = [];
  const mappedTypes = new Set();
  for (const [file, mapping] of Object.entries(ARGS)) {
    const source = ts.createSourceFile(file, fs.readFileSync(path.join(ROOT, file), "utf8"), ts.ScriptTarget.Latest, true);
    const declarations = declarationsOf(source);
    for (const [declName, part] of Object.entries(mapping)) {
      const decl = declarations.get(declName);
      if (decl === undefined) {
        problems.push(`${file}: no declaration ${declName} (scripts/surface.js ARGS names it)`);
        continue;
      }
      const { own, all } = membersOf(decl, declarations);
      let owner;
      let properties;
      let complete;
      if (typeof part === "string") {
        owner = part;
        mappedTypes.add(part);
        const type = schema.types[`${TOKEN_PREFIX}${part}`];
        if (type === undefined) {
          problems.push(`${file}: ${declName} describes type ${part}, which the schema no longer has (scripts/surface.js ARGS)`);
          continue;
        }
        wanted.push({ file, source, node: decl, expected: descriptions.get(part), where: `${file}: ${declName}` });
        properties = Object.keys(type.properties);
        complete = properties;
      } else if (part.inputs !== undefined) {
        owner = part.inputs;
        properties = Object.keys(resource(owner).inputProperties);
        complete = properties;
      } else {
        owner = part.outputs;
        const r = resource(owner);
        wanted.push({ file, source, node: decl, expected: descriptions.get(owner), where: `${file}: class ${declName}` });
        properties = Object.keys(r.properties);
        complete = properties.filter((name) => !(name in r.inputProperties));
      }
      for (const name of complete) {
        if (!all.has(name)) problems.push(`${file}: ${declName} has no \`${name}\` (${owner}.${name}: add it, typed as a Pulumi input/output; its doc comment is written by \`npm run surface\`)`);
      }
      for (const [name, member] of own) {
        const expected = descriptions.get(`${owner}.${name}`);
        if (!properties.includes(name) || expected === undefined) {
          problems.push(`${file}: ${declName}.${name} is not in the schema (${owner} has no \`${name}\`): add it to the zod schema, or remove it here`);
          continue;
        }
        wanted.push({ file, source, node: member, expected, where: `${file}: ${declName}.${name}` });
      }
    }
  }
  for (const token of Object.keys(schema.types)) {
    const name = token.slice(TOKEN_PREFIX.length);
    if (!mappedTypes.has(name) && !INLINE_TYPES.has(name)) problems.push(`type ${name} has no TypeScript Args interface: add one and a line to ARGS in scripts/surface.js (or to INLINE_TYPES)`);
  }
  return { wanted, problems };
}

function docOf(node) {
  const docs = node.jsDoc;
  return docs === undefined || docs.length === 0 ? undefined : docs[docs.length - 1];
}

/** Each TypeScript file's text with its doc comments written from the surface. */
function writtenArgs(surface) {
  const { wanted, problems } = expectedDocs(surface);
  const edits = new Map();
  const differing = [];
  for (const w of wanted) {
    const doc = docOf(w.node);
    const text = doc === undefined ? undefined : jsDocText(doc, w.source);
    if (text === normalize(w.expected)) continue;
    differing.push(`${w.where}: its doc comment ${text === undefined ? "is missing" : "differs from the schema's description"}`);
    const start = doc === undefined ? w.node.getStart(w.source) : doc.getStart(w.source);
    const lineStart = w.source.text.lastIndexOf("\n", start - 1) + 1;
    const indent = w.source.text.slice(lineStart, start).match(/^\s*/)[0];
    const comment = formatJsDoc(normalize(w.expected), indent);
    const list = edits.get(w.file) ?? [];
    list.push(doc === undefined ? { start, end: start, text: `${comment}\n${indent}` } : { start, end: doc.end, text: comment });
    edits.set(w.file, list);
  }
  const files = new Map();
  for (const [file, list] of edits) {
    let text = fs.readFileSync(path.join(ROOT, file), "utf8");
    for (const edit of list.sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
    files.set(file, text);
  }
  return { files, differing, problems };
}

const cell = (text) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

function typeOf(spec) {
  if (spec.$ref === "pulumi.json#/Any") return "any";
  if (spec.$ref !== undefined) {
    const name = spec.$ref.slice(`#/types/${TOKEN_PREFIX}`.length);
    return `[${name}](#${name.toLowerCase()})`;
  }
  if (spec.type === "array") return `${typeOf(spec.items)}[]`;
  if (spec.type === "object") return `map of ${typeOf(spec.additionalProperties)}`;
  return spec.type;
}

function table(properties, required) {
  const rows = Object.entries(properties).map(([name, spec]) => {
    const notes = [required.includes(name) ? "required" : "", spec.secret ? "secret" : "", spec.default !== undefined ? `default \`${spec.default}\`` : ""].filter(Boolean).join(", ");
    return `| \`${name}\` | ${typeOf(spec)} | ${notes} | ${cell(spec.description ?? "")} |`;
  });
  return ["| name | type | | description |", "|---|---|---|---|", ...rows].join("\n");
}

/** docs/reference.md: every resource, its inputs and outputs, and every type, as the schema has them. */
function reference(schema) {
  const parts = [
    "# Reference: `UpdateRun` and `UpdateStrategy`",
    "",
    "<!-- Written by `npm run surface` from the zod schemas (src/pulumi/surface.ts); do not edit. -->",
    "",
    "Every input and output of the two resources and every type they take, the same for the TypeScript",
    "classes (`pulumi-fleet-update`) and the provider plugin (`fleet-update:index:*`, any Pulumi language;",
    "the names here are the schema's: an SDK spells them its own way, `managed_cluster_update` in Python).",
    "The rules behind the words: [rules.md](rules.md).",
  ];
  for (const [token, r] of Object.entries(schema.resources)) {
    const name = token.slice(TOKEN_PREFIX.length);
    const outputs = Object.fromEntries(Object.entries(r.properties).filter(([key]) => !(key in r.inputProperties)));
    parts.push("", `## ${name}`, "", `\`${token}\`: ${r.description}`, "", "### Inputs", "", table(r.inputProperties, r.requiredInputs), "", "### Outputs", "", "Besides the inputs:", "", table(outputs, r.required));
  }
  parts.push("", "## Types");
  for (const [token, type] of Object.entries(schema.types).sort(([a], [b]) => a.localeCompare(b))) {
    const name = token.slice(TOKEN_PREFIX.length);
    parts.push("", `### ${name}`, "", type.description, "", table(type.properties, type.required ?? []));
  }
  return `${parts.join("\n")}\n`;
}

/** Every copy as the surface writes it, and what cannot be written (a missing declaration or member). */
function copies(surface) {
  const args = writtenArgs(surface);
  return {
    files: new Map([[SCHEMA_FILE, `${JSON.stringify(surface.schema, null, 2)}\n`], [REFERENCE_FILE, reference(surface.schema)], ...args.files]),
    differing: args.differing,
    problems: args.problems,
  };
}

/** Every copy that differs from the one source, one line each; empty when all agree. */
function check(surface) {
  const { files, differing, problems } = copies(surface);
  const stale = [SCHEMA_FILE, REFERENCE_FILE].filter((file) => {
    const full = path.join(ROOT, file);
    return !fs.existsSync(full) || fs.readFileSync(full, "utf8") !== files.get(file);
  });
  return [...stale.map((file) => `${file} is not what the schemas write`), ...differing, ...problems];
}

/** Write every copy; returns what could not be written. */
function write(surface) {
  const { files, problems } = copies(surface);
  for (const [file, text] of files) {
    const full = path.join(ROOT, file);
    if (!fs.existsSync(full) || fs.readFileSync(full, "utf8") !== text) fs.writeFileSync(full, text);
  }
  return problems;
}

/** The command: write every copy, or with `--check` list those that differ (exit 1). */
function main(argv) {
  const { packageSurface } = require("../dist/pulumi/plugin/schema");
  const { packageVersion } = require("../dist/pulumi/plugin/main");
  const surface = packageSurface(packageVersion());
  const checking = argv.includes("--check");
  const problems = checking ? check(surface) : write(surface);
  if (problems.length > 0) {
    process.stderr.write(`${problems.map((p) => `surface: ${p}`).join("\n")}\n`);
    if (checking) process.stderr.write("Run `npm run surface` to write every copy from the zod schemas (docs/architecture.md \"Describing a field\").\n");
    process.exit(1);
  }
}

module.exports = { check, write, main };

if (require.main === module) main(process.argv);
