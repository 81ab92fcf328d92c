import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { scheduleArb } from "../support/scheduleArb";
import { MAX_MERGED_OCCURRENCES, nextOpenInterval, windowStateAt } from "../../src/engine/maintenanceWindow";
import { DAYS_OF_WEEK, MaintenanceWindowSchema, WEEK_INDEXES, type MaintenanceWindow } from "../../src/model/maintenanceWindow";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** A window through the real schema (so every test window is one AKS accepts); 02:00 for 4 hours unless said otherwise. */
function mw(fields: Partial<MaintenanceWindow> & Pick<MaintenanceWindow, "schedule">): MaintenanceWindow {
  return MaintenanceWindowSchema.parse({ durationHours: 4, startTime: "02:00", ...fields });
}

const at = (iso: string): number => {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`bad instant in test: ${iso}`);
  return ms;
};
/** `2026-03-10T02:00Z`, or with seconds / ms when they are not zero. */
const iso = (ms: number): string => new Date(ms).toISOString().replace(/:00\.000Z$/, "Z").replace(/\.000Z$/, "Z");

/** nextOpenInterval with ISO strings in and out. */
function next(w: MaintenanceWindow, t: string | number): { start: string; end: string } | undefined {
  const interval = nextOpenInterval(w, typeof t === "number" ? t : at(t));
  return interval && { start: iso(interval.start), end: iso(interval.end) };
}

/** windowStateAt with ISO strings in and out. */
function state(w: MaintenanceWindow, t: string | number): { open: boolean; start?: string; end?: string } {
  const s = windowStateAt(w, typeof t === "number" ? t : at(t));
  return s.interval ? { open: s.open, start: iso(s.interval.start), end: iso(s.interval.end) } : { open: s.open };
}

const open = (start: string, end: string) => ({ open: true, start, end });
const closedUntil = (start: string, end: string) => ({ open: false, start, end });

describe("daily", () => {
  const everyDay = mw({ schedule: { daily: { intervalDays: 1 } }, startDate: "2026-03-01" });

  it("opens every day at startTime for durationHours", () => {
    expect(state(everyDay, "2026-03-10T01:00Z")).toEqual(closedUntil("2026-03-10T02:00Z", "2026-03-10T06:00Z"));
    expect(state(everyDay, "2026-03-10T03:00Z")).toEqual(open("2026-03-10T02:00Z", "2026-03-10T06:00Z"));
    expect(state(everyDay, "2026-03-10T07:00Z")).toEqual(closedUntil("2026-03-11T02:00Z", "2026-03-11T06:00Z"));
  });

  it("opens first on startDate itself", () => {
    expect(next(everyDay, "2026-01-01T00:00Z")).toEqual({ start: "2026-03-01T02:00Z", end: "2026-03-01T06:00Z" });
  });

  it("every 3 days counts from startDate", () => {
    // 03-01, 03-04, 03-07, 03-10, ..., 03-31, 04-03
    const every3 = mw({ schedule: { daily: { intervalDays: 3 } }, startDate: "2026-03-01" });
    expect(next(every3, "2026-03-01T12:00Z")).toEqual({ start: "2026-03-04T02:00Z", end: "2026-03-04T06:00Z" });
    expect(next(every3, "2026-03-05T12:00Z")).toEqual({ start: "2026-03-07T02:00Z", end: "2026-03-07T06:00Z" });
    expect(state(every3, "2026-03-07T03:00Z")).toEqual(open("2026-03-07T02:00Z", "2026-03-07T06:00Z"));
    expect(next(every3, "2026-03-29T12:00Z")).toEqual({ start: "2026-03-31T02:00Z", end: "2026-03-31T06:00Z" });
    expect(next(every3, "2026-03-31T07:00Z")).toEqual({ start: "2026-04-03T02:00Z", end: "2026-04-03T06:00Z" });
  });

  it("without startDate counts from 1970-01-01", () => {
    // 2026-03-10 is day 20522 (even), 2026-03-11 is day 20523 (odd).
    const every2 = mw({ schedule: { daily: { intervalDays: 2 } } });
    expect(next(every2, "2026-03-09T12:00Z")).toEqual({ start: "2026-03-10T02:00Z", end: "2026-03-10T06:00Z" });
    expect(next(every2, "2026-03-10T12:00Z")).toEqual({ start: "2026-03-12T02:00Z", end: "2026-03-12T06:00Z" });
  });

  it("without startDate never opens before 1970-01-01", () => {
    const noStartDate = mw({ schedule: { daily: { intervalDays: 1 } } });
    expect(next(noStartDate, "1969-06-01T00:00Z")).toEqual({ start: "1970-01-01T02:00Z", end: "1970-01-01T06:00Z" });
  });
});

