/**
 * Which run the engine driver takes up (`RunSelection`):
 * - by the stack (Pulumi): what Pulumi stored, or the journal's run when the journal is newer;
 * - by the spec (`fleet-update run`): the one in the journal when the spec still describes it (so
 *   re-running the same command resumes, whatever happened to the last process), else a new one. A
 *   journal holding an unfinished run of a different spec is not overwritten silently: that would
 *   forget a run midway; `--new` says to.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { isDone } from "../../engine/runState";
import { undelivered, type JournalEntry } from "./journal";
import type { UpdateRunInputs } from "../../spec/runSpec";
import { runIdentity } from "../../spec/identity";
import type { RunChoice } from "./session";
import type { StoredRun } from "../runDriver";

/** The journal holds an unfinished run that the spec no longer describes. */
export class SpecChangedError extends Error {}

/**
 * What makes the run the same run: its name, members, strategy and target, and which fleet it runs on.
 * Not the time scale or the credential, which only change how it is driven.
 */
export function specRunIdentity(inputs: UpdateRunInputs): string {
  const { simulator, azure } = inputs.backend;
  const backend = simulator !== undefined ? { simulator: { fleetFile: path.resolve(simulator.fleetFile) } } : { azure: { endpoint: azure?.endpoint ?? "default" } };
  return runIdentity({ ...inputs, backend });
}

export function chooseSpecRun(inputs: UpdateRunInputs, identity: string, journaled: JournalEntry | undefined, journalFile: string, startNew: boolean): RunChoice {
  if (journaled !== undefined && !startNew) {
    if (journaled.identity === identity) return { id: journaled.runId, engineState: journaled.engineState, ...undelivered(journaled) };
    const state = journaled.engineState.state;
    if (!isDone(state)) {
      throw new SpecChangedError(
        `run ${inputs.runName}: the journal ${journalFile} holds run ${journaled.runId} (${state}), started from a different spec ` +
          "(its members, strategy, target or backend differ). Run it with the spec it was started with to continue it, " +
          "or pass --new to start a new run from this spec (the old run is forgotten; clusters it upgraded are skipped as already at target).",
      );
    }
  }
  return { id: `${inputs.runName}-${randomUUID().slice(0, 8)}` };
}

/**
 * The newest state of the stack's run: the journal if it belongs to it (an interrupted call), else
 * what Pulumi stored. A create interrupted before Pulumi saw its result left only the journal: the
 * same run (same identity) is taken up from it — resumed if unfinished, reported as it ended if it
 * finished just before the interruption (not run again: its clusters would all read as Skipped).
 * A deleted run's journal is removed (`forget`), so a create after a delete starts a new run.
 */
export function chooseStackRun(runName: string, identity: string, journaled: JournalEntry | undefined, stored: StoredRun | undefined): RunChoice {
  if (stored !== undefined) {
    if (journaled?.runId === stored.id) return { id: stored.id, engineState: journaled.engineState, ...undelivered(journaled) };
    return { id: stored.id, ...(stored.engineState === undefined ? {} : { engineState: stored.engineState }) };
  }
  if (journaled !== undefined && journaled.identity === identity) {
    return { id: journaled.runId, engineState: journaled.engineState, ...undelivered(journaled) };
  }
  return { id: `${runName}-${randomUUID().slice(0, 8)}` };
}
