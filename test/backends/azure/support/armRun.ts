/**
 * One update run driven by the engine through the real Azure backend against an ARM emulator, in
 * pieces: a test can drive it part way, look at the clusters, "restart" (a fresh backend, the engine
 * resumed from its snapshot), act on the clusters from outside, and drive it on.
 */
import { ContainerServiceClient } from "@azure/arm-containerservice";
import { AzureBackend } from "../../../../src/backends/azure/azureBackend";
import { emulatorCredential } from "../../../../src/backends/azure/credentials";
import { startArmEmulator, type ArmEmulator, type ArmEmulatorOptions } from "../../../../src/emulator";
import { drive } from "../../../../src/engine/drive";
import { UpdateRunEngine } from "../../../../src/engine/engine";
import type { RunState } from "../../../../src/engine/runState";
import { parseScenario, resolveScenarioStrategy, type Scenario } from "../../../../src/simulation/scenario";
import { EMULATOR_RESOURCE_GROUP, EMULATOR_SUBSCRIPTION } from "../../../../src/simulation/viaArmEmulator";
import { updateChoiceOf } from "../../../../src/model/autoUpgrade";

export interface ArmRun {
  scenario: Scenario;
  emulator: ArmEmulator;
  engine: UpdateRunEngine;
  /** Checkpoints the engine wrote (each just before an upgrade starts), oldest first. */
  checkpoints: RunState[];
  /** The SDK pointed at the emulator, for acting on clusters out of band. */
  client: ContainerServiceClient;
  /** Drive the engine until `minutes` simulated minutes after the scenario's start (or to the end). */
  driveFor(minutes?: number): Promise<void>;
  /** Drive the engine until `minutes` simulated minutes after `member`'s latest upgrade started. */
  driveIntoUpgrade(member: string, minutes: number): Promise<void>;
  /** A new process: a fresh backend, the engine resumed from `state` (default: its current snapshot). */
  restart(state?: RunState): void;
  close(): Promise<void>;
}

function backendFor(emulator: ArmEmulator): AzureBackend {
  return new AzureBackend({ credential: emulatorCredential, clock: emulator.clock, endpoint: emulator.url, trustedCaPem: emulator.certificatePem, retryDelayInMs: 5, maxRetryDelayInMs: 50 });
}

export async function startArmRun(yaml: string, emulatorOptions: Partial<ArmEmulatorOptions> = {}): Promise<ArmRun> {
  const scenario = parseScenario(yaml);
  const emulator = await startArmEmulator({
    fleet: { regions: scenario.regions, members: scenario.members },
    startAt: scenario.start,
    msPerSimulatedMinute: 20,
    subscriptionId: EMULATOR_SUBSCRIPTION,
    resourceGroup: EMULATOR_RESOURCE_GROUP,
    throttling: false,
    ...emulatorOptions,
  });
  const checkpoints: RunState[] = [];
  const options = { recheckUnknownAfterMs: 5 * 60_000, checkpoint: () => checkpoints.push(run.engine.snapshot()) };
  const members = scenario.members.map((m) => ({
    name: m.name,
    ...(m.group === undefined ? {} : { group: m.group }),
    clusterResourceId: `/subscriptions/${EMULATOR_SUBSCRIPTION}/resourceGroups/${EMULATOR_RESOURCE_GROUP}/providers/Microsoft.ContainerService/managedClusters/${m.name}`,
  }));
  const strategy = resolveScenarioStrategy(scenario);
  const run: ArmRun = {
    scenario,
    emulator,
    engine: UpdateRunEngine.create({ name: "run", members, ...(strategy === undefined ? {} : { strategy }), ...updateChoiceOf(scenario) }, backendFor(emulator), options),
    checkpoints,
    client: new ContainerServiceClient(emulatorCredential, EMULATOR_SUBSCRIPTION, { endpoint: emulator.url, tlsOptions: { ca: emulator.certificatePem }, retryOptions: { retryDelayInMs: 5 } }),
    driveFor: (minutes) => drive(run.engine, emulator.clock, minutes === undefined ? {} : { until: Date.parse(scenario.start) + minutes * 60_000 }),
    driveIntoUpgrade: async (member, minutes) => {
      const started = () => emulator.fleet.toState().clusters[member]?.operations.at(-1)?.startAt;
      while (started() === undefined) await drive(run.engine, emulator.clock, { until: emulator.clock.now() + 60_000 });
      await drive(run.engine, emulator.clock, { until: (started() as number) + minutes * 60_000 });
    },
    restart: (state) => {
      run.engine = UpdateRunEngine.resume(structuredClone(state ?? run.engine.snapshot()), backendFor(emulator), options);
    },
    close: () => emulator.close(),
  };
  run.engine.start(Date.parse(scenario.start));
  return run;
}
