/**
 * The UpdateRun inputs of the provider figures: `members` members in 20 groups of equal size, 4
 * stages of 5 groups with a 10-minute wait after each, a Full upgrade to 1.32.0 with consistent node
 * images; and the simulated fleet file those members live in (one region, one node pool each).
 */
const GROUPS = 20;
const STAGES = 4;
const OLD_IMAGE = "AKSUbuntu-2204gen2containerd-202610.01.0";
const NEW_IMAGE = "AKSUbuntu-2204gen2containerd-202611.24.0";

const memberName = (i: number) => `member-${i}`;
const groupName = (i: number) => `group-${i % GROUPS}`;

const CLUSTER_ID_PREFIX = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/fleet/providers/Microsoft.ContainerService/managedClusters/";

export interface BenchRunOptions {
  /** Every group's `maxConcurrency` (default: the default, one at a time). */
  groupMaxConcurrency?: string;
  /** Give every member its ARM cluster id (the Azure backend needs them). */
  clusterIds?: boolean;
}

export function benchRunInputs(members: number, backend: Record<string, unknown>, options: BenchRunOptions = {}): Record<string, unknown> {
  const { groupMaxConcurrency, clusterIds = false } = options;
  const perStage = GROUPS / STAGES;
  return {
    runName: "bench",
    backend,
    members: Array.from({ length: members }, (_, i) => ({ name: memberName(i), group: groupName(i), ...(clusterIds ? { clusterResourceId: `${CLUSTER_ID_PREFIX}${memberName(i)}` } : {}) })),
    strategy: {
      stages: Array.from({ length: STAGES }, (_, s) => ({
        name: `stage-${s}`,
        groups: Array.from({ length: perStage }, (_, g) => ({ name: `group-${s * perStage + g}`, ...(groupMaxConcurrency === undefined ? {} : { maxConcurrency: groupMaxConcurrency }) })),
        afterStageWaitInSeconds: 600,
      })),
    },
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Consistent" } },
  };
}

/** The simulated fleet file (JSON, which the fleet reader takes as YAML) holding those members. */
export function benchFleetFile(members: number): string {
  return JSON.stringify({
    regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: OLD_IMAGE }, { version: NEW_IMAGE }] } },
    members: Array.from({ length: members }, (_, i) => ({
      name: memberName(i),
      region: "westeurope",
      kubernetesVersion: "1.31.2",
      nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: OLD_IMAGE }],
    })),
  });
}