describe("weekly", () => {
  it("every week on dayOfWeek", () => {
    // Saturdays in March 2026: 7, 14, 21, 28.
    const saturdays = mw({ schedule: { weekly: { intervalWeeks: 1, dayOfWeek: "Saturday" } }, startTime: "22:00" });
    expect(state(saturdays, "2026-03-10T00:00Z")).toEqual(closedUntil("2026-03-14T22:00Z", "2026-03-15T02:00Z"));
    expect(state(saturdays, "2026-03-15T01:00Z")).toEqual(open("2026-03-14T22:00Z", "2026-03-15T02:00Z"));
    expect(next(saturdays, "2026-03-15T02:00Z")).toEqual({ start: "2026-03-21T22:00Z", end: "2026-03-22T02:00Z" });
  });

  it("every 2 weeks from the first dayOfWeek on or after startDate", () => {
    // startDate Thursday 2026-03-05: Tuesdays 03-10, 03-24, 04-07 (not 03-17, not 03-31).
    const everyOtherTuesday = mw({ schedule: { weekly: { intervalWeeks: 2, dayOfWeek: "Tuesday" } }, startDate: "2026-03-05" });
    expect(next(everyOtherTuesday, "2026-03-01T00:00Z")).toEqual({ start: "2026-03-10T02:00Z", end: "2026-03-10T06:00Z" });
    expect(next(everyOtherTuesday, "2026-03-12T00:00Z")).toEqual({ start: "2026-03-24T02:00Z", end: "2026-03-24T06:00Z" });
    expect(state(everyOtherTuesday, "2026-03-17T03:00Z")).toEqual(closedUntil("2026-03-24T02:00Z", "2026-03-24T06:00Z"));
    expect(next(everyOtherTuesday, "2026-03-25T00:00Z")).toEqual({ start: "2026-04-07T02:00Z", end: "2026-04-07T06:00Z" });
  });

  it("a startDate that is the dayOfWeek is the first occurrence", () => {
    const fromTuesday = mw({ schedule: { weekly: { intervalWeeks: 2, dayOfWeek: "Tuesday" } }, startDate: "2026-03-03" });
    expect(next(fromTuesday, "2026-03-01T00:00Z")).toEqual({ start: "2026-03-03T02:00Z", end: "2026-03-03T06:00Z" });
    expect(next(fromTuesday, "2026-03-04T00:00Z")).toEqual({ start: "2026-03-17T02:00Z", end: "2026-03-17T06:00Z" });
  });

  it("without startDate counts weeks from the first dayOfWeek on or after 1970-01-01", () => {
    // First Monday is 1970-01-05; 2026-03-09 is an odd number of weeks after it, 2026-03-16 an even one.
    const everyOtherMonday = mw({ schedule: { weekly: { intervalWeeks: 2, dayOfWeek: "Monday" } } });
    expect(next(everyOtherMonday, "2026-03-08T00:00Z")).toEqual({ start: "2026-03-16T02:00Z", end: "2026-03-16T06:00Z" });
  });
});

describe("absoluteMonthly", () => {
  it("on dayOfMonth every month", () => {
    const on15th = mw({ schedule: { absoluteMonthly: { intervalMonths: 1, dayOfMonth: 15 } } });
    expect(next(on15th, "2026-03-14T00:00Z")).toEqual({ start: "2026-03-15T02:00Z", end: "2026-03-15T06:00Z" });
    expect(next(on15th, "2026-03-20T00:00Z")).toEqual({ start: "2026-04-15T02:00Z", end: "2026-04-15T06:00Z" });
    expect(state(on15th, "2026-04-15T05:00Z")).toEqual(open("2026-04-15T02:00Z", "2026-04-15T06:00Z"));
  });

  it("dayOfMonth 31 is the last day of every month (February, leap February, 30-day months)", () => {
    const on31st = mw({ schedule: { absoluteMonthly: { intervalMonths: 1, dayOfMonth: 31 } } });
    expect(next(on31st, "2026-01-15T00:00Z")).toEqual({ start: "2026-01-31T02:00Z", end: "2026-01-31T06:00Z" });
    expect(next(on31st, "2026-02-01T00:00Z")).toEqual({ start: "2026-02-28T02:00Z", end: "2026-02-28T06:00Z" });
    expect(next(on31st, "2026-03-01T00:00Z")).toEqual({ start: "2026-03-31T02:00Z", end: "2026-03-31T06:00Z" });
    expect(next(on31st, "2026-04-02T00:00Z")).toEqual({ start: "2026-04-30T02:00Z", end: "2026-04-30T06:00Z" });
    expect(next(on31st, "2028-02-01T00:00Z")).toEqual({ start: "2028-02-29T02:00Z", end: "2028-02-29T06:00Z" });
  });

  it("dayOfMonth 30 in February is its last day", () => {
    const on30th = mw({ schedule: { absoluteMonthly: { intervalMonths: 1, dayOfMonth: 30 } } });
    expect(next(on30th, "2026-02-01T00:00Z")).toEqual({ start: "2026-02-28T02:00Z", end: "2026-02-28T06:00Z" });
    expect(next(on30th, "2026-03-01T00:00Z")).toEqual({ start: "2026-03-30T02:00Z", end: "2026-03-30T06:00Z" });
  });

  it("every 2 months from startDate's month, dropping an occurrence before startDate", () => {
    // Anchor month January; 01-05 is before startDate 01-10, so 03-05, 05-05, ...
    const everyOther5th = mw({ schedule: { absoluteMonthly: { intervalMonths: 2, dayOfMonth: 5 } }, startDate: "2026-01-10" });
    expect(next(everyOther5th, "2026-01-01T00:00Z")).toEqual({ start: "2026-03-05T02:00Z", end: "2026-03-05T06:00Z" });
    expect(next(everyOther5th, "2026-03-06T00:00Z")).toEqual({ start: "2026-05-05T02:00Z", end: "2026-05-05T06:00Z" });
    expect(state(everyOther5th, "2026-04-05T03:00Z")).toEqual(closedUntil("2026-05-05T02:00Z", "2026-05-05T06:00Z"));
  });

  it("every 2 months on the 31st: Feb 28, Apr 30, Jun 30, Aug 31", () => {
    const w = mw({ schedule: { absoluteMonthly: { intervalMonths: 2, dayOfMonth: 31 } }, startDate: "2026-02-01" });
    expect(next(w, "2026-01-01T00:00Z")).toEqual({ start: "2026-02-28T02:00Z", end: "2026-02-28T06:00Z" });
    expect(next(w, "2026-03-01T00:00Z")).toEqual({ start: "2026-04-30T02:00Z", end: "2026-04-30T06:00Z" });
    expect(next(w, "2026-05-01T00:00Z")).toEqual({ start: "2026-06-30T02:00Z", end: "2026-06-30T06:00Z" });
    expect(next(w, "2026-07-01T00:00Z")).toEqual({ start: "2026-08-31T02:00Z", end: "2026-08-31T06:00Z" });
  });
});

