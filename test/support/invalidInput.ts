/**
 * fast-check generators of invalid input, shared by the bad-input tests (strategies, runs, scenario
 * files): take one valid document and break it in exactly one place — a value of the wrong JSON type,
 * a required field removed, an item of a must-be-unique list repeated, a field-specific bad value
 * (bad version, wrong enum value, bad maintenance window, out of range), a 10,000-character string,
 * or an unknown field. Every variant knows where it was broken, so a test can demand that the error
 * names that field (or something inside it).
 */
import fc from "fast-check";
import { expect } from "vitest";
import { formatPath, type FieldIssue } from "../../src/model/issues";

/** Any JSON-ish document (tests poke at it freely). */
export type Doc = any;
export type Path = Array<string | number>;
/** A path where `"*"` matches any key or index. */
export type Pattern = ReadonlyArray<string | number>;

export interface BadValues {
  at: Pattern;
  /** What is wrong, e.g. "bad version" (shown when a variant fails). */
  kind: string;
  values: readonly unknown[];
}

/** What the generator needs to know about a document's fields beyond their JSON types. */
export interface FieldRules {
  /** Fields whose absence is reported at their own path. */
  required: readonly Pattern[];
  /** Lists whose items must be unique (by name, or by image family): a copy of an item is an error inside the list. */
  uniqueLists: readonly Pattern[];
  /** Field-specific wrong values. */
  badValues: readonly BadValues[];
  /** String fields that also take a number, by design (YAML reads `1.32` or `2` as numbers). */
  numbersAllowed?: readonly Pattern[];
  /** String fields with no length limit by design (file paths, free text): no huge strings there. */
  unbounded?: readonly Pattern[];
  /** Mappings keyed by name (e.g. `regions`): an extra key there is a new entry, not an unknown field. */
  records?: readonly Pattern[];
  /** Never touched (e.g. `__provider`). */
  untouched?: readonly Pattern[];
  /** Whether the document itself may be replaced (provider inputs always arrive as a mapping). */
  replaceRoot?: boolean;
  /** The document takes extra top-level keys (a known gap, tested on its own): no unknown fields there. */
  openRoot?: boolean;
}

/** One broken document: what was done, where, and the result. */
export interface Variant {
  kind: string;
  path: Path;
  doc: Doc;
}

type Kind = "string" | "number" | "boolean" | "null" | "array" | "object";
const kindOf = (v: unknown): Kind => (v === null ? "null" : Array.isArray(v) ? "array" : (typeof v as Kind));

export function matches(pattern: Pattern, path: Path): boolean {
  return pattern.length === path.length && pattern.every((p, i) => p === "*" || p === path[i]);
}
const matchesAny = (patterns: readonly Pattern[] | undefined, path: Path) => (patterns ?? []).some((p) => matches(p, path));
/** Inside (or at) any of the patterns. */
const underAny = (patterns: readonly Pattern[] | undefined, path: Path) => (patterns ?? []).some((p) => p.length <= path.length && matches(p, path.slice(0, p.length)));

/** Every node of the document (the root included), with its path. */
export function nodes(value: unknown, path: Path = []): Array<{ path: Path; value: unknown }> {
  const here = [{ path, value }];
  if (Array.isArray(value)) return here.concat(value.flatMap((v, i) => nodes(v, [...path, i])));
  if (value !== null && typeof value === "object") return here.concat(Object.entries(value).flatMap(([k, v]) => nodes(v, [...path, k])));
  return here;
}

const WRONG_TYPES: unknown[] = [true, null, [], {}, -1.5, "x", 0];

/** 10,000 characters: letters, a dotted version, a name-like string, non-ASCII, a path, and random ASCII. */
const hugeString = fc.oneof(
  fc.constantFrom("a".repeat(10_000), "A-".repeat(5_000), `${"1.".repeat(4_999)}1`, "é".repeat(10_000), `/${"a/".repeat(5_000)}`, `${"a-".repeat(4_999)}a`),
  fc.string({ minLength: 10_000, maxLength: 10_000, unit: "grapheme-ascii" }),
);

/** Keys no schema has: a made-up one, a misspelling, a wrong case, and keys that are special in JavaScript. */
const UNKNOWN_KEYS = ["unknownField", "nmae", "Name", "group_", "__proto__", "constructor", "toString"];

