/**
 * What the conformance harness compares in two JSON bodies: the set of property paths (each object key
 * and array position, `properties.status.stages[0].groups[1].name`, keys that are not identifiers in
 * brackets: `labels["fleet.azure.com/location"]`), and the values of enum-like properties
 * (`provisioningState`, `state`, `gateType`, `type`, ...) at the same concrete paths.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function child(parent: string, key: string): string {
  const step = IDENTIFIER.test(key) ? key : `[${JSON.stringify(key)}]`;
  return parent === "" ? step : step.startsWith("[") ? `${parent}${step}` : `${parent}.${step}`;
}

/** Every path in `value` (objects' keys and arrays' positions, at every depth), mapped to the value there. */
export function pathsOf(value: Json | undefined): Map<string, Json> {
  const out = new Map<string, Json>();
  const walk = (v: Json, at: string) => {
    if (at !== "") out.set(at, v);
    if (Array.isArray(v)) v.forEach((item, i) => walk(item, `${at}[${i}]`));
    else if (v !== null && typeof v === "object") for (const [k, item] of Object.entries(v)) walk(item, child(at, k));
  };
  if (value !== undefined) walk(value, "");
  return out;
}

/** The path `path` is under (`a.b[0].c` → `a.b[0]`), or "" at the top. */
export function parentOf(path: string): string {
  const m = /^(.*?)(?:\.[A-Za-z_$][A-Za-z0-9_$]*|\[[^\]]*\])$/.exec(path);
  return m?.[1] ?? "";
}

/**
 * The paths of `a` that `b` lacks, only the topmost of each missing subtree (a missing `systemData`
 * is one entry, not seven).
 */
export function pathsOnlyIn(a: Map<string, Json>, b: Map<string, Json>): string[] {
  return [...a.keys()].filter((p) => !b.has(p) && (parentOf(p) === "" || b.has(parentOf(p))));
}

/** The last key of a path (`a.b[0].state` → `state`; an array position → ""). */
export function lastKey(path: string): string {
  const m = /(?:^|\.)([A-Za-z_$][A-Za-z0-9_$]*)$|\["((?:[^"\\]|\\.)*)"\]$/.exec(path);
  return m?.[1] ?? (m?.[2] === undefined ? "" : (JSON.parse(`"${m[2]}"`) as string));
}

/** Enum-like values present as strings on both sides and different there: [path, a's, b's]. */
export function enumDifferences(a: Map<string, Json>, b: Map<string, Json>, isEnumKey: (key: string) => boolean): Array<[string, string, string]> {
  const out: Array<[string, string, string]> = [];
  for (const [path, value] of a) {
    const other = b.get(path);
    if (typeof value === "string" && typeof other === "string" && value !== other && isEnumKey(lastKey(path))) out.push([path, value, other]);
  }
  return out;
}

/** `text` parsed as JSON, or undefined when empty or not JSON. */
export function parseJson(text: string | undefined): Json | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}