describe("relativeMonthly", () => {
  const relative = (weekIndex: (typeof WEEK_INDEXES)[number], dayOfWeek: (typeof DAYS_OF_WEEK)[number], intervalMonths = 1) =>
    mw({ schedule: { relativeMonthly: { intervalMonths, weekIndex, dayOfWeek } } });

  it("First: the first dayOfWeek of the month", () => {
    // March 2026 starts on a Sunday, April 2026 on a Wednesday.
    expect(next(relative("First", "Monday"), "2026-03-01T00:00Z")).toEqual({ start: "2026-03-02T02:00Z", end: "2026-03-02T06:00Z" });
    expect(next(relative("First", "Monday"), "2026-03-20T00:00Z")).toEqual({ start: "2026-04-06T02:00Z", end: "2026-04-06T06:00Z" });
    expect(next(relative("First", "Wednesday"), "2026-03-20T00:00Z")).toEqual({ start: "2026-04-01T02:00Z", end: "2026-04-01T06:00Z" });
  });

  it("Second", () => {
    expect(next(relative("Second", "Tuesday"), "2026-03-04T00:00Z")).toEqual({ start: "2026-03-10T02:00Z", end: "2026-03-10T06:00Z" });
    expect(next(relative("Second", "Tuesday"), "2026-03-11T00:00Z")).toEqual({ start: "2026-04-14T02:00Z", end: "2026-04-14T06:00Z" });
  });

  it("Fourth is not Last in a month with five of that weekday", () => {
    // March 2026 has five Sundays: 1, 8, 15, 22, 29.
    expect(next(relative("Fourth", "Sunday"), "2026-03-01T12:00Z")).toEqual({ start: "2026-03-22T02:00Z", end: "2026-03-22T06:00Z" });
    expect(next(relative("Last", "Sunday"), "2026-03-01T12:00Z")).toEqual({ start: "2026-03-29T02:00Z", end: "2026-03-29T06:00Z" });
  });

  it("Last is the fourth in a month with four of that weekday", () => {
    // Wednesdays in March 2026: 4, 11, 18, 25. Fridays in February 2026: 6, 13, 20, 27.
    expect(next(relative("Last", "Wednesday"), "2026-03-01T00:00Z")).toEqual({ start: "2026-03-25T02:00Z", end: "2026-03-25T06:00Z" });
    expect(next(relative("Fourth", "Wednesday"), "2026-03-01T00:00Z")).toEqual({ start: "2026-03-25T02:00Z", end: "2026-03-25T06:00Z" });
    expect(next(relative("Last", "Friday"), "2026-02-01T00:00Z")).toEqual({ start: "2026-02-27T02:00Z", end: "2026-02-27T06:00Z" });
  });

  it("every 2 months from startDate's month, dropping an occurrence before startDate", () => {
    // Anchor month March; its first Monday (03-02) is before startDate, so May's (05-04).
    const w = mw({ schedule: { relativeMonthly: { intervalMonths: 2, weekIndex: "First", dayOfWeek: "Monday" } }, startDate: "2026-03-15" });
    expect(next(w, "2026-03-01T00:00Z")).toEqual({ start: "2026-05-04T02:00Z", end: "2026-05-04T06:00Z" });
    expect(next(w, "2026-05-05T00:00Z")).toEqual({ start: "2026-07-06T02:00Z", end: "2026-07-06T06:00Z" });
  });
});

