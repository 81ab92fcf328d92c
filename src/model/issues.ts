/**
 * Validation problems by field path (docs/rules.md §2: "a message that names the offending field
 * path"): the path's text, the `ValidationError` every refusal of input is, and zod's issues turned
 * into plain-language lines.
 */
import { z } from "zod";

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
  // Each match is a key (group 1) or a position (group 2).
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(match[2] !== undefined ? Number(match[2]) : (match[1] as string));
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
  // A mapping's key that breaks its own rule (a region's name, a metric's label name): zod's message for
  // it is "Invalid key in record"; the key's rule says what is wrong.
  if (issue.code === "invalid_key") return issue.issues.map((i) => i.message).join("; ");
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
        // An issue zod goes on after (a rule of a field's own, an unknown field) leaves the field's shape intact.
        (issue) =>
          issue.continue === true ||
          // At the field or at a parent of it: every key of the issue's path is the field's (a longer path
          // runs past the field's keys).
          !fields.some((field) => (issue.path ?? []).every((key, n) => field[n] === "*" || field[n] === key)),
      ),
  };
}

/** Parse or throw a ValidationError naming every offending field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, prefix: ReadonlyArray<PropertyKey> = []): z.output<S> {
  const result = schema.safeParse(input, { error: friendlyErrors });
  if (!result.success) throw new ValidationError(toFieldIssues(result.error, prefix));
  return result.data;
}
