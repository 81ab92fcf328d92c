/**
 * Issue 12 parity under faults, at 2026-06-02-preview (issue 21; the test without faults runs each file
 * at GA when it can, so between them both versions see every file that uses no feature they lack):
 * with the emulator injecting 10% 5xx, 5% 429 and 2% connection resets (on Fleet Manager's requests as
 * on every other), every scenario file using only Fleet's features still ends through the azureFleet
 * client as in process, and no part of any cluster is upgraded twice. The client writes no retry of
 * its own: the SDK's policies retry, and a create retried after its answer was lost meets
 * If-None-Match and attaches.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { FleetSimulationReport } from "../../../src/simulation/viaFleetEmulator";
import { countsByVersion, fleetParityFiles } from "./parity/fleetVersions";
import { upgradedTwice, type Outcome } from "./parity/outcome";
import { runAllViaFleet, seedOf, type ParityRun } from "./parity/runAll";
import { scenarioFiles } from "./parity/scenarioFiles";

const MS_PER_SIMULATED_MINUTE = 4;
const CONCURRENCY = 2;
const FAULTS = { serverErrorRate: 0.1, throttleRate: 0.05, resetRate: 0.02 };
const API_VERSION = "2026-06-02-preview";
const { files: fleetFiles, excluded } = fleetParityFiles(scenarioFiles(), API_VERSION);

describe("scenarios through a faulty emulator's Fleet Manager end as in process", () => {
  const runs = new Map<string, ParityRun<FleetSimulationReport>>();
  beforeAll(async () => {
    const all = await runAllViaFleet(fleetFiles, (file) => ({ msPerSimulatedMinute: MS_PER_SIMULATED_MINUTE, faults: FAULTS, seed: seedOf(file.label), apiVersion: API_VERSION }), CONCURRENCY);
    for (const run of all) runs.set(run.file.label, run);
    const faults = all.reduce((n, r) => n + (r.report?.requests.faults ?? 0), 0);
    console.info(`[parity fleet with faults] ${runs.size} scenarios (${countsByVersion(fleetFiles)}; ${excluded.length} left out); ${faults} faults injected`);
  }, 600_000);

  for (const { label } of fleetFiles) {
    it(label, () => {
      const run = runs.get(label);
      expect(run?.error).toBeUndefined();
      expect(upgradedTwice(run?.viaEmulator as Outcome)).toEqual([]);
      expect(run?.viaEmulator).toEqual(run?.inProcess);
      expect(run?.report?.apiVersionsSent).toEqual([API_VERSION]);
    });
  }

  // Short scenarios make few requests and may meet no fault; most meet several.
  it("faults were injected in most runs", () => {
    const hit = [...runs.values()].filter((r) => (r.report?.requests.faults ?? 0) > 0).length;
    expect(hit).toBeGreaterThan(fleetFiles.length / 2);
  });
});
