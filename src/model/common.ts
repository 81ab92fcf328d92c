/**
 * Building blocks shared by every schema: names, versions, instants, and the field-path
 * formatting that every validation error goes through (docs/rules.md §2: "a message that names the
 * offending field path").
 */
import { z } from "zod";

/** A field's own message for a wrong value, and "is required" when it is missing. */
export function orRequired(message: string): (issue: { input?: unknown }) => string {
  return (issue) => (issue.input === undefined ? "is required" : message);
}

/** docs/rules.md §2: stage, group and member names. */
export const NAME_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export const NameSchema = z
  .string({ error: orRequired("must be a string") })
  .min(1, "must not be empty")
  .max(50, "must be at most 50 characters")
  .regex(NAME_PATTERN, "must be lowercase letters, digits and '-', starting and ending with a letter or digit");

/** YAML reads `1.32` as a number; turn it back into text so the format check can explain itself. */
const numberToString = (v: unknown) => (typeof v === "number" ? String(v) : v);

/** docs/rules.md §2: a Kubernetes version is `major.minor.patch`. */
export const KubernetesVersionSchema = z.preprocess(
  numberToString,
  z
    .string({ error: orRequired("must be a string") })
    .regex(/^\d+\.\d+\.\d+$/, "must be a version of the form major.minor.patch, e.g. 1.32.0"),
);

/**
 * A node image version: `<family>-<date>`, e.g. `AKSUbuntu-2204gen2containerd-202611.24.0`
 * (docs/rules.md §3.6: the family is everything before the last `-`).
 */
export const NodeImageVersionSchema = z
  .string({ error: orRequired("must be a string") })
  .max(256, "must be at most 256 characters")
  .regex(/^[A-Za-z0-9][A-Za-z0-9._]*(-[A-Za-z0-9._]+)*-\d+(\.\d+)*$/, "must be a node image version such as AKSUbuntu-2204gen2containerd-202611.24.0");

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Whether `YYYY-MM-DD` is a real day (not 2026-02-30). A run's output names the same few days in
 * hundreds of thousands of instants (`report` reads them all): days found real are kept, a bounded
 * number of them.
 */
function isCalendarDay(day: string): boolean {
  if (CALENDAR_DAYS.has(day)) return true;
  if (!new Date(`${day}T00:00:00Z`).toISOString().startsWith(day)) return false;
  if (CALENDAR_DAYS.size < 10_000) CALENDAR_DAYS.add(day);
  return true;
}
const CALENDAR_DAYS = new Set<string>();

/**
 * Issue 19: the instants and dates a user may write, years 1970 to 2999. Every instant the engine
 * computes is one of these plus bounded durations (a wait of at most `MAX_WAIT_SECONDS`, a horizon
 * of at most `MAX_HORIZON_DAYS`, a window's ten-year look-ahead): all stay four-digit years, far
 * inside JS Date's range (±275,760 years), where `10000000000000` seconds of wait had left it
 * ("Invalid time value").
 */
export const MIN_INSTANT = "1970-01-01T00:00:00Z";
export const MAX_INSTANT = "2999-12-31T23:59:59Z";
const MIN_INSTANT_MS = Date.parse(MIN_INSTANT);
const MAX_INSTANT_MS = Date.parse(MAX_INSTANT);
const OUT_OF_RANGE = `must be from ${MIN_INSTANT} to ${MAX_INSTANT}`;

/** Whether epoch ms `instant` is one a user may write (the range above; NaN is not). */
export function instantInRange(instant: number): boolean {
  return instant >= MIN_INSTANT_MS && instant <= MAX_INSTANT_MS;
}

/** An instant in ISO 8601 with a zone (`Z` or `±HH:mm`), kept as the string the user wrote. */
export const InstantSchema = z
  .string({ error: orRequired("must be an ISO 8601 date-time string") })
  .refine((s) => ISO_INSTANT.test(s) && !Number.isNaN(Date.parse(s)) && isCalendarDay(s.slice(0, 10)), {
    message: "must be an ISO 8601 date-time with a zone, e.g. 2026-12-05T00:00:00Z",
    abort: true,
  })
  .refine((s) => instantInRange(Date.parse(s)), { message: OUT_OF_RANGE });

