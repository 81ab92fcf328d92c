/**
 * One reconcile pass (`engine/execute.ts`, docs/rules.md §3) as a user sees it: when an upgrade the
 * backend started is looked at and when its member started, what a busy or failing start does to the
 * rest of the pass, how slots go to groups, what a backend error refuses, and when the engine says to
 * look again. Issue 34: these could be broken without a test failing.
 */
import { describe, expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import { BackendError, type ClusterBackend, type MemberRef, type OperationState, type StartedOperation } from "../../src/engine/backend";
import { VirtualClock } from "../../src/engine/clock";
import type { EngineOptions } from "../../src/engine/context";
import { drive } from "../../src/engine/drive";
import { UpdateRunEngine } from "../../src/engine/engine";
import { isoInstant } from "../../src/model/instants";
import { parseScenario } from "../../src/simulation/scenario";
import { scenarioRun } from "../../src/simulation/simulateScenario";
import { FULL_TO_1_32, IMAGE, START, approveAt, member, scenario, simulate } from "./helpers";

const T = (minutes: number) => new Date(Date.parse(START) + minutes * 60_000).toISOString().replace(/\.000Z$/, "Z");
const at = (minutes: number) => Date.parse(START) + minutes * 60_000;

/** What a test changes of the simulated fleet's answers (each given the fleet's own call). */
interface Overrides {
  getCluster?: (m: MemberRef, fleet: SimulatedFleet) => ReturnType<ClusterBackend["getCluster"]>;
  getRegionOffer?: (region: string, fleet: SimulatedFleet) => ReturnType<ClusterBackend["getRegionOffer"]>;
  startUpgrade?: (m: MemberRef, started: () => ReturnType<ClusterBackend["startUpgrade"]>) => ReturnType<ClusterBackend["startUpgrade"]>;
  getOperation?: (m: MemberRef, state: () => Promise<OperationState>, now: number) => Promise<OperationState>;
}

/** An engine over the simulated fleet, some of its answers changed; every look at an operation kept, by instant. */
function engineOver(yaml: string, overrides: Overrides = {}, options: EngineOptions = {}) {
  const parsed = parseScenario(yaml);
  const clock = new VirtualClock(Date.parse(parsed.start));
  const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
  const polls: string[] = [];
  const backend: ClusterBackend = {
    getCluster: (m) => (overrides.getCluster === undefined ? fleet.getCluster(m) : overrides.getCluster(m, fleet)),
    getRegionOffer: (region) => (overrides.getRegionOffer === undefined ? fleet.getRegionOffer(region) : overrides.getRegionOffer(region, fleet)),
    startUpgrade: (m, request) => (overrides.startUpgrade === undefined ? fleet.startUpgrade(m, request) : overrides.startUpgrade(m, () => fleet.startUpgrade(m, request))),
    getOperation: async (m, id) => {
      polls.push(`${m.name} ${isoInstant(clock.now())}`);
      const state = async () => await fleet.getOperation(m, id);
      return overrides.getOperation === undefined ? state() : overrides.getOperation(m, state, clock.now());
    },
    findStartedUpgrade: (m, request, since) => fleet.findStartedUpgrade(m, request, since),
  };
  const engine = UpdateRunEngine.create({ name: "run", members: parsed.members, ...scenarioRun(parsed) }, backend, options);
  const memberStatus = (name: string) => {
    const found = engine.status().stages.flatMap((s) => s.groups.flatMap((g) => g.members)).find((m) => m.name === name);
    if (found === undefined) throw new Error(`no member ${name}`);
    return found;
  };
  return { engine, clock, fleet, polls, memberStatus, run: (untilMinutes = 24 * 60) => (engine.start(clock.now()), drive(engine, clock, { until: at(untilMinutes) })) };
}

const started = async (answer: ReturnType<ClusterBackend["startUpgrade"]>): Promise<StartedOperation> => await answer;

describe("an upgrade the backend started", () => {
  it("with no hint when to look: looked at after the poll interval, its member started when the engine asked", async () => {
    const e = engineOver(scenario({ members: [member("m-1", { minutes: 3 })] }), { startUpgrade: async (_m, start) => ({ operationId: (await started(start())).operationId }) }, { pollIntervalMs: 60_000 });
    e.engine.start(at(0));
    await e.engine.reconcile(at(0));
    expect(e.memberStatus("m-1").status).toMatchObject({ state: "Running", startTime: T(0) });
    expect(e.engine.nextWakeAt).toBe(at(1));
    await drive(e.engine, e.clock, { until: at(60) });
    // Asked at 00:01 (the poll interval), then at the fleet's hint, the upgrade's end.
    expect(e.polls).toEqual([`m-1 ${T(1)}`, `m-1 ${T(3)}`]);
    expect(e.memberStatus("m-1").status).toMatchObject({ state: "Completed", startTime: T(0), completedTime: T(3) });
  });

  it("with a hint that is already due: not taken, looked at after the poll interval", async () => {
    const e = engineOver(scenario({ members: [member("m-1", { minutes: 3 })] }), { startUpgrade: async (_m, start) => ({ ...(await started(start())), checkAgainAt: at(0) }) }, { pollIntervalMs: 60_000 });
    await e.run(60);
    expect(e.polls).toEqual([`m-1 ${T(1)}`, `m-1 ${T(3)}`]);
  });

  it("its member started when the backend's record of the operation says, not when the engine asked", async () => {
    const e = engineOver(scenario({ members: [member("m-1")] }), { startUpgrade: async (_m, start) => ({ ...(await started(start())), startedAt: at(0) + 5_000 }) });
    e.engine.start(at(0));
    await e.engine.reconcile(at(0));
    expect(e.memberStatus("m-1").status).toMatchObject({ state: "Running", startTime: "2026-12-05T00:00:05Z" });
  });

  it("once it ended, its member's start is the one the operation's record gives; with none, the start already known stays", async () => {
    const ended = engineOver(scenario({ members: [member("m-1")] }), { getOperation: async (_m, state) => ({ ...(await state()), startedAt: at(1) }) });
    await ended.run();
    expect(ended.memberStatus("m-1").status).toMatchObject({ state: "Completed", startTime: T(1), completedTime: T(10) });
    const unrecorded = engineOver(scenario({ members: [member("m-1")] }), { getOperation: async () => ({ status: "Succeeded" }) });
    await unrecorded.run();
    expect(unrecorded.memberStatus("m-1").status).toMatchObject({ state: "Completed", startTime: T(0), completedTime: T(10) });
  });
});

describe("what a start does to the rest of the pass", () => {
  it("a member whose cluster is busy with another operation does not hold the group: its next member starts at once", async () => {
    const busy = new BackendError("OperationNotAllowed", "Operation is not allowed because there's an in progress upgrade on managed cluster 'a'.");
    const e = engineOver(scenario({ members: [member("a"), member("b")] }), {
      startUpgrade: (m, start) => {
        if (m.name === "a") throw busy;
        return start();
      },
    });
    e.engine.start(at(0));
    await e.engine.reconcile(at(0));
    expect([e.memberStatus("a").status.state, e.memberStatus("b").status]).toEqual(["Pending", expect.objectContaining({ state: "Running", startTime: T(0) })]);
  });

  it("a start that fails and halts the run starts nothing more in that pass, in the other groups neither", async () => {
    const refused = new BackendError("ClusterStopped", "managed cluster a-1 is stopped");
    const e = engineOver(scenario({ members: [member("a-1", { group: "a" }), member("b-1", { group: "b" })], strategy: "{stages: [{name: s, groups: [{name: a}, {name: b}]}]}" }), {
      startUpgrade: (m, start) => {
        if (m.name === "a-1") throw refused;
        return start();
      },
    });
    await e.run();
    expect([e.memberStatus("a-1").status.state, e.memberStatus("b-1").status.state, e.engine.state]).toEqual(["Failed", "NotStarted", "Failed"]);
    expect(e.fleet.operationLog()).toEqual([]);
  });

  // A bug found here (issue 34): a start the backend refused, within the group's tolerance, ended the
  // group's pass and left it asleep with nothing to wake it: the run stayed Pending for ever.
  it("a start refused within the group's tolerance fails its member and the group goes on to its next member at once", async () => {
    const stopped = scenario({ members: [member("a", { group: "g" }), member("b", { group: "g" })], strategy: '{stages: [{name: s, groups: [{name: g, maxAllowedFailures: "1"}]}]}' });
    const o = await simulate(stopped.replace("  - {name: a,", "  - {name: a, simulation: {powerState: Stopped},"));
    expect(o.member("a").status).toMatchObject({ state: "Failed", error: { code: "ClusterStopped" } });
    expect(o.opStarts("b")).toEqual([START]);
    expect(o.run).toMatchObject({ state: "Completed", completedTime: T(10) });
  });

  it("a start refused past the group's tolerance halts the run: the group's next member is not started", async () => {
    const stopped = scenario({ members: [member("a", { group: "g" }), member("b", { group: "g" })], strategy: "{stages: [{name: s, groups: [{name: g}]}]}" });
    const o = await simulate(stopped.replace("  - {name: a,", "  - {name: a, simulation: {powerState: Stopped},"));
    expect([o.member("a").status.state, o.member("b").status.state, o.run.state]).toEqual(["Failed", "NotStarted", "Failed"]);
    expect(o.ops("b")).toEqual([]);
  });

  it("a stage's only slot goes to the group running fewest, the first declared among equals", async () => {
    const e = engineOver(
      scenario({
        members: [member("a-1", { group: "a" }), member("a-2", { group: "a" }), member("b-1", { group: "b" }), member("b-2", { group: "b" })],
        strategy: '{stages: [{name: s, maxConcurrency: "1", groups: [{name: a}, {name: b}]}]}',
      }),
    );
    await e.run();
    expect(e.fleet.operationLog().map((o) => `${o.member} ${o.startTime}`)).toEqual([`a-1 ${T(0)}`, `a-2 ${T(10)}`, `b-1 ${T(20)}`, `b-2 ${T(30)}`]);
  });
});

describe("a cluster that cannot be read", () => {
  const gone = (name: string) => new BackendError("ResourceNotFound", `The Resource 'Microsoft.ContainerService/managedClusters/${name}' under resource group 'rg' was not found.`);

  it("gone, answered later (a backend that answers with a promise): its member fails with ARM's error, the next one starts", async () => {
    const e = engineOver(scenario({ members: [member("a", { group: "g" }), member("b", { group: "g" })], strategy: '{stages: [{name: s, groups: [{name: g, maxAllowedFailures: "1"}]}]}' }), {
      getCluster: async (m, fleet) => {
        if (m.name === "a") throw gone("a");
        return await fleet.getCluster(m);
      },
    });
    e.engine.start(at(0));
    await e.engine.reconcile(at(0));
    expect(e.memberStatus("a").status).toMatchObject({ state: "Failed", error: { code: "ResourceNotFound" } });
    expect(e.memberStatus("b").status).toMatchObject({ state: "Running", startTime: T(0) });
  });

  for (const answer of ["at once", "later"] as const) {
    it(`another error (${answer}) when the member is ranked refuses the pass, though the next read would answer: no member fails or starts for it`, async () => {
      const throttled = new BackendError("TooManyRequests", "throttled");
      let reads = 0;
      const e = engineOver(scenario({ members: [member("a")] }), {
        getCluster: (m, fleet) => {
          if (++reads > 1) return fleet.getCluster(m);
          if (answer === "at once") throw throttled;
          return Promise.reject(throttled);
        },
      });
      e.engine.start(at(0));
      await expect(e.engine.reconcile(at(0))).rejects.toThrow("throttled");
      expect(e.memberStatus("a").status.state).toBe("NotStarted");
      expect(e.fleet.operationLog()).toEqual([]);
    });
  }

  it("another error when the member is read to start (after ranking) refuses the pass: the member does not fail", async () => {
    let reads = 0;
    const e = engineOver(scenario({ members: [member("a")] }), {
      getCluster: (m, fleet) => {
        if (++reads > 1) throw new BackendError("TooManyRequests", "throttled");
        return fleet.getCluster(m);
      },
    });
    e.engine.start(at(0));
    await expect(e.engine.reconcile(at(0))).rejects.toThrow("throttled");
    expect(e.memberStatus("a").status.state).toBe("NotStarted");
    expect(e.fleet.operationLog()).toEqual([]);
  });
});

describe("stages and their gates", () => {
  it("a stage held by its before-gate started when it was reached, not when the gate was approved", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "g" })],
        strategy: "{stages: [{name: prod, beforeGates: [{type: Approval}], groups: [{name: g}]}]}",
        actions: [approveAt(T(90), { stage: "prod", timing: "Before" })],
      }),
    );
    expect(o.stage("prod").status).toMatchObject({ state: "Completed", startTime: START, completedTime: T(100) });
    expect(o.group("g").status).toMatchObject({ startTime: T(90) });
  });

  it("an empty group beside a gated one does not start the stage's groups before its before-gate passes", async () => {
    const e = engineOver(
      scenario({ members: [member("a", { group: "g" })], strategy: "{stages: [{name: prod, beforeGates: [{type: Approval}], groups: [{name: empty}, {name: g}]}]}" }),
    );
    e.engine.start(at(0));
    await e.engine.reconcile(at(0));
    const groups = e.engine.status().stages[0]!.groups;
    expect(groups.map((g) => [g.name, g.status])).toEqual([
      ["empty", { state: "NotStarted" }],
      ["g", { state: "NotStarted" }],
    ]);
    e.engine.approve(["prod/before/0"], at(5));
    await e.engine.reconcile(at(5));
    expect(e.engine.status().stages[0]!.groups.map((g) => [g.name, g.status.state, g.status.startTime])).toEqual([
      ["empty", "Skipped", T(5)],
      ["g", "Running", T(5)],
    ]);
  });

  it("a stage whose members were all skipped never reaches its or its groups' after-gates, nor starts its soak", async () => {
    const yaml = [
      scenario({
        members: [member("a", { group: "g", version: "1.32.0" }), member("b", { group: "next" })],
        strategy: "{stages: [{name: s, afterStageWaitInSeconds: 600, afterGates: [{type: Approval}], groups: [{name: g, afterGates: [{type: Approval}]}]}, {name: t, groups: [{name: next}]}]}",
      }),
      "analysis:",
      "  templates: [{name: err, provider: {prometheus: {address: 'http://prometheus:9090', query: 'err'}}, successCondition: result < 0.05}]",
      "  stages: [{name: s, soak: [err]}]",
    ].join("\n");
    const o = await simulate(yaml);
    expect(o.member("a").status.state).toBe("Skipped");
    for (const gate of [o.stage("s").afterGates?.[0], o.group("g").afterGates?.[0]]) {
      expect(gate?.status.state).toBe("Skipped");
      expect(gate?.status).not.toHaveProperty("startTime");
    }
    expect(o.stage("s").analysisRuns ?? []).toEqual([]);
    expect(o.eventsOf("wait", "s").map((e) => [e.to, e.message])).toEqual([["Skipped", "Stage skipped: no wait."]]);
    expect(o.opStarts("b")).toEqual([START]);
  });

  it("a stage with a skipped group reaches its after-gate once its other group completes", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "done", version: "1.32.0" }), member("b", { group: "g" })],
        strategy: "{stages: [{name: s, afterGates: [{type: Approval}], groups: [{name: done}, {name: g}]}]}",
        actions: [approveAt(T(30), { stage: "s", timing: "After" })],
      }),
    );
    expect(o.group("done").status.state).toBe("Skipped");
    expect(o.transitions("gate", "s/after/0")).toEqual([`${T(10)} NotStarted->Pending`, `${T(30)} Pending->Completed`]);
    expect(o.stage("s").status).toMatchObject({ state: "Completed", completedTime: T(30) });
  });

  it("a stage's soak measured by an answer that comes later holds the stage until its last measurement passed, then the run goes on", async () => {
    const yaml = [
      scenario({ members: [member("a", { group: "g" }), member("b", { group: "next" })], strategy: "{stages: [{name: s, afterStageWaitInSeconds: 600, groups: [{name: g}]}, {name: t, groups: [{name: next}]}]}" }),
      "analysis:",
      "  templates: [{name: err, provider: {prometheus: {address: 'http://prometheus:9090', query: 'err'}}, interval: 5m, successCondition: result < 0.05}]",
      "  stages: [{name: s, soak: [err]}]",
    ].join("\n");
    // Each answer takes a few real milliseconds, as over HTTP: the pass waits for it, and asks once per
    // measurement (more than a few questions are refused, so a pass that did not wait ends quickly).
    let queries = 0;
    const e = engineOver(yaml, {}, { queryMetric: () => (++queries > 5 ? Promise.reject(new Error("asked again")) : new Promise((resolve) => setTimeout(() => resolve({ values: [0.01] }), 5))) });
    await e.run();
    expect(queries).toBe(3);
    const stage = e.engine.status().stages[0]!;
    expect(stage.analysisRuns?.[0]).toMatchObject({ phase: "Successful", count: 3, finishedAt: T(20) });
    expect(stage.status).toMatchObject({ state: "Completed", completedTime: T(20) });
    expect(e.memberStatus("b").status).toMatchObject({ state: "Completed", startTime: T(20) });
  });

  it("a start after a stage failed on its own tolerance (its groups completed within theirs) fails the run again at once", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "g1", fail: "boom" }), member("c", { group: "g2", fail: "boom" }), member("d", { group: "next" })],
        strategy: '{stages: [{name: s, maxAllowedFailures: "1", groups: [{name: g1, maxAllowedFailures: "1"}, {name: g2, maxAllowedFailures: "1"}]}, {name: t, groups: [{name: next}]}]}',
        actions: ["{at: 2026-12-05T01:00:00Z, start: true}"],
      }),
    );
    // Failed again at the instant it was started: no event, as nothing changed.
    expect(o.transitions("run", "scenario")).toEqual([`${START} NotStarted->Running`, `${T(10)} Running->Failed`]);
    expect(o.run).toMatchObject({ state: "Failed", error: { code: "TooManyFailures" } });
    expect(o.stage("s").status.state).toBe("Failed");
    expect(o.member("d").message).toBe("Not started: the run failed before this member was reached.");
    expect([o.ops("a"), o.ops("c"), o.ops("d")].map((ops) => ops.length)).toEqual([1, 1, 0]);
  });

  it("a start that fails and halts the run leaves a finished group's after-gate unreached", async () => {
    const refused = new BackendError("ClusterStopped", "managed cluster a-2 is stopped");
    const e = engineOver(
      scenario({
        members: [member("a-1", { group: "a" }), member("a-2", { group: "a" }), member("b-1", { group: "b" })],
        strategy: "{stages: [{name: s, groups: [{name: a}, {name: b, afterGates: [{type: Approval}]}]}]}",
      }),
      {
        startUpgrade: (m, start) => {
          if (m.name === "a-2") throw refused;
          return start();
        },
      },
    );
    await e.run();
    expect([e.memberStatus("a-2").status.state, e.memberStatus("b-1").status.state, e.engine.state]).toEqual(["Failed", "Completed", "Failed"]);
    expect(e.engine.gates().find((g) => g.gateId === "s/b/after/0")?.state).toBe("NotStarted");
  });
});

