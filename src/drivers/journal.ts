/**
 * The run journal: the engine's state written after every reconcile pass, beside the backend's own
 * state. Pulumi records a resource only when create returns, so a `pulumi up` killed mid-create
 * leaves no trace in the stack; the next create finds the journal and resumes the same run instead of
 * starting a second one — no cluster is upgraded twice and the status stays truthful.
 */
import fs from "node:fs";
import path from "node:path";
import type { RunState } from "../engine/runState";
import type { RunEvent } from "../model/status";
import { withoutHealthChecks } from "./healthChecks";

export interface JournalEntry {
  /** The Pulumi resource id of the run this journal belongs to. */
  runId: string;
  /** Hash of the inputs that define the run (`RUN_IDENTITY_FIELDS`). */
  identity: string;
  engineState: RunState;
  /**
   * Events of changes `engineState` holds that may not have reached the event sinks when this was
   * written (`UpdateRunEngine.undeliveredEvents`): a resumed run hands them on first (docs/behaviour.md,
   * "Crashes: what the journal and the events promise").
   */
  undeliveredEvents?: RunEvent[];
}

/** The entry's undelivered events, when it has any, to resume with (`RunChoice.undeliveredEvents`). */
export function undelivered(entry: JournalEntry): { undeliveredEvents?: RunEvent[] } {
  return entry.undeliveredEvents === undefined ? {} : { undeliveredEvents: entry.undeliveredEvents };
}

/** The journal's format; a journal of another format is refused, never read as empty. */
export const JOURNAL_FORMAT = 1;

/** A journal that exists but cannot be read: the run is not started again from nothing. */
export class JournalError extends Error {}

/** Where the journals of runs over the fleet whose state is in `stateFile` live. */
export function journalDirectory(stateFile: string): string {
  return `${stateFile.replace(/\.json$/, "")}.runs`;
}

export class RunJournal {
  /**
   * Called before every write: what the journal's instants depend on is made durable first (the
   * simulated fleet's clock anchor: `FileBackedFleet.saveClock`).
   */
  beforeWrite: (() => void) | undefined;

  constructor(readonly file: string) {}

  static beside(stateFile: string, runName: string): RunJournal {
    return RunJournal.in(journalDirectory(stateFile), runName);
  }

  static in(directory: string, runName: string): RunJournal {
    const safe = runName.replace(/[^A-Za-z0-9._-]/g, "_");
    return new RunJournal(path.join(directory, `${safe}.json`));
  }

  /**
   * The entry, or undefined when there is no journal. A journal that does not parse, or of another
   * format, throws `JournalError`: taken as empty, it would start the run again from nothing.
   * (Journals written before the format was recorded are format 1.)
   */
  read(): JournalEntry | undefined {
    let text: string;
    try {
      text = fs.readFileSync(this.file, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new JournalError(`run journal ${this.file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); nothing was changed`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new JournalError(`run journal ${this.file}: not valid JSON (${(e as Error).message}); nothing was changed. Restore it, or remove it to forget the run`);
    }
    const entry = parsed as Partial<JournalEntry> & { format?: unknown };
    const format = entry?.format ?? 1;
    if (format !== JOURNAL_FORMAT) {
      throw new JournalError(`run journal ${this.file}: format ${JSON.stringify(format)} is not one this version reads (${JOURNAL_FORMAT}); nothing was changed. Use the fleet-update version that wrote it`);
    }
    if (typeof entry.runId !== "string" || typeof entry.identity !== "string" || typeof entry.engineState !== "object" || entry.engineState === null || !Array.isArray(entry.engineState.stages)) {
      throw new JournalError(`run journal ${this.file}: not a run journal (runId, identity and engineState are required); nothing was changed`);
    }
    return entry as JournalEntry;
  }

  /** Members' health checks are left out (their URLs may hold secrets): a resumed run takes them from its inputs. */
  write(entry: JournalEntry): void {
    this.beforeWrite?.();
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    const { undeliveredEvents, ...rest } = entry;
    const written = { format: JOURNAL_FORMAT, ...rest, engineState: withoutHealthChecks(entry.engineState), ...(undeliveredEvents === undefined || undeliveredEvents.length === 0 ? {} : { undeliveredEvents }) };
    fs.writeFileSync(temp, JSON.stringify(written));
    fs.renameSync(temp, this.file);
  }

  remove(): void {
    fs.rmSync(this.file, { force: true });
  }
}
