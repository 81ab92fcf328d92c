/**
 * When an AKS maintenance window is open. Pure functions: no I/O, no clock, no timers; instants are
 * epoch milliseconds (UTC).
 *
 * Semantics (product decisions, pinned by `test/engine/maintenanceWindow.test.ts`):
 *
 * - Local time. All schedule arithmetic happens in the window's local time, UTC + `utcOffset`
 *   (default `+00:00`; a fixed offset, no daylight saving). An occurrence on local date D opens at
 *   D + `startTime` and lasts `durationHours`, so it may cross midnight, a month end or a year end.
 *   Local instants become UTC by subtracting the offset.
 * - Anchor. The anchor is `startDate` if given, else 1970-01-01 (local).
 *   - daily: the anchor date and every `intervalDays` days after it;
 *   - weekly: the first `dayOfWeek` on or after the anchor date and every `intervalWeeks` weeks after;
 *   - absoluteMonthly / relativeMonthly: in the anchor's month and every `intervalMonths` months after.
 *   absoluteMonthly clamps a `dayOfMonth` past the month's end to its last day (31 = the last day of
 *   every month): a window never silently skips a month. relativeMonthly is the First..Fourth
 *   `dayOfWeek` of the month, or the Last one (the fifth, in months that have five).
 * - Never before `startDate`. Occurrences that would start before local midnight of `startDate` are
 *   dropped (never clipped).
 * - `notAllowedDates`. Each span blocks the whole local days `start..end` inclusive, and blocked time
 *   is cut out of the occurrences: one that runs into a blocked day closes at that day's local
 *   midnight; one that starts on a blocked day opens when the block ends (the next local midnight),
 *   if that is still within its duration.
 * - Merging. Occurrences that touch or overlap are merged, so a reported interval does not end just
 *   to reopen at the same instant (daily, every day, 24 hours is always open). Merging goes forward
 *   only: an open interval starts where the occurrence containing the instant (or the part of it
 *   left by `notAllowedDates`) starts, even if the window was already open just before it. It stops
 *   after `MAX_MERGED_OCCURRENCES` occurrences so an always-open window still gets an answer; the
 *   reported end is then a lower bound (the window is still open there).
 * - Horizon. Occurrences on local dates more than `HORIZON_DAYS` (about 10 years) after the
 *   instant's local date are not looked at: "never opens again" means "not within 10 years".
 *
 * Performance: called for every member on every scheduling decision. Each call jumps straight to
 * the period around the instant with arithmetic on the anchor, looks at a handful of occurrences,
 * and allocates only a few small objects.
 */
import type { DayOfWeek, MaintenanceWindow, WeekIndex } from "../model/maintenanceWindow";

/** An interval during which the window is open: [start, end) in epoch ms. */
export interface WindowInterval {
  start: number;
  end: number;
}

export interface WindowState {
  open: boolean;
  /** When open: the (merged) interval containing the instant. When closed: the next interval, or undefined if it never opens again (within the search horizon). */
  interval?: WindowInterval;
}

/** At most this many consecutive occurrences are merged into one reported interval. */
export const MAX_MERGED_OCCURRENCES = 400;

/** How far after the instant's local date occurrences are looked for (10 years and some leap days). */
const HORIZON_DAYS = 3653;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** Days in 400 Gregorian years: the calendar repeats exactly after them. */
const DAYS_PER_400_YEARS = 146_097;
/** 1970-01-01, day 0, was a Thursday (Sunday = 0, as in `DAYS_OF_WEEK`). */
const WEEKDAY_OF_DAY_ZERO = 4;

const WEEKDAY_NUMBER: Record<DayOfWeek, number> = {
  Sunday: 0,
  Monday: 1,
  Tuesday: 2,
  Wednesday: 3,
  Thursday: 4,
  Friday: 5,
  Saturday: 6,
};
/** relativeMonthly: which `dayOfWeek` of the month, as whole weeks after the first one; Last is LAST_WEEK. */
const LAST_WEEK = -1;
const WEEKS_AFTER_FIRST: Record<WeekIndex, number> = { First: 0, Second: 1, Third: 2, Fourth: 3, Last: LAST_WEEK };

