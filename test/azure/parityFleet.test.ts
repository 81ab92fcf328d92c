/**
 * Issue 12 parity: every scenario file that uses only features Fleet Manager has ends, executed by the
 * emulator's Fleet Manager and driven through the azureFleet backend's client, in the same states
 * (run, stages, waits, groups, members), with the same cluster versions and the same upgrades, as in
 * process. Files using a feature Fleet lacks are refused naming the field, and listed.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { simulateScenarioViaFleet, fleetScenarioProblems, type FleetSimulationReport } from "../../src/simulation/viaFleetEmulator";
import { boundedConcurrency } from "./parity/concurrency";
import { outcomeOf, type Outcome } from "./parity/outcome";
import { inProcess } from "./parity/runAll";
import { scenarioFiles } from "./parity/scenarioFiles";

/** A simulated minute takes 4 ms. */
const MS_PER_SIMULATED_MINUTE = 4;
const CONCURRENCY = 2;

const files = scenarioFiles();
const fleetFiles = files.filter((f) => fleetScenarioProblems(f.scenario).length === 0);

describe("scenarios through Fleet Manager (the emulator's) end as in process", () => {
  const runs = new Map<string, { expected: Outcome; got?: Outcome; report?: FleetSimulationReport; error?: unknown }>();
  beforeAll(async () => {
    // Every in-process run first: one computed while an emulator runs would block the process's event
    // loop, and the emulator's real-time clock (4 ms a simulated minute) would run on without its client.
    const expectedOf = new Map<string, Outcome>();
    for (const file of fleetFiles) expectedOf.set(file.label, await inProcess(file.scenario));
    const slot = boundedConcurrency(CONCURRENCY);
    const began = performance.now();
    await Promise.all(
      fleetFiles.map((file) =>
        slot(async () => {
          const expected = expectedOf.get(file.label) as Outcome;
          try {
            const report = await simulateScenarioViaFleet(file.scenario, { msPerSimulatedMinute: MS_PER_SIMULATED_MINUTE });
            runs.set(file.label, { expected, got: outcomeOf(file.scenario, report, report.fleetState), report });
          } catch (error) {
            runs.set(file.label, { expected, error });
          }
        }),
      ),
    );
    const requests = [...runs.values()].reduce((n, r) => n + (r.report ? r.report.clientRequests.GET + r.report.clientRequests.PUT + r.report.clientRequests.POST : 0), 0);
    console.info(`[parity fleet] ${runs.size} of ${files.length} scenario files (the others use features Fleet lacks) in ${Math.round(performance.now() - began)} ms; ${requests} client requests`);
  }, 600_000);

  for (const { label } of fleetFiles) {
    it(label, () => {
      const run = runs.get(label);
      expect(run?.error).toBeUndefined();
      expect(run?.got).toEqual(run?.expected);
    });
  }

  it("the files left out each name a field Fleet lacks", () => {
    for (const file of files.filter((f) => !fleetFiles.includes(f))) {
      expect(fleetScenarioProblems(file.scenario).every((p) => /^(strategy|strategies|actions|members)[.[]/.test(p.path)), file.label).toBe(true);
    }
    expect(fleetFiles.length).toBeGreaterThan(10);
  });
});