describe("utcOffset", () => {
  it("+05:30: an occurrence on local date D starts on UTC date D-1", () => {
    const w = mw({ schedule: { daily: { intervalDays: 1 } }, startTime: "01:00", utcOffset: "+05:30", startDate: "2026-03-10" });
    expect(state(w, "2026-03-09T12:00Z")).toEqual(closedUntil("2026-03-09T19:30Z", "2026-03-09T23:30Z"));
    expect(state(w, "2026-03-09T20:00Z")).toEqual(open("2026-03-09T19:30Z", "2026-03-09T23:30Z"));
  });

  it("+05:30: relativeMonthly picks the weekday of the local date", () => {
    // 2026-04-05T20:00Z is Sunday in UTC but Monday 01:30 on 2026-04-06 locally: the First Monday.
    const w = mw({ schedule: { relativeMonthly: { intervalMonths: 1, weekIndex: "First", dayOfWeek: "Monday" } }, startTime: "01:00", utcOffset: "+05:30" });
    expect(state(w, "2026-04-05T20:00Z")).toEqual(open("2026-04-05T19:30Z", "2026-04-05T23:30Z"));
  });

  it("-08:00: an occurrence on local date D may start on UTC date D+1", () => {
    // Friday 2026-03-13 20:00 local = Saturday 04:00Z.
    const w = mw({ schedule: { weekly: { intervalWeeks: 1, dayOfWeek: "Friday" } }, startTime: "20:00", durationHours: 6, utcOffset: "-08:00" });
    expect(state(w, "2026-03-13T12:00Z")).toEqual(closedUntil("2026-03-14T04:00Z", "2026-03-14T10:00Z"));
    // Saturday 02:00Z is still Friday 18:00 locally: not open yet.
    expect(state(w, "2026-03-14T02:00Z")).toEqual(closedUntil("2026-03-14T04:00Z", "2026-03-14T10:00Z"));
    expect(state(w, "2026-03-14T09:59Z")).toEqual(open("2026-03-14T04:00Z", "2026-03-14T10:00Z"));
  });

  it("-08:00: absoluteMonthly on the local 1st", () => {
    const w = mw({ schedule: { absoluteMonthly: { intervalMonths: 1, dayOfMonth: 1 } }, startTime: "20:00", utcOffset: "-08:00" });
    expect(next(w, "2026-04-01T12:00Z")).toEqual({ start: "2026-04-02T04:00Z", end: "2026-04-02T08:00Z" });
  });

  it("-08:00: startDate is local midnight", () => {
    // startDate 2026-03-10 local = 2026-03-10T08:00Z; the 03-10 occurrence (10:00Z) is the first.
    const w = mw({ schedule: { daily: { intervalDays: 1 } }, utcOffset: "-08:00", startDate: "2026-03-10" });
    expect(next(w, "2026-03-01T00:00Z")).toEqual({ start: "2026-03-10T10:00Z", end: "2026-03-10T14:00Z" });
  });
});

describe("occurrences crossing midnight, month end and year end", () => {
  it("22:00 for 6 hours crosses midnight", () => {
    const w = mw({ schedule: { daily: { intervalDays: 1 } }, startTime: "22:00", durationHours: 6 });
    expect(state(w, "2026-03-11T02:00Z")).toEqual(open("2026-03-10T22:00Z", "2026-03-11T04:00Z"));
    expect(state(w, "2026-03-11T04:00Z")).toEqual(closedUntil("2026-03-11T22:00Z", "2026-03-12T04:00Z"));
  });

  it("crosses a month end", () => {
    const w = mw({ schedule: { absoluteMonthly: { intervalMonths: 1, dayOfMonth: 31 } }, startTime: "22:00", durationHours: 6 });
    expect(state(w, at("2026-04-01T04:00Z") - 1)).toEqual(open("2026-03-31T22:00Z", "2026-04-01T04:00Z"));
    expect(state(w, "2026-04-01T04:00Z")).toEqual(closedUntil("2026-04-30T22:00Z", "2026-05-01T04:00Z"));
  });

  it("crosses a year end", () => {
    const w = mw({ schedule: { absoluteMonthly: { intervalMonths: 1, dayOfMonth: 31 } }, startTime: "22:00", durationHours: 6 });
    expect(state(w, "2027-01-01T01:00Z")).toEqual(open("2026-12-31T22:00Z", "2027-01-01T04:00Z"));
  });

  it("crosses a year end in UTC as well as locally (-08:00, Last Thursday of December 2026 = 31st)", () => {
    const w = mw({
      schedule: { relativeMonthly: { intervalMonths: 1, weekIndex: "Last", dayOfWeek: "Thursday" } },
      startTime: "22:00",
      durationHours: 6,
      utcOffset: "-08:00",
    });
    expect(state(w, "2026-12-31T12:00Z")).toEqual(closedUntil("2027-01-01T06:00Z", "2027-01-01T12:00Z"));
    expect(state(w, "2027-01-01T07:00Z")).toEqual(open("2027-01-01T06:00Z", "2027-01-01T12:00Z"));
  });
});

