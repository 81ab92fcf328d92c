/**
 * `fleet-update simulate FILE --via arm-emulator`: the same scenario, but the engine talks to a freshly
 * started ARM emulator through the real Azure backend (`@azure/arm-containerservice` over HTTPS), on
 * the emulator's compressed clock. The final states and cluster versions must equal the in-process
 * simulation's; the times may differ slightly (real requests take real time).
 */
import type { TokenCredential } from "@azure/core-auth";
import { AzureBackend } from "../backends/azure/azureBackend";
import { emulatorCredential } from "../backends/azure/credentials";
import { startArmEmulator, type ArmEmulatorOptions } from "../backends/azure/emulator";
import { drive } from "../engine/drive";
import { UpdateRunEngine } from "../engine/engine";
import { resolveScenarioStrategy, scenarioHorizon, type Scenario } from "../model/scenario";
import type { RunEvent } from "../model/status";
import { SCENARIO_RUN_NAME, toRunActions, type SimulationReport } from "./simulateScenario";

export const EMULATOR_SUBSCRIPTION = "00000000-0000-0000-0000-000000000000";
export const EMULATOR_RESOURCE_GROUP = "fleet";
const RECHECK_UNKNOWN_MS = 5 * 60_000;

export interface ViaArmOptions {
  /** Real milliseconds per simulated minute (default 10). */
  msPerSimulatedMinute?: number;
  faults?: ArmEmulatorOptions["faults"];
  throttling?: ArmEmulatorOptions["throttling"];
  seed?: number;
  /** Default: the emulator's dummy token. */
  credential?: TokenCredential;
}

export interface ArmSimulationReport extends SimulationReport {
  requests: { GET: number; PUT: number; POST: number; throttled: number };
}

export async function simulateScenarioViaArm(scenario: Scenario, options: ViaArmOptions = {}): Promise<ArmSimulationReport> {
  const emulator = await startArmEmulator({
    fleet: { regions: scenario.regions, members: scenario.members },
    startAt: scenario.start,
    msPerSimulatedMinute: options.msPerSimulatedMinute ?? 10,
    subscriptionId: EMULATOR_SUBSCRIPTION,
    resourceGroup: EMULATOR_RESOURCE_GROUP,
    ...(options.faults === undefined ? {} : { faults: options.faults }),
    ...(options.throttling === undefined ? {} : { throttling: options.throttling }),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
  });
  try {
    const clock = emulator.clock;
    const backend = new AzureBackend({ credential: options.credential ?? emulatorCredential, clock, endpoint: emulator.url, trustedCaPem: emulator.certificatePem });
    const events: RunEvent[] = [];
    const members = scenario.members.map((m) => ({
      name: m.name,
      ...(m.group === undefined ? {} : { group: m.group }),
      clusterResourceId: `/subscriptions/${EMULATOR_SUBSCRIPTION}/resourceGroups/${EMULATOR_RESOURCE_GROUP}/providers/Microsoft.ContainerService/managedClusters/${m.name}`,
    }));
    const strategy = resolveScenarioStrategy(scenario);
    const engine = UpdateRunEngine.create(
      { name: SCENARIO_RUN_NAME, members, ...(strategy === undefined ? {} : { strategy }), managedClusterUpdate: scenario.managedClusterUpdate },
      backend,
      // ARM does not announce when a version reaches a region: look again every few simulated minutes.
      { onEvent: (e) => events.push(e), recheckUnknownAfterMs: RECHECK_UNKNOWN_MS },
    );
    const refusedActions: SimulationReport["refusedActions"] = [];
    const actions = toRunActions(scenario);
    const start = clock.now();
    engine.start(start);
    await drive(engine, clock, {
      until: scenarioHorizon(scenario),
      actions,
      onActionRefused: (action, error) => refusedActions.push({ at: new Date(action.at).toISOString(), message: error.message }),
    });
    const { GET, PUT, POST, throttled } = emulator.counters;
    return {
      result: { status: engine.status(), clusters: emulator.fleet.snapshot().clusters, events },
      excludedMembers: engine.excludedMembers,
      refusedActions,
      requests: { GET, PUT, POST, throttled },
    };
  } finally {
    await emulator.close();
  }
}
