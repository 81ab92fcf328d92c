/**
 * When each member was Pending, read from the run's events: the status tree keeps only a member's
 * final state and its start and end, so a member that waited for its maintenance window, a version or
 * a busy cluster shows that wait only through its transitions.
 */
import type { ReportEvent } from "./schema";

export interface PendingInterval {
  start: number;
  end: number;
  /** Still Pending at the last event: the interval runs to the end of the timeline. */
  open: boolean;
  /** The reason the engine gave when the member became Pending. */
  message?: string;
}

/** Member name → its Pending intervals in time order. Intervals still open end at `timelineEnd`. */
export function memberPendingIntervals(events: readonly ReportEvent[], timelineEnd: number): Map<string, PendingInterval[]> {
  const intervals = new Map<string, PendingInterval[]>();
  const openSince = new Map<string, { start: number; message?: string }>();
  for (const event of events) {
    if (event.scope !== "member") continue;
    const at = Date.parse(event.time);
    const open = openSince.get(event.name);
    if (event.from === "Pending" && open !== undefined) {
      push(intervals, event.name, { start: open.start, end: at, open: false, ...(open.message === undefined ? {} : { message: open.message }) });
      openSince.delete(event.name);
    }
    if (event.to === "Pending") openSince.set(event.name, { start: at, ...(event.message === undefined ? {} : { message: event.message }) });
  }
  for (const [name, open] of openSince) {
    push(intervals, name, { start: open.start, end: Math.max(open.start, timelineEnd), open: true, ...(open.message === undefined ? {} : { message: open.message }) });
  }
  return intervals;
}

function push(intervals: Map<string, PendingInterval[]>, name: string, interval: PendingInterval): void {
  const list = intervals.get(name);
  if (list === undefined) intervals.set(name, [interval]);
  else list.push(interval);
}