describe("startDate", () => {
  it("never opens before a future startDate", () => {
    const w = mw({ schedule: { daily: { intervalDays: 1 } }, startDate: "2026-06-01" });
    expect(state(w, "2026-05-31T03:00Z")).toEqual(closedUntil("2026-06-01T02:00Z", "2026-06-01T06:00Z"));
    expect(next(w, "2026-03-01T00:00Z")).toEqual({ start: "2026-06-01T02:00Z", end: "2026-06-01T06:00Z" });
  });

  it("drops (does not clip) an occurrence that starts the day before startDate and runs into it", () => {
    const w = mw({ schedule: { daily: { intervalDays: 1 } }, startTime: "22:00", durationHours: 6, startDate: "2026-06-01" });
    expect(state(w, "2026-06-01T01:00Z")).toEqual(closedUntil("2026-06-01T22:00Z", "2026-06-02T04:00Z"));
  });
});

describe("notAllowedDates", () => {
  const everyDay = mw({ schedule: { daily: { intervalDays: 1 } } });

  it("blocks whole occurrences on the blocked days", () => {
    const w = { ...everyDay, notAllowedDates: [{ start: "2026-03-10", end: "2026-03-12" }] };
    expect(state(w, "2026-03-10T00:00Z")).toEqual(closedUntil("2026-03-13T02:00Z", "2026-03-13T06:00Z"));
    expect(state(w, "2026-03-11T03:00Z")).toEqual(closedUntil("2026-03-13T02:00Z", "2026-03-13T06:00Z"));
    expect(next(w, "2026-03-09T12:00Z")).toEqual({ start: "2026-03-13T02:00Z", end: "2026-03-13T06:00Z" });
  });

  it("truncates an occurrence running into a blocked day, and opens one starting on a blocked day at the block's end", () => {
    const w = mw({
      schedule: { daily: { intervalDays: 1 } },
      startTime: "22:00",
      durationHours: 6,
      notAllowedDates: [{ start: "2026-03-11", end: "2026-03-11" }],
    });
    expect(state(w, "2026-03-10T23:00Z")).toEqual(open("2026-03-10T22:00Z", "2026-03-11T00:00Z"));
    expect(state(w, "2026-03-11T00:00Z")).toEqual(closedUntil("2026-03-12T00:00Z", "2026-03-12T04:00Z"));
    expect(state(w, "2026-03-11T23:00Z")).toEqual(closedUntil("2026-03-12T00:00Z", "2026-03-12T04:00Z"));
    expect(next(w, "2026-03-12T04:00Z")).toEqual({ start: "2026-03-12T22:00Z", end: "2026-03-13T04:00Z" });
  });

  it("blocks whole an occurrence on a blocked day that ends exactly at midnight: no empty interval at that midnight", () => {
    const w = mw({ schedule: { daily: { intervalDays: 1 } }, startTime: "20:00", durationHours: 4, notAllowedDates: [{ start: "2026-03-11", end: "2026-03-11" }] });
    expect(state(w, "2026-03-11T12:00Z")).toEqual(closedUntil("2026-03-12T20:00Z", "2026-03-13T00:00Z"));
    // The day before a blocked day: its occurrence runs to midnight whole.
    expect(state(w, "2026-03-10T21:00Z")).toEqual(open("2026-03-10T20:00Z", "2026-03-11T00:00Z"));
  });

  it("truncates at a month end", () => {
    const w = mw({
      schedule: { absoluteMonthly: { intervalMonths: 1, dayOfMonth: 31 } },
      startTime: "22:00",
      durationHours: 6,
      notAllowedDates: [{ start: "2026-04-01", end: "2026-04-01" }],
    });
    expect(next(w, "2026-03-15T00:00Z")).toEqual({ start: "2026-03-31T22:00Z", end: "2026-04-01T00:00Z" });
  });

  it("blocks local days, not UTC days (-08:00)", () => {
    // Local 02:00 = 10:00Z. Blocked local 2026-03-11 = [03-11T08:00Z, 03-12T08:00Z).
    const w = mw({ schedule: { daily: { intervalDays: 1 } }, utcOffset: "-08:00", notAllowedDates: [{ start: "2026-03-11", end: "2026-03-11" }] });
    expect(next(w, "2026-03-11T07:00Z")).toEqual({ start: "2026-03-12T10:00Z", end: "2026-03-12T14:00Z" });
    expect(next(w, "2026-03-10T09:00Z")).toEqual({ start: "2026-03-10T10:00Z", end: "2026-03-10T14:00Z" });
  });

  it("opens the leftover of an occurrence starting on a long block's last day", () => {
    const w = mw({
      schedule: { daily: { intervalDays: 1 } },
      startTime: "22:00",
      durationHours: 6,
      notAllowedDates: [{ start: "2026-03-10", end: "2026-03-12" }],
    });
    expect(state(w, "2026-03-09T23:00Z")).toEqual(open("2026-03-09T22:00Z", "2026-03-10T00:00Z"));
    expect(state(w, "2026-03-10T01:00Z")).toEqual(closedUntil("2026-03-13T00:00Z", "2026-03-13T04:00Z"));
  });

  it("skips overlapping spans", () => {
    const w = {
      ...everyDay,
      notAllowedDates: [
        { start: "2026-03-15", end: "2026-04-10" },
        { start: "2026-03-01", end: "2026-03-20" },
      ],
    };
    expect(next(w, "2026-03-05T00:00Z")).toEqual({ start: "2026-04-11T02:00Z", end: "2026-04-11T06:00Z" });
  });

  it("skips a blocked monthly occurrence to the next month", () => {
    const w = mw({ schedule: { absoluteMonthly: { intervalMonths: 1, dayOfMonth: 15 } }, notAllowedDates: [{ start: "2026-04-01", end: "2026-04-30" }] });
    expect(next(w, "2026-04-01T00:00Z")).toEqual({ start: "2026-05-15T02:00Z", end: "2026-05-15T06:00Z" });
  });
});

