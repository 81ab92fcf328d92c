/**
 * Parity with lost answers: 10% of ARM's answers to writes are lost after the write was applied (and
 * 10% 5xx, 5% 429, 2% resets on top). Every scenario file still ends as in process (up to the
 * documented ARM differences), and no part of any cluster is upgraded twice.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { expectedViaArm } from "./parity/armDifferences";
import { upgradedTwice } from "./parity/outcome";
import { requestTotals, runAllScenarios, type ParityRun } from "./parity/runAll";
import { scenarioFiles } from "./parity/scenarioFiles";

const MS_PER_SIMULATED_MINUTE = 4;
const CONCURRENCY = 4;
const FAULTS = { serverErrorRate: 0.1, throttleRate: 0.05, resetRate: 0.02, lostResponseRate: 0.1 };

describe("every scenario through ARM with 10% of write answers lost ends as in process, no cluster upgraded twice", () => {
  const runs = new Map<string, ParityRun>();
  beforeAll(async () => {
    const began = performance.now();
    const all = await runAllScenarios((file) => ({ msPerSimulatedMinute: MS_PER_SIMULATED_MINUTE, faults: FAULTS, seed: file.label.length * 7919 }), CONCURRENCY);
    for (const run of all) runs.set(run.file.label, run);
    const { requests, perUpgradedMember } = requestTotals(all);
    const lost = all.reduce((n, r) => n + (r.report?.requests.injected.lostResponse ?? 0), 0);
    console.info(`[parity with lost answers] ${all.length} scenarios in ${Math.round(performance.now() - began)} ms; ${requests} requests, ${perUpgradedMember.toFixed(1)} per upgraded member; ${lost} write answers lost`);
    expect(lost, "answers were lost").toBeGreaterThan(0);
  }, 600_000);

  for (const { label } of scenarioFiles()) {
    it(label, () => {
      const run = runs.get(label) as ParityRun;
      expect(run.error).toBeUndefined();
      expect(upgradedTwice(run.viaEmulator as NonNullable<ParityRun["viaEmulator"]>)).toEqual([]);
      expect(run.viaEmulator).toEqual(expectedViaArm(label, run.inProcess));
    });
  }
});
