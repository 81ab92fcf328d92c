/**
 * Parity: every scenario file (examples/scenarios, test/scenarios, examples/demo) run through the
 * real Azure backend against the ARM emulator ends exactly as in process — every state, every cluster
 * version, every part of every cluster upgraded as many times — except the documented ARM differences
 * (parity/armDifferences.ts), which are asserted as such.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { expectedViaArm } from "./parity/armDifferences";
import { requestTotals, runAllScenarios, type ParityRun } from "./parity/runAll";
import { scenarioFiles } from "./parity/scenarioFiles";

/** A simulated minute takes 4 ms: a simulated day about 6 s. */
const MS_PER_SIMULATED_MINUTE = 4;
const CONCURRENCY = 4;

describe("every scenario through the ARM emulator ends as in process", () => {
  const runs = new Map<string, ParityRun>();
  beforeAll(async () => {
    const began = performance.now();
    for (const run of await runAllScenarios(() => ({ msPerSimulatedMinute: MS_PER_SIMULATED_MINUTE }), CONCURRENCY)) runs.set(run.file.label, run);
    const { requests, throttled, perUpgradedMember } = requestTotals([...runs.values()]);
    console.info(`[parity] ${runs.size} scenarios in ${Math.round(performance.now() - began)} ms; ${requests} requests, ${perUpgradedMember.toFixed(1)} per upgraded member; ${throttled} throttled (429)`);
  }, 600_000);

  for (const { label } of scenarioFiles()) {
    it(label, () => {
      const run = runs.get(label) as ParityRun;
      expect(run.error).toBeUndefined();
      expect(run.viaEmulator).toEqual(expectedViaArm(label, run.inProcess));
    });
  }
});
