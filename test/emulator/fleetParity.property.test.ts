/**
 * Property: a run executed server-side by the emulator's Fleet Manager follows SPEC's rules exactly as
 * `simulate` does. Over random small worlds (sequential stages of one group each, waits, upgrades of
 * various lengths, some failing), the run driven in the emulator on its scaled real-time clock ends
 * with the same states — run, stages, groups, members, error codes — and the same upgrades, in the same
 * order, as the same scenario on a virtual clock. Issue 21: over random worlds with limits (stage and
 * group `maxConcurrency`, `maxAllowedFailures`), driven through our Fleet client at the first
 * api-version that has them (2026-06-01, or 2026-06-02-preview with a tolerance), the same states and
 * the same upgrades.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { UpdateRun, UpdateRunStatus } from "@azure/arm-containerservicefleet";
import { startArmEmulator } from "../../src/emulator";
import { validateScenario } from "../../src/simulation/scenario";
import { simulateScenario } from "../../src/simulation/simulateScenario";
import { simulateScenarioViaFleet } from "../../src/simulation/viaFleetEmulator";
import type { UpdateRunStatus as OurStatus } from "../../src/model/status";
import { IMAGE_NOV, IMAGE_OCT } from "./helpers";
import { FAST_POLL, FLEET, FULL_132, RESOURCE_GROUP, fleetClient, runState, waitForRun } from "./fleetHelpers";

/** One westeurope region offering 1.32.0, and the generated members in it (some set to fail). */
function fleetOf(members: ReadonlyArray<{ group: string; minutes: number; fails: boolean }>) {
  return {
    regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: IMAGE_OCT }, { version: IMAGE_NOV }] } },
    members: members.map((m, i) => ({
      name: `m${i}`,
      group: m.group,
      region: "westeurope",
      kubernetesVersion: "1.31.2",
      nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE_OCT }],
      simulation: { upgradeMinutes: m.minutes, ...(m.fails ? { fail: { code: "UpgradeFailed", message: "drain timed out" } } : {}) },
    })),
  };
}

const START = "2026-12-05T00:00:00Z";

const world = fc
  .record({
    members: fc.array(fc.record({ group: fc.constantFrom("a", "b", "c"), minutes: fc.constantFrom(10, 20, 30), fails: fc.integer({ min: 0, max: 4 }).map((n) => n === 0) }), { minLength: 1, maxLength: 4 }),
    waits: fc.array(fc.constantFrom(0, 300, 600), { minLength: 3, maxLength: 3 }),
    order: fc.shuffledSubarray(["a", "b", "c"], { minLength: 3, maxLength: 3 }),
  })
  .map(({ members, waits, order }) => {
    const used = order.filter((g) => members.some((m) => m.group === g));
    return {
      start: START,
      ...fleetOf(members),
      strategy: { stages: used.map((g, i) => ({ name: `stage-${g}`, groups: [{ name: g }], afterStageWaitInSeconds: waits[i] ?? 0 })) },
      managedClusterUpdate: FULL_132,
    };
  });

type Shape = { run: string | undefined; items: Array<[string, string | undefined, string | undefined]> };

/** Every state in the tree, with error codes: what must agree. */
function shape(status: OurStatus | UpdateRunStatus | undefined): Shape {
  const items: Shape["items"] = [];
  for (const stage of status?.stages ?? []) {
    items.push([`stage ${stage.name}`, stage.status?.state, stage.status?.error?.code]);
    for (const group of stage.groups ?? []) {
      items.push([`group ${group.name}`, group.status?.state, group.status?.error?.code]);
      for (const m of group.members ?? []) items.push([`member ${m.name}`, m.status?.state, m.status?.error?.code]);
    }
  }
  return { run: status?.status?.state, items };
}