describe("what is decided as of the run's start", () => {
  it("observing a run started with a channel (pulumi refresh) does not generate its update: the first acting pass does", async () => {
    const e = engineOver(scenario({ members: [member("a")], autoUpgradeProfile: "{channel: Rapid}" }));
    e.engine.start(at(0));
    await e.engine.observe(at(0));
    expect(e.engine.results().generatedUpdate).toBeUndefined();
    expect(e.memberStatus("a").status.state).toBe("NotStarted");
    await e.engine.reconcile(at(0));
    expect(e.engine.results().generatedUpdate?.upgrade.kubernetesVersion).toBe("1.32.0");
    expect(e.memberStatus("a").status.state).toBe("Running");
  });

  it("a Consistent node image is picked as of the run's start, though the run was looked at before it started", async () => {
    const e = engineOver(
      scenario({
        regions: { westeurope: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.OCT, `${IMAGE.NOV}@${T(30)}`] } },
        members: [member("a")],
        update: FULL_TO_1_32("Consistent"),
      }),
    );
    await e.engine.reconcile(at(0));
    expect(e.engine.status().nodeImageSelection.selectedNodeImageVersions).toEqual([]);
    e.engine.start(at(60));
    await e.engine.reconcile(at(60));
    expect(e.engine.status().nodeImageSelection.selectedNodeImageVersions.map((v) => v.version)).toEqual([IMAGE.NOV]);
  });

  it("the node images are picked once, at the start: an image the region withdraws later stays the run's pick", async () => {
    let withdrawn = false;
    const e = engineOver(scenario({ members: [member("a", { group: "g" }), member("b", { group: "g" })], update: FULL_TO_1_32("Consistent") }), {
      getRegionOffer: (region, fleet) => {
        const offer = fleet.regionOfferNow(region);
        return withdrawn ? { ...offer, nodeImages: offer.nodeImages.filter((i) => i.version !== IMAGE.NOV) } : offer;
      },
    });
    e.engine.start(at(0));
    await e.engine.reconcile(at(0));
    expect(e.engine.status().nodeImageSelection.selectedNodeImageVersions.map((v) => v.version)).toEqual([IMAGE.NOV]);
    withdrawn = true;
    await e.engine.reconcile(at(10));
    expect(e.engine.status().nodeImageSelection.selectedNodeImageVersions.map((v) => v.version)).toEqual([IMAGE.NOV]);
  });
});

