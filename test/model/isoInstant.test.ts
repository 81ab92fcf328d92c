import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DateSchema, InstantSchema, isoInstant } from "../../src/model/instants";

/** What docs/rules.md §5 asks, written the obvious way: `toISOString` without a zero millisecond part. */
const reference = (instant: number): string => {
  const full = new Date(instant).toISOString();
  return full.endsWith(".000Z") ? `${full.slice(0, -5)}Z` : full;
};

describe("isoInstant (issue 13: written from numbers, the day kept)", () => {
  it("writes every instant of years 0001–9999 exactly as toISOString does, milliseconds only when not zero", () => {
    fc.assert(fc.property(fc.integer({ min: -62_135_596_800_000, max: 253_402_300_799_999 }), (instant) => isoInstant(instant) === reference(instant)), { numRuns: 20_000 });
  });

  it("is right at day edges, before 1970, and when consecutive calls jump between days", () => {
    const day = 86_400_000;
    const instants = [0, -1, 1, day - 1, day, -day, Date.UTC(2026, 11, 5), Date.UTC(2026, 11, 5) + 1, Date.UTC(2026, 11, 4, 23, 59, 59, 999), Date.UTC(2027, 0, 1), Date.UTC(2026, 11, 5)];
    for (const instant of instants) expect(isoInstant(instant)).toBe(reference(instant));
    expect(isoInstant(Date.UTC(2026, 11, 5, 1, 2, 3))).toBe("2026-12-05T01:02:03Z");
    expect(isoInstant(Date.UTC(2026, 11, 5, 1, 2, 3, 40))).toBe("2026-12-05T01:02:03.040Z");
  });
});

describe("isoInstant of an instant with a fraction of a millisecond (a scaled clock's)", () => {
  it("is written as toISOString writes it", () => {
    for (const instant of [0.5, 1_000.25, Date.UTC(2026, 11, 5, 1, 2, 3) + 0.75]) expect(isoInstant(instant)).toBe(reference(instant));
    expect(isoInstant(Date.UTC(2026, 11, 5) + 0.5)).toBe("2026-12-05T00:00:00Z");
    expect(isoInstant(1_234.5)).toBe("1970-01-01T00:00:01.234Z");
  });
});

describe("instants and dates a user writes (docs/rules.md §2, issue 19)", () => {
  const instant = (s: unknown) => InstantSchema.safeParse(s).error?.issues.map((i) => i.message) ?? [];
  const date = (s: unknown) => DateSchema.safeParse(s).error?.issues.map((i) => i.message) ?? [];

  it("a malformed one gets one message, not also the range's", () => {
    expect(instant("2026-02-30T00:00:00Z")).toEqual(["must be an ISO 8601 date-time with a zone, e.g. 2026-12-05T00:00:00Z"]);
    expect(instant("2026-12-05 00:00")).toEqual(["must be an ISO 8601 date-time with a zone, e.g. 2026-12-05T00:00:00Z"]);
    expect(instant("soon")).toEqual(["must be an ISO 8601 date-time with a zone, e.g. 2026-12-05T00:00:00Z"]);
    expect(date("2026-02-30")).toEqual(["must be a valid date YYYY-MM-DD"]);
    expect(date("5 Dec 2026")).toEqual(["must be a valid date YYYY-MM-DD"]);
  });

  it("dates from 1970-01-01 to 2999-12-31, both included", () => {
    expect([date("1970-01-01"), date("2999-12-31")]).toEqual([[], []]);
    expect(date("1969-12-31")).toEqual(["must be from 1970-01-01 to 2999-12-31"]);
    expect(date("3000-01-01")).toEqual(["must be from 1970-01-01 to 2999-12-31"]);
    expect(instant("1969-12-31T23:59:59Z")).toEqual(["must be from 1970-01-01T00:00:00Z to 2999-12-31T23:59:59Z"]);
  });
});
