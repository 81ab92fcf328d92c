/**
 * Issue 7: one simulated fleet is driven by one process at a time. The first run a process opens on a
 * fleet takes a lease on its state file — `<state file>.lock`, created exclusively, naming the
 * process, the run and since when — held until the process ends (a `pulumi up`, a `fleet-update
 * run`); a run in another process fails at once, touching nothing, with a message naming the holder.
 * Runs in one process share the fleet instance and the lease. A lease left by a process that is gone
 * (a SIGKILL) is taken over.
 *
 * On Azure the lease is ARM's own: a cluster runs one operation at a time (409 OperationNotAllowed
 * otherwise), and the engine re-reads a cluster before every step (docs/behaviour.md).
 */
import fs from "node:fs";

export class FleetInUseError extends Error {
  constructor(
    readonly stateFile: string,
    readonly holder: LeaseHolder,
  ) {
    super(
      `the simulated fleet ${stateFile} is in use by run '${holder.run}' (process ${holder.pid}) since ${holder.since}: ` +
        "two processes must not drive one simulated fleet at once; run this again when that run has ended (a lock left by a process that is gone is taken over)",
    );
    this.name = "FleetInUseError";
  }
}

interface LeaseHolder {
  pid: number;
  run: string;
  since: string;
}

/** Leases this process holds, by lock file: how many runs share each. */
const held = new Map<string, number>();
let exitHookSet = false;

export function lockFileOf(stateFile: string): string {
  return `${stateFile}.lock`;
}

/** Take the lease for `run`, or throw `FleetInUseError`. Returns the release (also done at process exit). */
export function acquireFleetLease(stateFile: string, run: string): () => void {
  const lockFile = lockFileOf(stateFile);
  const mine = held.get(lockFile);
  if (mine !== undefined) {
    held.set(lockFile, mine + 1);
    return once(() => release(lockFile));
  }
  const holder: LeaseHolder = { pid: process.pid, run, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, JSON.stringify(holder), { flag: "wx" });
      held.set(lockFile, 1);
      if (!exitHookSet) {
        exitHookSet = true;
        process.once("exit", releaseAll);
      }
      return once(() => release(lockFile));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const other = readHolder(lockFile);
      if (other !== undefined && isAlive(other.pid) && other.pid !== process.pid) throw new FleetInUseError(stateFile, other);
      // Left by a process that is gone (or unreadable): take it over.
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new FleetInUseError(stateFile, readHolder(lockFile) ?? { pid: 0, run: "unknown", since: "unknown" });
}

function release(lockFile: string): void {
  const count = held.get(lockFile) ?? 0;
  if (count > 1) {
    held.set(lockFile, count - 1);
    return;
  }
  held.delete(lockFile);
  if (readHolder(lockFile)?.pid === process.pid) fs.rmSync(lockFile, { force: true });
}

/** At exit: leave no lock of ours behind. */
function releaseAll(): void {
  for (const lockFile of held.keys()) if (readHolder(lockFile)?.pid === process.pid) fs.rmSync(lockFile, { force: true });
  held.clear();
}

function readHolder(lockFile: string): LeaseHolder | undefined {
  try {
    return JSON.parse(fs.readFileSync(lockFile, "utf8")) as LeaseHolder;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
