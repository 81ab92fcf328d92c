/**
 * Issue 7: one simulated fleet is driven by one process at a time. The first run a process opens on a
 * fleet takes a lease on its state file — `<state file>.lock` (`src/runtime/fileLease.ts`: created
 * exclusively, naming the process, its host, the run, since when, and a heartbeat) — held until the
 * process ends (a `pulumi up`, a `fleet-update run`); a run in another process fails at once, touching
 * nothing, with a message naming the holder. Runs in one process share the fleet instance and the
 * lease. A lease left by a process that is gone (a SIGKILL), or whose heartbeat stopped, is taken over.
 *
 * On Azure the lease is ARM's own: a cluster runs one operation at a time (409 OperationNotAllowed
 * otherwise), and the engine re-reads a cluster before every step (docs/behaviour.md).
 */
import { LeaseHeldError, acquireLease, type LeaseHolder } from "../../runtime/fileLease";

export class FleetInUseError extends LeaseHeldError {
  constructor(
    readonly stateFile: string,
    holder: LeaseHolder,
  ) {
    super(
      `the simulated fleet ${stateFile} is in use by run '${holder.run}' (process ${holder.pid}) since ${holder.since}${holder.host === undefined ? "" : ` on host ${holder.host}`}: ` +
        "two processes must not drive one simulated fleet at once; run this again when that run has ended (a lock left by a process that is gone is taken over)",
      lockFileOf(stateFile),
      holder,
    );
    this.name = "FleetInUseError";
  }
}

export function lockFileOf(stateFile: string): string {
  return `${stateFile}.lock`;
}

/** Take the lease for `run`, or throw `FleetInUseError`. Returns the release (also done at process exit). */
export function acquireFleetLease(stateFile: string, run: string): () => void {
  return acquireLease(lockFileOf(stateFile), run, (holder) => new FleetInUseError(stateFile, holder));
}
