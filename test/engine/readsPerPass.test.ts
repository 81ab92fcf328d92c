/**
 * What the group's ready queue (src/engine/readyQueue.ts) promises besides the order: the backend is
 * asked for a cluster no more often than a plain scan of the candidates at every pick would ask — on
 * ARM each read is a request against the subscription's throttling budget (docs/behaviour.md, "A
 * member waiting for its window"; `simulate --via` counts them) — and the engine wakes only when
 * something can change. Issue 34: the queue's bookkeeping could be broken without a test failing.
 */
import { describe, expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import type { ClusterBackend, ClusterInfo, MemberRef } from "../../src/engine/backend";
import { VirtualClock } from "../../src/engine/clock";
import { UpdateRunEngine } from "../../src/engine/engine";
import { updateChoiceOf } from "../../src/model/autoUpgrade";
import { isoInstant } from "../../src/model/instants";
import { parseScenario, resolveScenarioStrategy } from "../../src/simulation/scenario";
import { runScenario } from "../../src/simulation/simulateScenario";
import { IMAGE, START, daily, member, scenario } from "./helpers";

const T = (minutes: number) => new Date(Date.parse(START) + minutes * 60_000).toISOString().replace(/\.000Z$/, "Z");

/** The simulated fleet, recording the instant of every cluster read per member. */
function watched(yaml: string) {
  const parsed = parseScenario(yaml);
  const clock = new VirtualClock(Date.parse(parsed.start));
  const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
  const reads = new Map<string, string[]>();
  const offerReads = new Map<string, string[]>();
  const backend: ClusterBackend = {
    getCluster: (m: MemberRef): Promise<ClusterInfo> => {
      reads.set(m.name, [...(reads.get(m.name) ?? []), isoInstant(clock.now())]);
      return fleet.getCluster(m);
    },
    getRegionOffer: (region) => {
      offerReads.set(region, [...(offerReads.get(region) ?? []), isoInstant(clock.now())]);
      return fleet.getRegionOffer(region);
    },
    startUpgrade: (m, request) => fleet.startUpgrade(m, request),
    getOperation: (m, id) => fleet.getOperation(m, id),
    findStartedUpgrade: (m, request, since) => fleet.findStartedUpgrade(m, request, since),
  };
  return { parsed, clock, backend, reads, offerReads, run: () => runScenario(parsed, { backend, clock, clusters: () => fleet.snapshot().clusters }) };
}

describe("cluster reads", () => {
  it("a member found Pending is read once in a pass, however many members its group starts in that pass", async () => {
    const { reads, run } = watched(
      scenario({
        regions: { westeurope: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [] }, eastus: { kubernetesVersions: ["1.31.2", "1.32.0@2026-12-05T05:00:00Z"], nodeImages: [] } },
        members: [member("late-1", { region: "eastus" }), member("a"), member("b"), member("c")],
        strategy: '{stages: [{name: s, groups: [{name: default, maxConcurrency: "3"}]}]}',
      }).replaceAll("  - {name: ", "  - {group: default, name: "),
    );
    const { result } = await run();
    expect(result.status.stages[0]!.groups[0]!.members.map((m) => m.status.startTime)).toEqual([T(300), T(0), T(0), T(0)]);
    // At 00:00 read to rank it, then afresh to check it, once, though the group fills three slots in that
    // pass; checked again at 00:10 when a slot frees, and at 05:00; read once more after its upgrade.
    expect(reads.get("late-1")).toEqual([T(0), T(0), T(10), T(300), T(310)]);
    // Nothing but the run's members is asked about, in passes that rank none as in the others.
    expect([...reads.keys()].sort()).toEqual(["a", "b", "c", "late-1"]);
  });

  it("a run given a channel with Consistent images reads each cluster once at its start to generate its update and pick its images", async () => {
    const profile = "{channel: TargetKubernetesVersion, targetKubernetesVersion: '1.32', nodeImageSelection: {type: Consistent}}";
    const { reads, run } = watched(scenario({ members: [member("a"), member("b")], autoUpgradeProfile: profile }));
    const { result } = await run();
    expect(result.status.nodeImageSelection?.selectedNodeImageVersions).toEqual([{ version: IMAGE.NOV }]);
    // 00:00: read once for the update, the read kept for the images and to rank it; afresh to check it; 00:10: its health.
    expect(reads.get("a")).toEqual([T(0), T(0), T(10)]);
  });

  it("a member upgrading is not read to rank it while it runs (only its operation is followed)", async () => {
    const { reads, run } = watched(scenario({ members: [member("slow", { minutes: 60 }), member("p-1", { window: daily("12:00") })], strategy: '{stages: [{name: s, groups: [{name: default, maxConcurrency: "2"}]}]}' }).replaceAll("  - {name: ", "  - {group: default, name: "));
    await run();
    // slow: read at 00:00 to rank it and to start it, and once after its upgrade (its health); never while
    // it runs, nor to rank it after.
    expect(reads.get("slow")).toEqual([T(0), T(0), T(60)]);
  });

  it("a member waiting for its window is not read again when its class changes four hours before the opening", async () => {
    // w opens at 12:00: class 4 until 08:00, class 2 after. Found Pending at 00:00 (the second slot) and
    // parked until 12:00; the group picks again at 10:00, when the ten-hour upgrade ends.
    const { reads, run } = watched(
      scenario({ members: [member("long", { minutes: 600 }), member("w", { window: daily("12:00") })], strategy: '{stages: [{name: s, groups: [{name: default, maxConcurrency: "2"}]}]}', until: "2026-12-06T00:00:00Z" }).replaceAll(
        "  - {name: ",
        "  - {group: default, name: ",
      ),
    );
    const { result } = await run();
    expect(result.events.filter((e) => e.name === "w").map((e) => `${e.time} ${e.to}`)).toEqual([`${T(0)} Pending`, `${T(720)} Running`, `${T(730)} Completed`]);
    expect(reads.get("w")).toEqual([T(0), T(0), T(720), T(730)]);
  });
});

