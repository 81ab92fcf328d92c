/**
 * `JSON.stringify(value, null, 2)`, written in pieces as it is produced instead of built as one
 * string: a 100,000-member simulation prints ~160 MB of JSON, which as one string costs its size
 * again in memory at the moment the process is largest. The text is the same, byte
 * for byte: containers near the top are walked here, and everything below `LEAF_DEPTH` (one
 * member's status, one event, one cluster) goes through `JSON.stringify` itself, re-indented.
 */

/** Containers deeper than this are stringified whole (each is small). */
const LEAF_DEPTH = 7;
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
  emit(value, "", 0, out);
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

function emit(value: unknown, indent: string, depth: number, out: (text: string) => void): void {
  if (!isContainer(value) || depth >= LEAF_DEPTH) {
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
      else emit(item, inner, depth + 1, out);
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
    emit(v, inner, depth + 1, out);
    out(i < entries.length - 1 ? ",\n" : "\n");
  });
  out(`${indent}}`);
}
