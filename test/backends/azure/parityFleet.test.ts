/**
 * Issue 12 parity, at the api-versions of issue 21: every scenario file that uses only features Fleet
 * Manager has ends, executed by the emulator's Fleet Manager and driven through the azureFleet
 * backend's client, in the same states (run, stages, waits, groups, members), with the same cluster
 * versions and the same upgrades, as in process. Each file runs at 2026-06-01 (GA, the default) when
 * that version has its features (`maxConcurrency` included), else at 2026-06-02-preview
 * (`maxAllowedFailures`; issue 22's `memberSelector` and ScheduledStart gates), every request at that
 * version. Every file is taken by one of them; a file no version takes would be refused naming the
 * field, and listed.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { FIRST_VERSION_WITH } from "../../../src/backends/azureFleet/wire";
import { fleetScenarioProblems, type FleetSimulationReport } from "../../../src/simulation/viaFleetEmulator";
import { countsByVersion, fleetParityFiles, type FleetParityFile } from "./parity/fleetVersions";
import { runAllViaFleet, type ParityRun } from "./parity/runAll";
import { scenarioFiles } from "./parity/scenarioFiles";

/** A simulated minute takes 4 ms. */
const MS_PER_SIMULATED_MINUTE = 4;
const CONCURRENCY = 2;

const files = scenarioFiles();
const { files: fleetFiles, excluded } = fleetParityFiles(files);

describe("scenarios through Fleet Manager (the emulator's) end as in process", () => {
  const runs = new Map<string, ParityRun<FleetSimulationReport>>();
  beforeAll(async () => {
    const began = performance.now();
    const all = await runAllViaFleet(fleetFiles, (file) => ({ msPerSimulatedMinute: MS_PER_SIMULATED_MINUTE, apiVersion: (file as FleetParityFile).apiVersion }), CONCURRENCY);
    for (const run of all) runs.set(run.file.label, run);
    const requests = [...runs.values()].reduce((n, r) => n + (r.report ? r.report.clientRequests.GET + r.report.clientRequests.PUT + r.report.clientRequests.POST : 0), 0);
    const left = excluded.map((e) => `${e.file.label} (${e.problems.map((p) => p.path).join(", ")})`).join("; ") || "none";
    console.info(`[parity fleet] ${runs.size} of ${files.length} scenario files (${countsByVersion(fleetFiles)}); left out: ${left}; in ${Math.round(performance.now() - began)} ms; ${requests} client requests`);
  }, 600_000);

  for (const { label, apiVersion } of fleetFiles) {
    it(`${label} (${apiVersion})`, () => {
      const run = runs.get(label);
      expect(run?.error).toBeUndefined();
      expect(run?.viaEmulator).toEqual(run?.inProcess);
      expect(run?.report?.apiVersionsSent).toEqual([apiVersion]);
    });
  }

  it("the files left out each name a field Fleet lacks; the ones run at the preview are refused at GA naming the preview", () => {
    for (const { file, problems } of excluded) {
      expect(problems.length, file.label).toBeGreaterThan(0);
      expect(problems.every((p) => /^(strategy|strategies|actions|members)[.[]/.test(p.path)), file.label).toBe(true);
    }
    for (const file of fleetFiles.filter((f) => f.apiVersion !== "2026-06-01")) {
      const refused = fleetScenarioProblems(file.scenario, "2026-06-01");
      expect(refused.length, file.label).toBeGreaterThan(0);
      for (const p of refused) expect(p.message).toContain(`from api-version ${FIRST_VERSION_WITH.maxAllowedFailures}`);
    }
    // maxConcurrency is Fleet's at GA: the files using it run there.
    expect(fleetFiles.filter((f) => JSON.stringify(f.scenario.strategy ?? {}).includes("maxConcurrency") && f.apiVersion === "2026-06-01").length).toBeGreaterThan(3);
    // Issue 22: label selection and ScheduledStart gates run at the preview, so no file is left out.
    expect(fleetFiles.filter((f) => f.label === "suite/label-selected-groups.yaml" || f.label === "suite/scheduled-start-gate.yaml").map((f) => f.apiVersion)).toEqual(["2026-06-02-preview", "2026-06-02-preview"]);
    expect(excluded.map((e) => e.file.label)).toEqual([]);
    expect(fleetFiles.length).toBe(files.length);
  });
});
