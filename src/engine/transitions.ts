/**
 * The one place states change: sets the state and its times, and emits the docs/rules.md §7 event. Every
 * state change in the engine goes through `transition`, so the event stream is complete.
 */
import type { ErrorDetail, EventScope, RunEvent, UpdateState } from "../model/status";
import type { Timed } from "./runState";
import { renderMeasurement, type AnalysisPhase, type AnalysisRunState, type FailedAnalysis, type MeasurementState } from "./analysis";

export type EventSink = (event: RunEvent) => void;

/** An ended analysis's phase as an item state in events: Successful is Completed; Failed, Inconclusive and Error are Failed. */
function analysisState(phase: Exclude<AnalysisPhase, "Running">): UpdateState {
  return phase === "Successful" ? "Completed" : "Failed";
}

/** A state change that came back where it started is dropped; a measurement is an event by itself. */
function kept(event: RunEvent): boolean {
  return event.from !== event.to || event.measurement !== undefined;
}

/** States an item ends in: it gets a `completedTime`. */
export const ENDED_STATES: ReadonlySet<UpdateState> = new Set(["Completed", "Skipped", "Failed", "Stopped"]);

import { isoInstant as iso } from "../model/instants";

/**
 * Records state changes and emits them as events. Changes made at one instant are coalesced per item
 * before they are emitted: a pass that moves a group NotStarted → Pending → Running while it looks at
 * its members emits one event, NotStarted → Running, and a change undone at the same instant emits
 * nothing. The buffer is flushed at the end of every reconcile pass (and when time moves on).
 */
export class Transitions {
  /** Keyed by the item changed; an analysis's measurement events by the measurement (each its own event). */
  private readonly buffer = new Map<object, RunEvent>();
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
   * backend recorded it, the end of an item's last part (docs/rules.md §20); it is the `completedTime`
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

  /**
   * Issue 31: an analysis starts (`name`: its id, docs/rules.md §19): an event NotStarted → Running.
   * Its phase is Running from `startAnalysis`; nothing else changes here.
   */
  analysisStarted(analysis: AnalysisRunState, name: string, now: number, message: string): void {
    this.emitNow(analysis, now, { time: iso(now), scope: "analysis", name, from: "NotStarted", to: "Running", message });
  }

  /**
   * Issue 31: a measurement was recorded (`recordMeasurement`); with `ended`, the analysis ends with
   * that verdict now. Every measurement is an event of its own, carrying it.
   */
  measured(analysis: AnalysisRunState, name: string, measurement: MeasurementState, now: number, ended: Exclude<AnalysisPhase, "Running"> | undefined): void {
    if (ended !== undefined) this.endAnalysis(analysis, ended, now);
    const to = ended === undefined ? "Running" : analysisState(ended);
    this.emitNow(measurement, now, { time: iso(now), scope: "analysis", name, from: "Running", to, ...(measurement.message === undefined ? {} : { message: measurement.message }), measurement: renderMeasurement(measurement) });
  }

  /** Issue 31: an analysis ends without a measurement (its template is no longer declared). */
  analysisEnded(analysis: AnalysisRunState, name: string, phase: Exclude<AnalysisPhase, "Running">, now: number, message: string): void {
    this.endAnalysis(analysis, phase, now);
    analysis.message = message;
    this.emitNow(analysis, now, { time: iso(now), scope: "analysis", name, from: "Running", to: analysisState(phase), message });
  }

  /**
   * Issue 31: a failed analysis is set aside to be measured again from the beginning (a start after
   * its failure): an event from Failed back to NotStarted; its successor starts from there.
   */
  analysisReset(analysis: FailedAnalysis, name: string, now: number, message: string): void {
    this.emitNow(analysis, now, { time: iso(now), scope: "analysis", name, from: "Failed", to: "NotStarted", message });
  }

  private endAnalysis(analysis: AnalysisRunState, phase: Exclude<AnalysisPhase, "Running">, now: number): void {
    analysis.phase = phase;
    analysis.finishedAt = now;
    analysis.nextMeasurementAt = undefined;
  }

  /** An event that is not a coalesced state change: buffered in order with the rest of the instant's. */
  private emitNow(key: object, now: number, event: RunEvent): void {
    if (this.sink === undefined) return;
    if (this.bufferedAt !== now) this.flush();
    this.bufferedAt = now;
    this.buffer.set(key, event);
  }

  /** What `flush` would emit now: the events of changes made but not yet emitted. */
  pending(): RunEvent[] {
    const events: RunEvent[] = [];
    for (const event of this.buffer.values()) if (kept(event)) events.push({ ...event });
    return events;
  }

  /** Emit what the buffer holds, dropping changes that came back to where they started. */
  flush(): void {
    this.bufferedAt = undefined;
    if (this.buffer.size === 0) return;
    const events = [...this.buffer.values()];
    this.buffer.clear();
    for (const event of events) if (kept(event)) this.sink?.(event);
  }
}
