/**
 * Runs scenario files in process and through the ARM emulator (driven directly, or by its Fleet
 * Manager), a few at a time, and keeps what each run gave (or how it broke), for one assertion per file.
 */
import { SimulatedFleet } from "../../../../src/backends/simulator";
import { VirtualClock } from "../../../../src/engine/clock";
import type { Scenario } from "../../../../src/simulation/scenario";
import { runScenario } from "../../../../src/simulation/simulateScenario";
import { simulateScenarioViaArm, type ArmSimulationReport, type ViaArmOptions } from "../../../../src/simulation/viaArmEmulator";
import { simulateScenarioViaFleet, type FleetSimulationReport, type ViaFleetOptions } from "../../../../src/simulation/viaFleetEmulator";
import { boundedConcurrency } from "./concurrency";
import { outcomeOf, type Outcome } from "./outcome";
import { scenarioFiles, type ScenarioFile } from "./scenarioFiles";

export interface ParityRun<R extends ArmSimulationReport = ArmSimulationReport> {
  file: ScenarioFile;
  inProcess: Outcome;
  /** Through the emulator (its ARM, or its Fleet Manager). */
  viaEmulator?: Outcome;
  report?: R;
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

/**
 * Every in-process run first, then the emulator runs, `concurrency` at a time. An in-process run
 * computed while an emulator runs would block the process's event loop while the emulator's
 * real-time clock ran on without its client (a stop once landed hours late that way).
 */
async function parityRuns<R extends ArmSimulationReport>(files: ScenarioFile[], viaEmulator: (file: ScenarioFile) => Promise<R>, concurrency: number): Promise<Array<ParityRun<R>>> {
  const expected = new Map<ScenarioFile, Outcome>();
  for (const file of files) expected.set(file, await inProcess(file.scenario));
  const slot = boundedConcurrency(concurrency);
  return Promise.all(
    files.map((file) =>
      slot(async (): Promise<ParityRun<R>> => {
        const inProcess = expected.get(file) as Outcome;
        const began = performance.now();
        try {
          const report = await viaEmulator(file);
          return { file, inProcess, viaEmulator: outcomeOf(file.scenario, report, report.fleetState), report, wallMs: performance.now() - began };
        } catch (error) {
          return { file, inProcess, error, wallMs: performance.now() - began };
        }
      }),
    ),
  );
}

/** Every scenario file through the ARM emulator, driven by our engine on the client. */
export function runAllScenarios(options: (file: ScenarioFile) => ViaArmOptions, concurrency: number): Promise<ParityRun[]> {
  return parityRuns(scenarioFiles(), (file) => simulateScenarioViaArm(file.scenario, options(file)), concurrency);
}

/** These files through the emulator's Fleet Manager, which runs them server-side. */
export function runAllViaFleet(files: ScenarioFile[], options: (file: ScenarioFile) => ViaFleetOptions, concurrency: number): Promise<Array<ParityRun<FleetSimulationReport>>> {
  return parityRuns(files, (file) => simulateScenarioViaFleet(file.scenario, options(file)), concurrency);
}

/** A fault-injection seed of its own for each file, the same every run. */
export function seedOf(label: string): number {
  let hash = 7;
  for (const c of label) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return hash;
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
