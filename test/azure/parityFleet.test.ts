/**
 * Issue 12 parity: every scenario file that uses only features Fleet Manager has ends, executed by the
 * emulator's Fleet Manager and driven through the azureFleet backend's client, in the same states
 * (run, stages, waits, groups, members), with the same cluster versions and the same upgrades, as in
 * process. Files using a feature Fleet lacks are refused naming the field, and listed.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { fleetScenarioProblems, type FleetSimulationReport } from "../../src/simulation/viaFleetEmulator";
import { runAllViaFleet, type ParityRun } from "./parity/runAll";
import { scenarioFiles } from "./parity/scenarioFiles";

/** A simulated minute takes 4 ms. */
const MS_PER_SIMULATED_MINUTE = 4;
const CONCURRENCY = 2;

const files = scenarioFiles();
const fleetFiles = files.filter((f) => fleetScenarioProblems(f.scenario).length === 0);

describe("scenarios through Fleet Manager (the emulator's) end as in process", () => {
  const runs = new Map<string, ParityRun<FleetSimulationReport>>();
  beforeAll(async () => {
    const began = performance.now();
    for (const run of await runAllViaFleet(fleetFiles, () => ({ msPerSimulatedMinute: MS_PER_SIMULATED_MINUTE }), CONCURRENCY)) runs.set(run.file.label, run);
    const requests = [...runs.values()].reduce((n, r) => n + (r.report ? r.report.clientRequests.GET + r.report.clientRequests.PUT + r.report.clientRequests.POST : 0), 0);
    console.info(`[parity fleet] ${runs.size} of ${files.length} scenario files (the others use features Fleet lacks) in ${Math.round(performance.now() - began)} ms; ${requests} client requests`);
  }, 600_000);

  for (const { label } of fleetFiles) {
    it(label, () => {
      const run = runs.get(label);
      expect(run?.error).toBeUndefined();
      expect(run?.viaEmulator).toEqual(run?.inProcess);
    });
  }

  it("the files left out each name a field Fleet lacks", () => {
    for (const file of files.filter((f) => !fleetFiles.includes(f))) {
      expect(fleetScenarioProblems(file.scenario).every((p) => /^(strategy|strategies|actions|members)[.[]/.test(p.path)), file.label).toBe(true);
    }
    expect(fleetFiles.length).toBeGreaterThan(10);
  });
});
