/**
 * What a driver keeps on disk beside a run, whichever wing drives it: where those files live for a
 * backend without a state file of its own, and the refusal of one that cannot be read. The engine's
 * run journal (`engine/journal.ts`) and a Fleet Manager client's record of what it told
 * (`fleet/fleetSeen.ts`) both live there, and both refuse a file they cannot read rather than take it
 * as empty (docs/rules.md §14).
 */
import path from "node:path";

/** Where run journals live for backends without a state file of their own (ARM, Fleet Manager). */
export const JOURNAL_DIRECTORY = path.join(".fleet-update", "runs");

/** A run's file that cannot be read, or that a newer version wrote: the run is refused, naming the file. */
export class JournalError extends Error {}
