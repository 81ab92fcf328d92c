/**
 * A lease on something on disk, held by one process at a time: a lock file created exclusively,
 * naming the holder (pid, host, run, since) and refreshed by a heartbeat while the process lives.
 * Used for a simulated fleet (`src/backends/simulator/fleetLease.ts`) and for a run's journal
 * (`src/drivers/engine/journalLease.ts`, issue 11).
 *
 * - Held until the process ends (released at exit), shared by every user within the process.
 * - A live holder makes `acquireLease` fail at once with the caller's error naming it (fail fast:
 *   nothing is touched, the user decides — wait, or end that process).
 * - A dead holder is taken over: its process is gone (same host), or its heartbeat is older than
 *   `STALE_AFTER_MS` (a process on another host sharing the folder, a hung process, a reused pid).
 */
import fs from "node:fs";
import os from "node:os";

/** How often a holder refreshes its heartbeat. */
export const HEARTBEAT_MS = 10_000;
/** A heartbeat older than this means the holder is gone (six missed beats). */
export const STALE_AFTER_MS = 60_000;

export interface LeaseHolder {
  pid: number;
  /** `os.hostname()` of the holder; absent in locks written before it was recorded (same host assumed). */
  host?: string;
  run: string;
  since: string;
  /** Last refresh (ISO 8601); absent in locks written before heartbeats (the pid alone decides). */
  heartbeat?: string;
}

/** The lease is held by a live process. Callers throw a subclass whose message says what is in use. */
export class LeaseHeldError extends Error {
  constructor(
    message: string,
    readonly lockFile: string,
    readonly holder: LeaseHolder,
  ) {
    super(message);
    this.name = "LeaseHeldError";
  }
}

/** `process 123 on host ci-7`: who holds a lease. */
export function describeHolder(holder: LeaseHolder): string {
  return `process ${holder.pid}${holder.host === undefined ? "" : ` on host ${holder.host}`}`;
}

interface Held {
  users: number;
  holder: LeaseHolder;
}

/** Leases this process holds, by lock file. */
const held = new Map<string, Held>();
let heartbeat: NodeJS.Timeout | undefined;
let exitHookSet = false;

/**
 * Take the lease on `lockFile` for `run`, or throw `inUse(holder)` when a live process holds it.
 * Returns the release of this use (the lock goes when the last use is released, or at exit).
 */
export function acquireLease(lockFile: string, run: string, inUse: (holder: LeaseHolder) => LeaseHeldError): () => void {
  const mine = held.get(lockFile);
  if (mine !== undefined) {
    mine.users += 1;
    return once(() => release(lockFile));
  }
  const now = new Date().toISOString();
  const holder: LeaseHolder = { pid: process.pid, host: os.hostname(), run, since: now, heartbeat: now };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(lockFile, JSON.stringify(holder), { flag: "wx" });
      held.set(lockFile, { users: 1, holder });
      startHeartbeat();
      return once(() => release(lockFile));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const other = readHolder(lockFile);
      if (other !== undefined && isLive(other)) throw inUse(other);
      // Left by a holder that is gone (or unreadable): take it over — unless it changed meanwhile.
      if (JSON.stringify(readHolder(lockFile)) === JSON.stringify(other)) fs.rmSync(lockFile, { force: true });
    }
  }
  const other = readHolder(lockFile);
  throw inUse(other ?? { pid: 0, run: "unknown", since: "unknown" });
}

/** Whether the holder counts as alive (see the module comment). */
export function isLive(holder: LeaseHolder, now: number = Date.now()): boolean {
  if (holder.pid === process.pid && (holder.host === undefined || holder.host === os.hostname())) return false; // ours, not in `held`: a leftover
  if (holder.heartbeat !== undefined && now - Date.parse(holder.heartbeat) > STALE_AFTER_MS) return false;
  if (holder.host !== undefined && holder.host !== os.hostname()) return holder.heartbeat !== undefined;
  return processExists(holder.pid);
}

export function readHolder(lockFile: string): LeaseHolder | undefined {
  try {
    return JSON.parse(fs.readFileSync(lockFile, "utf8")) as LeaseHolder;
  } catch {
    return undefined;
  }
}

function isOurs(lockFile: string, holder: LeaseHolder): boolean {
  const current = readHolder(lockFile);
  return current?.pid === holder.pid && current.host === holder.host && current.since === holder.since;
}

function release(lockFile: string): void {
  const mine = held.get(lockFile);
  if (mine === undefined) return;
  if (mine.users > 1) {
    mine.users -= 1;
    return;
  }
  held.delete(lockFile);
  if (isOurs(lockFile, mine.holder)) fs.rmSync(lockFile, { force: true });
  if (held.size === 0) stopHeartbeat();
}

/** At exit (including `process.exit`): leave no lock of ours behind. */
function releaseAll(): void {
  for (const [lockFile, mine] of held) if (isOurs(lockFile, mine.holder)) fs.rmSync(lockFile, { force: true });
  held.clear();
  stopHeartbeat();
}

function startHeartbeat(): void {
  if (!exitHookSet) {
    exitHookSet = true;
    process.once("exit", releaseAll);
  }
  if (heartbeat !== undefined) return;
  heartbeat = setInterval(beat, HEARTBEAT_MS);
  heartbeat.unref();
}

function stopHeartbeat(): void {
  if (heartbeat !== undefined) clearInterval(heartbeat);
  heartbeat = undefined;
}

function beat(): void {
  for (const [lockFile, mine] of held) {
    // A lease taken over meanwhile (this process looked dead) is not written back.
    if (!isOurs(lockFile, mine.holder)) continue;
    mine.holder.heartbeat = new Date().toISOString();
    const temp = `${lockFile}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(temp, JSON.stringify(mine.holder));
      fs.renameSync(temp, lockFile);
    } catch {
      // A folder gone or read-only: the next beat tries again.
    }
  }
}

function processExists(pid: number): boolean {
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
