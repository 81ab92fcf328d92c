/** `readInput` gives the file's text as UTF-8 says, whichever way it reads it (ASCII files take a faster path). */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { InputError, readInput } from "../../src/cli/input";

const dir = mkdtempSync(join(tmpdir(), "read-input-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function readBack(bytes: Buffer | string): string {
  const file = join(dir, "input");
  writeFileSync(file, bytes);
  return readInput(file);
}

describe("readInput", () => {
  it("reads any text as UTF-8 decoding does, ASCII or not", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary-ascii" }), fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" })), (text) => {
        expect(readBack(text)).toBe(Buffer.from(text, "utf8").toString("utf8"));
      }),
      { numRuns: 200 },
    );
  });

  it("keeps names and messages outside ASCII, and a byte order mark, as written", () => {
    const text = '\uFEFF{"displayName": "Freigabe durch Müller ✓", "name": "zürich"}';
    expect(readBack(text)).toBe(text);
  });

  it("turns bytes that are not UTF-8 into replacement characters, as before", () => {
    expect(readBack(Buffer.from([0x61, 0xff, 0x62]))).toBe("a\uFFFDb");
  });

  it("names a missing file", () => {
    expect(() => readInput(join(dir, "nope.yaml"))).toThrow(InputError);
    expect(() => readInput(join(dir, "nope.yaml"))).toThrow(/nope\.yaml: no such file/);
  });
});
