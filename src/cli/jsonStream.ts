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

/**
 * How many values `value` holds, counting nested ones and itself; stops counting past `budget` (then
 * some number above it). Only decides how the text is cut into pieces, never what it says, so it may
 * count what `JSON.stringify` leaves out.
 */
function sizeUpTo(value: unknown, budget: number): number {
  if (!isContainer(value)) return 1;
  let count = 1;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && count <= budget; i++) count += sizeUpTo(value[i], budget - count);
  } else {
    for (const key in value) {
      if (count > budget) break;
      count += sizeUpTo((value as Record<string, unknown>)[key], budget - count);
    }
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
  if (!isContainer(value) || sizeUpTo(value, LEAF_VALUES) <= LEAF_VALUES) {
    const text = JSON.stringify(value, null, 2);
    out(depth === 0 ? text : text.replace(/\n/g, `\n${"  ".repeat(depth)}`));
    return;
  }
  if (Array.isArray(value)) {
    // A batch is a slice of the array, no copy of each item.
    emitChildren(value.length, (i) => value[i], (start, end) => value.slice(start, end), () => "", "[]", depth, out);
    return;
  }
  // Arrays write a dropped value as null (as JSON.stringify does, and the batch does); objects leave its key out.
  const entries = Object.entries(value).filter(([, v]) => !skipped(v));
  // fromEntries, not assignment: a `__proto__` key stays an own key, as JSON.stringify read it.
  const batchOf = (start: number, end: number) => Object.fromEntries(entries.slice(start, end));
  emitChildren(entries.length, (i) => (entries[i] as [string, unknown])[1], batchOf, (i) => `${JSON.stringify((entries[i] as [string, unknown])[0])}: `, "{}", depth, out);
}

/**
 * The children of a large array or object, in order: runs of small ones go out a batch per
 * `JSON.stringify` call (`batchOf(start, end)`: the same container kind holding children start to
 * end), each large one is walked, after its `label` (an object's key). An object whose every entry
 * is left out has no children, and is written as `{}`, as JSON.stringify does.
 */
function emitChildren(
  count: number,
  childAt: (i: number) => unknown,
  batchOf: (start: number, end: number) => object,
  label: (i: number) => string,
  brackets: "[]" | "{}",
  depth: number,
  out: (text: string) => void,
): void {
  const inner = "  ".repeat(depth + 1);
  let first = true;
  const separate = (): void => {
    out(first ? `${brackets[0]}\n` : ",\n");
    first = false;
  };
  let start = 0;
  let batchValues = 0;
  const flush = (end: number): void => {
    if (end > start) {
      separate();
      out(childrenAt(batchOf(start, end), depth));
    }
    start = end;
    batchValues = 0;
  };
  for (let i = 0; i < count; i++) {
    const size = sizeUpTo(childAt(i), LEAF_VALUES);
    if (size <= LEAF_VALUES) {
      batchValues += size;
      if (batchValues >= BATCH_VALUES) flush(i + 1);
      continue;
    }
    flush(i);
    separate();
    out(`${inner}${label(i)}`);
    emit(childAt(i), depth + 1, out);
    start = i + 1;
  }
  flush(count);
  out(first ? brackets : `\n${"  ".repeat(depth)}${brackets[1]}`);
}
