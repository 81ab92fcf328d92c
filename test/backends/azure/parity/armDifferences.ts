/**
 * The scenarios that cannot end the same through ARM, and exactly how they differ (docs/behaviour.md,
 * "Consistent / Custom node images on real ARM"): ARM moves a node pool's image only forward, to the
 * newest image of its family in the region (`upgradeNodeImageVersion`, or a Kubernetes upgrade), and
 * accepts a written `nodeImageVersion` only to roll back to a recently used image. So a pool whose
 * region offers something newer than the Consistent or Custom pick ends past the pick, on the newest;
 * and a pool whose Kubernetes version a Full upgrade moves gets the newest image of its family even
 * when Custom leaves its family alone.
 * Everything else (every state, every Kubernetes version, the other pools) must still be equal.
 */
import type { Outcome } from "./outcome";

const NOV = "AKSUbuntu-2204gen2containerd-202611.24.0";
const DEC = "AKSUbuntu-2204gen2containerd-202612.10.0";
const AZL_OCT = "AzureLinux-V2gen2-202610.05.0";
const AZL_NOV = "AzureLinux-V2gen2-202611.20.0";

export interface ArmDifference {
  why: string;
  /** `cluster/pool` → its image in process (the pick) and through ARM (the region's newest), which it moves to once. */
  poolImages: Record<string, { inProcess: string; viaArm: string }>;
}

export const ARM_DIFFERENCES: Record<string, ArmDifference> = {
  "suite/node-image-consistent.yaml": {
    why: "westeurope offers 202612.10.0, newer than the Consistent pick 202611.24.0 (eastus's newest): ARM moves westeurope's Ubuntu pools to it",
    poolImages: { "eu-1/ubuntu": { inProcess: NOV, viaArm: DEC }, "eu-2/system": { inProcess: NOV, viaArm: DEC } },
  },
  "suite/node-image-custom.yaml": {
    why: "the Custom image 202611.24.0 is not westeurope's newest (202612.10.0): ARM moves the Ubuntu pool to the newest; the AzureLinux pool, left alone by Custom, gets its newest image with its new Kubernetes version",
    poolImages: { "mixed/ubuntu": { inProcess: NOV, viaArm: DEC }, "mixed/azl": { inProcess: AZL_OCT, viaArm: AZL_NOV } },
  },
};

/**
 * The outcome expected through ARM: the in-process one with the documented differences applied. Each
 * difference must really be there in process (a stale entry fails), so none hides a regression.
 */
export function expectedViaArm(label: string, inProcess: Outcome): Outcome {
  const difference = ARM_DIFFERENCES[label];
  if (difference === undefined) return inProcess;
  const expected = structuredClone(inProcess);
  for (const [where, { inProcess: pick, viaArm }] of Object.entries(difference.poolImages)) {
    const [clusterName, poolName] = where.split("/");
    const cluster = expected.clusters.find((c) => c.name === clusterName);
    const pool = cluster?.nodePools.find((p) => p.name === poolName);
    if (pool === undefined) throw new Error(`${label}: ARM difference names ${where}, which the scenario does not have`);
    if (pool.nodeImageVersion !== pick) throw new Error(`${label}: ARM difference expects ${where} on ${pick} in process, but it is on ${pool.nodeImageVersion}`);
    pool.nodeImageVersion = viaArm;
    (cluster as Outcome["clusters"][number]).upgrades.changed[`${poolName}/image`] = 1;
  }
  return expected;
}
