/**
 * Drives an engine on a `Clock` until it settles or a horizon: applies user actions at their
 * instants, reconciles, and sleeps until the next thing can happen. With a `VirtualClock` a week of
 * rollout takes milliseconds; with a real clock it waits for real.
 */
import type { SkipTarget } from "../model/skip";
import type { Clock } from "./clock";
import type { UpdateRunEngine } from "./engine";

export type RunAction = { at: number } & ({ start: true } | { stop: true } | { skip: SkipTarget[] } | { approve: string[] });

export interface DriveOptions {
  /** Stop driving at this instant even if the run goes on (statuses are reported as they are then). */
  until?: number;
  /**
   * The caller's own deadline, when it is not an instant of `clock` (real time, while the clock
   * follows a backend's): whether waking at `instant` would be past it. Driving stops instead.
   */
  pastDeadline?: (instant: number) => boolean;
  /** User actions, in the order to apply them; several at one instant apply in order. */
  actions?: readonly RunAction[];
  /** Called after every reconcile pass (e.g. to journal the engine's state). */
  onPass?: () => void;
  /** A user action that is refused (e.g. skipping a running member) is reported here, not thrown. */
  onActionRefused?: (action: RunAction, error: Error) => void;
  /**
   * Issue 5: return early when nothing is in flight and the next step is further away than this
   * (ms) — a long wait, a closed window — or unknown (a gate waiting for approval).
   */
  returnWhenIdleFor?: number;
}

export async function drive(engine: UpdateRunEngine, clock: Clock, options: DriveOptions = {}): Promise<void> {
  const until = options.until ?? Number.POSITIVE_INFINITY;
  const pending = [...(options.actions ?? [])].sort((a, b) => a.at - b.at);
  for (;;) {
    const now = clock.now();
    // Actions first: "stop at 02:00" means nothing new starts at 02:00.
    while (pending.length > 0 && (pending[0] as RunAction).at <= now) apply(engine, pending.shift() as RunAction, now, options);
    const { nextWakeAt } = await engine.reconcile(now);
    options.onPass?.();
    const nextAction = pending[0]?.at;
    if (engine.settled && nextAction === undefined) return;
    const next = Math.min(nextWakeAt ?? Number.POSITIVE_INFINITY, nextAction ?? Number.POSITIVE_INFINITY);
    if (next === Number.POSITIVE_INFINITY || next > until || options.pastDeadline?.(next) === true) return;
    if (options.returnWhenIdleFor !== undefined && !engine.busy && next - now > options.returnWhenIdleFor) return;
    await clock.sleepUntil(Math.max(next, now));
  }
}

function apply(engine: UpdateRunEngine, action: RunAction, now: number, options: DriveOptions): void {
  try {
    if ("start" in action) engine.start(now);
    else if ("stop" in action) engine.stop(now);
    else if ("approve" in action) engine.approve(action.approve, now);
    else engine.skip(action.skip, now);
  } catch (e) {
    if (options.onActionRefused === undefined) throw e;
    options.onActionRefused(action, e as Error);
  }
}