describe("merging", () => {
  it("a daily 24-hour window is one open interval, capped at MAX_MERGED_OCCURRENCES occurrences", () => {
    expect(MAX_MERGED_OCCURRENCES).toBe(400);
    const always = mw({ schedule: { daily: { intervalDays: 1 } }, startTime: "00:00", durationHours: 24 });
    // 2026-03-10 + 400 days = 2027-04-14.
    expect(state(always, "2026-03-10T12:00Z")).toEqual(open("2026-03-10T00:00Z", "2027-04-14T00:00Z"));
    // The capped end is a lower bound: the window is still open there.
    expect(state(always, "2027-04-14T00:00Z").open).toBe(true);
  });

  it("a daily 24-hour window runs until the next blocked day, and resumes after it", () => {
    const w = mw({
      schedule: { daily: { intervalDays: 1 } },
      startTime: "06:00",
      durationHours: 24,
      notAllowedDates: [{ start: "2026-03-20", end: "2026-03-20" }],
    });
    expect(state(w, "2026-03-10T12:00Z")).toEqual(open("2026-03-10T06:00Z", "2026-03-20T00:00Z"));
    // The 03-20 occurrence (blocked start) opens at 03-21 00:00; 400 occurrences from it end 2027-04-24 06:00.
    expect(state(w, "2026-03-20T00:00Z")).toEqual(closedUntil("2026-03-21T00:00Z", "2027-04-24T06:00Z"));
  });

  it("a daily 24-hour window starts at startDate + startTime", () => {
    const w = mw({ schedule: { daily: { intervalDays: 1 } }, startTime: "06:00", durationHours: 24, utcOffset: "-08:00", startDate: "2026-06-01" });
    expect(next(w, "2026-01-01T00:00Z")).toEqual({ start: "2026-06-01T14:00Z", end: "2027-07-06T14:00Z" });
  });

  it("does not merge occurrences separated by a gap", () => {
    const w = mw({ schedule: { daily: { intervalDays: 1 } }, startTime: "00:00", durationHours: 23 });
    expect(state(w, "2026-03-10T12:00Z")).toEqual(open("2026-03-10T00:00Z", "2026-03-10T23:00Z"));
  });
});

describe("boundaries", () => {
  const w = mw({ schedule: { daily: { intervalDays: 1 } } });

  it("is open exactly at the start", () => {
    expect(state(w, "2026-03-10T02:00Z")).toEqual(open("2026-03-10T02:00Z", "2026-03-10T06:00Z"));
  });

  it("is closed just before the start", () => {
    expect(state(w, at("2026-03-10T02:00Z") - 1)).toEqual(closedUntil("2026-03-10T02:00Z", "2026-03-10T06:00Z"));
  });

  it("is open just before the end", () => {
    expect(state(w, at("2026-03-10T06:00Z") - 1)).toEqual(open("2026-03-10T02:00Z", "2026-03-10T06:00Z"));
  });

  it("is closed exactly at the end, and reports the next interval", () => {
    expect(state(w, "2026-03-10T06:00Z")).toEqual(closedUntil("2026-03-11T02:00Z", "2026-03-11T06:00Z"));
  });
});

describe("never opens again", () => {
  it("every occurrence blocked", () => {
    const w = mw({ schedule: { daily: { intervalDays: 1 } }, notAllowedDates: [{ start: "2026-01-01", end: "2099-12-31" }] });
    expect(nextOpenInterval(w, at("2026-03-01T00:00Z"))).toBeUndefined();
    expect(windowStateAt(w, at("2026-03-01T00:00Z"))).toEqual({ open: false });
  });

  it("opens after a long block", () => {
    const w = mw({ schedule: { weekly: { intervalWeeks: 1, dayOfWeek: "Monday" } }, notAllowedDates: [{ start: "2026-01-01", end: "2034-12-31" }] });
    // 2035-01-01 is a Monday.
    expect(next(w, "2026-03-01T00:00Z")).toEqual({ start: "2035-01-01T02:00Z", end: "2035-01-01T06:00Z" });
  });

  it("first opens more than 10 years later: beyond the horizon", () => {
    const far = mw({ schedule: { daily: { intervalDays: 1 } }, startDate: "2037-01-01" });
    expect(windowStateAt(far, at("2026-03-01T00:00Z"))).toEqual({ open: false });
    const near = mw({ schedule: { daily: { intervalDays: 1 } }, startDate: "2035-01-01" });
    expect(next(near, "2026-03-01T00:00Z")).toEqual({ start: "2035-01-01T02:00Z", end: "2035-01-01T06:00Z" });
  });

  it("the horizon's last day is still looked at; the day after it is not", () => {
    // 2026-03-01 + 3653 days (three leap days between) = 2036-03-01.
    const onLastDay = mw({ schedule: { daily: { intervalDays: 1 } }, startDate: "2036-03-01" });
    expect(next(onLastDay, "2026-03-01T00:00Z")).toEqual({ start: "2036-03-01T02:00Z", end: "2036-03-01T06:00Z" });
    const dayAfter = mw({ schedule: { daily: { intervalDays: 1 } }, startDate: "2036-03-02" });
    expect(windowStateAt(dayAfter, at("2026-03-01T00:00Z"))).toEqual({ open: false });
  });
});

