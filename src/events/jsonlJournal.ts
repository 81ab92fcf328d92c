/**
 * The event journal: one JSON line per state change, written as each change happens (a synchronous
 * append), so the file holds every transition up to the moment a process died. Reused by any driver of
 * the engine: pass `journal.write` (or `fanOut`) as `onEvent`.
 */
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import type { RunEvent } from "../model/status";
import { alreadyTaken, type RunEventSink, type SinkReport } from "./sink";

export interface JsonlJournalOptions {
  /** Add to an existing file (a resumed run) instead of starting it afresh. */
  append?: boolean;
}

export class JsonlJournal implements RunEventSink {
  private fd: number | undefined;
  private written = 0;
  private failure: string | undefined;

  /** Opens (creates or truncates) the file now, so a bad path fails before the run starts. */
  constructor(
    readonly path: string,
    options: JsonlJournalOptions = {},
  ) {
    this.fd = openSync(path, options.append === true ? "a" : "w");
  }

  write(event: RunEvent): void {
    if (this.fd === undefined) return;
    try {
      writeSync(this.fd, `${JSON.stringify(event)}\n`);
      this.written += 1;
    } catch (e) {
      // A full disk must not stop the rollout: stop journaling and say so at the end.
      this.failure = `${this.path}: writing stopped after ${this.written} events (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
      this.release();
    }
  }

  /**
   * Exactly once in the file: the events the last process wrote before it stopped are the file's
   * last lines, and the first of `events` (it wrote them in order); only the rest are written.
   */
  redeliver(events: readonly RunEvent[]): void {
    const lines = events.map((event) => JSON.stringify(event));
    let taken: string[] = [];
    try {
      taken = readFileSync(this.path, "utf8").split("\n").slice(0, -1);
    } catch {
      // Unreadable: write them all (at least once).
    }
    for (const event of events.slice(alreadyTaken(taken, lines))) this.write(event);
  }

  async close(): Promise<SinkReport> {
    this.release();
    return { written: this.written, problems: this.failure === undefined ? [] : [this.failure] };
  }

  private release(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    closeSync(fd);
  }
}
