/**
 * `JSON.stringify(value, null, 2)`, written in pieces as it is produced instead of built as one
 * string: a 100,000-member simulation prints ~160 MB of JSON, which as one string costs its size
 * again in memory at the moment the process is largest. The text is the same, byte
 * for byte: large containers are walked here, and every small one (one member's status, one event,
 * one cluster) goes through `JSON.stringify` itself, re-indented.
 */

/** A container of at most this many values (nested ones counted) is stringified whole. */
const LEAF_VALUES = 256;
/** Bytes gathered before a write. */
const CHUNK = 1 << 16;

export function writeJson(value: unknown, write: (text: string) => void): void {
  let buffer = "";
  const out = (text: string): void => {
    buffer += text;
    if (buffer.length >= CHUNK) {
      write(buffer);
      buffer = "";
    }
  };
  emit(value, "", out);
  out("\n");
  if (buffer.length > 0) write(buffer);
}

/** What `JSON.stringify` leaves out of an object (and writes as null in an array). */
function skipped(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

function isContainer(value: unknown): value is object {
  return typeof value === "object" && value !== null && typeof (value as { toJSON?: unknown }).toJSON !== "function";
}

/** Whether `value` holds more than `budget` values, counting nested ones; stops counting past it. */
function larger(value: unknown, budget: number): boolean {
  let left = budget;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (--left < 0) return true;
    if (!isContainer(item)) continue;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push(child);
  }
  return false;
}

function emit(value: unknown, indent: string, out: (text: string) => void): void {
  if (!isContainer(value) || !larger(value, LEAF_VALUES)) {
    const text = JSON.stringify(value, null, 2);
    out(indent === "" ? text : text.replace(/\n/g, `\n${indent}`));
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out("[]");
      return;
    }
    out("[\n");
    value.forEach((item, i) => {
      out(inner);
      if (skipped(item)) out("null");
      else emit(item, inner, out);
      out(i < value.length - 1 ? ",\n" : "\n");
    });
    out(`${indent}]`);
    return;
  }
  const entries = Object.entries(value).filter(([, v]) => !skipped(v));
  if (entries.length === 0) {
    out("{}");
    return;
  }
  out("{\n");
  entries.forEach(([key, v], i) => {
    out(`${inner}${JSON.stringify(key)}: `);
    emit(v, inner, out);
    out(i < entries.length - 1 ? ",\n" : "\n");
  });
  out(`${indent}}`);
}
