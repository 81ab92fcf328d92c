/**
 * Parity under faults: with 10% of requests answered 5xx, 5% 429 and 2% connections reset, every
 * scenario file still ends through ARM as in process (up to the documented ARM differences), and no
 * part of any cluster is upgraded twice (counted from the emulator's operations).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { expectedViaArm } from "./parity/armDifferences";
import { upgradedTwice } from "./parity/outcome";
import { requestTotals, runAllScenarios, seedOf, type ParityRun } from "./parity/runAll";
import { scenarioFiles } from "./parity/scenarioFiles";

// Idle time is jumped (CompressibleClock), so only running upgrades take real time: at 8 ms a simulated
// minute even a one-member scenario makes enough requests for its faults to show.
const MS_PER_SIMULATED_MINUTE = 8;
const CONCURRENCY = 4;
const FAULTS = { serverErrorRate: 0.1, throttleRate: 0.05, resetRate: 0.02 };

describe("every scenario through a faulty ARM emulator ends as in process, no cluster upgraded twice", () => {
  const runs = new Map<string, ParityRun>();
  beforeAll(async () => {
    const began = performance.now();
    const all = await runAllScenarios((file) => ({ msPerSimulatedMinute: MS_PER_SIMULATED_MINUTE, faults: FAULTS, seed: seedOf(file.label) }), CONCURRENCY);
    for (const run of all) runs.set(run.file.label, run);
    const { requests, throttled, perUpgradedMember } = requestTotals(all);
    const injected429 = all.reduce((n, r) => n + (r.report?.requests.injected.throttle ?? 0), 0);
    console.info(`[parity with faults] ${all.length} scenarios in ${Math.round(performance.now() - began)} ms; ${requests} requests, ${perUpgradedMember.toFixed(1)} per upgraded member; ${throttled} throttled, ${injected429} injected 429`);
  }, 600_000);

  for (const { label } of scenarioFiles()) {
    it(label, () => {
      const run = runs.get(label) as ParityRun;
      expect(run.error).toBeUndefined();
      expect(upgradedTwice(run.viaEmulator as NonNullable<ParityRun["viaEmulator"]>)).toEqual([]);
      expect(run.viaEmulator).toEqual(expectedViaArm(label, run.inProcess));
      expect(run.report?.requests.faults, "faults were injected").toBeGreaterThan(0);
    });
  }
});
