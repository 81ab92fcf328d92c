/**
 * Following an upgrade under way (docs/rules.md §3.5, docs/behaviour.md "Health checks"): how often the
 * engine looks when the backend's hint is no use, what a failed operation with no error says, and what
 * a member says while its health is being verified. Issue 34: these could be broken without a test
 * failing.
 */
import { describe, expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import type { ClusterBackend, MemberRef, OperationState, ProbeResult } from "../../src/engine/backend";
import { VirtualClock } from "../../src/engine/clock";
import type { EngineOptions } from "../../src/engine/context";
import { isoInstant } from "../../src/model/instants";
import { parseScenario } from "../../src/simulation/scenario";
import { runScenario } from "../../src/simulation/simulateScenario";
import { UpdateRunEngine } from "../../src/engine/engine";
import { updateChoiceOf } from "../../src/model/autoUpgrade";
import { START, member, scenario } from "./helpers";

const T = (minutes: number) => new Date(Date.parse(START) + minutes * 60_000).toISOString().replace(/\.000Z$/, "Z");

/** The scenario over the simulated fleet, its operations answered by `operation` when it gives an answer; every poll's instant kept. */
function run(yaml: string, operation: (polls: number, now: number) => OperationState | undefined, options: EngineOptions = {}) {
  const parsed = parseScenario(yaml);
  const clock = new VirtualClock(Date.parse(parsed.start));
  const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
  const polls: string[] = [];
  const pollsOf: Record<string, string[]> = {};
  const backend: ClusterBackend = {
    getCluster: (m) => fleet.getCluster(m),
    getRegionOffer: (region) => fleet.getRegionOffer(region),
    startUpgrade: (m, request) => fleet.startUpgrade(m, request),
    getOperation: async (m: MemberRef, id: string) => {
      polls.push(isoInstant(clock.now()));
      (pollsOf[m.name] ??= []).push(isoInstant(clock.now()));
      return operation(polls.length, clock.now()) ?? (await fleet.getOperation(m, id));
    },
    findStartedUpgrade: (m, request, since) => fleet.findStartedUpgrade(m, request, since),
    probe: (m, url) => fleet.probe(m, url),
  };
  return { polls, pollsOf, result: runScenario(parsed, { backend, clock, clusters: () => fleet.snapshot().clusters, engineOptions: options }) };
}

/** The scenario over a backend that cannot probe (the simulated fleet without its probe), given `options`. */
async function withoutProbe(yaml: string, options: EngineOptions = {}) {
  const parsed = parseScenario(yaml);
  const clock = new VirtualClock(Date.parse(parsed.start));
  const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
  const backend: ClusterBackend = { getCluster: (m) => fleet.getCluster(m), getRegionOffer: (r) => fleet.getRegionOffer(r), startUpgrade: (m, q) => fleet.startUpgrade(m, q), getOperation: (m, id) => fleet.getOperation(m, id), findStartedUpgrade: (m, q, s) => fleet.findStartedUpgrade(m, q, s) };
  return runScenario(parsed, { backend, clock, clusters: () => fleet.snapshot().clusters, engineOptions: options });
}

describe("polling an upgrade", () => {
  it("a hint to look again that is already past is not taken: the engine looks after its poll interval", async () => {
    const { polls, result } = run(scenario({ members: [member("m-1", { minutes: 3 })] }), (n, now) => (n === 1 ? { status: "InProgress", checkAgainAt: now } : undefined), { pollIntervalMs: 60_000 });
    const { result: done } = await result;
    // Started at 00:00 with the fleet's hint (00:03); told at 00:03 to look again "now": next look 00:04.
    expect(polls).toEqual(["2026-12-05T00:03:00Z", "2026-12-05T00:04:00Z"]);
    // Completed at the upgrade's end as the fleet recorded it (docs/rules.md §20), though seen at 00:04.
    expect(done.status.stages[0]!.groups[0]!.members[0]!.status).toMatchObject({ state: "Completed", completedTime: "2026-12-05T00:03:00Z" });
  });

  it("no hint: the engine looks after its poll interval, then at the hint it is given", async () => {
    const { polls, result } = run(scenario({ members: [member("m-1", { minutes: 3 })] }), (n, now) => (n === 1 ? { status: "InProgress" } : n === 2 ? { status: "InProgress", checkAgainAt: now + 30_000 } : undefined), {
      pollIntervalMs: 120_000,
    });
    await result;
    expect(polls).toEqual(["2026-12-05T00:03:00Z", "2026-12-05T00:05:00Z", "2026-12-05T00:05:30Z"]);
  });

  it("an upgrade is looked at only when its hint comes, though the engine wakes earlier for other members", async () => {
    const yaml = scenario({
      members: [member("slow", { group: "slow", minutes: 60 }), member("q-1", { group: "quick" }), member("q-2", { group: "quick" }), member("q-3", { group: "quick" })],
      strategy: "{stages: [{name: s, groups: [{name: slow}, {name: quick}]}]}",
    });
    const { pollsOf, result } = run(yaml, () => undefined);
    const { result: done } = await result;
    // The quick group's members end at 00:10, 00:20 and 00:30: slow's operation is not asked about then.
    expect(pollsOf).toEqual({ "q-1": [T(10)], "q-2": [T(20)], "q-3": [T(30)], slow: [T(60)] });
    expect(done.status.stages[0]!.groups.map((g) => g.status.state)).toEqual(["Completed", "Completed"]);
  });

  it("an operation that failed without saying why fails its member with a generic error", async () => {
    const { result } = run(scenario({ members: [member("m-1")] }), () => ({ status: "Failed" }));
    const m = (await result).result.status.stages[0]!.groups[0]!.members[0]!;
    expect(m.status).toMatchObject({ state: "Failed", error: { code: "UpgradeFailed", message: "the upgrade failed" } });
    expect(m.message).toBe("Upgrade failed: the upgrade failed (UpgradeFailed)");
  });
});

describe("verifying health after the upgrade", () => {
  it("the member says what it waits for: the settle time (the probe's secrets hidden), then each failed probe", async () => {
    const parsed = parseScenario(scenario({ members: [member("a", { healthCheck: "{url: 'https://user:pw@a.example.test/healthz?token=s3cret', settleSeconds: 120, retries: 1, intervalSeconds: 30}" })] }));
    const clock = new VirtualClock(Date.parse(parsed.start));
    const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
    const probe = async (): Promise<ProbeResult> => ({ ok: false, detail: "GET https://a.example.test/healthz answered 503" });
    const engine = UpdateRunEngine.create({ name: "r", members: parsed.members, ...updateChoiceOf(parsed) }, fleet, { probe });
    const messageAt = async (minutes: number) => {
      await clock.sleepUntil(Date.parse(T(0)) + minutes * 60_000);
      await engine.reconcile(clock.now());
      const a = engine.status().stages[0]!.groups[0]!.members[0]!;
      return [a.status.state, a.message];
    };
    engine.start(clock.now());
    expect(await messageAt(0)).toEqual(["Running", "Upgrading the control plane to Kubernetes 1.32.0."]);
    expect(await messageAt(10)).toEqual(["Running", "Upgrade done; probing https://…@a.example.test/healthz?… after 120 s to settle."]);
    expect(await messageAt(12)).toEqual(["Running", "Probe 1 of 2 failed (GET https://a.example.test/healthz answered 503); trying again in 30 s."]);
    expect(await messageAt(12.5)).toEqual(["Failed", "Health check failed (probe): GET https://a.example.test/healthz answered 503, 2 attempts."]);
  });

  it("a backend that cannot probe, with a probe given to the engine: a member's probe and a member without one both complete", async () => {
    const yaml = [
      scenario({ members: [member("a", { healthCheck: "{url: 'https://a.example.test/healthz', settleSeconds: 0}" }), member("b")] }),
      "analysis:",
      "  templates: [{name: up, provider: {web: {url: 'https://status.example/up'}}}]",
      "  afterMember: [up]",
    ].join("\n");
    const probed: string[] = [];
    const probe = async (m: MemberRef, url: string): Promise<ProbeResult> => (probed.push(`${m.name} ${url}`), { ok: true, detail: `GET ${url} answered 200` });
    const { result } = await withoutProbe(yaml, { probe });
    expect(result.status.stages[0]!.groups[0]!.members.map((m) => [m.name, m.status.state])).toEqual([["a", "Completed"], ["b", "Completed"]]);
    expect(probed).toEqual(["a https://a.example.test/healthz", "a https://status.example/up", "b https://status.example/up"]);
  });

  it("a backend that cannot probe does not fail a member that has no probe to take", async () => {
    const yaml = [
      scenario({ members: [member("b")] }),
      "analysis:",
      "  templates: [{name: err, provider: {prometheus: {address: 'http://prometheus:9090', query: 'err'}}, successCondition: result < 0.05}]",
      "  afterMember: [err]",
    ].join("\n");
    const { result } = await withoutProbe(yaml, { queryMetric: async () => ({ values: [0.01] }) });
    expect(result.status.stages[0]!.groups[0]!.members[0]!.status).toMatchObject({ state: "Completed", completedTime: T(10) });
  });

  it("a probe with no way to run it fails the member, saying so", async () => {
    const { result } = await withoutProbe(scenario({ members: [member("a", { healthCheck: "{url: 'https://a.example.test/healthz', settleSeconds: 0}" })] }));
    expect(result.status.stages[0]!.groups[0]!.members[0]!.message).toBe("Health check failed (probe): nothing can probe https://a.example.test/healthz with this backend.");
  });
});
