/**
 * Issue 30: what a client following a Fleet Manager run last saw of it. Fleet runs the update
 * server-side and the client's events are the changes between two reads of the run's status
 * (`statusChanges`), so a client that starts afresh — after a kill, at the next `pulumi up` — would tell
 * every item again from NotStarted (a second `run NotStarted → Running`, a member "NotStarted →
 * Completed" after its Running). The status whose changes were told is therefore kept, written before
 * they go out, with those events (they may not all have reached the sinks when the process died), as
 * the engine's run journal keeps its state and undelivered events: the next client goes on from there,
 * hands those events on first (a sink that keeps events drops those it has), and tells only what
 * changed since.
 *
 * One small JSON file per run beside the engine's journals (`.fleet-update/runs/<run>.fleet.json`),
 * replaced whole (written aside, then renamed over). It holds the run's status and events, never a
 * secret. A file that cannot be read refuses the run, naming it; a run's file of another run (the
 * fleet's run was deleted and made again) is ignored.
 */
import fs from "node:fs";
import path from "node:path";
import type { RunEvent, UpdateRunStatus } from "../../model/status";
import { JournalError } from "../runRecords";

const KIND = "fleet-update Fleet Manager run, as its client last saw it";

export interface FleetSeen {
  /** The fleet's run: its ARM id and when it was made (`systemData.createdAt`): the file says nothing about another run. */
  runId: string;
  /** The status whose changes were told. */
  seen: UpdateRunStatus;
  /** Those changes: they may not all have reached the sinks. */
  undeliveredEvents: RunEvent[];
}

export class FleetSeenFile {
  constructor(readonly file: string) {}

  static in(directory: string, runName: string): FleetSeenFile {
    return new FleetSeenFile(path.join(directory, `${runName.replace(/[^A-Za-z0-9._-]/g, "_")}.fleet.json`));
  }

  /** What was seen of the run `runId`, or undefined (no file, or another run's). */
  read(runId: string): FleetSeen | undefined {
    let text: string;
    try {
      text = fs.readFileSync(this.file, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new JournalError(`${this.file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); nothing was changed`);
    }
    let parsed: Partial<FleetSeen> & { kind?: unknown };
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch (e) {
      throw new JournalError(`${this.file}: not valid JSON (${(e as Error).message}); nothing was changed. Remove it to tell the run's states again from the start`);
    }
    if (parsed.kind !== KIND || typeof parsed.runId !== "string" || typeof parsed.seen !== "object" || parsed.seen === null || !Array.isArray(parsed.undeliveredEvents)) {
      throw new JournalError(`${this.file}: not what a Fleet Manager run's client keeps; nothing was changed`);
    }
    return parsed.runId === runId ? { runId: parsed.runId, seen: parsed.seen, undeliveredEvents: parsed.undeliveredEvents } : undefined;
  }

  write(seen: FleetSeen): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const aside = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(aside, JSON.stringify({ kind: KIND, ...seen }));
    fs.renameSync(aside, this.file);
  }

  remove(): void {
    fs.rmSync(this.file, { force: true });
  }
}
