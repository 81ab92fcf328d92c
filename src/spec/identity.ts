/**
 * What makes a run the same run: a hash of the inputs that define it (`RUN_IDENTITY_FIELDS`), key
 * order aside. A journal holding another identity holds another run (`src/drivers/journal.ts`).
 */
import { createHash } from "node:crypto";
import { RUN_IDENTITY_FIELDS } from "./runSpec";

/** Key-order-independent JSON, so the same inputs always hash alike. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function identityHash(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex").slice(0, 16);
}

/** The identity of a run's inputs (`RUN_IDENTITY_FIELDS`). */
export function runIdentity(inputs: Record<string, unknown>): string {
  return identityHash(Object.fromEntries(RUN_IDENTITY_FIELDS.map((k) => [k, inputs[k]])));
}
