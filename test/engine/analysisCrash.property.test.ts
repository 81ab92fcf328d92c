/**
 * Issue 31, Must show: the client killed during an analysis (docs/rules.md §19 "Crash safety"). Runs
 * with analyses after members, pre-checks and soaks — some clusters sick after their upgrade — are
 * killed at every write boundary of a pass (`crashHarness.ts`: after a backend call, around the
 * journal write, between the event sinks) and resumed from the run's journal:
 *
 * - no member is upgraded twice, and every promise of docs/rules.md §14 holds;
 * - resumed at the crash instant, the run ends exactly as an uninterrupted one: the same operations
 *   and the same status, every analysis with the same measurements at the same instants — the
 *   analysis continued where it was, and a measurement the journal did not hold was taken again once;
 * - each event sink holds one unbroken chain per analysis too.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateScenario, type Scenario } from "../../src/simulation/scenario";
import { parse } from "yaml";
import { expectInvariants, runWithCrashes } from "./crashHarness";

const NUM_RUNS = Number(process.env.PROPERTY_RUNS ?? 150);

interface Shape {
  stages: number[];
  waits: number[];
  sick: number[];
  template: { initialDelay: number; interval: number; count: number | undefined; failureLimit: number };
  uses: { afterMember: boolean; preCheck: boolean; soak: boolean };
  upgradeMinutes: number[];
}

const shapeArb: fc.Arbitrary<Shape> = fc
  .record({
    stages: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 2, maxLength: 3 }),
    waits: fc.array(fc.constantFrom(0, 300, 600), { minLength: 3, maxLength: 3 }),
    sick: fc.array(fc.integer({ min: 0, max: 8 }), { maxLength: 2 }),
    template: fc.record({
      initialDelay: fc.constantFrom(0, 1, 3),
      interval: fc.constantFrom(1, 2, 5),
      count: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
      failureLimit: fc.integer({ min: 0, max: 1 }),
    }),
    uses: fc.record({ afterMember: fc.boolean(), preCheck: fc.boolean(), soak: fc.boolean() }),
    upgradeMinutes: fc.array(fc.constantFrom(5, 10, 20), { minLength: 9, maxLength: 9 }),
  })
  .filter((s) => s.uses.afterMember || s.uses.preCheck || s.uses.soak);

function scenarioOf(shape: Shape): Scenario {
  const members: unknown[] = [];
  const stages: unknown[] = [];
  let n = 0;
  shape.stages.forEach((size, s) => {
    for (let i = 0; i < size; i++, n++) {
      members.push({
        name: `m${n}`,
        group: `g${s}`,
        region: "westeurope",
        kubernetesVersion: "1.31.2",
        nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: "AKSUbuntu-2204gen2containerd-202610.01.0" }],
        simulation: { upgradeMinutes: shape.upgradeMinutes[n], metrics: [{ name: "err", value: 0.01, afterUpgrade: shape.sick.includes(n) ? 0.5 : 0.02 }] },
      });
    }
    // One start per pass: two intents in a pass's first write lose its events across a crash, a
    // journal fault of its own (issue 30), not this test's subject.
    stages.push({ name: `s${s}`, groups: [{ name: `g${s}`, maxAllowedFailures: "1" }], afterStageWaitInSeconds: shape.waits[s] });
  });
  const { initialDelay, interval, count, failureLimit } = shape.template;
  const names = ["health"];
  return validateScenario(
    parse(
      JSON.stringify({
        start: "2026-12-05T00:00:00Z",
        until: "2026-12-06T00:00:00Z",
        regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: "AKSUbuntu-2204gen2containerd-202610.01.0" }] } },
        members,
        strategy: { stages },
        analysis: {
          templates: [
            {
              name: "health",
              provider: { prometheus: { address: "http://prometheus:9090", query: 'err{cluster="{{member.name}}"}' } },
              initialDelay: `${initialDelay}m`,
              interval: `${interval}m`,
              ...(count === undefined ? {} : { count }),
              failureLimit,
              successCondition: "result < 0.1",
            },
          ],
          ...(shape.uses.afterMember ? { afterMember: names } : {}),
          stages: shape.stages.map((_, s) => ({ name: `s${s}`, ...(shape.uses.preCheck ? { preCheck: names } : {}), ...(shape.uses.soak ? { soak: names } : {}) })),
        },
        managedClusterUpdate: { upgrade: { type: "ControlPlaneOnly", kubernetesVersion: "1.32.0" } },
      }),
    ),
  );
}

describe("property: a run killed during its analyses resumes them where they were (issue 31)", () => {
  it("every boundary of a run, one crash each, resumed at once: the same operations and the same status, analyses included", async () => {
    let crashPoints = 0;
    let measured = 0;
    await fc.assert(
      fc.asyncProperty(shapeArb, async (shape) => {
        const scenario = scenarioOf(shape);
        const clean = await runWithCrashes(scenario, new Set(), () => 0);
        expectInvariants(clean);
        measured += clean.sinks[0]!.filter((e) => e.measurement !== undefined).length;
        for (let k = 0; k < clean.boundaries.length; k++) {
          const crashed = await runWithCrashes(scenario, new Set([k]), () => 0);
          expect(crashed.crashes).toBe(1);
          expectInvariants(crashed);
          expect(crashed.operations).toEqual(clean.operations);
          expect(crashed.status).toEqual(clean.status);
          crashPoints += 1;
        }
      }),
      { numRuns: Math.max(3, Math.ceil(NUM_RUNS / 25)), seed: 31_001 },
    );
    console.log(`analysis every-boundary: ${crashPoints} crash points, ${measured} measurements in the clean runs`);
  }, 600_000);

  it("up to four crashes anywhere, each followed by a random downtime: no member upgraded twice, every invariant", async () => {
    await fc.assert(
      fc.asyncProperty(
        shapeArb,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.constantFrom(0, 1_000, 60_000, 15 * 60_000), { minLength: 4, maxLength: 4 }),
        async (shape, where, downtimes) => {
          const scenario = scenarioOf(shape);
          const clean = await runWithCrashes(scenario, new Set(), () => 0);
          const total = Math.max(1, clean.boundaries.length);
          const crashed = await runWithCrashes(scenario, new Set(where.map((w) => Math.floor(w * total))), (i) => downtimes[i % downtimes.length] as number);
          expectInvariants(crashed);
          // Every analysis of the final status ended (the horizon is a day): none was left behind by a crash.
          for (const stage of crashed.status.stages) {
            for (const a of stage.analysisRuns ?? []) if (crashed.status.status.state !== "Failed") expect(a.phase, `${stage.name} ${a.kind}`).not.toBe("Running");
          }
        },
      ),
      { numRuns: Math.max(5, Math.ceil(NUM_RUNS / 5)), seed: 31_002 },
    );
  }, 600_000);
});
