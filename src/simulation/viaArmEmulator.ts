/**
 * `fleet-update simulate FILE --via arm-emulator`: the same scenario, but the engine talks to a freshly
 * started ARM emulator through the real Azure backend (`@azure/arm-containerservice` over HTTPS), on
 * the emulator's compressed clock, which also jumps over idle time (`CompressibleClock`). The final
 * states and cluster versions must equal the in-process simulation's; the times may differ slightly
 * (real requests take real time).
 */
import type { TokenCredential } from "@azure/core-auth";
import { customImageVersions } from "../model/update";
import { AzureBackend } from "../backends/azure/azureBackend";
import { emulatorCredential } from "../backends/azure/credentials";
import { startArmEmulator, type ArmEmulatorOptions, type RequestCounters } from "../emulator";
import type { FleetState } from "../backends/simulator";
import type { Scenario } from "./scenario";
import type { RunEvent } from "../model/status";
import { runScenario, type SimulationReport } from "./simulateScenario";

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
  /** Receives each state change as it happens. */
  onEvent?: (event: RunEvent) => void;
  /**
   * Jump over idle time (default true): when the engine sleeps, no request is in flight and no upgrade
   * runs, simulated time moves straight to its next wake-up (`CompressibleClock`), so weeks of windows
   * take seconds. `false`: every simulated minute takes `msPerSimulatedMinute` real ms.
   */
  compressIdleTime?: boolean;
}

export interface ArmSimulationReport extends SimulationReport {
  /** Requests the emulator answered; `throttled`: refused by its token buckets; `faults`: injected, by kind in `injected`. */
  requests: Pick<RequestCounters, "GET" | "PUT" | "POST" | "throttled" | "faults" | "injected">;
  /** The emulated clusters as the run left them, each operation with what it asked for (for accounting). */
  fleetState: FleetState;
}

/**
 * The SDK pauses between retries of a 5xx or a dropped connection in real time (1 s, doubling): on the
 * emulator's compressed clock that would be simulated hours, so the pauses are compressed too.
 */
const RETRY_DELAY_MS = 5;
const MAX_RETRY_DELAY_MS = 50;

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
    compressIdleTime: options.compressIdleTime ?? true,
  });
  try {
    const backend = new AzureBackend({
      credential: options.credential ?? emulatorCredential,
      clock: emulator.clock,
      endpoint: emulator.url,
      trustedCaPem: emulator.certificatePem,
      retryDelayInMs: RETRY_DELAY_MS,
      maxRetryDelayInMs: MAX_RETRY_DELAY_MS,
      customNodeImageVersions: customImageVersions(scenario.managedClusterUpdate),
    });
    const report = await runScenario(scenario, {
      backend,
      clock: emulator.clock,
      clusters: () => emulator.fleet.snapshot().clusters,
      members: scenario.members.map((m) => ({
        name: m.name,
        ...(m.group === undefined ? {} : { group: m.group }),
        ...(m.labels === undefined ? {} : { labels: m.labels }),
        clusterResourceId: `/subscriptions/${EMULATOR_SUBSCRIPTION}/resourceGroups/${EMULATOR_RESOURCE_GROUP}/providers/Microsoft.ContainerService/managedClusters/${m.name}`,
      })),
      // ARM does not announce when a version reaches a region: look again every few simulated minutes.
      // Issue 31: analyses measure the emulator's own clusters' declared metrics, in process, as the
      // emulator serves them on /metrics (no Prometheus server).
      engineOptions: { recheckUnknownAfterMs: RECHECK_UNKNOWN_MS, queryMetric: (query) => emulator.fleet.queryMetricNow(query) },
      ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    });
    const { GET, PUT, POST, throttled, faults, injected } = emulator.counters;
    return { ...report, requests: { GET, PUT, POST, throttled, faults, injected: { ...injected } }, fleetState: emulator.fleet.toState() };
  } finally {
    await emulator.close();
  }
}
