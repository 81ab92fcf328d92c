/**
 * Preview sends values not known yet as this sentinel string. Validation accepts them anywhere: an
 * issue about an unknown value, or inside one, is dropped, and cross-field checks wait for `up`.
 */
import type { FieldIssue } from "../model/issues";
import { parsePath } from "../model/issues";

export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** Whether the value at `path`, or any value on the way to it, is unknown. */
export function isUnderUnknown(root: unknown, path: string): boolean {
  let node: unknown = root;
  for (const key of parsePath(path)) {
    if (node === UNKNOWN) return true;
    if (node === null || typeof node !== "object") return false;
    node = (node as Record<PropertyKey, unknown>)[key as string];
  }
  return node === UNKNOWN || containsUnknown(node);
}

export function dropIssuesUnderUnknowns(root: unknown, issues: FieldIssue[]): FieldIssue[] {
  return issues.filter((issue) => !isUnderUnknown(root, issue.path));
}
