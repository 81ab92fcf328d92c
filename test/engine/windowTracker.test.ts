/**
 * `WindowTracker` (src/engine/priority.ts), which the engine and `plan` share: the docs/rules.md §3.3 class
 * of a member at an instant and the window interval behind it, remembered per member. Its answers must
 * be those of `nextOpenInterval` at every instant asked, in whatever order the instants come (the plan
 * asks about the same member at different instants) and whichever window object it is given.
 */
import { describe, expect, it } from "vitest";
import { nextOpenInterval } from "../../src/engine/maintenanceWindow";
import { SOON_MS, WindowTracker } from "../../src/engine/priority";
import type { MaintenanceWindow } from "../../src/model/maintenanceWindow";

const at = (iso: string) => Date.parse(iso);
const DAILY_12: MaintenanceWindow = { schedule: { daily: { intervalDays: 1 } }, startTime: "12:00", durationHours: 4 };

describe("WindowTracker", () => {
  it("answers an earlier instant after a later one as nextOpenInterval does", () => {
    const tracker = new WindowTracker();
    const later = at("2026-12-05T13:00:00Z");
    const earlier = at("2026-12-04T13:00:00Z");
    expect(tracker.interval("m", DAILY_12, later)).toEqual(nextOpenInterval(DAILY_12, later));
    expect(tracker.interval("m", DAILY_12, earlier)).toEqual(nextOpenInterval(DAILY_12, earlier));
    expect(tracker.interval("m", DAILY_12, earlier)).toEqual({ start: at("2026-12-04T12:00:00Z"), end: at("2026-12-04T16:00:00Z") });
    expect(tracker.priorityClass("m", DAILY_12, at("2026-12-05T09:00:00Z"))).toBe(2);
    expect(tracker.priorityClass("m", DAILY_12, later)).toBe(1);
  });

  it("gives each class and the first instant it may change", () => {
    const tracker = new WindowTracker();
    expect(tracker.rank("none", undefined, at("2026-12-05T00:00:00Z"))).toEqual({ rank: 3, until: Number.POSITIVE_INFINITY });
    expect(tracker.rank("far", DAILY_12, at("2026-12-05T00:00:00Z"))).toEqual({ rank: 4, until: at("2026-12-05T12:00:00Z") - SOON_MS });
    expect(tracker.rank("soon", DAILY_12, at("2026-12-05T08:00:00Z"))).toEqual({ rank: 2, until: at("2026-12-05T12:00:00Z") });
    expect(tracker.rank("open", DAILY_12, at("2026-12-05T12:00:00Z"))).toEqual({ rank: 1, until: at("2026-12-05T16:00:00Z") });
  });
});
