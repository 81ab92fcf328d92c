/**
 * Issue 12: `fleet-update simulate FILE --via fleet-emulator`: the scenario's run executed by Fleet
 * Manager — the ARM emulator's, which runs it server-side with our engine on its compressed clock —
 * and steered through the Fleet Manager driver (`src/drivers/fleet/fleetDriver.ts`, the one `fleet-update
 * run` and the Pulumi resources use) over the `@azure/arm-containerservicefleet` client: the strategy
 * PUT as a fleet update strategy when the scenario references one (`updateStrategyId`), else inline;
 * the run created and started at the scenario's start; each user action a change of the controls at
 * its instant on the emulator's clock (skip → Fleet's skip, stop/start → stop/start, `approve` → a
 * PATCH of each gate it names once that gate is Pending, FM12); the run followed with GETs between.
 * The result has `--via arm-emulator`'s shape. Every request speaks one api-version (`apiVersion`,
 * default 2026-06-01, as a run's); scenario features Fleet lacks at it are refused with their field
 * path (and, for a limit a newer version has, that version).
 */
import type { TokenCredential } from "@azure/core-auth";
import { emulatorCredential } from "../backends/azure/credentials";
import { startArmEmulator, type ArmEmulatorOptions } from "../emulator";
import { FleetClient } from "../backends/azureFleet/fleetClient";
import { FleetStrategyStore } from "../drivers/fleet/strategyStore";
import { unsupportedInStrategy } from "../drivers/fleet/unsupported";
import { analysisGateIssues } from "../drivers/fleet/analysisGates";
import { DEFAULT_FLEET_API_VERSION, type ClientFleetApiVersion } from "../backends/azureFleet/wire";
import { ValidationError, type FieldIssue } from "../model/issues";
import { resolveScenarioStrategy, type Scenario } from "./scenario";
import type { RunEvent } from "../model/status";
import type { UpdateRunInputs } from "../spec/runSpec";
import { driverFor } from "../drivers/driverFor";
import { SCENARIO_RUN_NAME, runScenario, scenarioRun } from "./simulateScenario";
import { EMULATOR_RESOURCE_GROUP, EMULATOR_SUBSCRIPTION, type ArmSimulationReport } from "./viaArmEmulator";

/** The emulator serves one fleet, `fleet`, whose members are the scenario's clusters in their groups. */
export const EMULATOR_FLEET_ID = `/subscriptions/${EMULATOR_SUBSCRIPTION}/resourceGroups/${EMULATOR_RESOURCE_GROUP}/providers/Microsoft.ContainerService/fleets/fleet`;

export interface ViaFleetOptions {
  /** The api-version the client speaks (default 2026-06-01, GA). */
  apiVersion?: ClientFleetApiVersion;
  /** Real milliseconds per simulated minute (default 10). */
  msPerSimulatedMinute?: number;
  /**
   * Read the run every this many real milliseconds, as a real client does (its requests counted by
   * the bench). Default: read it when it can have changed — at its next pass server-side, or at the
   * next user action — which keeps ARM's real-time throttling from delaying a user action.
   */
  pollMs?: number;
  faults?: ArmEmulatorOptions["faults"];
  throttling?: ArmEmulatorOptions["throttling"];
  seed?: number;
  credential?: TokenCredential;
  onEvent?: (event: RunEvent) => void;
}

export interface FleetSimulationReport extends ArmSimulationReport {
  /** Requests the client sent (each SDK retry included), by method; `throttled`: 429s it was answered. */
  clientRequests: FleetClient["counts"];
  /** The api-versions of the client's requests to the fleet (one: the one asked for). */
  apiVersionsSent: string[];
}

/**
 * A scenario's features Fleet Manager lacks at `apiVersion`: refused by field path, as the run's Check
 * refuses them; `chosenBy` names where the version was chosen (`--api-version` on the command line).
 */
export function fleetScenarioProblems(scenario: Scenario, apiVersion: ClientFleetApiVersion = DEFAULT_FLEET_API_VERSION, chosenBy = "--api-version"): FieldIssue[] {
  const issues = scenario.updateStrategyId !== undefined && scenario.strategy === undefined
    ? unsupportedInStrategy(resolveScenarioStrategy(scenario), `strategies.${scenario.updateStrategyId}.`, apiVersion, chosenBy)
    : unsupportedInStrategy(scenario.strategy, "strategy.", apiVersion, chosenBy);
  // Issue 31: the client adds gates for the analysis to the run's strategy, so it needs one.
  const strategy = resolveScenarioStrategy(scenario);
  if (scenario.analysis !== undefined && strategy === undefined) issues.push({ path: "analysis", message: "on Fleet Manager the analysis is measured at approval gates the client adds to the run's strategy: give the scenario a strategy" });
  issues.push(...analysisGateIssues(strategy, scenario.analysis, scenario.strategy === undefined && scenario.updateStrategyId !== undefined ? `strategies.${scenario.updateStrategyId}.` : "strategy."));
  scenario.members.forEach((m, i) => {
    const simulation = m.simulation as { healthy?: boolean } | undefined;
    if ((m as { healthCheck?: unknown }).healthCheck !== undefined) issues.push({ path: `members[${i}].healthCheck`, message: "Fleet Manager cannot wait for a probe made from the client" });
    if (simulation?.healthy === false) issues.push({ path: `members[${i}].simulation.healthy`, message: "our health check is not run by Fleet Manager: an unhealthy cluster is not detected" });
  });
  return issues;
}