describe("input checks", () => {
  it("rejects an instant that is not a finite number", () => {
    const w = mw({ schedule: { daily: { intervalDays: 1 } } });
    expect(() => windowStateAt(w, Number.NaN)).toThrow(new RangeError("instant must be a finite number of epoch ms, got NaN"));
    expect(() => nextOpenInterval(w, Number.POSITIVE_INFINITY)).toThrow(new RangeError("instant must be a finite number of epoch ms, got Infinity"));
  });

  it("refuses a schedule of no kind (one the schema would not have let through), naming the kinds", () => {
    const noKind = { schedule: {}, startTime: "02:00", durationHours: 4 } as MaintenanceWindow;
    expect(() => windowStateAt(noKind, at("2026-03-01T00:00Z"))).toThrow(
      new Error("maintenance window schedule must set one of daily, weekly, absoluteMonthly, relativeMonthly"),
    );
  });
});

// --- Properties, against a deliberately naive model of the semantics ----------------------------

/** Local day number of a "YYYY-MM-DD". */
const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const offsetMsOf = (w: MaintenanceWindow) => {
  const [, sign, hh, mm] = /^([+-])(\d\d):(\d\d)$/.exec(w.utcOffset ?? "+00:00")!;
  return (sign === "-" ? -1 : 1) * (Number(hh) * 60 + Number(mm)) * MINUTE_MS;
};
const startTimeMsOf = (w: MaintenanceWindow) => (Number(w.startTime.slice(0, 2)) * 60 + Number(w.startTime.slice(3))) * MINUTE_MS;

/** Whether an occurrence starts on local `day`, checked one day at a time with Date getters. */
function naiveIsOccurrenceDay(w: MaintenanceWindow, day: number): boolean {
  const anchor = w.startDate === undefined ? 0 : dayOf(w.startDate);
  if (day < anchor) return false;
  const date = new Date(day * DAY_MS);
  const anchorDate = new Date(anchor * DAY_MS);
  const weekday = date.getUTCDay();
  const dayOfMonth = date.getUTCDate();
  const daysInMonth = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  const monthsFromAnchor = (date.getUTCFullYear() - anchorDate.getUTCFullYear()) * 12 + date.getUTCMonth() - anchorDate.getUTCMonth();
  const { daily, weekly, absoluteMonthly, relativeMonthly } = w.schedule;
  if (daily) return (day - anchor) % daily.intervalDays === 0;
  if (weekly) {
    if (DAYS_OF_WEEK[weekday] !== weekly.dayOfWeek) return false;
    let firstWeekday = anchor;
    while (DAYS_OF_WEEK[new Date(firstWeekday * DAY_MS).getUTCDay()] !== weekly.dayOfWeek) firstWeekday++;
    return ((day - firstWeekday) / 7) % weekly.intervalWeeks === 0;
  }
  if (absoluteMonthly) {
    return monthsFromAnchor % absoluteMonthly.intervalMonths === 0 && dayOfMonth === Math.min(absoluteMonthly.dayOfMonth, daysInMonth);
  }
  if (relativeMonthly) {
    if (monthsFromAnchor % relativeMonthly.intervalMonths !== 0 || DAYS_OF_WEEK[weekday] !== relativeMonthly.dayOfWeek) return false;
    if (relativeMonthly.weekIndex === "Last") return dayOfMonth + 7 > daysInMonth;
    return Math.ceil(dayOfMonth / 7) === WEEK_INDEXES.indexOf(relativeMonthly.weekIndex) + 1;
  }
  throw new Error("no schedule");
}

function naiveIsBlocked(w: MaintenanceWindow, day: number): boolean {
  return (w.notAllowedDates ?? []).some((span) => dayOf(span.start) <= day && day <= dayOf(span.end));
}

/** Open at t iff t is inside some occurrence and t's local day is not blocked. */
function naiveIsOpen(w: MaintenanceWindow, t: number): boolean {
  const local = t + offsetMsOf(w);
  const day = Math.floor(local / DAY_MS);
  if (naiveIsBlocked(w, day)) return false;
  return [day - 1, day].some((d) => {
    const start = d * DAY_MS + startTimeMsOf(w);
    return naiveIsOccurrenceDay(w, d) && start <= local && local < start + w.durationHours * HOUR_MS;
  });
}

/**
 * Every instant in (from, to) where openness can change: occurrence starts and ends and local
 * midnights (where blocks begin and end).
 */
function* changePointsBetween(w: MaintenanceWindow, from: number, to: number): Generator<number> {
  const offset = offsetMsOf(w);
  for (let day = Math.floor((from + offset) / DAY_MS) - 1; day * DAY_MS - offset < to; day++) {
    const midnight = day * DAY_MS - offset;
    const start = midnight + startTimeMsOf(w);
    for (const c of [midnight, start, start + w.durationHours * HOUR_MS]) if (from < c && c < to) yield c;
  }
}

