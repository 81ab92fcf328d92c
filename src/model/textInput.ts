/**
 * YAML or JSON text to a plain mapping (scenario files, fleet files, run specs), or a
 * `ValidationError` saying where the text is broken: JSON read fast, YAML's tags and nesting refused
 * where they cannot be honoured.
 */
import { ValidationError, formatPath } from "./issues";
import { MAX_NESTING_DEPTH } from "./limits";

/**
 * Text that opens with `{` and is valid JSON, parsed as JSON: a 100,000-member scenario takes the
 * YAML parser ~20 times as long and ~8 times the memory. Anything else (YAML, or JSON with a syntax
 * error, which the YAML parser then reports with its line and column) gives undefined.
 */
function parseJsonObject(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!/^\s*\{/.test(body)) return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The YAML library, loaded when first needed, not with this module: a JSON scenario never uses it, and
 * loading it is ~10% of the CLI's start (issue 13).
 */
function yamlLibrary(): typeof import("yaml") {
  return require("yaml") as typeof import("yaml");
}

const TOO_DEEP = `nested too deeply: at most ${MAX_NESTING_DEPTH} levels of lists and mappings`;

/**
 * The path of the first list or mapping nested deeper than `MAX_NESTING_DEPTH`, or undefined.
 * Recursive, but never deeper than the limit itself; it allocates nothing on the way down (a
 * 100,000-member scenario has millions of nodes), only the path of a value found too deep.
 */
function tooDeep(value: unknown, depth = 0): PropertyKey[] | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if (depth >= MAX_NESTING_DEPTH) return [];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const path = tooDeep(value[i], depth + 1);
      if (path !== undefined) return [i, ...path];
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const path = tooDeep((value as Record<string, unknown>)[key], depth + 1);
    if (path !== undefined) return [key, ...path];
  }
  return undefined;
}

/** `(line 3, column 7)`: where in the text, for problems found before there are fields to name. */
function atLine(linePos: ReadonlyArray<{ line: number; col: number }> | undefined): string {
  const where = linePos?.[0];
  return where === undefined ? "(file)" : `(line ${where.line}, column ${where.col})`;
}

/** YAML text to a plain value; broken YAML, an unknown tag or too deep a nesting as a `ValidationError`. */
function parseYamlText(text: string): unknown {
  // The parser recurses per nesting level, and catches its own overflow: a document error, which
  // names where (yaml 2.9: RESOURCE_EXHAUSTION, from 1,000 to 1,000,000 levels, never thrown).
  const doc = yamlLibrary().parseDocument(text);
  const error = doc.errors[0];
  if (error !== undefined) {
    if (error.code === "RESOURCE_EXHAUSTION" && /call stack/i.test(error.message)) throw new ValidationError([{ path: atLine(error.linePos), message: TOO_DEEP }]);
    throw new ValidationError([{ path: atLine(error.linePos), message: `not valid YAML or JSON: ${error.message.split("\n")[0]}` }]);
  }
  // A tag the schema does not know (`!foo x`) is a warning to the library, which `yaml.parse` would
  // print on stderr as a Node process warning and then read the value as if untagged. We refuse it:
  // a tag is meant to change what the value is, and we cannot honour it.
  const unknownTag = doc.warnings.find((w) => w.code === "TAG_RESOLVE_FAILED");
  if (unknownTag !== undefined) {
    throw new ValidationError([{ path: atLine(unknownTag.linePos), message: `${unknownTag.message.split(" at line")[0]}: YAML tags other than the core schema's are not accepted` }]);
  }
  // toJS recurses no deeper than the parser did (an alias is converted once, where its anchor is).
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    const where = (e as { linePos?: Array<{ line: number; col: number }> }).linePos;
    throw new ValidationError([{ path: atLine(where), message: `not valid YAML or JSON: ${(e as Error).message.split("\n")[0]}` }]);
  }
}

/**
 * YAML or JSON text (JSON is YAML) to a mapping, or a `ValidationError` saying where the text is
 * broken, or, when it is not a mapping, what it should be (`expected`).
 */
export function parseYamlMapping(text: string, expected: string): Record<string, unknown> {
  let raw: unknown = parseJsonObject(text);
  if (raw === undefined) raw = parseYamlText(text);
  const deep = tooDeep(raw);
  if (deep !== undefined) throw new ValidationError([{ path: formatPath(deep), message: TOO_DEEP }]);
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new ValidationError([{ path: "(root)", message: expected }]);
  return raw as Record<string, unknown>;
}
