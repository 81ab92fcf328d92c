/** A small simulated world shared by the simulator tests. */
import { expect } from "vitest";
import { BackendError, type UpgradeRequest } from "../../../src/engine/backend";
import { VirtualClock } from "../../../src/engine/clock";
import { FleetSchema, type Fleet } from "../../../src/model/fleet";
import { SimulatedFleet } from "../../../src/backends/simulator";

export const T0 = Date.parse("2026-12-05T00:00:00Z");
export const MINUTE = 60_000;
/** When the region starts offering Kubernetes 1.33.1 and IMAGE_DEC. */
export const LATER = Date.parse("2026-12-06T00:00:00Z");

export const IMAGE_OCT = "AKSUbuntu-2204gen2containerd-202610.01.0";
export const IMAGE_NOV = "AKSUbuntu-2204gen2containerd-202611.24.0";
export const IMAGE_DEC = "AKSUbuntu-2204gen2containerd-202612.10.0";
export const AZURE_LINUX_IMAGE = "AzureLinux-V2gen2-202611.20.0";

export const REGIONS = {
  westeurope: {
    kubernetesVersions: [
      { version: "1.30.5" },
      { version: "1.31.2" },
      { version: "1.32.0" },
      { version: "1.33.1", availableAt: "2026-12-06T00:00:00Z" },
    ],
    nodeImages: [
      { version: IMAGE_OCT },
      { version: IMAGE_NOV },
      { version: IMAGE_DEC, availableAt: "2026-12-06T00:00:00Z" },
      { version: AZURE_LINUX_IMAGE },
    ],
  },
  eastus: { kubernetesVersions: [{ version: "1.32.0" }], nodeImages: [{ version: IMAGE_NOV }] },
};

/** A cluster on 1.31.2 with one pool on the October image, with `overrides` on top. */
export function cluster(name: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    region: "westeurope",
    kubernetesVersion: "1.31.2",
    nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE_OCT }],
    ...overrides,
  };
}

export function makeFleet(...members: Record<string, unknown>[]): Fleet {
  return FleetSchema.parse({ regions: REGIONS, members });
}

/** A simulated fleet of `members` on a virtual clock at T0. */
export function setup(...members: Record<string, unknown>[]): { fleet: Fleet; clock: VirtualClock; sim: SimulatedFleet } {
  const fleet = makeFleet(...members);
  const clock = new VirtualClock(T0);
  return { fleet, clock, sim: new SimulatedFleet(fleet, clock) };
}

export const full = (kubernetesVersion: string, nodeImageVersions: Record<string, string> = {}): UpgradeRequest => ({ type: "Full", kubernetesVersion, nodeImageVersions });
export const controlPlaneOnly = (kubernetesVersion: string): UpgradeRequest => ({ type: "ControlPlaneOnly", kubernetesVersion, nodeImageVersions: {} });
export const nodeImageOnly = (nodeImageVersions: Record<string, string>): UpgradeRequest => ({ type: "NodeImageOnly", nodeImageVersions });

/** The BackendError `promise` rejects with (fails the test if it resolves or throws something else). */
export async function backendError(promise: Promise<unknown>): Promise<BackendError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BackendError);
  return error as BackendError;
}

/**
 * `startUpgrade` is refused with `code` and a message containing every one of `mentions`, and the
 * refusal changed nothing: same cluster, no operation logged.
 */
export async function expectRefused(sim: SimulatedFleet, member: string, request: UpgradeRequest, code: string, ...mentions: string[]): Promise<BackendError> {
  const before = { cluster: await sim.getCluster({ name: member }), snapshot: sim.snapshot() };
  const error = await backendError(sim.startUpgrade({ name: member }, request));
  expect(error.code).toBe(code);
  for (const mention of mentions) expect(error.message).toContain(mention);
  expect(await sim.getCluster({ name: member })).toStrictEqual(before.cluster);
  expect(sim.snapshot()).toStrictEqual(before.snapshot);
  return error;
}
