/** Pending periods come from the events: the status tree keeps only a member's final state. */
import { describe, expect, it } from "vitest";
import { memberPendingIntervals } from "../../src/report/pending";
import { DEMO_SCENARIO, simulateJson } from "./fixtures";

const t = (hhmm: string) => Date.parse(`2026-12-05T${hhmm}:00Z`);
const ev = (time: string, scope: string, name: string, from: string, to: string, message?: string) => ({
  time: `2026-12-05T${time}:00Z`,
  scope,
  name,
  from,
  to,
  ...(message === undefined ? {} : { message }),
});

describe("memberPendingIntervals", () => {
  it("pairs each move into Pending with the next move out of it, keeping the reason given on entry", () => {
    const intervals = memberPendingIntervals(
      [
        ev("00:00", "member", "a", "NotStarted", "Pending", "Maintenance window closed"),
        ev("00:00", "group", "a", "NotStarted", "Pending"), // a group of the same name is not the member
        ev("01:00", "member", "a", "Pending", "Running"),
        ev("01:30", "member", "a", "Running", "Pending", "Cluster busy"),
        ev("02:00", "member", "a", "Pending", "Running"),
        ev("02:30", "member", "a", "Running", "Completed"),
      ],
      t("05:00"),
    );
    expect(intervals.get("a")).toEqual([
      { start: t("00:00"), end: t("01:00"), open: false, message: "Maintenance window closed" },
      { start: t("01:30"), end: t("02:00"), open: false, message: "Cluster busy" },
    ]);
    expect([...intervals.keys()]).toEqual(["a"]);
  });

  it("runs a member still Pending at the last event to the end of the timeline, marked open", () => {
    const intervals = memberPendingIntervals([ev("03:00", "member", "b", "NotStarted", "Pending")], t("04:00"));
    expect(intervals.get("b")).toEqual([{ start: t("03:00"), end: t("04:00"), open: true }]);
  });

  it("finds the demo's waits for maintenance windows and the late Kubernetes version", async () => {
    const { events } = await simulateJson(DEMO_SCENARIO);
    const intervals = memberPendingIntervals(events, t("23:59"));
    // canary-us waits for its 22:00 (UTC-5) window, as the simulate tree shows it starting at 03:00.
    expect(intervals.get("canary-us")).toEqual([{ start: t("00:00"), end: t("03:00"), open: false, message: "Maintenance window closed; next opening at 2026-12-05T03:00:00Z." }]);
    expect(intervals.get("canary-eu")).toBeUndefined();
    const asia = intervals.get("prod-asia-1");
    expect(asia).toHaveLength(1);
    expect(asia![0]!.message).toMatch(/1\.32\.0/);
  });
});
