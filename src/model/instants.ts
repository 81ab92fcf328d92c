/**
 * The instants and dates a user writes and the engine computes (docs/rules.md §2, §5): their range,
 * their schemas, and `isoInstant`, which writes every instant of an output.
 */
import { z } from "zod";
import { orRequired } from "./values";

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Whether `YYYY-MM-DD` is a real day (not 2026-02-30). A run's output names the same few days in
 * hundreds of thousands of instants (`report` reads them all): days found real are kept, a bounded
 * number of them.
 */
function isCalendarDay(day: string): boolean {
  if (CALENDAR_DAYS.has(day)) return true;
  if (!new Date(`${day}T00:00:00Z`).toISOString().startsWith(day)) return false;
  if (CALENDAR_DAYS.size < 10_000) CALENDAR_DAYS.add(day);
  return true;
}
const CALENDAR_DAYS = new Set<string>();

/**
 * Issue 19: the instants and dates a user may write, years 1970 to 2999. Every instant the engine
 * computes is one of these plus bounded durations (a wait of at most `MAX_WAIT_SECONDS`, a horizon
 * of at most `MAX_HORIZON_DAYS`, a window's ten-year look-ahead): all stay four-digit years, far
 * inside JS Date's range (±275,760 years), where `10000000000000` seconds of wait had left it
 * ("Invalid time value").
 */
export const MIN_INSTANT = "1970-01-01T00:00:00Z";
export const MAX_INSTANT = "2999-12-31T23:59:59Z";
const MIN_INSTANT_MS = Date.parse(MIN_INSTANT);
const MAX_INSTANT_MS = Date.parse(MAX_INSTANT);
const OUT_OF_RANGE = `must be from ${MIN_INSTANT} to ${MAX_INSTANT}`;

/** Whether epoch ms `instant` is one a user may write (the range above; NaN is not). */
export function instantInRange(instant: number): boolean {
  return instant >= MIN_INSTANT_MS && instant <= MAX_INSTANT_MS;
}

/** An instant in ISO 8601 with a zone (`Z` or `±HH:mm`), kept as the string the user wrote. */
export const InstantSchema = z
  .string({ error: orRequired("must be an ISO 8601 date-time string") })
  .refine((s) => ISO_INSTANT.test(s) && !Number.isNaN(Date.parse(s)) && isCalendarDay(s.slice(0, 10)), {
    message: "must be an ISO 8601 date-time with a zone, e.g. 2026-12-05T00:00:00Z",
    abort: true,
  })
  .refine((s) => instantInRange(Date.parse(s)), { message: OUT_OF_RANGE });

/** A calendar date `YYYY-MM-DD`, in the years instants may take. */
export const DateSchema = z
  .string({ error: orRequired("must be a date string YYYY-MM-DD") })
  .refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), {
    message: "must be a valid date YYYY-MM-DD",
    abort: true,
  })
  .refine((s) => s >= MIN_INSTANT.slice(0, 10) && s <= MAX_INSTANT.slice(0, 10), { message: `must be from ${MIN_INSTANT.slice(0, 10)} to ${MAX_INSTANT.slice(0, 10)}` });

/** An epoch-ms instant as ISO 8601 UTC ending in `Z`, without milliseconds when they are zero (docs/rules.md §5). */
export function isoInstant(instant: number): string {
  // The events of one pass share their instant: they share its string too.
  if (instant === lastInstant) return lastIso;
  lastIso = writeIsoInstant(instant);
  lastInstant = instant;
  return lastIso;
}
let lastInstant = Number.NaN;
let lastIso = "";

function writeIsoInstant(instant: number): string {
  // Every event and status time goes through here (issue 13: ~300,000 at 100,000 members), over too
  // many distinct instants for a cache of whole strings: the date part is kept per day (a run spans a
  // few), the time of day is written from its numbers. `toISOString` stays the reference for the day
  // and for anything it alone writes (invalid or far instants throw or widen there, as before).
  if (!Number.isInteger(instant)) {
    const full = new Date(instant).toISOString();
    return full.endsWith(".000Z") ? `${full.slice(0, -5)}Z` : full;
  }
  const day = Math.floor(instant / DAY_MS);
  const ms = instant - day * DAY_MS;
  if (day !== lastDay) {
    const full = new Date(instant).toISOString();
    lastDay = day;
    lastDayPrefix = full.slice(0, full.indexOf("T") + 1);
  }
  const seconds = Math.floor(ms / 1000);
  const millis = ms - seconds * 1000;
  const time = `${TWO_DIGITS[Math.floor(seconds / 3600)]}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}`;
  return millis === 0 ? `${lastDayPrefix}${time}Z` : `${lastDayPrefix}${time}.${String(millis).padStart(3, "0")}Z`;
}
const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, "0"));
let lastDay = Number.NaN;
let lastDayPrefix = "";
