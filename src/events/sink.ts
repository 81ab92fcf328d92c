/**
 * Where a run's events go besides the engine's own `onEvent`: a journal file, a webhook. The engine
 * calls `onEvent` synchronously in the middle of a reconcile pass, so a sink takes an event without
 * waiting and without throwing; what it could not do is told by `close()`.
 */
import type { RunEvent } from "../model/status";

export interface RunEventSink {
  /** Take one event, in the order the engine emitted it. Returns at once; never throws. */
  write(event: RunEvent): void;
  /**
   * A resumed run's undelivered events (`JournalEntry.undeliveredEvents`), which the last process may
   * have delivered in part before it stopped: a sink that keeps what it took delivers only those it
   * does not have yet; without this method they are written again (at least once).
   */
  redeliver?(events: readonly RunEvent[]): void;
  /** Finish (deliver what is queued, within the sink's bound) and release resources. Safe to call twice. */
  close(): Promise<SinkReport>;
}

/** What a sink did, for the command to report. `problems` never contain secrets. */
export interface SinkReport {
  written: number;
  problems: string[];
}

/**
 * How many of `lines` (a resumed run's undelivered events, as JSON lines) a sink already took: the
 * last process took them in order, so they are the sink's last lines (`taken`) and the first of `lines`.
 */
export function alreadyTaken(taken: readonly string[], lines: readonly string[]): number {
  const tail = taken.slice(-lines.length);
  let have = Math.min(tail.length, lines.length);
  while (have > 0 && !tail.slice(tail.length - have).every((line, i) => line === lines[i])) have -= 1;
  return have;
}

/** Hand a resumed run's undelivered events to every sink (`RunEventSink.redeliver`). */
export function redeliverTo(sinks: readonly RunEventSink[], events: readonly RunEvent[]): void {
  for (const sink of sinks) {
    if (sink.redeliver !== undefined) sink.redeliver(events);
    else for (const event of events) sink.write(event);
  }
}

/** One `onEvent` for several sinks. */
export function fanOut(sinks: readonly RunEventSink[]): (event: RunEvent) => void {
  return (event) => {
    for (const sink of sinks) sink.write(event);
  };
}
