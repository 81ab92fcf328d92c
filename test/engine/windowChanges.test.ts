/**
 * Maintenance windows that are not the plain daily case (docs/rules.md §3.3, §3.4): a window that never
 * opens again, and a window edited on the cluster while the run goes on. Issue 34: rules no test failed
 * on when they were broken.
 */
import { describe, expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import type { ClusterBackend, ClusterInfo, MemberRef } from "../../src/engine/backend";
import { VirtualClock } from "../../src/engine/clock";
import type { MaintenanceWindow } from "../../src/model/maintenanceWindow";
import { parseScenario } from "../../src/simulation/scenario";
import { runScenario } from "../../src/simulation/simulateScenario";
import { daily, member, scenario, simulate, startAt, stopAt } from "./helpers";

const NEVER_AGAIN = "Maintenance window closed and it never opens again (check its schedule and notAllowedDates).";
/** Open daily from midnight, but every day blocked for longer than the engine looks ahead (about ten years). */
const BLOCKED_FOR_YEARS = `{schedule: {daily: {intervalDays: 1}}, startTime: "00:00", durationHours: 4, notAllowedDates: [{start: 2026-12-01, end: 2038-01-01}]}`;

describe("a maintenance window that never opens again", () => {
  it("leaves its member Pending with a message saying so, ranked after members with no window; the rest of the group goes on", async () => {
    const out = await simulate(
      scenario({
        members: [member("never-1", { window: BLOCKED_FOR_YEARS }), member("plain-1"), member("plain-2")],
        until: "2026-12-08T00:00:00Z",
      }),
    );
    // never-1 is declared first but ranks last (class 4): plain-1 and plain-2 go before it.
    expect(out.memberDecisionsAt("2026-12-05T00:00:00Z")).toEqual(["plain-1 NotStarted->Running"]);
    expect(out.opStarts("plain-2")).toEqual(["2026-12-05T00:10:00Z"]);
    expect(out.transitions("member", "never-1")).toEqual(["2026-12-05T00:20:00Z NotStarted->Pending"]);
    expect(out.member("never-1").status).toEqual({ state: "Pending" });
    expect(out.member("never-1").message).toBe(NEVER_AGAIN);
    expect(out.ops("never-1")).toEqual([]);
    expect(out.run.state).toBe("Pending");
  });
});

/** The scenario's fleet, but from `at` on, `name`'s cluster answers with `window` as its auto-upgrade window. */
function withEditedWindow(yaml: string, edit: { name: string; at: string; window: MaintenanceWindow }) {
  const parsed = parseScenario(yaml);
  const clock = new VirtualClock(Date.parse(parsed.start));
  const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
  const editedAt = Date.parse(edit.at);
  const getCluster = async (m: MemberRef): Promise<ClusterInfo> => {
    const info = await fleet.getCluster(m);
    if (m.name !== edit.name || clock.now() < editedAt) return info;
    return { ...info, maintenanceConfigurations: { aksManagedAutoUpgradeSchedule: { maintenanceWindow: edit.window } } };
  };
  const backend: ClusterBackend = {
    getCluster,
    getRegionOffer: (region) => fleet.getRegionOffer(region),
    startUpgrade: (m, request) => fleet.startUpgrade(m, request),
    getOperation: (m, id) => fleet.getOperation(m, id),
    findStartedUpgrade: (m, request, since) => fleet.findStartedUpgrade(m, request, since),
  };
  return runScenario(parsed, { backend, clock, clusters: () => fleet.snapshot().clusters });
}

describe("a maintenance window edited during the run", () => {
  it("is read afresh when its member is checked again: the member starts in the new window, not at the old one's opening", async () => {
    // w-1's window opens at 12:00; at 01:00 it is changed to one open from 01:00 to 05:00. A stop and a
    // start make w-1 a candidate again (docs/behaviour.md, "A member waiting for its window").
    const { result } = await withEditedWindow(
      scenario({
        members: [member("w-1", { window: daily("12:00") })],
        actions: [stopAt("2026-12-05T01:30:00Z"), startAt("2026-12-05T02:00:00Z")],
      }),
      { name: "w-1", at: "2026-12-05T01:00:00Z", window: { schedule: { daily: { intervalDays: 1 } }, startTime: "01:00", durationHours: 4 } },
    );
    const w1 = result.events.filter((e) => e.name === "w-1").map((e) => `${e.time} ${e.from}->${e.to}${e.message === undefined ? "" : ` ${e.message}`}`);
    expect(w1).toEqual([
      "2026-12-05T00:00:00Z NotStarted->Pending Maintenance window closed; next opening at 2026-12-05T12:00:00Z.",
      "2026-12-05T01:30:00Z Pending->NotStarted",
      "2026-12-05T02:00:00Z NotStarted->Running Upgrading the control plane to Kubernetes 1.32.0.",
      "2026-12-05T02:10:00Z Running->Completed",
    ]);
  });
});