const dateArb = (from: string, to: string) => fc.integer({ min: dayOf(from), max: dayOf(to) }).map(dateOf);
const two = (n: number) => String(n).padStart(2, "0");

const windowArb: fc.Arbitrary<MaintenanceWindow> = fc.record(
  {
    schedule: scheduleArb,
    durationHours: fc.oneof(fc.integer({ min: 4, max: 24 }), fc.constant(24)),
    startTime: fc.tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 30, 59)).map(([h, m]) => `${two(h)}:${two(m)}`),
    utcOffset: fc
      .tuple(fc.constantFrom("+", "-"), fc.integer({ min: 0, max: 14 }), fc.constantFrom(0, 30, 45))
      .map(([sign, h, m]) => `${sign}${two(h)}:${two(m)}`),
    startDate: dateArb("2024-01-01", "2028-12-31"),
    notAllowedDates: fc.array(
      fc.tuple(dateArb("2023-06-01", "2030-01-01"), fc.integer({ min: 0, max: 60 })).map(([start, days]) => ({ start, end: dateOf(dayOf(start) + days) })),
      { maxLength: 3 },
    ),
  },
  { requiredKeys: ["schedule", "durationHours", "startTime"] },
).map((w) => MaintenanceWindowSchema.parse(w));

const instantArb = fc.integer({ min: Date.parse("2023-06-01T00:00:00Z"), max: Date.parse("2030-01-01T00:00:00Z") });

/**
 * A window and an instant, with a few short blocked spans near the instant added to the window's
 * own (far-flung, random) ones, so that truncated and leftover occurrences actually come up.
 */
const windowAndInstantArb = fc
  .tuple(
    windowArb,
    instantArb,
    fc.array(fc.tuple(fc.integer({ min: -3, max: 30 }), fc.integer({ min: 0, max: 5 })), { maxLength: 3 }),
  )
  .map(([w, t, nearBlocks]) => {
    if (nearBlocks.length === 0) return { w, t };
    const today = Math.floor(t / DAY_MS);
    const near = nearBlocks.map(([from, days]) => ({ start: dateOf(today + from), end: dateOf(today + from + days) }));
    return { w: MaintenanceWindowSchema.parse({ ...w, notAllowedDates: [...(w.notAllowedDates ?? []), ...near] }), t };
  });

describe("properties", () => {
  it("windowStateAt agrees with a naive day-by-day model", () => {
    fc.assert(
      fc.property(windowAndInstantArb, ({ w, t }) => {
        const { open, interval } = windowStateAt(w, t);
        expect(open).toBe(naiveIsOpen(w, t));
        if (interval === undefined) {
          expect(open).toBe(false);
          for (const c of changePointsBetween(w, t, t + 3653 * DAY_MS)) expect(naiveIsOpen(w, c)).toBe(false);
          return;
        }
        const { start, end } = interval;
        if (open) expect(start <= t && t < end).toBe(true);
        else expect(start).toBeGreaterThan(t);
        expect(end - start).toBeGreaterThan(0);
        expect(end - start).toBeLessThanOrEqual(MAX_MERGED_OCCURRENCES * DAY_MS);
        // Open throughout [start, end), and closed throughout (t, start) when closed at t.
        expect(naiveIsOpen(w, start)).toBe(true);
        expect(naiveIsOpen(w, end - 1)).toBe(true);
        for (const c of changePointsBetween(w, start, end)) expect(naiveIsOpen(w, c)).toBe(true);
        if (!open) for (const c of changePointsBetween(w, t, start)) expect(naiveIsOpen(w, c)).toBe(false);
        if (!open) expect(naiveIsOpen(w, start - 1)).toBe(false);
        // Maximal forward: closed at the end, unless merging stopped at the cap (then the end is a lower bound).
        const alwaysOpenDaily = w.schedule.daily?.intervalDays === 1 && w.durationHours === 24;
        if (!alwaysOpenDaily) expect(naiveIsOpen(w, end)).toBe(false);
        // Asking again from the interval's start gives the same interval.
        expect(nextOpenInterval(w, start)).toEqual(interval);
      }),
      { numRuns: 300 },
    );
  });

  it("the same interval is reported from its start to its last ms; after it the next one starts later", () => {
    fc.assert(
      fc.property(windowAndInstantArb, ({ w, t }) => {
        const interval = nextOpenInterval(w, t);
        if (interval === undefined) return;
        expect(windowStateAt(w, interval.start)).toEqual({ open: true, interval });
        // Merging is forward only, so inside a merged run the start moves with the instant.
        const merges = w.schedule.daily?.intervalDays === 1 && w.durationHours === 24;
        if (!merges) {
          expect(windowStateAt(w, interval.end - 1)).toEqual({ open: true, interval });
          const after = windowStateAt(w, interval.end);
          expect(after.open).toBe(false);
          if (after.interval) expect(after.interval.start).toBeGreaterThan(interval.end);
        }
      }),
      { numRuns: 300 },
    );
  });
});