describe("region offer reads", () => {
  it("a region's offer is read once in a pass, however many of its members the pass checks", async () => {
    const { offerReads, run } = watched(
      scenario({
        regions: { westeurope: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [] }, eastus: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [] } },
        members: [member("a"), member("b"), member("c"), member("us-1", { region: "eastus" })],
        strategy: '{stages: [{name: s, groups: [{name: default, maxConcurrency: "4"}]}]}',
      }).replaceAll("  - {name: ", "  - {group: default, name: "),
    );
    const { result } = await run();
    expect(result.status.stages[0]!.groups[0]!.members.map((m) => m.status.startTime)).toEqual([T(0), T(0), T(0), T(0)]);
    // Three members of westeurope and one of eastus checked at 00:00: one read of each region.
    expect(Object.fromEntries(offerReads)).toEqual({ westeurope: [T(0)], eastus: [T(0)] });
  });
});

describe("when the engine wakes", () => {
  it("after a member waiting for its window is skipped, the group wakes for the next opening, not for the skipped member's", async () => {
    const { parsed, clock, backend } = watched(scenario({ members: [member("p", { window: daily("12:00") }), member("q", { window: daily("18:00") })] }));
    const engine = UpdateRunEngine.create({ name: "r", members: parsed.members, strategy: resolveScenarioStrategy(parsed), ...updateChoiceOf(parsed) }, backend);
    engine.start(clock.now());
    expect((await engine.reconcile(clock.now())).nextWakeAt).toBe(Date.parse(T(720)));
    engine.skip([{ type: "Member", name: "p" }], Date.parse(T(5)));
    await clock.sleepUntil(Date.parse(T(5)));
    expect((await engine.reconcile(clock.now())).nextWakeAt).toBe(Date.parse(T(1080)));
  });
});
