/**
 * What makes a run the same run: a hash of the inputs that define it (`RUN_IDENTITY_FIELDS`), key
 * order aside. A journal holding another identity holds another run (`src/drivers/engine/journal.ts`).
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

/**
 * A backend without `azureFleet.apiVersion` (issue 21): the api-version is how the client speaks to
 * the fleet, not which run it is — the fleet keeps the run by name at every version — so it is left
 * out of a run's identity (docs/behaviour.md FM14). Anything else is returned as it is.
 */
export function withoutApiVersion(backend: unknown): unknown {
  if (backend === null || typeof backend !== "object") return backend;
  const fleet = (backend as { azureFleet?: unknown }).azureFleet;
  if (fleet === null || typeof fleet !== "object" || !("apiVersion" in fleet)) return backend;
  const { apiVersion: _apiVersion, ...rest } = fleet as Record<string, unknown>;
  return { ...backend, azureFleet: rest };
}

/**
 * Issue 31: the analysis without its headers' values (tokens): rotating a token steers the same run,
 * it does not make a new one. Anything that is not an analysis is returned as it is.
 */
export function withoutHeaderValues(analysis: unknown): unknown {
  if (analysis === null || typeof analysis !== "object" || !Array.isArray((analysis as { templates?: unknown }).templates)) return analysis;
  const strip = (provider: unknown): unknown => {
    if (provider === null || typeof provider !== "object") return provider;
    const headers = (provider as { headers?: unknown }).headers;
    return Array.isArray(headers) ? { ...provider, headers: headers.map((h: unknown) => (h !== null && typeof h === "object" ? { ...h, value: undefined } : h)) } : provider;
  };
  const templates = (analysis as { templates: unknown[] }).templates.map((t) => {
    if (t === null || typeof t !== "object") return t;
    const provider = (t as { provider?: Record<string, unknown> }).provider;
    if (provider === null || typeof provider !== "object") return t;
    return { ...t, provider: Object.fromEntries(Object.entries(provider).map(([k, v]) => [k, strip(v)])) };
  });
  return { ...analysis, templates };
}

/** An identity field as it counts: the backend without its api-version, the analysis without its tokens. */
export function identityValue(field: string, value: unknown): unknown {
  if (field === "analysis") return withoutHeaderValues(value);
  return field === "backend" ? withoutApiVersion(value) : value;
}

/** The identity of a run's inputs (`RUN_IDENTITY_FIELDS`). */
export function runIdentity(inputs: Record<string, unknown>): string {
  return identityHash(Object.fromEntries(RUN_IDENTITY_FIELDS.map((k) => [k, identityValue(k, inputs[k])])));
}