/** A calendar date `YYYY-MM-DD`, in the years instants may take. */
export const DateSchema = z
  .string({ error: orRequired("must be a date string YYYY-MM-DD") })
  .refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), {
    message: "must be a valid date YYYY-MM-DD",
    abort: true,
  })
  .refine((s) => s >= MIN_INSTANT.slice(0, 10) && s <= MAX_INSTANT.slice(0, 10), { message: `must be from ${MIN_INSTANT.slice(0, 10)} to ${MAX_INSTANT.slice(0, 10)}` });

/**
 * Issue 19: the longest after-stage wait, 365 days. Azure's `afterStageWaitInSeconds` is an int32
 * (up to ~68 years) with no documented maximum; a soak of more than a year is a typo, and a bound
 * keeps every wait's end a representable instant.
 */
export const MAX_WAIT_SECONDS = 31_536_000;
/** Issue 19: how far a scenario may look (`until` after `start`), about ten years. */
export const MAX_HORIZON_DAYS = 3_660;
/** Issue 19: real-time minutes a call may drive a run (`timeoutMinutes`, `returnAfterMinutes`), a week. */
export const MAX_CALL_MINUTES = 10_080;
/** Issue 19: seconds between reads of a cluster or a Fleet Manager run, at most an hour. */
export const MAX_POLL_SECONDS = 3_600;

/** An epoch-ms instant as ISO 8601 UTC ending in `Z`, without milliseconds when they are zero (docs/rules.md §5). */
export function isoInstant(instant: number): string {
  // The events of one pass share their instant: they share its string too.
  if (instant === lastInstant) return lastIso;
  lastIso = writeIsoInstant(instant);
  lastInstant = instant;
  return lastIso;
}
let lastInstant = Number.NaN;
let lastIso = "";

function writeIsoInstant(instant: number): string {
  // Every event and status time goes through here (issue 13: ~300,000 at 100,000 members), over too
  // many distinct instants for a cache of whole strings: the date part is kept per day (a run spans a
  // few), the time of day is written from its numbers. `toISOString` stays the reference for the day
  // and for anything it alone writes (invalid or far instants throw or widen there, as before).
  if (!Number.isInteger(instant)) {
    const full = new Date(instant).toISOString();
    return full.endsWith(".000Z") ? `${full.slice(0, -5)}Z` : full;
  }
  const day = Math.floor(instant / DAY_MS);
  const ms = instant - day * DAY_MS;
  if (day !== lastDay) {
    const full = new Date(instant).toISOString();
    lastDay = day;
    lastDayPrefix = full.slice(0, full.indexOf("T") + 1);
  }
  const seconds = Math.floor(ms / 1000);
  const millis = ms - seconds * 1000;
  const time = `${TWO_DIGITS[Math.floor(seconds / 3600)]}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}`;
  return millis === 0 ? `${lastDayPrefix}${time}Z` : `${lastDayPrefix}${time}.${String(millis).padStart(3, "0")}Z`;
}
const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, "0"));
let lastDay = Number.NaN;
let lastDayPrefix = "";

/** `"N"` or `"P%"` (docs/rules.md §6). */
export const ConcurrencySchema = z.preprocess(
  numberToString,
  z
    .string({ error: "must be a string such as \"3\" or \"25%\"" })
    .regex(/^([1-9]\d{0,5}|([1-9]\d?|100)%)$/, "must be a positive whole number (\"3\") or a percentage from 1% to 100% (\"25%\")"),
);

/** `"N"` or `"P%"` failures tolerated (issue 5); "0" / "0%" = none (fail fast). */
export const FailureToleranceSchema = z.preprocess(
  numberToString,
  z
    .string({ error: "must be a string such as \"2\" or \"10%\"" })
    .regex(/^(0|[1-9]\d{0,5}|(\d|[1-9]\d|100)%)$/, "must be a whole number of failures (\"2\") or a percentage from 0% to 100% (\"10%\")"),
);

/**
 * `record[key]` if the record itself holds `key`, else undefined. Every lookup of a user's name (a
 * pool, strategy, member, region, image family…) in a plain object goes through here: `constructor`
 * is a valid AKS name, and a bare `record[name]` would answer with `Object.prototype.constructor` (a
 * function) instead of "not there" (issue 19; docs/behaviour.md "Names as keys").
 */
export function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** One validation problem: a dotted field path and what is wrong there. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** `["strategy","stages",1,"groups",0,"name"]` → `strategy.stages[1].groups[0].name`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "(root)" : out;
}

