/**
 * The values every schema is built of (docs/rules.md §2): names, Kubernetes and node image versions,
 * `maxConcurrency` and failure tolerance, a field's "is required", and the one safe lookup of a
 * user's name in a plain object. Instants are in `instants.ts`, bounds in `limits.ts`, field paths
 * and validation errors in `issues.ts`.
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
