/**
 * The run journal: the engine's state written after every reconcile pass, beside the backend's own
 * state. Pulumi records a resource only when create returns, so a `pulumi up` killed mid-create
 * leaves no trace in the stack; the next create finds the journal and resumes the same run instead of
 * starting a second one — no cluster is upgraded twice and the status stays truthful.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { RunState } from "../engine/runState";
import { withoutHealthChecks } from "../session/healthChecks";

export interface JournalEntry {
  /** The Pulumi resource id of the run this journal belongs to. */
  runId: string;
  /** Hash of the inputs that define the run (`RUN_IDENTITY_FIELDS`). */
  identity: string;
  engineState: RunState;
}

/** Key-order-independent JSON, so the same inputs always hash alike. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function identityHash(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex").slice(0, 16);
}

/** Where the journals of runs over the fleet whose state is in `stateFile` live. */
export function journalDirectory(stateFile: string): string {
  return `${stateFile.replace(/\.json$/, "")}.runs`;
}

export class RunJournal {
  constructor(readonly file: string) {}

  static beside(stateFile: string, runName: string): RunJournal {
    return RunJournal.in(journalDirectory(stateFile), runName);
  }

  static in(directory: string, runName: string): RunJournal {
    const safe = runName.replace(/[^A-Za-z0-9._-]/g, "_");
    return new RunJournal(path.join(directory, `${safe}.json`));
  }

  read(): JournalEntry | undefined {
    try {
      return JSON.parse(fs.readFileSync(this.file, "utf8")) as JournalEntry;
    } catch {
      return undefined;
    }
  }

  /** Members' health checks are left out (their URLs may hold secrets): a resumed run takes them from its inputs. */
  write(entry: JournalEntry): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify({ ...entry, engineState: withoutHealthChecks(entry.engineState) }));
    fs.renameSync(temp, this.file);
  }

  remove(): void {
    fs.rmSync(this.file, { force: true });
  }
}