describe("observing (pulumi refresh)", () => {
  it("an upgrade seen ending completes its group, its stage and the run, though nothing acts", async () => {
    const e = engineOver(scenario({ members: [member("a", { group: "g" })], strategy: "{stages: [{name: s, groups: [{name: g}]}]}" }));
    e.engine.start(at(0));
    await e.engine.reconcile(at(0));
    await e.clock.sleepUntil(at(10));
    await e.engine.observe(at(10));
    const status = e.engine.status();
    expect([status.status.state, status.stages[0]!.status.state, status.stages[0]!.groups[0]!.status.state, e.memberStatus("a").status.state]).toEqual(["Completed", "Completed", "Completed", "Completed"]);
  });
});

describe("when the engine says to look again", () => {
  it("a stage's wait skipped while its after-gate waits for approval wakes nothing: only the approval moves the run", async () => {
    const e = engineOver(scenario({ members: [member("a", { group: "g" })], strategy: "{stages: [{name: s, afterStageWaitInSeconds: 3600, afterGates: [{type: Approval}], groups: [{name: g}]}]}" }));
    await e.run(20);
    expect([e.memberStatus("a").status.state, e.engine.nextWakeAt]).toEqual(["Completed", at(70)]);
    e.engine.skip([{ type: "AfterStageWait", name: "s" }], at(20));
    expect(await e.engine.reconcile(at(20))).toEqual({});
  });
});
