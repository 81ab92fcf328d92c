/**
 * A refusal: a run, a gate or an import that did nothing, because what was asked cannot be done as
 * asked — the one type a command maps to its exit code (`fleet-update run` and `gate`: 2) and words as
 * lines. Each layer refuses with its own error where the reason arises (a field: `ValidationError`; a
 * skip or approval the run cannot take: the engine's; a lease another process holds: the runtime's; a
 * state file or journal that cannot be read; a spec other than the journal's run; a gate; Fleet
 * Manager's 4xx answer); `refusalOf` says which errors are refusals and words each. Anything else is a
 * failure of the world or a bug, and is not a refusal.
 */
import { ApprovalRefusedError } from "../engine/gates";
import { SkipRefusedError } from "../engine/control";
import { ValidationError } from "../model/issues";
import { LeaseHeldError } from "../runtime/fileLease";
import { FleetRequestError } from "../backends/azureFleet/requestError";
import { StateFileError } from "../backends/simulator/stateFile";
import { JournalError } from "./runRecords";
import { SpecChangedError } from "./engine/runChoice";
import { GateRefusedError } from "./runDriver";

/**
 * One line of a refusal. `field`: the spec's field path (`members[0].name`; `(root)` for the spec as a
 * whole), or a command-line flag (`--backend`); `""` when the line is about the spec but no one field;
 * absent when the line names its own subject (a lease, a file, a gate).
 */
export interface RefusalLine {
  field?: string;
  message: string;
}

export class RunRefusedError extends Error {
  constructor(readonly lines: readonly RefusalLine[]) {
    super(lines.map((l) => (l.field ? `${l.field}: ${l.message}` : l.message)).join("\n"));
    this.name = "RunRefusedError";
  }
}

/** The refusal `e` is, as lines; undefined when `e` is no refusal. */
export function refusalOf(e: unknown): RunRefusedError | undefined {
  if (e instanceof RunRefusedError) return e;
  if (e instanceof ValidationError) return new RunRefusedError(e.issues.map((i) => ({ field: i.path, message: i.message })));
  // The spec as a whole differs from the journal's run.
  if (e instanceof SpecChangedError) return new RunRefusedError([{ field: "(root)", message: e.message }]);
  // A skip naming a running item (or an unknown gate) changes nothing: the spec must change.
  if (e instanceof SkipRefusedError) return new RunRefusedError([{ field: "skip", message: e.message }]);
  if (e instanceof ApprovalRefusedError) return new RunRefusedError([{ field: "approvals", message: e.message }]);
  if (e instanceof GateRefusedError) return new RunRefusedError(e.lines.map((message) => ({ message })));
  if (e instanceof FleetRequestError && e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500 && e.statusCode !== 429) {
    return new RunRefusedError([{ field: "", message: `Fleet Manager refused: ${e.message}` }]);
  }
  // Another process drives this simulated fleet or this run; a state file or journal that cannot be read; a file not there.
  if (e instanceof LeaseHeldError || e instanceof StateFileError || e instanceof JournalError || isFileError(e)) return new RunRefusedError([{ message: (e as Error).message }]);
  return undefined;
}

function isFileError(e: unknown): boolean {
  return e instanceof Error && typeof (e as NodeJS.ErrnoException).code === "string" && typeof (e as NodeJS.ErrnoException).path === "string";
}