const describeValue = (v: unknown) => (typeof v === "string" && v.length > 30 ? `<${v.length}-char string>` : (JSON.stringify(v) ?? String(v)));

function variant(base: Doc, kind: string, path: Path, change: (parent: Doc, key: string | number) => void): Variant {
  // fast-check prints a failing variant as "what, where" rather than the whole document
  const shown = { kind, path, [fc.toStringMethod]: () => `${kind} at ${formatPath(path)}` };
  const doc = structuredClone(base);
  const parent = path.slice(0, -1).reduce((d: Doc, k) => d[k], doc);
  change(parent, path[path.length - 1] as string | number);
  return { ...shown, doc };
}

const replaced = (base: Doc, kind: string, path: Path, value: unknown): Variant =>
  path.length === 0
    ? { kind, path, doc: value, [fc.toStringMethod]: () => `${kind} at (root)` } as Variant
    : variant(base, kind, path, (parent, key) => void (parent[key] = value));

/**
 * Single-place corruptions of `base` (which must be valid). Each kind has its own arbitrary, so a
 * rare kind is drawn as often as a common one.
 */
export function invalidVariants(base: Doc, rules: FieldRules): fc.Arbitrary<Variant> {
  // The root is a mapping like any other for unknown fields, but is replaced only if allowed.
  const everyNode = nodes(base).filter((n) => !underAny(rules.untouched, n.path));
  const all = everyNode.filter((n) => n.path.length > 0 || rules.replaceRoot === true);
  const strings = all.filter((n) => typeof n.value === "string" && !matchesAny(rules.unbounded, n.path));
  const objects = everyNode.filter((n) => kindOf(n.value) === "object" && !matchesAny(rules.records, n.path) && !(n.path.length === 0 && rules.openRoot === true));
  const required = all.filter((n) => n.path.length > 0 && matchesAny(rules.required, n.path));
  const unique = all.filter((n) => Array.isArray(n.value) && n.value.length > 0 && matchesAny(rules.uniqueLists, n.path));
  const bad = rules.badValues.flatMap((b) => all.filter((n) => matches(b.at, n.path)).map((n) => ({ ...b, node: n })));

  const wrongType = fc
    .tuple(fc.constantFrom(...all), fc.constantFrom(...WRONG_TYPES))
    .filter(([n, v]) => kindOf(v) !== kindOf(n.value) && !(typeof v === "number" && matchesAny(rules.numbersAllowed, n.path)))
    .map(([n, v]) => replaced(base, `wrong type ${describeValue(v)}`, n.path, v));
  const missing = fc.constantFrom(...required).map((n) => variant(base, "missing", n.path, (parent, key) => void delete parent[key]));
  const duplicate = fc.tuple(fc.constantFrom(...unique), fc.nat()).map(([n, i]) => {
    const items = n.value as unknown[];
    const index = i % items.length;
    return replaced(base, `duplicate of item ${index}`, n.path, [...items, structuredClone(items[index])]);
  });
  const badValue = fc.constantFrom(...bad).chain((b) => fc.constantFrom(...b.values).map((v) => replaced(base, `${b.kind} ${describeValue(v)}`, b.node.path, v)));
  const huge = fc.tuple(fc.constantFrom(...strings), hugeString).map(([n, v]) => replaced(base, `huge ${describeValue(v)}`, n.path, v));
  const unknownField = fc.tuple(fc.constantFrom(...objects), fc.constantFrom(...UNKNOWN_KEYS), fc.constantFrom<unknown>("x", 1, true, null, {})).map(([n, key, v]) => {
    const path = [...n.path, key];
    // defineProperty: a plain assignment to `__proto__` would set the prototype, not add a field
    const add = (object: Doc) => Object.defineProperty(object, key, { value: structuredClone(v), enumerable: true, writable: true, configurable: true });
    if (n.path.length === 0) {
      const doc = add(structuredClone(base));
      return { kind: `unknown field ${describeValue(key)}`, path, doc, [fc.toStringMethod]: () => `unknown field at ${formatPath(path)}` } as Variant;
    }
    return variant(base, `unknown field ${describeValue(key)}`, n.path, (parent, k) => void add(parent[k]));
  });

  const kinds = [wrongType, badValue, huge, unknownField];
  if (required.length > 0) kinds.push(missing);
  if (unique.length > 0) kinds.push(duplicate);
  return fc.oneof(...kinds);
}