/**
 * Which local days occurrences fall on. Days are "local day numbers": whole days since local
 * 1970-01-01. Months are "month numbers": year * 12 + zero-based month.
 */
type Cadence =
  /** daily and weekly: every `periodDays` days from `firstDay`. */
  | { kind: "periodic"; firstDay: number; periodDays: number }
  /** Every `intervalMonths` months from `anchorMonth`, on a day of the month... */
  | { kind: "absoluteMonthly"; anchorMonth: number; intervalMonths: number; dayOfMonth: number }
  /** ...or on a weekday of the month. */
  | { kind: "relativeMonthly"; anchorMonth: number; intervalMonths: number; weekday: number; weeksAfterFirst: number };
type MonthlyCadence = Exclude<Cadence, { kind: "periodic" }>;

/** A window with its strings parsed into numbers, for one call. */
interface PreparedWindow {
  cadence: Cadence;
  offsetMs: number;
  /** `startTime` as ms after local midnight. */
  startTimeMs: number;
  durationMs: number;
  /** Local day of the anchor; no occurrence starts before it. */
  firstDay: number;
  /** `notAllowedDates` as inclusive local day numbers. */
  blockedDays: readonly BlockedDays[];
}

interface BlockedDays {
  first: number;
  last: number;
}

/** The first (merged) open interval whose end is after t (it contains t, or starts after t). undefined = never opens again within ~10 years. */
export function nextOpenInterval(window: MaintenanceWindow, t: number): WindowInterval | undefined {
  if (!Number.isFinite(t)) throw new RangeError(`instant must be a finite number of epoch ms, got ${t}`);
  const w = prepare(window);
  const instantDay = localDayOf(w, t);
  const lastDay = instantDay + HORIZON_DAYS;
  // Occurrences last at most 24 hours, so the earliest one that can still be open at t started on
  // the local day before t's.
  let day = firstOccurrenceOnOrAfter(w, instantDay - 1);
  // False for NaN too, so a malformed window ends the loop rather than spinning.
  while (day <= lastDay) {
    const part = openPartOfOccurrence(w, day);
    if (part !== undefined && part.end > t) return { start: part.start, end: mergedEnd(w, day, part.end) };
    // Occurrences that start inside the rest of a blocked span are blocked whole (they reach at
    // most into the next day); skip them. The one on the span's last day may reach past it.
    day = firstOccurrenceOnOrAfter(w, Math.max(day + 1, lastBlockedDayFrom(w, day)));
  }
  return undefined;
}

export function windowStateAt(window: MaintenanceWindow, t: number): WindowState {
  const interval = nextOpenInterval(window, t);
  if (interval === undefined) return { open: false };
  return { open: interval.start <= t, interval };
}

/**
 * The end of the open interval that begins with the open part of the occurrence on `day` (which
 * ends at `end`), merging forward through the occurrences that touch it.
 *
 * Occurrences start at least a day apart and last at most 24 hours, so they touch only when the
 * window is daily, every day, for 24 hours. Such a window stays open from one occurrence into the
 * next until the first blocked day's local midnight, or until the merge cap. That end is computed
 * directly rather than by stepping through up to 400 occurrences, as "always open" is a common
 * configuration.
 */
function mergedEnd(w: PreparedWindow, day: number, end: number): number {
  const occurrencesTouch = w.cadence.kind === "periodic" && w.cadence.periodDays === 1 && w.durationMs === DAY_MS;
  if (!occurrencesTouch) return end;
  const mergeCapEnd = occurrenceStart(w, day) + MAX_MERGED_OCCURRENCES * DAY_MS;
  return Math.min(mergeCapEnd, localMidnight(w, firstBlockedDayAfter(w, day)));
}

