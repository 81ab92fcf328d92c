/**
 * When a ScheduledStart gate opens (issue 22, docs/rules.md §17): the next occurrence of its weekday
 * and local time, counted from the instant it is reached. If that day is today and the time has
 * passed, a week later. Pure: instants in, instants out.
 */
import type { ScheduledStartConfiguration } from "../model/strategy";

const DAY_MS = 24 * 60 * 60_000;
const DAY_INDEX: Record<ScheduledStartConfiguration["startDay"], number> = { Sunday: 0, Monday: 1, Tuesday: 2, Wednesday: 3, Thursday: 4, Friday: 5, Saturday: 6 };

/** `+01:00` → 60, `-03:30` → -210. */
function offsetMinutes(utcOffset: string): number {
  const sign = utcOffset.startsWith("-") ? -1 : 1;
  const [h, m] = utcOffset.slice(1).split(":").map(Number);
  return sign * ((h as number) * 60 + (m as number));
}

/** The first instant at or after `from` that is `startDay` at `startTime`, local to `utcOffset`. */
export function nextScheduledStart(config: ScheduledStartConfiguration, from: number): number {
  const offsetMs = offsetMinutes(config.utcOffset) * 60_000;
  // The local wall clock, read with UTC's fields.
  const local = new Date(from + offsetMs);
  const [hours, minutes] = config.startTime.split(":").map(Number);
  const todayAt = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate(), hours as number, minutes as number);
  // That weekday in this local week (Sunday..Saturday); a week later if it has passed.
  let at = todayAt + (DAY_INDEX[config.startDay] - local.getUTCDay()) * DAY_MS;
  if (at < from + offsetMs) at += 7 * DAY_MS;
  return at - offsetMs;
}