/** Text that gives away a stack trace or source location. */
export const STACK_TRACE = /\n\s+at |\bat [\w.<>]+ \(|node_modules|\.ts:\d+|\.js:\d+/;

/**
 * The issues reject the variant properly: at least one; every one has a field path (never "(root)"
 * unless the document itself was replaced) and a message without a stack trace; and one of them is
 * at the broken field or inside it.
 */
export function expectNamesBrokenField(issues: readonly FieldIssue[], broken: Variant): void {
  const where = formatPath(broken.path);
  const wholeDocument = broken.path.length === 0;
  const shown = issues.map((i) => `  ${i.path}: ${i.message.slice(0, 300)}`).join("\n");
  expect(issues.length, `accepted: ${broken.kind} at ${where}`).toBeGreaterThan(0);
  for (const issue of issues) {
    expect(typeof issue.path).toBe("string");
    expect(issue.path.length).toBeGreaterThan(0);
    if (!wholeDocument) expect(issue.path, `issue at (root): ${issue.message}`).not.toBe("(root)");
    expect(typeof issue.message).toBe("string");
    expect(issue.message.length).toBeGreaterThan(0);
    expect(issue.message).not.toMatch(STACK_TRACE);
  }
  const named = issues.some((i) => wholeDocument || i.path === where || i.path.startsWith(`${where}.`) || i.path.startsWith(`${where}[`));
  expect(named, `${broken.kind}: no issue at or under ${where}; got:\n${shown}`).toBe(true);
}

/** A list nested `depth` deep (`[[[…]]]`), past the parsers' nesting limit. */
export function nestedLists(depth: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

/**
 * Issue 19: extreme values, each valid JSON and YAML — huge and negative numbers, strings that look
 * like numbers, a 10^6-character string, names special in JavaScript, control characters and
 * terminal escapes, instants at the ends of the calendar, lists nested past any limit.
 */
export const EXTREME_VALUES: readonly unknown[] = [
  1e308,
  -1e308,
  1e21,
  10_000_000_000_000,
  Number.MAX_SAFE_INTEGER + 2,
  2 ** 31,
  -1,
  -0.5,
  0,
  "NaN",
  "Infinity",
  "-Infinity",
  "1e999",
  "0x10",
  "-0",
  " ",
  "a".repeat(1_000_000),
  "constructor",
  "__proto__",
  "toString",
  "hasOwnProperty",
  "\u0000",
  "a\u001b[31mred\u001b[0m",
  "\u0085\u2028\u2029",
  "line\nbreak",
  "\t",
  "\uFEFF",
  "9999-12-31T23:59:59Z",
  "0001-01-01T00:00:00Z",
  "+275760-09-13T00:00:00Z",
  "2026-12-05T00:00:00.999999999Z",
  "9999-12-31",
  "0001-01-01",
  nestedLists(100),
];

const NUMERIC_EXTREMES = EXTREME_VALUES.filter((v) => typeof v === "number");
/** Strings a schema may well accept, to reach the engine: names special in JavaScript, far instants. */
const STRING_EXTREMES = ["constructor", "__proto__", "toString", "hasOwnProperty", "9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z", "9999-12-31"];

/**
 * One node of `base` (any but the root) replaced by an extreme value: any value anywhere, or, as
 * often, a value of the node's own type (a number for a number, a name or an instant for a string),
 * which is likelier to pass the schema and reach the engine.
 */
export function extremeVariants(base: Doc, rules: Pick<FieldRules, "untouched">): fc.Arbitrary<Variant> {
  const all = nodes(base).filter((n) => n.path.length > 0 && !underAny(rules.untouched, n.path));
  const numbers = all.filter((n) => typeof n.value === "number");
  const strings = all.filter((n) => typeof n.value === "string");
  const pick = (at: typeof all, values: readonly unknown[]) => fc.tuple(fc.constantFrom(...at), fc.constantFrom(...values)).map(([n, v]) => replaced(base, `extreme ${describeValue(v)}`, n.path, v));
  const kinds = [pick(all, EXTREME_VALUES)];
  if (numbers.length > 0) kinds.push(pick(numbers, NUMERIC_EXTREMES));
  if (strings.length > 0) kinds.push(pick(strings, STRING_EXTREMES));
  return fc.oneof(...kinds);
}
