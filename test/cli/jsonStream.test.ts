/** `writeJson` writes what `JSON.stringify(value, null, 2)` does, newline added, whatever the value. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { writeJson } from "../../src/cli/jsonStream";

function written(value: unknown): { text: string; writes: number } {
  const chunks: string[] = [];
  writeJson(value, (chunk) => chunks.push(chunk));
  return { text: chunks.join(""), writes: chunks.length };
}

/** JSON values, and what JSON.stringify drops or turns to null: undefined, functions, Dates. */
const valueArb = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.jsonValue({ maxDepth: 2 }),
    fc.constant(undefined),
    fc.constant(() => 1),
    fc.date({ noInvalidDate: true }),
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(fc.string(), tie("value"), { maxKeys: 5 }),
  ),
})).value;

describe("writeJson", () => {
  it("writes exactly JSON.stringify(value, null, 2) and a newline", () => {
    fc.assert(
      fc.property(valueArb, (value) => {
        // Small enough to be written whole, and large enough to be walked (more than 256 values, nested).
        const many = Array.from({ length: 300 }, () => ({ value, list: [value, undefined] }));
        // Large and small siblings mixed, deep down, in arrays and objects (small ones go out in batches).
        const mixed = { deep: [[{ many, small: value, big: { many }, after: [value, many, value, undefined] }]], [String(7)]: value, skipped: undefined };
        for (const whole of [{ value, nested: [[[[[[[value]]]]]]] }, { many }, mixed]) {
          expect(written(whole).text).toBe(`${JSON.stringify(whole, null, 2)}\n`);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("writes a large value in many pieces, none of them the whole", () => {
    const big = { events: Array.from({ length: 20_000 }, (_, i) => ({ time: "2026-12-05T00:00:00.000Z", name: `m${i}`, from: "NotStarted", to: "Running" })) };
    const { text, writes } = written(big);
    expect(text).toBe(`${JSON.stringify(big, null, 2)}\n`);
    expect(writes).toBeGreaterThan(10);
  });
});
