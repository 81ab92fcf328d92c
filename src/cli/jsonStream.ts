/**
 * `JSON.stringify(value, null, 2)`, written in pieces as it is produced instead of built as one
 * string: a 100,000-member simulation prints ~160 MB of JSON, which as one string costs its size
 * again in memory at the moment the process is largest. The text is the same, byte
 * for byte: large containers are walked here, and every small one (one member's status, one event,
 * one cluster) goes through `JSON.stringify` itself, re-indented.
 */

/** A container of at most this many values (nested ones counted) is stringified whole. */
const LEAF_VALUES = 256;
/** Small siblings written by one `JSON.stringify` call, at most about this many values. */
const BATCH_VALUES = 4096;
/** Bytes gathered before a write. */
const CHUNK = 1 << 16;

export function writeJson(value: unknown, write: (text: string) => void): void {
  let buffer = "";
  const out = (text: string): void => {
    // A large piece (a batch of siblings) goes out as it is, not joined to the buffer first: joining
    // would copy it once more before it is written.
    if (text.length >= CHUNK) {
      if (buffer.length > 0) write(buffer);
      buffer = "";
      write(text);
      return;
    }
    buffer += text;
    if (buffer.length >= CHUNK) {
      write(buffer);
      buffer = "";
    }
  };
  emit(value, 0, out);
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

/** How many values `value` holds, counting nested ones and itself; stops counting past `budget` (then budget + 1). */
function sizeUpTo(value: unknown, budget: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (++count > budget) return count;
    if (!isContainer(item)) continue;
    if (Array.isArray(item)) for (const child of item) stack.push(child);
    else for (const key in item) if (Object.hasOwn(item, key)) stack.push((item as Record<string, unknown>)[key]);
  }
  return count;
}

/**
 * The children of `batch` (an array or object), as `JSON.stringify` writes them inside a container at
 * `depth` (each on its own line, indented, separated by `,\n`), from one `JSON.stringify` call: the
 * batch is wrapped in `depth` arrays, so it is written at its place's indentation, and the wrapping
 * brackets are cut off again. Each bracket line is 2k spaces, the bracket and a newline at level k.
 */
function childrenAt(batch: object, depth: number): string {
  let wrapped: unknown = batch;
  for (let k = 0; k < depth; k++) wrapped = [wrapped];
  const text = JSON.stringify(wrapped, null, 2);
  const cut = (depth + 1) * (depth + 2);
  return text.slice(cut, text.length - cut);
}

function emit(value: unknown, depth: number, out: (text: string) => void): void {
  const indent = "  ".repeat(depth);
  if (!isContainer(value) || sizeUpTo(value, LEAF_VALUES) <= LEAF_VALUES) {
    const text = JSON.stringify(value, null, 2);
    out(indent === "" ? text : text.replace(/\n/g, `\n${indent}`));
    return;
  }
  const inner = `${indent}  `;
  const isArray = Array.isArray(value);
  // Arrays write a dropped value as null (as JSON.stringify does); objects leave its key out.
  const entries: Array<[string, unknown]> = isArray ? value.map((item, i) => [String(i), item]) : Object.entries(value).filter(([, v]) => !skipped(v));
  if (entries.length === 0) {
    out(isArray ? "[]" : "{}");
    return;
  }
  out(isArray ? "[\n" : "{\n");
  // Small siblings go out together, a batch per JSON.stringify call; a large one is walked.
  let batch: Array<[string, unknown]> = [];
  let batchValues = 0;
  let first = true;
  const separate = (): void => {
    if (!first) out(",\n");
    first = false;
  };
  const flush = (): void => {
    if (batch.length === 0) return;
    separate();
    out(childrenAt(isArray ? batch.map(([, item]) => item) : Object.fromEntries(batch), depth));
    batch = [];
    batchValues = 0;
  };
  for (const entry of entries) {
    const size = sizeUpTo(entry[1], LEAF_VALUES);
    if (size <= LEAF_VALUES) {
      batch.push(entry);
      batchValues += size;
      if (batchValues >= BATCH_VALUES) flush();
      continue;
    }
    flush();
    separate();
    out(isArray ? inner : `${inner}${JSON.stringify(entry[0])}: `);
    emit(entry[1], depth + 1, out);
  }
  flush();
  out(`\n${indent}${isArray ? "]" : "}"}`);
}
