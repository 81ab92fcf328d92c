/**
 * Which run `fleet-update run` drives: the one in the journal when the spec still describes it (so
 * re-running the same command resumes, whatever happened to the last process), else a new one. A
 * journal holding an unfinished run of a different spec is not overwritten silently: that would
 * forget a run midway; `--new` says to.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { isDone } from "../engine/runState";
import { undelivered, type JournalEntry } from "../drivers/journal";
import type { UpdateRunInputs } from "../spec/runSpec";
import { runIdentity } from "../spec/identity";
import type { RunChoice } from "../drivers/session";

/** The journal holds an unfinished run that the spec no longer describes. */
export class SpecChangedError extends Error {}

/**
 * What makes the run the same run: its name, members, strategy and target, and which fleet it runs on.
 * Not the time scale or the credential, which only change how it is driven.
 */
export function cliRunIdentity(inputs: UpdateRunInputs): string {
  const { simulator, azure } = inputs.backend;
  const backend = simulator !== undefined ? { simulator: { fleetFile: path.resolve(simulator.fleetFile) } } : { azure: { endpoint: azure?.endpoint ?? "default" } };
  return runIdentity({ ...inputs, backend });
}

export function chooseCliRun(inputs: UpdateRunInputs, identity: string, journaled: JournalEntry | undefined, journalFile: string, startNew: boolean): RunChoice {
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