export async function simulateScenarioViaFleet(scenario: Scenario, options: ViaFleetOptions = {}): Promise<FleetSimulationReport> {
  const apiVersion = options.apiVersion ?? DEFAULT_FLEET_API_VERSION;
  const problems = fleetScenarioProblems(scenario, apiVersion);
  if (problems.length > 0) throw new ValidationError(problems);
  const msPerMinute = options.msPerSimulatedMinute ?? 10;
  const emulator = await startArmEmulator({
    fleet: { regions: scenario.regions, members: scenario.members },
    startAt: scenario.start,
    msPerSimulatedMinute: msPerMinute,
    compressIdleTime: true,
    subscriptionId: EMULATOR_SUBSCRIPTION,
    resourceGroup: EMULATOR_RESOURCE_GROUP,
    ...(options.faults === undefined ? {} : { faults: options.faults }),
    ...(options.throttling === undefined ? {} : { throttling: options.throttling }),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
  });
  try {
    const pollMs = options.pollMs ?? Math.max(1, msPerMinute / 4);
    const pollsLikeAClient = options.pollMs !== undefined;
    const client = new FleetClient({
      fleetId: EMULATOR_FLEET_ID,
      credential: options.credential ?? emulatorCredential,
      endpoint: emulator.url,
      apiVersion,
      trustedCaPem: emulator.certificatePem,
      lroIntervalMs: pollMs,
      retryDelayInMs: 5,
      maxRetryDelayInMs: 50,
    });
    // A strategy the scenario references is kept in the fleet first, as an `UpdateStrategy` resource keeps it.
    const { strategy, ...run } = scenarioRun(scenario);
    const definition: Partial<Pick<UpdateRunInputs, "strategy" | "updateStrategyId">> =
      scenario.updateStrategyId !== undefined && scenario.strategy === undefined && strategy !== undefined
        ? { updateStrategyId: (await new FleetStrategyStore(client).write(scenario.updateStrategyId, strategy, undefined)).updateStrategyId }
        : strategy === undefined ? {} : { strategy };
    // The run is steered through the Fleet Manager driver, as `fleet-update run` steers it (the one
    // scenario player, `runScenario`, changes its controls at each action). It reads the run when it
    // can have changed — at its next pass server-side (the simulation may ask the emulator when that
    // pass is; no real client could) — or every `pollMs`, as a real client (`pollsLikeAClient`): while
    // upgrades run, reading on the clock meets ARM's real-time throttling.
    const pollEvery = Math.max(1, Math.round((pollMs * 60_000) / msPerMinute));
    const driver = await driverFor(
      { azureFleet: { fleetId: EMULATOR_FLEET_ID, endpoint: emulator.url, credential: "emulator", pollIntervalSeconds: pollEvery / 1000, apiVersion } },
      {
        fleet: {
          clock: emulator.clock,
          client,
          keepSeen: false,
          // Issue 31: the client measures the run's analyses on the simulated fleet's declared metrics.
          measure: { probe: (member, url) => emulator.fleet.probe(member ?? { name: "" }, url), queryMetric: (query) => emulator.fleet.queryMetricNow(query) },
          nextReadAt: (now: number, nextPoll: number) => {
            const nextPass = pollsLikeAClient && emulator.fleet.hasOperationRunning(now) ? undefined : emulator.fleetManager.nextPassAt();
            return pollsLikeAClient ? Math.min(nextPoll, nextPass ?? nextPoll) : (nextPass ?? nextPoll);
          },
        },
      },
    );
    const inputs: UpdateRunInputs = {
      runName: SCENARIO_RUN_NAME,
      backend: { azureFleet: { fleetId: EMULATOR_FLEET_ID, credential: "emulator", apiVersion } },
      members: [],
      ...definition,
      ...run,
      state: "Running",
      skip: [],
      approvals: [],
      timeoutMinutes: 1,
    };
    const call = await driver.open(inputs, { by: "stack" });
    const report = await runScenario(scenario, { call, clock: emulator.clock, clusters: () => emulator.fleet.snapshot().clusters, ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }) });
    const { GET, PUT, POST, throttled, faults, injected } = emulator.counters;
    return {
      ...report,
      requests: { GET, PUT, POST, throttled, faults, injected: { ...injected } },
      fleetState: emulator.fleet.toState(),
      clientRequests: { ...client.counts },
      apiVersionsSent: [...client.apiVersionsSent].sort(),
    };
  } finally {
    await emulator.close();
  }
}
