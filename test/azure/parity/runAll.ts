/**
 * Runs every scenario file in process and through the ARM emulator, a few at a time, and keeps what
 * each run gave (or how it broke), for one assertion per file.
 */
import { SimulatedFleet } from "../../../src/backends/simulator";
import { VirtualClock } from "../../../src/engine/clock";
import type { Scenario } from "../../../src/model/scenario";
import { runScenario } from "../../../src/simulation/simulateScenario";
import { simulateScenarioViaArm, type ArmSimulationReport, type ViaArmOptions } from "../../../src/simulation/viaArmEmulator";
import { boundedConcurrency } from "./concurrency";
import { outcomeOf, type Outcome } from "./outcome";
import { scenarioFiles, type ScenarioFile } from "./scenarioFiles";

export interface ParityRun {
  file: ScenarioFile;
  inProcess: Outcome;
  viaArm?: Outcome;
  report?: ArmSimulationReport;
  error?: unknown;
  wallMs: number;
}

/** As `simulateScenario`, keeping the fleet's state (each operation with what it asked for). */
export async function inProcess(scenario: Scenario): Promise<Outcome> {
  const clock = new VirtualClock(Date.parse(scenario.start));
  const fleet = new SimulatedFleet({ regions: scenario.regions, members: scenario.members }, clock);
  const report = await runScenario(scenario, { backend: fleet, clock, clusters: () => fleet.snapshot().clusters });
  return outcomeOf(scenario, report, fleet.toState());
}

export async function runAllScenarios(options: (file: ScenarioFile) => ViaArmOptions, concurrency: number): Promise<ParityRun[]> {
  const slot = boundedConcurrency(concurrency);
  return Promise.all(
    scenarioFiles().map((file) =>
      slot(async (): Promise<ParityRun> => {
        const expected = await inProcess(file.scenario);
        const began = performance.now();
        try {
          const report = await simulateScenarioViaArm(file.scenario, options(file));
          return { file, inProcess: expected, viaArm: outcomeOf(file.scenario, report, report.fleetState), report, wallMs: performance.now() - began };
        } catch (error) {
          return { file, inProcess: expected, error, wallMs: performance.now() - began };
        }
      }),
    ),
  );
}

/** Members upgraded in process: the denominator of "requests per upgraded member". */
export function upgradedMembers(runs: ParityRun[]): number {
  return runs.reduce((n, run) => n + run.inProcess.clusters.filter((c) => Object.keys(c.upgrades.changed).length > 0).length, 0);
}

/** Totals over the runs, for the figures the tests print. */
export function requestTotals(runs: ParityRun[]): { requests: number; throttled: number; perUpgradedMember: number } {
  const requests = runs.reduce((n, r) => n + (r.report ? r.report.requests.GET + r.report.requests.PUT + r.report.requests.POST : 0), 0);
  const throttled = runs.reduce((n, r) => n + (r.report?.requests.throttled ?? 0), 0);
  return { requests, throttled, perUpgradedMember: requests / Math.max(1, upgradedMembers(runs)) };
}
