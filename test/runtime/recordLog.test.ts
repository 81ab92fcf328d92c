/**
 * Issue 23: the log format shared by the run journal and the simulated fleet's state file
 * (`src/runtime/recordLog.ts`): a torn last record is dropped wherever the kill cut it, a corrupt
 * record with more after it is refused, and a compaction crashed at any point leaves a file that reads
 * as the state before it or the state after it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { RecordLogError, RecordLogWriter, frame, parseRecords, readBytes, setCompactionHookForTests } from "../../src/runtime/recordLog";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "record-log-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
afterEach(() => setCompactionHookForTests(undefined));
let n = 0;
const fresh = () => path.join(dir, `log-${++n}.json`);

const read = (file: string) => parseRecords(file, readBytes(file) as Buffer);

describe("framing", () => {
  it("reads back what was written, in order; unicode and escapes included", () => {
    const file = fresh();
    const writer = new RecordLogWriter(file, { fsync: true });
    writer.compact(JSON.stringify({ snapshot: "é ✓ \n" }));
    writer.append([JSON.stringify({ a: 1 }), JSON.stringify({ b: "x\ty" })]);
    writer.append([JSON.stringify([3])]);
    expect(read(file)).toEqual({ records: [{ snapshot: "é ✓ \n" }, { a: 1 }, { b: "x\ty" }, [3]], goodBytes: fs.statSync(file).size, snapshotBytes: Buffer.byteLength(frame(JSON.stringify({ snapshot: "é ✓ \n" }))), torn: false });
  });

  it("a kill that cuts the last record anywhere: it is dropped, everything before it is read, and the next write cuts it off", () => {
    const file = fresh();
    const writer = new RecordLogWriter(file, { fsync: false });
    writer.compact(JSON.stringify({ s: 0 }));
    writer.append([JSON.stringify({ d: 1 })]);
    const whole = fs.readFileSync(file);
    const lastStart = whole.length - frame(JSON.stringify({ d: 1 })).length;
    writer.close();
    for (let cut = lastStart + 1; cut < whole.length; cut++) {
      fs.writeFileSync(file, whole.subarray(0, cut));
      const contents = read(file);
      expect(contents.records, `cut at ${cut}`).toEqual([{ s: 0 }]);
      expect(contents.torn).toBe(true);
      expect(contents.goodBytes).toBe(lastStart);
    }
    // Resumed: the torn tail is cut before the next record, which then reads.
    const again = new RecordLogWriter(file, { fsync: false });
    again.openExisting(read(file));
    again.append([JSON.stringify({ d: 2 })]);
    expect(read(file).records).toEqual([{ s: 0 }, { d: 2 }]);
    again.close();
  });

  it("a last record whose checksum does not match is torn too (never misread)", () => {
    const file = fresh();
    fs.writeFileSync(file, frame(JSON.stringify({ s: 0 })) + frame(JSON.stringify({ d: 1 })).replace('"d":1', '"d":7'));
    expect(read(file)).toMatchObject({ records: [{ s: 0 }], torn: true });
  });

  it("a corrupt record that is not the last is refused, naming the file", () => {
    const file = fresh();
    fs.writeFileSync(file, frame(JSON.stringify({ s: 0 })) + frame(JSON.stringify({ d: 1 })).replace('"d":1', '"d":7') + frame(JSON.stringify({ d: 2 })));
    expect(() => read(file)).toThrow(RecordLogError);
    expect(() => read(file)).toThrow(file);
    expect(() => read(file)).toThrow(/record 2 .*corrupt.*not the last/);
    fs.writeFileSync(file, frame(JSON.stringify({ s: 0 })) + "garbage\n" + frame(JSON.stringify({ d: 2 })));
    expect(() => read(file)).toThrow(/record 2 .*corrupt/);
  });
});

describe("property: compaction crashed at any point leaves a readable file, reading as before or after (issue 23)", () => {
  it("random appends and compactions, a crash at one of their points each time", () => {
    const crashPoints = ["beforeRename", "afterRename", "midAppend", "none"] as const;
    fc.assert(
      fc.property(
        fc.array(fc.record({ kind: fc.constantFrom("append", "compact"), size: fc.integer({ min: 1, max: 300 }), crash: fc.constantFrom(...crashPoints), cutAt: fc.double({ min: 0, max: 1, noNaN: true }) }), { minLength: 1, maxLength: 25 }),
        (steps) => {
          const file = fresh();
          // The state is the list of numbers appended; a snapshot holds the whole list.
          let state: number[] = [];
          let writer = new RecordLogWriter(file, { fsync: false, compactMinBytes: 200, compactFactor: 1 });
          writer.compact(JSON.stringify(state));
          const replay = (): number[] => {
            const [snapshot, ...deltas] = read(file).records as [number[], ...number[][]];
            return [...snapshot, ...deltas.flat()];
          };
          let next = 0;
          for (const step of steps) {
            const before = [...state];
            const added = Array.from({ length: Math.ceil(step.size / 50) }, () => next++);
            const after = step.kind === "append" ? [...state, ...added] : [...state];
            let crashed = false;
            if (step.kind === "compact" && (step.crash === "beforeRename" || step.crash === "afterRename")) {
              setCompactionHookForTests((point) => {
                if (point === step.crash) throw new Error("crash");
              });
              try {
                writer.compact(JSON.stringify(after));
              } catch {
                crashed = true;
              }
              setCompactionHookForTests(undefined);
            } else if (step.kind === "append" && step.crash === "midAppend") {
              const sizeBefore = fs.statSync(file).size;
              writer.append([JSON.stringify(added)]);
              const full = fs.statSync(file).size;
              fs.truncateSync(file, sizeBefore + Math.floor(step.cutAt * (full - sizeBefore - 1)));
              crashed = true;
            } else if (step.kind === "append") {
              writer.append([JSON.stringify(added)]);
            } else {
              writer.compact(JSON.stringify(after));
            }
            const seen = replay();
            if (crashed) {
              expect([JSON.stringify(before), JSON.stringify(after)]).toContain(JSON.stringify(seen));
              // A new process takes over from what it reads.
              writer.close();
              for (const leftover of fs.readdirSync(dir).filter((f) => f.endsWith(".tmp"))) fs.rmSync(path.join(dir, leftover));
              writer = new RecordLogWriter(file, { fsync: false, compactMinBytes: 200, compactFactor: 1 });
              writer.openExisting(read(file));
              state = seen;
            } else {
              expect(seen).toEqual(after);
              state = after;
            }
            if (writer.compactionDue) writer.compact(JSON.stringify(state));
          }
          writer.close();
        },
      ),
      { numRuns: 200, seed: 23_001 },
    );
  });
});