describe("server-side runs follow SPEC's rules as simulate does", () => {
  test("same states and the same upgrades, in order, as on a virtual clock", async () => {
    const outcomes = new Set<string>();
    await fc.assert(
      fc.asyncProperty(world, async (doc) => {
        const scenario = validateScenario(doc);
        const local = await simulateScenario(scenario);
        const emulator = await startArmEmulator({ fleet: { regions: scenario.regions, members: scenario.members }, msPerSimulatedMinute: 2, startAt: START, throttling: false });
        try {
          const client = fleetClient(emulator);
          await client.updateRuns.createOrUpdate(RESOURCE_GROUP, FLEET, "parity", { properties: { strategy: doc.strategy, managedClusterUpdate: FULL_132 } }).pollUntilDone();
          await client.updateRuns.start(RESOURCE_GROUP, FLEET, "parity", FAST_POLL).pollUntilDone();
          const ended: UpdateRun = await waitForRun(client, "parity", (r) => ["Completed", "Failed"].includes(runState(r) ?? ""), 15_000);
          expect(shape(ended.properties?.status)).toEqual(shape(local.result.status));
          outcomes.add(runState(ended) ?? "");
          const upgrades = (log: Array<{ member?: string; name?: string; result?: string }>) => log.map((o) => [o.member ?? o.name, o.result]);
          const localLog = local.result.clusters
            .flatMap((c) => c.operations.map((o) => ({ member: c.name, result: o.result, start: o.startTime })))
            .sort((x, y) => x.start.localeCompare(y.start));
          expect(upgrades(emulator.fleet.operationLog())).toEqual(upgrades(localLog));
        } finally {
          await emulator.close();
        }
      }),
      { numRuns: 8, seed: 12 },
    );
    // The sample covers both ends: runs that completed and runs that failed.
    expect([...outcomes].sort()).toEqual(["Completed", "Failed"]);
  });
});

const limit = <T>(values: readonly T[]) => fc.option(fc.constantFrom(...values), { nil: undefined });

/** Two stages (the first with two groups), random limits at both levels, upgrades of various lengths, some failing. */
const limitedWorld = fc
  .record({
    members: fc.array(fc.record({ group: fc.constantFrom("a", "b", "c"), minutes: fc.constantFrom(10, 20), fails: fc.integer({ min: 0, max: 3 }).map((n) => n === 0) }), { minLength: 2, maxLength: 7 }),
    groups: fc.array(fc.record({ maxConcurrency: limit(["1", "2", "50%"]), maxAllowedFailures: limit(["0", "1", "50%"]) }), { minLength: 3, maxLength: 3 }),
    stage: fc.record({ maxConcurrency: limit(["1", "2", "3"]), maxAllowedFailures: limit(["1", "2", "100%"]) }),
  })
  .map(({ members, groups, stage }) => {
    const drop = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
    const group = (name: string, i: number) => drop({ name, ...groups[i] });
    const used = (g: string) => members.some((m) => m.group === g);
    const first = ["a", "b"].filter(used).map((g) => group(g, g === "a" ? 0 : 1));
    const stages = [
      ...(first.length === 0 ? [] : [drop({ name: "one", groups: first, ...stage })]),
      ...(used("c") ? [{ name: "two", groups: [group("c", 2)] }] : []),
    ];
    return {
      start: START,
      // Upgrades of members differ by at least 3 simulated minutes: the emulator runs on a real-time
      // clock, so two upgrades started in one pass may begin a few simulated seconds apart, and a tie
      // (one succeeding, one failing at the same instant) would be decided by that drift, not by the rules.
      ...fleetOf(members.map((m, i) => ({ ...m, minutes: m.minutes + 3 * i }))),
      strategy: { stages },
      managedClusterUpdate: FULL_132,
    };
  });

describe("issue 21: limits sent through our Fleet client, at the api-version that has them", () => {
  test("maxConcurrency at 2026-06-01, maxAllowedFailures at 2026-06-02-preview: the same states and upgrades as in process", async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(limitedWorld, async (doc) => {
        const scenario = validateScenario(doc);
        const apiVersion = JSON.stringify(doc.strategy).includes("maxAllowedFailures") ? "2026-06-02-preview" : "2026-06-01";
        const local = await simulateScenario(scenario);
        const viaFleet = await simulateScenarioViaFleet(scenario, { apiVersion, msPerSimulatedMinute: 5, throttling: false });
        expect(shape(viaFleet.result.status)).toEqual(shape(local.result.status));
        expect(viaFleet.result.status.failureCount).toBe(local.result.status.failureCount);
        const upgrades = (clusters: typeof local.result.clusters) => clusters.flatMap((c) => c.operations.map((o) => `${c.name} ${o.result}`)).sort();
        expect(upgrades(viaFleet.result.clusters)).toEqual(upgrades(local.result.clusters));
        expect(viaFleet.apiVersionsSent).toEqual([apiVersion]);
        seen.add(`${apiVersion} ${local.result.status.status.state}${local.result.status.failureCount > 0 ? " with failures" : ""}`);
      }),
      { numRuns: 30, seed: 21 },
    );
    // The sample covers both versions, and tolerated failures.
    expect([...seen].some((s) => s.startsWith("2026-06-01"))).toBe(true);
    expect(seen.has("2026-06-02-preview Completed with failures")).toBe(true);
  });
});
