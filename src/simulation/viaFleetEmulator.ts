/**
 * Issue 12: `fleet-update simulate FILE --via fleet-emulator`: the scenario's run executed by Fleet
 * Manager — the ARM emulator's, which runs it server-side with our engine on its compressed clock —
 * and steered through the Fleet Manager driver (`src/drivers/fleetDriver.ts`, the one `fleet-update
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
import { FleetClient, FleetRequestError } from "../backends/azureFleet/fleetClient";
import { toFleetStrategy } from "../backends/azureFleet/toFleet";
import { unsupportedInStrategy } from "../backends/azureFleet/unsupported";
import { analysisGateIssues } from "../backends/azureFleet/analysisGates";
import { DEFAULT_FLEET_API_VERSION, type ClientFleetApiVersion } from "../backends/azureFleet/wire";
import { ValidationError, isoInstant, type FieldIssue } from "../model/common";
import { resolveScenarioStrategy, scenarioHorizon, type Scenario } from "../model/scenario";
import type { SkipTarget } from "../model/skip";
import { gateIdsFor } from "../model/strategy";
import type { RunEvent } from "../model/status";
import type { UpdateRunInputs } from "../spec/runSpec";
import { driverFor } from "../drivers/driverFor";
import type { RunControls, RunReport } from "../drivers/runDriver";
import { SCENARIO_RUN_NAME } from "./simulateScenario";
import { EMULATOR_RESOURCE_GROUP, EMULATOR_SUBSCRIPTION, type ArmSimulationReport } from "./viaArmEmulator";
import { updateChoiceOf } from "../model/autoUpgrade";

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
    const strategy = resolveScenarioStrategy(scenario);
    // A strategy the scenario references is kept in the fleet first, as an `UpdateStrategy` resource would be.
    let definition: Partial<Pick<UpdateRunInputs, "strategy" | "updateStrategyId">>;
    if (scenario.updateStrategyId !== undefined && scenario.strategy === undefined && strategy !== undefined) {
      await client.putStrategy(scenario.updateStrategyId, toFleetStrategy(strategy)).catch(async (e: unknown) => {
        if (!(e instanceof FleetRequestError && e.statusCode === 412 && (await client.getStrategy(scenario.updateStrategyId as string)) !== undefined)) throw e;
      });
      definition = { updateStrategyId: client.strategyId(scenario.updateStrategyId) };
    } else {
      definition = strategy === undefined ? {} : { strategy };
    }
    // The run is steered through the Fleet Manager driver, as `fleet-update run` steers it: each user
    // action changes the controls at its instant, and the driver follows the run in between. It reads
    // the run when it can have changed — at its next pass server-side (the simulation may ask the
    // emulator when that pass is; no real client could) — or every `pollMs`, as a real client
    // (`pollsLikeAClient`): while upgrades run, reading on the clock meets ARM's real-time throttling.
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
      ...updateChoiceOf(scenario),
      ...(scenario.analysis === undefined ? {} : { analysis: scenario.analysis }),
      state: "Running",
      skip: [],
      approvals: [],
      timeoutMinutes: 1,
    };
    const call = await driver.open(inputs, { by: "stack" });
    const events: RunEvent[] = [];
    const onEvent = (e: RunEvent): void => {
      events.push(e);
      options.onEvent?.(e);
    };
    const controls: RunControls = { state: "Running", skip: [], approvals: [], timeoutMinutes: 1 };
    const refusedActions: ArmSimulationReport["refusedActions"] = [];
    const actions = [...scenario.actions].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    const horizon = scenarioHorizon(scenario);
    let report: RunReport | undefined;
    for (;;) {
      const now = emulator.clock.now();
      // The actions due: skips at the run's start come before its first step (in process they apply
      // before the engine looks at that instant), so Fleet takes them on the run not started yet.
      const sentSkips: Array<{ at: string; targets: SkipTarget[] }> = [];
      while (actions.length > 0 && Date.parse((actions[0] as (typeof actions)[number]).at) <= now) {
        const action = actions.shift() as (typeof actions)[number];
        if (action.approve !== undefined) controls.approvals.push(...action.approve.flatMap((a) => gateIdsFor(strategy, a)));
        else if (action.skip !== undefined) {
          controls.skip.push(...action.skip);
          sentSkips.push({ at: isoInstant(Date.parse(action.at)), targets: action.skip });
        } else controls.state = action.stop !== undefined ? "Stopped" : "Running";
      }
      if (now >= horizon) break;
      const until = Math.min(actions[0] === undefined ? Infinity : Date.parse(actions[0].at), horizon);
      try {
        report = await call.drive({ ...controls, timeoutMinutes: Math.max(until - now, 1) / 60_000 }, { onEvent });
      } catch (e) {
        // Fleet refused the new skips (4xx): recorded at their actions and dropped, as in process a
        // refused action changes nothing; the run goes on.
        if (!(e instanceof FleetRequestError) || e.statusCode === undefined || e.statusCode >= 500 || sentSkips.length === 0) throw e;
        for (const sent of sentSkips) refusedActions.push({ at: sent.at, message: e.message });
        const refused = new Set(sentSkips.flatMap((sent) => sent.targets.map((t) => `${t.type}/${t.name}`)));
        controls.skip = controls.skip.filter((t) => !refused.has(`${t.type}/${t.name}`));
        continue;
      }
      if (report.end === "deadline") continue;
      // Settled, where it was asked to be, or waiting at a gate with nothing in flight: idle until the next action.
      if (actions[0] === undefined) break;
      await emulator.clock.sleepUntil(Math.min(Date.parse(actions[0].at), horizon));
    }
    if (report === undefined) throw new Error(`the scenario's horizon is at its start: update run '${SCENARIO_RUN_NAME}' was never driven`);
    const { status } = report;
    const { GET, PUT, POST, throttled, faults, injected } = emulator.counters;
    return {
      result: { status, summary: report.summary, clusters: emulator.fleet.snapshot().clusters, events },
      excludedMembers: report.excludedMembers,
      refusedActions,
      failedMembers: report.failedMembers,
      appliedNodeImageVersions: report.appliedNodeImageVersions,
      ...(report.generatedUpdate === undefined ? {} : { generatedUpdate: report.generatedUpdate }),
      requests: { GET, PUT, POST, throttled, faults, injected: { ...injected } },
      fleetState: emulator.fleet.toState(),
      clientRequests: { ...client.counts },
      apiVersionsSent: [...client.apiVersionsSent].sort(),
    };
  } finally {
    await emulator.close();
  }
}