/**
 * The part of the occurrence on local `day` that `notAllowedDates` leaves open, or undefined if it
 * is blocked whole. An occurrence lasts at most 24 hours, so it covers its own day and at most the
 * next one.
 */
function openPartOfOccurrence(w: PreparedWindow, day: number): WindowInterval | undefined {
  const start = occurrenceStart(w, day);
  const end = start + w.durationMs;
  const nextMidnight = localMidnight(w, day + 1);
  const reachesNextDay = end > nextMidnight;
  if (isBlocked(w, day)) return reachesNextDay && !isBlocked(w, day + 1) ? { start: nextMidnight, end } : undefined;
  if (reachesNextDay && isBlocked(w, day + 1)) return { start, end: nextMidnight };
  return { start, end };
}

/** When the occurrence on local `day` starts, before `notAllowedDates` (epoch ms). */
function occurrenceStart(w: PreparedWindow, day: number): number {
  return localMidnight(w, day) + w.startTimeMs;
}

/** The instant local `day` begins (epoch ms); Infinity for day Infinity. */
function localMidnight(w: PreparedWindow, day: number): number {
  return day * DAY_MS - w.offsetMs;
}

function isBlocked(w: PreparedWindow, day: number): boolean {
  return lastBlockedDayFrom(w, day) >= day;
}

/** The last day of the blocked spans containing `day`, or `day - 1` if `day` is not blocked. */
function lastBlockedDayFrom(w: PreparedWindow, day: number): number {
  let last = day - 1;
  // A span that ended before `day` leaves `last` as it is.
  for (const span of w.blockedDays) if (span.first <= day) last = Math.max(last, span.last);
  return last;
}

/**
 * The first blocked day after `day`, or Infinity if none. Asked only for a day whose occurrence has
 * an open part: if `day` is blocked, the next day is not, so no span that begins on or before `day`
 * reaches past it.
 */
function firstBlockedDayAfter(w: PreparedWindow, day: number): number {
  let first = Infinity;
  for (const span of w.blockedDays) if (span.first > day) first = Math.min(first, span.first);
  return first;
}

/** The local day of the first occurrence on or after local `day` (and never before the anchor). */
function firstOccurrenceOnOrAfter(w: PreparedWindow, day: number): number {
  const from = Math.max(day, w.firstDay);
  const c = w.cadence;
  if (c.kind === "periodic") {
    // `from` is at most 6 days before a weekly cadence's first day (never before a daily one's): the
    // ceiling is then 0, and the answer that first day.
    return c.firstDay + Math.ceil((from - c.firstDay) / c.periodDays) * c.periodDays;
  }
  // The first scheduled month not before `from`'s month. Its occurrence may still fall before
  // `from` (or before the anchor day, in the anchor's month); the next scheduled month's cannot.
  const periods = Math.max(0, Math.ceil((monthOfDay(from) - c.anchorMonth) / c.intervalMonths));
  const candidate = occurrenceDayInMonth(c, c.anchorMonth + periods * c.intervalMonths);
  return candidate >= from ? candidate : occurrenceDayInMonth(c, c.anchorMonth + (periods + 1) * c.intervalMonths);
}

function occurrenceDayInMonth(c: MonthlyCadence, month: number): number {
  const first = firstDayOfMonth(month);
  const length = firstDayOfMonth(month + 1) - first;
  // Clamped, so that 29..31 mean "the last day" in shorter months rather than skipping them.
  if (c.kind === "absoluteMonthly") return first + Math.min(c.dayOfMonth, length) - 1;
  if (c.weeksAfterFirst === LAST_WEEK) {
    const last = first + length - 1;
    return last - mod(weekdayOf(last) - c.weekday, 7);
  }
  return first + mod(c.weekday - weekdayOf(first), 7) + 7 * c.weeksAfterFirst;
}

