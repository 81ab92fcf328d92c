/**
 * The one place states change: sets the state and its times, and emits the docs/rules.md §7 event. Every
 * state change in the engine goes through `transition`, so the event stream is complete.
 */
import type { ErrorDetail, EventScope, RunEvent, UpdateState } from "../model/status";
import type { Timed } from "./runState";

export type EventSink = (event: RunEvent) => void;

/** States an item ends in: it gets a `completedTime`. */
export const ENDED_STATES: ReadonlySet<UpdateState> = new Set(["Completed", "Skipped", "Failed", "Stopped"]);

import { isoInstant as iso } from "../model/common";

/**
 * Records state changes and emits them as events. Changes made at one instant are coalesced per item
 * before they are emitted: a pass that moves a group NotStarted → Pending → Running while it looks at
 * its members emits one event, NotStarted → Running, and a change undone at the same instant emits
 * nothing. The buffer is flushed at the end of every reconcile pass (and when time moves on).
 */
export class Transitions {
  private readonly buffer = new Map<Timed, RunEvent>();
  private bufferedAt: number | undefined;

  /** Told of every change as it is made (the engine's `RunTally` keeps its counts with it). */
  onChange: ((node: Timed, from: UpdateState, to: UpdateState) => void) | undefined;
  /** Told of every call, a change or not (its error may change): the journal's changed members (issue 23). */
  onTouch: ((node: Timed, scope: EventScope) => void) | undefined;

  constructor(private readonly sink: EventSink | undefined) {}

  /**
   * Move `node` to `to` at `now` (the pass's instant). An item that ends gets a `completedTime`; one
   * that leaves an ended state (a resumed run) loses it. Start times are set by the caller, who knows
   * when processing began. `at`: when the change happened, if not at `now` — an operation's end as the
   * backend recorded it, the end of an item's last part (docs/rules.md §19); it is the `completedTime`
   * and the event's time.
   */
  transition(node: Timed, to: UpdateState, now: number, scope: EventScope, name: string, message?: string, error?: ErrorDetail, at?: number): void {
    const from = node.state;
    this.onTouch?.(node, scope);
    if (error !== undefined) node.error = error;
    else if (to !== "Failed" && node.error !== undefined) node.error = undefined;
    if (from === to) return;
    const when = at ?? now;
    if (ENDED_STATES.has(to)) node.completedTime = when;
    else if (node.completedTime !== undefined) node.completedTime = undefined;
    node.state = to;
    this.onChange?.(node, from, to);
    if (this.sink === undefined) return;
    if (this.bufferedAt !== now) this.flush();
    this.bufferedAt = now;
    const pending = this.buffer.get(node);
    if (pending === undefined) {
      this.buffer.set(node, { time: iso(when), scope, name, from, to, ...(message === undefined ? {} : { message }) });
    } else {
      // Changes coalesced in one pass: the event says when the item reached its last state.
      // Events leave this class as they are (journal, webhook, outputs): one without a message has none.
      if (message === undefined && pending.message !== undefined) this.buffer.set(node, { time: iso(when), scope, name, from: pending.from, to });
      else {
        pending.to = to;
        pending.time = iso(when);
      }
      if (message !== undefined) pending.message = message;
    }
  }

  /** What `flush` would emit now: the events of changes made but not yet emitted. */
  pending(): RunEvent[] {
    const events: RunEvent[] = [];
    for (const event of this.buffer.values()) if (event.from !== event.to) events.push({ ...event });
    return events;
  }

  /** Emit what the buffer holds, dropping changes that came back to where they started. */
  flush(): void {
    this.bufferedAt = undefined;
    if (this.buffer.size === 0) return;
    const events = [...this.buffer.values()];
    this.buffer.clear();
    for (const event of events) if (event.from !== event.to) this.sink?.(event);
  }
}
