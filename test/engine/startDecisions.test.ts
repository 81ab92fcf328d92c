/**
 * docs/rules.md §3.4, what a member's check decides and says, in the cases the rule tests leave out:
 * another operation on the cluster (with and without its id and end), Consistent selection finding no
 * version for a NodeImageOnly run, a cluster past the target in its control plane only, a Custom image
 * the region does not offer for a pool already past it, and Latest as the default selection.
 * Issue 34: each of these could be broken without a test failing.
 */
import { describe, expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import type { ClusterBackend, ClusterInfo, MemberRef } from "../../src/engine/backend";
import { VirtualClock } from "../../src/engine/clock";
import { parseScenario } from "../../src/simulation/scenario";
import { runScenario } from "../../src/simulation/simulateScenario";
import { CONTROL_PLANE_TO_1_32, IMAGE, member, scenario, simulate } from "./helpers";

/** The scenario's fleet, but `name`'s cluster reports `operation` as running on it until `until`. */
function withOutsideOperation(yaml: string, busy: { name: string; until: string; operation: NonNullable<ClusterInfo["activeOperation"]>; versionsUnsettled?: true }, recheckUnknownAfterMs?: number) {
  const parsed = parseScenario(yaml);
  const clock = new VirtualClock(Date.parse(parsed.start));
  const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
  const backend: ClusterBackend = {
    getCluster: async (m: MemberRef) => {
      const info = await fleet.getCluster(m);
      if (m.name !== busy.name || clock.now() >= Date.parse(busy.until)) return info;
      return { ...info, activeOperation: busy.operation, ...(busy.versionsUnsettled === undefined ? {} : { versionsUnsettled: busy.versionsUnsettled }) };
    },
    getRegionOffer: (region) => fleet.getRegionOffer(region),
    startUpgrade: (m, request) => fleet.startUpgrade(m, request),
    getOperation: (m, id) => fleet.getOperation(m, id),
    findStartedUpgrade: (m, request, since) => fleet.findStartedUpgrade(m, request, since),
  };
  return runScenario(parsed, { backend, clock, clusters: () => fleet.snapshot().clusters, engineOptions: recheckUnknownAfterMs === undefined ? {} : { recheckUnknownAfterMs } });
}

const pendingMessages = (events: Array<{ name: string; to: string; time: string; message?: string }>, name: string) =>
  events.filter((e) => e.name === name && e.to === "Pending").map((e) => [e.time, e.message]);

describe("another operation on the cluster", () => {
  it("with its id and expected end: Pending naming both, and started when it ends", async () => {
    const { result } = await withOutsideOperation(scenario({ members: [member("busy-1")] }), {
      name: "busy-1",
      until: "2026-12-05T00:30:00Z",
      operation: { operationId: "op-outside-7", expectedEndAt: Date.parse("2026-12-05T00:30:00Z") },
    });
    expect(pendingMessages(result.events, "busy-1")).toEqual([
      ["2026-12-05T00:00:00Z", "Another operation (op-outside-7) is in progress on the cluster; waiting for it to end (expected at 2026-12-05T00:30:00Z)."],
    ]);
    expect(result.clusters[0]?.operations.map((o) => o.startTime)).toEqual(["2026-12-05T00:30:00Z"]);
  });

  it("with neither: Pending without them, looked at again after the engine's recheck interval", async () => {
    const { result } = await withOutsideOperation(scenario({ members: [member("busy-1")] }), { name: "busy-1", until: "2026-12-05T00:20:00Z", operation: {} }, 15 * 60_000);
    expect(pendingMessages(result.events, "busy-1")).toEqual([["2026-12-05T00:00:00Z", "Another operation is in progress on the cluster; waiting for it to end."]]);
    // Looked at again at 00:15 (still busy) and 00:30.
    expect(result.clusters[0]?.operations.map((o) => o.startTime)).toEqual(["2026-12-05T00:30:00Z"]);
  });

  it("with neither, and no recheck interval (the simulator's fully known world): it waits, Pending", async () => {
    const { result } = await withOutsideOperation(scenario({ members: [member("busy-1")], until: "2026-12-06T00:00:00Z" }), { name: "busy-1", until: "2026-12-05T00:20:00Z", operation: {} });
    expect(result.status.stages[0]?.groups[0]?.members[0]?.status).toEqual({ state: "Pending" });
    expect(result.clusters[0]?.operations).toEqual([]);
  });
});

describe("another operation on a cluster that already reports the target", () => {
  const busyUntil = "2026-12-05T00:30:00Z";
  const yaml = () => scenario({ members: [member("busy-1", { version: "1.32.0" })], update: CONTROL_PLANE_TO_1_32 });

  it("reporting the operation's target, not what runs (ARM mid-upgrade): Pending until it ends, then judged", async () => {
    const { result } = await withOutsideOperation(yaml(), { name: "busy-1", until: busyUntil, operation: { operationId: "op-9", expectedEndAt: Date.parse(busyUntil) }, versionsUnsettled: true });
    expect(pendingMessages(result.events, "busy-1")).toEqual([
      ["2026-12-05T00:00:00Z", "Another operation (op-9) is in progress on the cluster; waiting for it to end (expected at 2026-12-05T00:30:00Z)."],
    ]);
    const ended = result.events.filter((e) => e.name === "busy-1" && e.to !== "Pending" && e.to !== "NotStarted");
    expect(ended.map((e) => [e.time, e.to, e.message])).toEqual([[busyUntil, "Skipped", "Already at target: control plane runs Kubernetes 1.32.0."]]);
    expect(result.clusters[0]?.operations).toEqual([]);
  });

  it("with its versions settled: at target now, so done at once though the cluster is busy (nothing to start)", async () => {
    const { result } = await withOutsideOperation(yaml(), { name: "busy-1", until: busyUntil, operation: { operationId: "op-9", expectedEndAt: Date.parse(busyUntil) } });
    expect(pendingMessages(result.events, "busy-1")).toEqual([]);
    const ended = result.events.filter((e) => e.name === "busy-1" && e.to !== "NotStarted");
    expect(ended.map((e) => [e.time, e.to, e.message])).toEqual([["2026-12-05T00:00:00Z", "Skipped", "Already at target: control plane runs Kubernetes 1.32.0."]]);
  });
});

describe("Consistent selection with no version common to the regions", () => {
  it("NodeImageOnly: the member is Skipped saying which pool's family has none, not as at target", async () => {
    const out = await simulate(
      scenario({
        regions: { westeurope: { nodeImages: [IMAGE.NOV] }, eastus: { nodeImages: [IMAGE.OCT] } },
        members: [member("eu-1", { image: IMAGE.NOV }), member("us-1", { region: "eastus", image: IMAGE.OCT })],
        update: "{upgrade: {type: NodeImageOnly}, nodeImageSelection: {type: Consistent}}",
      }),
    );
    const family = "AKSUbuntu-2204gen2containerd";
    for (const name of ["eu-1", "us-1"]) {
      expect(out.member(name).status.state, name).toBe("Skipped");
      expect(out.member(name).message, name).toBe(`Node pool 'system' uses image family ${family}, for which no version is available in every region of the run (Consistent selection).`);
    }
  });
});

describe("Full over a cluster whose control plane alone is past the target", () => {
  const regions = { westeurope: { kubernetesVersions: ["1.32.0", "1.33.0"], nodeImages: [IMAGE.OCT, IMAGE.NOV] } };

  it("pools on the target with their images: Skipped, the message naming the newer control plane", async () => {
    const out = await simulate(
      scenario({ regions, members: [member("cp-ahead", { version: "1.33.0", pools: [{ name: "system", version: "1.32.0", image: IMAGE.NOV }] })], update: "{upgrade: {type: Full, kubernetesVersion: 1.32.0}}" }),
    );
    expect(out.member("cp-ahead").status.state).toBe("Skipped");
    expect(out.member("cp-ahead").message).toBe(
      "Already at target: control plane and every node pool run Kubernetes 1.32.0 or newer (control plane 1.33.0), none moved back, with the target node images.",
    );
  });

  it("a pool's image behind: only the image moves, as a NodeImageOnly upgrade (never a downgrade of the control plane)", async () => {
    const out = await simulate(
      scenario({ regions, members: [member("cp-ahead", { version: "1.33.0", pools: [{ name: "system", version: "1.32.0", image: IMAGE.OCT }] })], update: "{upgrade: {type: Full, kubernetesVersion: 1.32.0}}" }),
    );
    expect(out.ops("cp-ahead").map((o) => [o.kind, o.result])).toEqual([["NodeImageOnly", "Succeeded"]]);
    expect(out.cluster("cp-ahead")).toMatchObject({ kubernetesVersion: "1.33.0", nodePools: [{ orchestratorVersion: "1.32.0", nodeImageVersion: IMAGE.NOV }] });
  });

  it("every version exactly on the target and an image behind: a Full upgrade (nothing is past the target)", async () => {
    const out = await simulate(
      scenario({ regions, members: [member("on-target", { version: "1.32.0", image: IMAGE.OCT })], update: "{upgrade: {type: Full, kubernetesVersion: 1.32.0}}" }),
    );
    expect(out.ops("on-target").map((o) => o.kind)).toEqual(["Full"]);
    expect(out.eventsOf("member", "on-target")[0]?.message).toBe(`Upgrading the control plane and node pools to Kubernetes 1.32.0, node images system=${IMAGE.NOV}.`);
  });
});

describe("images the run does not move", () => {
  it("a Custom image the region does not offer does not hold a member whose pool is already past it", async () => {
    const out = await simulate(
      scenario({
        regions: { westeurope: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.DEC] } },
        members: [member("ahead", { image: IMAGE.DEC })],
        update: `{upgrade: {type: Full, kubernetesVersion: 1.32.0}, nodeImageSelection: {type: Custom, customNodeImageVersions: [{version: ${IMAGE.NOV}}]}}`,
      }),
    );
    expect(out.member("ahead").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:10:00Z" });
    expect(out.cluster("ahead").nodePools[0]?.nodeImageVersion).toBe(IMAGE.DEC);
  });

  it("Latest is the default selection: a pool re-imaged on its own takes an image released during the upgrade", async () => {
    // As rules.test.ts's Latest/Full case, with no nodeImageSelection: parts of 10 minutes, 'img' at 00:20.
    const out = await simulate(
      scenario({
        regions: { westeurope: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.OCT, IMAGE.NOV, `${IMAGE.DEC}@2026-12-05T00:15:00Z`] } },
        members: [member("full", { version: "1.32.0", pools: [{ name: "old", image: IMAGE.OCT, version: "1.31.2" }, { name: "img", image: IMAGE.OCT }, { name: "late", image: IMAGE.OCT, version: "1.31.2" }], minutes: 40 })],
        update: "{upgrade: {type: Full, kubernetesVersion: 1.32.0}}",
      }),
    );
    expect(out.cluster("full").nodePools.map((p) => [p.name, p.nodeImageVersion])).toEqual([
      ["old", IMAGE.NOV],
      ["img", IMAGE.DEC],
      ["late", IMAGE.NOV],
    ]);
  });
});

