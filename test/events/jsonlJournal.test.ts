/** The event journal: one JSON line per event, written as it comes, so a crash leaves what happened so far. */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JsonlJournal } from "../../src/events/jsonlJournal";
import type { RunEvent } from "../../src/model/status";

const scratch = mkdtempSync(join(tmpdir(), "fleet-update-journal-"));
const event = (name: string, message?: string): RunEvent => ({ time: "2026-12-05T00:00:00Z", scope: "member", name, from: "NotStarted", to: "Pending", ...(message === undefined ? {} : { message }) });

describe("JsonlJournal", () => {
  it("redelivers a resumed run's undelivered events exactly once: those the file already ends with are not written again", async () => {
    const file = join(scratch, "redeliver.jsonl");
    const [a, b, c, d] = [event("a"), event("b"), event("c"), event("d")];
    // The last process wrote a, then b and c of a pass (a, b, c, d) before it died.
    writeFileSync(file, [a, b, c].map((e) => `${JSON.stringify(e)}\n`).join(""));
    const resumed = new JsonlJournal(file, { append: true });
    resumed.redeliver([b, c, d]);
    resumed.write(event("e"));
    await resumed.close();
    expect(readFileSync(file, "utf8").trimEnd().split("\n").map((l) => (JSON.parse(l) as RunEvent).name)).toEqual(["a", "b", "c", "d", "e"]);

    // None of them written yet: all are; all written: none is.
    const none = join(scratch, "redeliver-none.jsonl");
    writeFileSync(none, `${JSON.stringify(a)}\n`);
    const first = new JsonlJournal(none, { append: true });
    first.redeliver([b, c]);
    first.redeliver([b, c]);
    await first.close();
    expect(readFileSync(none, "utf8").trimEnd().split("\n").map((l) => (JSON.parse(l) as RunEvent).name)).toEqual(["a", "b", "c"]);
  });

  it("writes each event as one line at once, before the journal is closed", async () => {
    const file = join(scratch, "events.jsonl");
    const journal = new JsonlJournal(file);
    journal.write(event("a", 'line\nbreak and "quotes"'));
    expect(readFileSync(file, "utf8")).toBe(`${JSON.stringify(event("a", 'line\nbreak and "quotes"'))}\n`);
    journal.write(event("b"));
    expect(await journal.close()).toEqual({ written: 2, problems: [] });
    expect(readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as RunEvent)).toEqual([event("a", 'line\nbreak and "quotes"'), event("b")]);
    journal.write(event("after close"));
    expect(readFileSync(file, "utf8")).not.toContain("after close");
  });

  it("starts the file afresh, or appends to it for a resumed run", async () => {
    const file = join(scratch, "resumed.jsonl");
    writeFileSync(file, "old\n");
    const fresh = new JsonlJournal(file);
    fresh.write(event("a"));
    await fresh.close();
    const resumed = new JsonlJournal(file, { append: true });
    resumed.write(event("b"));
    await resumed.close();
    expect(readFileSync(file, "utf8")).toBe(`${JSON.stringify(event("a"))}\n${JSON.stringify(event("b"))}\n`);
  });

  it("fails when opened, not during the run, for a path it cannot open", () => {
    expect(() => new JsonlJournal(join(scratch, "missing-dir", "events.jsonl"))).toThrow(/ENOENT/);
  });

  it("never throws into the run when a write fails (a full disk): it stops and says so at the end", async () => {
    const journal = new JsonlJournal("/dev/full");
    expect(() => journal.write(event("a"))).not.toThrow();
    expect(() => journal.write(event("b"))).not.toThrow();
    expect(await journal.close()).toEqual({ written: 0, problems: ["/dev/full: writing stopped after 0 events (ENOSPC)"] });
  });
});
