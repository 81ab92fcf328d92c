/**
 * Server-side execution of a Fleet update run: our own engine (`UpdateRunEngine`, the rules of docs/rules.md)
 * driven inside the emulator process on the emulator's clock, by timers — not by any client
 * connection, so a client that disconnects or dies does not stop the run. User actions (start, stop,
 * skip, approve) and reconcile passes are queued one after another, so the engine never sees two at
 * once; after each pass the driver sets a real-time timer for the engine's next wake-up.
 */
import type { SkipTarget } from "../../model/skip";
import type { UpdateRunEngine } from "../../engine";
import type { Clock } from "../../engine/clock";

/** The emulator's clock and how fast it runs (simulated ms per real ms), for the driver's real-time timers. */
export interface RunClock {
  clock: Clock;
  timeScale: number;
}

/**
 * A pass that throws (not a refusal: e.g. a member's cluster is gone) is retried after this much
 * simulated time, and at least this much real time, so a fast clock does not spin on it.
 */
const RETRY_AFTER_ERROR_MS = 60_000;
const MIN_REAL_RETRY_MS = 1000;

export class RunDriver {
  private queue: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  /** When the next pass is due (its timer's instant); undefined = none (settled, or closed). */
  private wakeAt: number | undefined;
  private closed = false;
  /** The last pass's failure, if it failed (kept for diagnosis; the pass is retried). */
  lastError: Error | undefined;

  constructor(
    private readonly engine: UpdateRunEngine,
    private readonly time: RunClock,
  ) {}

  private get clock(): Clock {
    return this.time.clock;
  }

  start(): Promise<void> {
    return this.act((now) => this.engine.start(now));
  }

  stop(): Promise<void> {
    return this.act((now) => this.engine.stop(now));
  }

  /** Rejects with the engine's `SkipRefusedError` (nothing skipped) when a target is unknown or running. */
  skip(targets: readonly SkipTarget[]): Promise<void> {
    return this.act((now) => this.engine.skip(targets, now));
  }

  /** Rejects with the engine's `ApprovalRefusedError` (nothing approved) when a gate id is unknown. */
  approve(gateIds: readonly string[]): Promise<void> {
    return this.act((now) => this.engine.approve(gateIds, now));
  }

  /** When this run's next pass is due on the emulator's clock; undefined when none is (settled or closed). */
  get nextPassAt(): number | undefined {
    return this.closed ? undefined : this.wakeAt;
  }

  /**
   * Bring the run up to now before it is shown: when a wake-up is due (its timer may not have fired
   * yet), run that pass first, so a GET never shows an upgrade as running after it ended.
   */
  catchUp(): Promise<void> {
    const due = this.wakeAt;
    if (this.closed || due === undefined || due > this.clock.now()) return this.queue;
    return this.enqueue(() => this.pass());
  }

  close(): void {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * Apply a user action at the current instant, then reconcile at that same instant, as a run in
   * process does: with a second reading of the clock, a start was seen Pending for the few simulated
   * seconds between the two (the action aggregates the run before its first member starts).
   */
  private act(action: (now: number) => void): Promise<void> {
    let refused: unknown;
    const done = this.enqueue(async () => {
      const now = this.clock.now();
      try {
        action(now);
      } catch (error) {
        refused = error;
        return;
      }
      await this.pass(now);
    });
    return done.then(() => {
      if (refused !== undefined) throw refused;
    });
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.queue.then(step, step);
    this.queue = next.catch(() => undefined);
    return this.queue;
  }

  private async pass(at?: number): Promise<void> {
    if (this.closed) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.wakeAt = undefined;
    const now = at ?? this.clock.now();
    let wakeAt: number | undefined;
    try {
      wakeAt = (await this.engine.reconcile(now)).nextWakeAt;
      this.lastError = undefined;
    } catch (error) {
      this.lastError = error instanceof Error ? error : new Error(String(error));
      wakeAt = now + RETRY_AFTER_ERROR_MS;
    }
    if (this.closed || wakeAt === undefined || (this.engine.settled && this.lastError === undefined)) return;
    this.wakeAt = wakeAt;
    const untilWake = Math.max(0, (wakeAt - this.clock.now()) / this.time.timeScale);
    const delay = this.lastError === undefined ? untilWake : Math.max(untilWake, MIN_REAL_RETRY_MS);
    this.timer = setTimeout(() => void this.enqueue(() => this.pass()), Math.ceil(delay));
    // The server's socket keeps the process alive; a pending wake-up alone should not.
    this.timer.unref();
  }
}