describe("a region's offer read afresh at every pass", () => {
  it("a version that appears without notice (as ARM lists them: no date) is taken at the next look", async () => {
    const parsed = parseScenario(scenario({ regions: { westeurope: { kubernetesVersions: ["1.31.2"], nodeImages: [IMAGE.NOV] } }, members: [member("m-1")] }));
    const clock = new VirtualClock(Date.parse(parsed.start));
    const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
    const appearsAt = Date.parse("2026-12-05T01:00:00Z");
    const backend: ClusterBackend = {
      getCluster: (m) => fleet.getCluster(m),
      getRegionOffer: async (region) => {
        const offer = await fleet.getRegionOffer(region);
        return clock.now() < appearsAt ? offer : { ...offer, kubernetesVersions: [...offer.kubernetesVersions, { version: "1.32.0" }] };
      },
      startUpgrade: (m, request) => fleet.startUpgrade(m, request),
      getOperation: (m, id) => fleet.getOperation(m, id),
      findStartedUpgrade: (m, request, since) => fleet.findStartedUpgrade(m, request, since),
    };
    const { result } = await runScenario(parsed, { backend, clock, clusters: () => fleet.snapshot().clusters, engineOptions: { recheckUnknownAfterMs: 30 * 60_000 } });
    expect(pendingMessages(result.events, "m-1")).toEqual([["2026-12-05T00:00:00Z", "Kubernetes version 1.32.0 is not yet available in region westeurope."]]);
    // Looked at again at 00:30 (not there yet) and at 01:00, when the engine asks for the upgrade (this
    // fleet itself never offers 1.32.0, so it refuses: the region's listing is what the test changes).
    expect(fleet.startUpgradeCalls().map((c) => [c.member, new Date(c.at).toISOString()])).toEqual([["m-1", "2026-12-05T01:00:00.000Z"]]);
    expect(result.events.filter((e) => e.name === "m-1").map((e) => e.time)).toEqual(["2026-12-05T00:00:00Z", "2026-12-05T01:00:00Z"]);
  });
});

