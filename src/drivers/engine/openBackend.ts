/**
 * Opening what the engine driver drives: the backend, its clock and the run's journal. Every caller
 * (the Pulumi resources, `fleet-update run` and `gate`) opens through here, so all keep a run's
 * journal in the same place.
 */
import fs from "node:fs";
import path from "node:path";
import { openFileBackedFleet, readFleetDescription, stateFilePath } from "../../backends/simulator/fileBacked";
import { acquireFleetLease } from "../../backends/simulator/fleetLease";
import { StateFileError, readFleetState } from "../../backends/simulator/stateFile";
import { ValidationError } from "../../model/issues";
import { journalDirectory } from "./journal";
import type { ClusterBackend, MemberRef } from "../../engine/backend";
import type { Clock } from "../../engine/clock";
import { RunJournal } from "./journal";
import type { SimulatorBackendConfig, UpdateRunInputs } from "../../spec/runSpec";
import { acquireJournalLease } from "./journalLease";
import type { PlanView } from "../runDriver";

export interface OpenBackend {
  backend: ClusterBackend;
  clock: Clock;
  journal: RunJournal;
  /** The backend clock's instant for a real deadline (simulated time may run faster). */
  deadline: (realMs: number) => number;
  /** Real milliseconds from now until the backend clock reaches `instant` (for sleeps that can be cut short, and the deadline). */
  realMsUntil: (instant: number) => number;
  /**
   * Issue 30: for a clock learned from the backend's answers (ARM's), learn it before the first pass
   * (one read of `member`'s cluster), so the run's first instants are on it.
   */
  syncClock?: (member: MemberRef) => Promise<void>;
  /**
   * Real ARM never says when a version will reach a region: a member Pending for that looks again
   * this often. Undefined for the simulated world, which announces it (the engine wakes exactly then).
   */
  recheckUnknownAfterMs?: number;
  /**
   * Release the run's journal lease now rather than at process exit (issue 11): a Pulumi provider host
   * is killed by the engine when its work is done, before an exit hook could remove the lease file.
   */
  releaseJournalLease: () => void;
  /**
   * Give up this use of the backend: release its leases (the run's journal's and, on the simulator,
   * the fleet's) now rather than at exit, for a command that refuses the run after opening it.
   */
  release: () => void;
}

/**
 * How the engine driver reaches its `ClusterBackend`: the simulated fleet (`simulatorOpener`, here)
 * or ARM (`openAzure.ts`, loaded only for a run on Azure). Relative paths (the fleet file, the CA
 * file, the journal directory) are resolved against the `baseDir` the opener was made with.
 */
export interface BackendOpener {
  /**
   * Open the backend, its clock and the run's journal, taking the leases. `customNodeImageVersions`:
   * the run's Custom images (ARM only moves a pool to its region's newest image, so the Azure backend
   * counts a Custom image as offered where the newest is at or past it).
   */
  open(runName: string, customNodeImageVersions: readonly string[]): OpenBackend;
  /** The run's journal, without opening the backend (no lease, no client). */
  journal(runName: string): RunJournal;
  /** Whether a plan reads only local files. */
  readonly plansLocally: boolean;
  /** What a plan of the run reads. */
  planView(inputs: UpdateRunInputs): PlanView;
}

/** The embedded simulated fleet: its fleet file, its state file, and journals beside the state file. */
export function simulatorOpener(simulator: SimulatorBackendConfig, baseDir: string): BackendOpener {
  return {
    plansLocally: true,
    journal: (runName) => RunJournal.beside(stateFilePath(simulator, baseDir), runName),
    planView: (inputs) => {
      const fleet = readFleetDescription(path.resolve(baseDir, simulator.fleetFile));
      const state = readStateForPlan(stateFilePath(simulator, baseDir));
      return { reads: "fleetFile", inputs, fleetFile: simulator.fleetFile, fleet, ...(state === undefined ? {} : { state }) };
    },
    open: (runName) => {
      // Issue 7: one process at a time drives a simulated fleet; the lease is held until this process
      // ends (a `pulumi up`, a `fleet-update run`). Azure's lease is ARM's own (fleetLease.ts).
      const releaseFleetLease = acquireFleetLease(stateFilePath(simulator, baseDir), runName);
      try {
        const { fleet, clock, stateFile, flush, store } = openFileBackedFleet(simulator, baseDir);
        const journal = RunJournal.beside(stateFile, runName);
        // Opening wrote nothing. Issue 23: before the journal writes, the fleet's changes (and the
        // clock's anchor) are made durable, in one append; before they are, the journal's intents.
        journal.beforeWrite = flush;
        journal.deferIntents = true;
        store.beforeFlush.set(journal.file, () => journal.syncIntents());
        const releaseJournalLease = acquireJournalLease(journal, runName);
        return {
          backend: fleet,
          clock,
          journal,
          releaseJournalLease,
          release: () => {
            releaseJournalLease();
            releaseFleetLease();
          },
          deadline: (realMs) => clock.toSimulated(realMs),
          realMsUntil: (instant) => clock.toReal(instant) - Date.now(),
        };
      } catch (e) {
        // A fleet file or state file that cannot be used refuses the run: its lease goes with it.
        releaseFleetLease();
        throw e;
      }
    },
  };
}

/** The state file as a plan reads it: never written nor created; one that cannot be read names the field. */
function readStateForPlan(file: string) {
  try {
    return readFleetState(file);
  } catch (e) {
    if (e instanceof StateFileError) throw new ValidationError([{ path: "backend.simulator.stateFile", message: e.message }]);
    throw e;
  }
}

/**
 * Forget what the simulated clusters went through (`fleet-update reset-fleet`): the state file and the
 * run journals beside it. Returns the state file and whether there was anything to remove.
 */
export function resetSimulatedFleet(simulator: SimulatorBackendConfig, baseDir: string): { stateFile: string; existed: boolean } {
  const stateFile = stateFilePath(simulator, baseDir);
  const journals = journalDirectory(stateFile);
  const existed = fs.existsSync(stateFile) || fs.existsSync(journals);
  fs.rmSync(stateFile, { force: true });
  fs.rmSync(journals, { recursive: true, force: true });
  return { stateFile, existed };
}
