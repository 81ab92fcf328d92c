import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isoInstant } from "../../src/model/instants";

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
