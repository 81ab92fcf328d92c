/**
 * What the generated wire modules (`v2025_03_01.ts`, ...; `scripts/gen-fleet-wire.js`) are made of:
 * a strict object per swagger definition, whose unknown field is an issue naming the definition (ARM:
 * "Could not find member 'x' on object of type 'UpdateStage'"); an enum holding exactly the version's
 * values; strings with the swagger's lengths and patterns (in words for the ones users write); ARM's
 * resource envelope. Read-only fields are optional: a body read from the service can be sent back,
 * and the service ignores them.
 */
import { z } from "zod";
import { FIRST_VERSION_WITH } from "./versions";

/** The marker an unknown-field issue carries: the definition's name (see `wireIssues`). */
const UNKNOWN_MEMBER = "unknown-member:";

/** A swagger definition: a strict object. */
export function object<S extends z.ZodRawShape>(definition: string, shape: S) {
  return z.strictObject(shape, { error: (issue) => (issue.code === "unrecognized_keys" ? `${UNKNOWN_MEMBER}${definition}` : undefined) });
}

/** A swagger enum a request takes: exactly `values`, a wrong one named with the version that has it. */
export function enumOf<const T extends readonly [string, ...string[]]>(version: string, definition: string, values: T) {
  return z.enum(values, {
    error: (issue) => {
      if (issue.input === undefined) return undefined;
      const since = typeof issue.input === "string" ? FIRST_VERSION_WITH[`${definition}.${issue.input}`] : undefined;
      const where = since === undefined ? "" : ` (it is in api-version ${since})`;
      return `the value ${JSON.stringify(issue.input)} is not valid for ${definition} at api-version ${version}${where}; allowed: ${values.join(", ")}`;
    },
  });
}

/** The patterns users write, in words. */
const PATTERN_WORDS: Readonly<Record<string, string>> = {
  "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$": "must be a DNS label: lowercase letters, digits and '-'",
  "^(?:([1-9]\\d*)|([1-9]\\d?|100)%)$": 'must be a count from 1 ("3") or a percentage from 1% to 100% ("25%")',
  "^(?:0|[1-9]\\d*|(?:0|[1-9]\\d?|100)%)$": 'must be a count from 0 ("2") or a percentage from 0% to 100% ("10%")',
  "^([01][0-9]|2[0-3]):[0-5][0-9]$": "must be HH:mm (24-hour)",
  "^[+-]((0[0-9]|1[0-3]):[0-5][0-9]|14:00)$": "must be an offset from -14:00 to +14:00",
  "^[A-Za-z0-9].*$": "must start with a letter or a digit",
};

/** A swagger string, with its lengths and pattern. */
export function str(rules: { minLength?: number; maxLength?: number; pattern?: string } = {}) {
  let s = z.string();
  if (rules.minLength !== undefined) s = s.min(rules.minLength);
  if (rules.maxLength !== undefined) s = s.max(rules.maxLength);
  if (rules.pattern !== undefined) s = s.regex(new RegExp(rules.pattern), PATTERN_WORDS[rules.pattern] ?? `must match ${rules.pattern}`);
  return s;
}

/** ARM's `systemData`. */
export const SystemData = z.strictObject({
  createdBy: z.string().optional(),
  createdByType: z.string().optional(),
  createdAt: z.string().optional(),
  lastModifiedBy: z.string().optional(),
  lastModifiedByType: z.string().optional(),
  lastModifiedAt: z.string().optional(),
});

/** ARM's `ErrorDetail` (common types; not copied here). */
export const ErrorDetail = z.looseObject({ code: z.string().optional(), message: z.string().optional() });

/** `ProxyResource`'s fields (all read-only). */
export const proxyResource = {
  id: z.string().optional(),
  name: z.string().optional(),
  type: z.string().optional(),
  systemData: SystemData.optional(),
};

/** `TrackedResource`'s: also `location` and `tags` (optional here: a PATCH envelope need not repeat them). */
export const trackedResource = {
  ...proxyResource,
  location: z.string().optional(),
  tags: z.record(z.string(), z.string()).optional(),
};

/** One api-version's schemas, as the generated module gives them. */
export interface FleetWireSchemas {
  version: string;
  UpdateRun: z.ZodType;
  UpdateRunStatus: z.ZodType;
  FleetUpdateStrategy: z.ZodType;
  SkipProperties: z.ZodType;
  /** Absent before 2025-04-01-preview (no gates). */
  Gate?: z.ZodType;
  /** The gate PATCH body: `GatePatch` (`GateUpdate` at 2025-04-01-preview). */
  GatePatch?: z.ZodType;
  /** `fleets/{f}/autoUpgradeProfiles/{name}` (every version we know). */
  AutoUpgradeProfile?: z.ZodType;
  /** The result of `autoUpgradeProfiles/{name}/generateUpdateRun` (absent at 2025-04-01-preview, which has no such action). */
  GenerateResponse?: z.ZodType;
  /** `fleets/{f}/members/{name}` and its PATCH body (every version's fixture carries them). */
  FleetMember: z.ZodType;
  FleetMemberUpdate: z.ZodType;
  /** Each swagger definition by name. */
  definitions: Readonly<Record<string, z.ZodObject>>;
  /** Each swagger enum's values by name. */
  enums: Readonly<Record<string, readonly string[]>>;
}

/** A field problem of a request body, by its path in the request. */
export interface WireIssue {
  path: string;
  message: string;
}

/**
 * A zod error of these schemas as field issues: an unknown field becomes ARM's "Could not find member
 * 'x' on object of type 'T'", with the api-version that has it when one of ours does.
 */
export function wireIssues(error: z.ZodError, version: string, formatPath: (path: ReadonlyArray<PropertyKey>) => string): WireIssue[] {
  return error.issues.flatMap((issue): WireIssue[] => {
    if (issue.code === "unrecognized_keys") {
      const definition = issue.message.startsWith(UNKNOWN_MEMBER) ? issue.message.slice(UNKNOWN_MEMBER.length) : "object";
      return issue.keys.map((key) => {
        const since = FIRST_VERSION_WITH[key];
        const where = since === undefined ? "" : `; it is in api-version ${since}`;
        return { path: formatPath([...issue.path, key]), message: `Could not find member '${key}' on object of type '${definition}' at api-version ${version}${where}` };
      });
    }
    return [{ path: formatPath(issue.path), message: issue.message }];
  });
}
