/** A small fleet with update groups, served by the ARM emulator as Fleet Manager, and the real Fleet SDK client for it. */
import { ContainerServiceFleetClient, type UpdateRun } from "@azure/arm-containerservicefleet";
import { FleetSchema, type Fleet } from "../../src/model/fleet";
import { startArmEmulator, type ArmEmulator, type ArmEmulatorOptions } from "../../src/emulator";
import { IMAGE_NOV, IMAGE_OCT, RESOURCE_GROUP, SUBSCRIPTION, fakeCredential } from "./helpers";

export const FLEET = "fleet";
export { RESOURCE_GROUP, SUBSCRIPTION };

/**
 * Five clusters on 1.31.2 in westeurope (offering 1.32.0): `canary-1` in group canary, `prod-1..3` in
 * group prod, `dev-1` in group dev. Upgrades take 10 simulated minutes unless `upgradeMinutes` says;
 * the upgrades of the `failing` ones fail (UpgradeFailed).
 */
export function groupedFleet(upgradeMinutes: Record<string, number> = {}, failing: readonly string[] = []): Fleet {
  const cluster = (name: string, group: string) => {
    const simulation = {
      ...(upgradeMinutes[name] === undefined ? {} : { upgradeMinutes: upgradeMinutes[name] }),
      ...(failing.includes(name) ? { fail: { code: "UpgradeFailed", message: "drain timed out" } } : {}),
    };
    return {
      name,
      group,
      region: "westeurope",
      kubernetesVersion: "1.31.2",
      nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE_OCT }],
      ...(Object.keys(simulation).length === 0 ? {} : { simulation }),
    };
  };
  return FleetSchema.parse({
    regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: IMAGE_OCT }, { version: IMAGE_NOV }] } },
    members: [cluster("canary-1", "canary"), cluster("prod-1", "prod"), cluster("prod-2", "prod"), cluster("prod-3", "prod"), cluster("dev-1", "dev")],
  });
}

/** 10 ms per simulated minute: a 10-minute upgrade takes 0.1 s. */
export function startFleetEmulator(options: Partial<ArmEmulatorOptions> = {}): Promise<ArmEmulator> {
  return startArmEmulator({ fleet: groupedFleet(), msPerSimulatedMinute: 10, throttling: false, ...options });
}

export function fleetClient(emulator: ArmEmulator, maxRetries = 3): ContainerServiceFleetClient {
  return new ContainerServiceFleetClient(fakeCredential, SUBSCRIPTION, {
    endpoint: emulator.url,
    tlsOptions: { ca: emulator.certificatePem },
    retryOptions: { maxRetries, retryDelayInMs: 5, maxRetryDelayInMs: 20 },
  });
}

/** Poll quickly: the emulator's fleet operations carry no Retry-After. */
export const FAST_POLL = { updateIntervalInMs: 10 };

export const FULL_132 = { upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Latest" } };

export const CANARY_THEN_PROD = {
  stages: [
    { name: "canary", groups: [{ name: "canary" }], afterStageWaitInSeconds: 600 },
    { name: "prod", groups: [{ name: "prod" }, { name: "dev" }] },
  ],
};

export function strategyId(name: string): string {
  return `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.ContainerService/fleets/${FLEET}/updateStrategies/${name}`;
}

/** The run's state (`status.status.state`). */
export function runState(run: UpdateRun): string | undefined {
  return run.properties?.status?.status?.state;
}

export function fleetPath(rest = ""): string {
  return `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.ContainerService/fleets/${FLEET}${rest}`;
}

/** GET the run until `done` holds for it (or `timeoutMs` of real time passes); the run then. */
export async function waitForRun(client: ContainerServiceFleetClient, run: string, done: (r: UpdateRun) => boolean, timeoutMs = 10_000, fleet = FLEET): Promise<UpdateRun> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await client.updateRuns.get(RESOURCE_GROUP, fleet, run);
    if (done(got)) return got;
    if (Date.now() > deadline) throw new Error(`run '${run}' did not get there in ${timeoutMs} ms: ${JSON.stringify(got.properties?.status?.status)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