function prepare(window: MaintenanceWindow): PreparedWindow {
  const firstDay = window.startDate === undefined ? 0 : parseLocalDay(window.startDate);
  return {
    cadence: cadenceOf(window, firstDay),
    offsetMs: parseUtcOffsetMs(window.utcOffset ?? "+00:00"),
    startTimeMs: (digitsAt(window.startTime, 0, 2) * 60 + digitsAt(window.startTime, 3, 2)) * MINUTE_MS,
    durationMs: window.durationHours * HOUR_MS,
    firstDay,
    blockedDays: parseBlockedDays(window.notAllowedDates),
  };
}

function cadenceOf({ schedule }: MaintenanceWindow, firstDay: number): Cadence {
  if (schedule.daily) return { kind: "periodic", firstDay, periodDays: schedule.daily.intervalDays };
  if (schedule.weekly) {
    const weekday = WEEKDAY_NUMBER[schedule.weekly.dayOfWeek];
    const firstWeekday = firstDay + mod(weekday - weekdayOf(firstDay), 7);
    return { kind: "periodic", firstDay: firstWeekday, periodDays: 7 * schedule.weekly.intervalWeeks };
  }
  const anchorMonth = monthOfDay(firstDay);
  if (schedule.absoluteMonthly) {
    const { intervalMonths, dayOfMonth } = schedule.absoluteMonthly;
    return { kind: "absoluteMonthly", anchorMonth, intervalMonths, dayOfMonth };
  }
  if (schedule.relativeMonthly) {
    const { intervalMonths, weekIndex, dayOfWeek } = schedule.relativeMonthly;
    return { kind: "relativeMonthly", anchorMonth, intervalMonths, weekday: WEEKDAY_NUMBER[dayOfWeek], weeksAfterFirst: WEEKS_AFTER_FIRST[weekIndex] };
  }
  throw new Error("maintenance window schedule must set one of daily, weekly, absoluteMonthly, relativeMonthly");
}

function parseBlockedDays(spans: MaintenanceWindow["notAllowedDates"]): readonly BlockedDays[] {
  return (spans ?? []).map((span) => ({ first: parseLocalDay(span.start), last: parseLocalDay(span.end) }));
}

// --- Calendar arithmetic on local day numbers (days since 1970-01-01) ---------------------------

function localDayOf(w: PreparedWindow, t: number): number {
  return Math.floor((t + w.offsetMs) / DAY_MS);
}

/** "YYYY-MM-DD" (validated by the schema) as a day number. */
function parseLocalDay(date: string): number {
  return dayFromCivil(digitsAt(date, 0, 4), digitsAt(date, 5, 2) - 1, digitsAt(date, 8, 2));
}

/** "+HH:mm" / "-HH:mm" (validated by the schema) in ms to add to UTC to get local time. */
function parseUtcOffsetMs(offset: string): number {
  const minutes = digitsAt(offset, 1, 2) * 60 + digitsAt(offset, 4, 2);
  return (offset.startsWith("-") ? -minutes : minutes) * MINUTE_MS;
}

/** Day number of a (year, zero-based month, day of month); months past 11 roll into later years. */
function dayFromCivil(year: number, month: number, dayOfMonth: number): number {
  // Date.UTC reads years 0..99 as 1900..1999; shifting by a whole 400-year cycle avoids that.
  return Date.UTC(year + 400, month, dayOfMonth) / DAY_MS - DAYS_PER_400_YEARS;
}

function firstDayOfMonth(month: number): number {
  return dayFromCivil(0, month, 1);
}

function monthOfDay(day: number): number {
  const date = new Date(day * DAY_MS);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

/** 0 = Sunday .. 6 = Saturday. */
function weekdayOf(day: number): number {
  return mod(day + WEEKDAY_OF_DAY_ZERO, 7);
}

/** Remainder that is never negative (days before 1970 are negative). */
function mod(n: number, m: number): number {
  return ((n % m) + m) % m;
}

/** The decimal number written at s[from .. from + length). */
function digitsAt(s: string, from: number, length: number): number {
  let n = 0;
  for (let i = from; i < from + length; i++) n = n * 10 + (s.charCodeAt(i) - 48);
  return n;
}
