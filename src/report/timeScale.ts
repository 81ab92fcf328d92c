/**
 * The timeline's horizontal axis: from the earliest to the latest instant the run mentions (its
 * items' times, its events, its gates), as percentages, with ticks at round UTC steps.
 */
import { formatTick } from "./format";
import type { ReportEvent, ReportStatus } from "./schema";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const TICK_STEPS = [MINUTE, 5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY];
const MAX_TICKS = 12;

export class TimeScale {
  constructor(
    readonly start: number,
    readonly end: number,
  ) {}

  /** Where `instant` sits, as a CSS percentage with three decimals (fixed, so output is deterministic). */
  position(instant: number): string {
    return `${this.percent(instant).toFixed(3)}%`;
  }

  /** The width from `from` to `to`, as a CSS percentage. */
  width(from: number, to: number): string {
    return `${Math.max(0, this.percent(to) - this.percent(from)).toFixed(3)}%`;
  }

  /** Round UTC instants inside the range, at most `MAX_TICKS` of them. */
  ticks(): Array<{ at: number; label: string }> {
    const span = this.end - this.start;
    const step = TICK_STEPS.find((s) => span / s <= MAX_TICKS) ?? Math.ceil(span / MAX_TICKS / DAY) * DAY;
    const out: Array<{ at: number; label: string }> = [];
    for (let at = Math.ceil(this.start / step) * step; at <= this.end; at += step) out.push({ at, label: formatTick(at, step % DAY === 0) });
    return out;
  }

  private percent(instant: number): number {
    return ((instant - this.start) / (this.end - this.start)) * 100;
  }
}

/** The scale that holds every instant of `status` and `events`; an instantless run gets an hour from the epoch. */
export function timeScaleFor(status: ReportStatus, events: readonly ReportEvent[] | undefined): TimeScale {
  let min = Infinity;
  let max = -Infinity;
  const see = (time: string | undefined) => {
    if (time === undefined) return;
    const at = Date.parse(time);
    if (at < min) min = at;
    if (at > max) max = at;
  };
  const seeStatus = (s: { startTime?: string | undefined; completedTime?: string | undefined }) => {
    see(s.startTime);
    see(s.completedTime);
  };
  const seeGates = (g: { beforeGates?: Array<{ status: { startTime?: string; completedTime?: string } }>; afterGates?: Array<{ status: { startTime?: string; completedTime?: string } }> }) => {
    for (const gate of [...(g.beforeGates ?? []), ...(g.afterGates ?? [])]) seeStatus(gate.status);
  };
  seeStatus(status.status);
  for (const stage of status.stages) {
    seeStatus(stage.status);
    seeGates(stage);
    if (stage.afterStageWaitStatus !== undefined) seeStatus(stage.afterStageWaitStatus.status);
    for (const group of stage.groups) {
      seeStatus(group.status);
      seeGates(group);
      for (const member of group.members) seeStatus(member.status);
    }
  }
  for (const event of events ?? []) see(event.time);
  if (min === Infinity) return new TimeScale(0, HOUR);
  // A run of one instant still needs a visible width.
  return new TimeScale(min, max > min ? max : min + HOUR);
}
