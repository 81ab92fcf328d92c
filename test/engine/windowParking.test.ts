/**
 * A member left Pending because its maintenance window is closed is decided again when the window
 * opens, not at every pick of its group (docs/behaviour.md, "A member waiting for its window"; issue
 * 13: a large group with windows was quadratic). A halt and a start make it a candidate again at once.
 */
import { describe, expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import { VirtualClock } from "../../src/engine/clock";
import type { ClusterBackend, ClusterInfo, MemberRef } from "../../src/engine/backend";
import { isoInstant } from "../../src/model/instants";
import { parseScenario } from "../../src/simulation/scenario";
import { runScenario } from "../../src/simulation/simulateScenario";
import { CONTROL_PLANE_TO_1_32, daily, member, scenario, simulate, startAt, stopAt } from "./helpers";

/** The simulated fleet, recording the instant of every cluster read per member. */
function watchedFleet(yaml: string) {
  const parsed = parseScenario(yaml);
  const clock = new VirtualClock(Date.parse(parsed.start));
  const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
  const reads = new Map<string, string[]>();
  const backend: ClusterBackend = {
    getCluster: (m: MemberRef): Promise<ClusterInfo> => {
      reads.set(m.name, [...(reads.get(m.name) ?? []), isoInstant(clock.now())]);
      return fleet.getCluster(m);
    },
    getRegionOffer: (region) => fleet.getRegionOffer(region),
    startUpgrade: (m, request) => fleet.startUpgrade(m, request),
    getOperation: (m, id) => fleet.getOperation(m, id),
    findStartedUpgrade: (m, request, since) => fleet.findStartedUpgrade(m, request, since),
    probe: (m, url) => fleet.probe(m, url),
  };
  return { parsed, reads, run: () => runScenario(parsed, { backend, clock, clusters: () => fleet.snapshot().clusters }) };
}

// One slot; w1..w3's window opens at 03:00 (so they rank first from 00:00: it opens within 4 h);
// a, b, c have none and take an hour each.
const MEMBERS = [
  member("w1", { window: daily("03:00") }),
  member("w2", { window: daily("03:00") }),
  member("w3", { window: daily("03:00") }),
  member("a", { minutes: 60 }),
  member("b", { minutes: 60 }),
  member("c", { minutes: 60 }),
];

const NEVER_OPENS = `{schedule: {daily: {intervalDays: 1}}, startTime: "02:00", durationHours: 4, notAllowedDates: [{start: "2026-01-01", end: "2099-12-31"}]}`;

describe("a member waiting for its window", () => {
  it("starts when its window opens beside a member whose window never opens (Pending with no instant to look again)", async () => {
    const out = await simulate(
      scenario({ members: [member("never", { window: NEVER_OPENS }), member("later", { window: daily("12:00") })], update: CONTROL_PLANE_TO_1_32, until: "2026-12-06T00:00:00Z" }),
    );
    expect(out.member("never").status).toEqual({ state: "Pending" });
    expect(out.member("never").message).toBe("Maintenance window closed and it never opens again (check its schedule and notAllowedDates).");
    expect(out.eventsOf("member", "later").map((e) => [e.time, e.to, e.message])).toEqual([
      ["2026-12-05T00:00:00Z", "Pending", "Maintenance window closed; next opening at 2026-12-05T12:00:00Z."],
      ["2026-12-05T12:00:00Z", "Running", "Upgrading the control plane to Kubernetes 1.32.0."],
      ["2026-12-05T12:10:00Z", "Completed", undefined],
    ]);
  });

  it("is read once when it goes Pending, then not again until its window opens", async () => {
    const { reads, run } = watchedFleet(scenario({ members: MEMBERS, update: CONTROL_PLANE_TO_1_32, until: "2026-12-06T00:00:00Z" }));
    const { result } = await run();
    const members = result.status.stages[0]!.groups[0]!.members;
    const starts = Object.fromEntries(members.map((m) => [m.name, m.status.startTime]));
    expect(starts).toEqual({
      a: "2026-12-05T00:00:00Z",
      b: "2026-12-05T01:00:00Z",
      c: "2026-12-05T02:00:00Z",
      w1: "2026-12-05T03:00:00Z",
      w2: "2026-12-05T03:10:00Z",
      w3: "2026-12-05T03:20:00Z",
    });
    // Picks at 01:00 and 02:00 (a and b ending) do not look at w1..w3 again.
    for (const w of ["w1", "w2", "w3"]) {
      const before = (reads.get(w) ?? []).filter((t) => t < "2026-12-05T03:00:00Z");
      expect(new Set(before)).toEqual(new Set(["2026-12-05T00:00:00Z"]));
    }
    const pending = result.events.filter((e) => e.name === "w2" && e.to === "Pending");
    expect(pending.map((e) => [e.time, e.message])).toEqual([["2026-12-05T00:00:00Z", "Maintenance window closed; next opening at 2026-12-05T03:00:00Z."]]);
  });

  it("is decided again at once after a stop and a start", async () => {
    const { reads, run } = watchedFleet(
      scenario({ members: MEMBERS, update: CONTROL_PLANE_TO_1_32, until: "2026-12-06T00:00:00Z", actions: [stopAt("2026-12-05T00:30:00Z"), startAt("2026-12-05T01:30:00Z")] }),
    );
    const { result } = await run();
    const w1 = result.events.filter((e) => e.name === "w1").map((e) => `${e.time} ${e.from}->${e.to}`);
    expect(w1).toEqual([
      "2026-12-05T00:00:00Z NotStarted->Pending",
      "2026-12-05T00:30:00Z Pending->NotStarted",
      "2026-12-05T01:30:00Z NotStarted->Pending",
      "2026-12-05T03:30:00Z Pending->Running",
      "2026-12-05T03:40:00Z Running->Completed",
    ]);
    expect(reads.get("w1")?.filter((t) => t < "2026-12-05T03:00:00Z")).toContain("2026-12-05T01:30:00Z");
  });
});