/** `strategy.stages[1].name` → `["strategy","stages",1,"name"]` (the inverse of `formatPath`). */
export function parsePath(path: string): PropertyKey[] {
  const out: PropertyKey[] = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (match[2] !== undefined) out.push(Number(match[2]));
    else if (match[1] !== undefined) out.push(match[1]);
  }
  return out;
}

/** Thrown when input is invalid. Nothing has been touched when this is thrown. */
export class ValidationError extends Error {
  readonly issues: FieldIssue[];
  constructor(issues: FieldIssue[]) {
    super(issues.map((i) => `${i.path}: ${i.message}`).join("\n"));
    this.name = "ValidationError";
    this.issues = issues;
  }
}

/** Zod issues as field issues, with an optional prefix path (e.g. when a schema is embedded). */
export function toFieldIssues(error: z.ZodError, prefix: ReadonlyArray<PropertyKey> = []): FieldIssue[] {
  return error.issues.flatMap((issue) =>
    // An unknown field is named by its own path (`strateg: unknown field`), one issue per field.
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ path: formatPath([...prefix, ...issue.path, key]), message: "unknown field" }))
      : [{ path: formatPath([...prefix, ...issue.path]), message: issue.message }],
  );
}

/**
 * Plain-language messages for zod's generic issues ("is required", "must be a list"), used by
 * every parse (unknown fields are named in `toFieldIssues`). Schema-specific messages win over these.
 */
export const friendlyErrors: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === "invalid_type") {
    if (issue.input === undefined) return "is required";
    const got = issue.input === null ? "null" : Array.isArray(issue.input) ? "a list" : typeof issue.input;
    return `must be ${article(issue.expected)}, got ${got}`;
  }
  return undefined;
};

function article(expected: string): string {
  const names: Record<string, string> = { array: "a list", object: "a mapping", record: "a mapping", string: "a string", number: "a number", boolean: "true or false" };
  return names[expected] ?? expected;
}

/**
 * `when` for a cross-field refinement that reads only `fields` (`*`: any index or key). Zod skips a
 * refinement once any field failed; this runs it anyway, so that one wrong type does not hide, say, a
 * duplicate name elsewhere (docs/rules.md §7: one line per problem), unless a field it reads, or a parent of
 * one, has the wrong shape.
 */
export function unlessMalformed(fields: ReadonlyArray<ReadonlyArray<PropertyKey>>): { when: (payload: z.core.ParsePayload) => boolean } {
  return {
    when: (payload) =>
      payload.issues.every(
        (issue) =>
          issue.continue === true ||
          issue.code === "unrecognized_keys" ||
          !fields.some((field) => {
            const path = issue.path ?? [];
            return path.length <= field.length && path.every((key, n) => field[n] === "*" || field[n] === key);
          }),
      ),
  };
}

/** Parse or throw a ValidationError naming every offending field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, prefix: ReadonlyArray<PropertyKey> = []): z.output<S> {
  const result = schema.safeParse(input, { error: friendlyErrors });
  if (!result.success) throw new ValidationError(toFieldIssues(result.error, prefix));
  return result.data;
}

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

/**
 * Lists and mappings nested deeper than this are refused (issue 19). Every document we read is at
 * most ~10 levels deep (`members[0].maintenanceConfigurations.….notAllowedDates[0].start`); without
 * a limit, 100,000 nested `[` overflowed the stack, in the YAML parser or in whatever walked the
 * value next (zod, JSON.stringify, structuredClone). Checked on the parsed value, so JSON and YAML
 * share it; the YAML parser's own overflow (from ~800 levels on) is reported the same way.
 */
export const MAX_NESTING_DEPTH = 64;
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
  const yaml = yamlLibrary();
  let doc;
  try {
    doc = yaml.parseDocument(text);
  } catch (e) {
    // The parser recurses per nesting level: an overflow is a nesting too deep for it.
    const where = (e as { linePos?: Array<{ line: number; col: number }> }).linePos;
    if (e instanceof RangeError || (e as { code?: string }).code === "RESOURCE_EXHAUSTION") throw new ValidationError([{ path: atLine(where), message: TOO_DEEP }]);
    throw e;
  }
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
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    if (e instanceof RangeError) throw new ValidationError([{ path: "(file)", message: TOO_DEEP }]);
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
