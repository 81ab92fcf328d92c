/**
 * Issue 11: one driver per run. A `pulumi up` killed hard (a CI timeout's SIGKILL) can leave its
 * provider host running — plugins run in their own process group — and the next `pulumi up` would start
 * a second driver on the same journal. So whoever drives a run (the Pulumi provider, `fleet-update
 * run`, `gate approve`) first takes a lease on its journal, `<journal>.lease`, with the same mechanism
 * as the simulated fleet's (`src/runtime/fileLease.ts`): held until the process ends or its driver releases it (the Pulumi
 * provider, when its call returns); a live holder
 * makes a second driver fail at once naming it (fail fast, never wait: the user decides); a holder whose
 * process is gone, or whose heartbeat stopped, is taken over.
 */
import fs from "node:fs";
import path from "node:path";
import { LeaseHeldError, STALE_AFTER_MS, acquireLease, describeHolder, isLive, readHolder, type LeaseHolder } from "../../runtime/fileLease";
import type { RunJournal } from "./journal";

export class RunInUseError extends LeaseHeldError {
  constructor(journalFile: string, holder: LeaseHolder) {
    super(
      `run '${holder.run}' is being driven by ${describeHolder(holder)} since ${holder.since} (lease ${leaseFileOf(journalFile)}${holder.heartbeat === undefined ? "" : `, heartbeat ${holder.heartbeat}`}): ` +
        `one driver per run. Run this again once it has ended — a Pulumi provider whose \`pulumi\` is gone ends by itself within seconds — or end that process; ` +
        `a lease whose process is gone or whose heartbeat is older than ${STALE_AFTER_MS / 1000} s is taken over`,
      leaseFileOf(journalFile),
      holder,
    );
    this.name = "RunInUseError";
  }
}

export function leaseFileOf(journalFile: string): string {
  return `${journalFile}.lease`;
}

/** Take the run's lease, or throw `RunInUseError`. Held until the process ends; returns an early release. */
export function acquireJournalLease(journal: RunJournal, runName: string): () => void {
  fs.mkdirSync(path.dirname(journal.file), { recursive: true });
  return acquireLease(leaseFileOf(journal.file), runName, (holder) => new RunInUseError(journal.file, holder));
}

/**
 * A forgotten run (`pulumi destroy`) leaves no lease behind: a Pulumi provider host is killed by the
 * engine when its work is done, before it can remove its lease, so the file outlives it. Removed unless
 * a live process still drives the run.
 */
export function removeJournalLeaseIfFree(journal: RunJournal): void {
  const file = leaseFileOf(journal.file);
  const holder = readHolder(file);
  if (holder === undefined || !isLive(holder)) fs.rmSync(file, { force: true });
}
