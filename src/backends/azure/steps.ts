/**
 * An upgrade through ARM is a short sequence of steps, read off the cluster: the versions (one cluster
 * PUT: the control plane, and for Full every pool), then `upgradeNodeImageVersion` per pool whose image
 * is still behind. What is missing is always computed from the cluster as read, so following an
 * upgrade resumes from the cluster itself and never redoes a step that is done.
 */
import { ownValue } from "../../model/values";
import type { ManagedCluster } from "@azure/arm-containerservice";
import type { UpgradeRequest } from "../../engine/backend";
import { compareDotted, compareImageVersions } from "../../model/nodeImage";
import { isBusy } from "./convert";

export type Step = { kind: "versions"; controlPlaneOnly: boolean } | { kind: "image"; pool: string; version: string };

/**
 * Whether a goal version ARM shows (`kubernetesVersion`, `orchestratorVersion`) names `target`: the same
 * version, or the `major.minor` alias it was written as — AKS keeps showing "1.28" for a cluster asked
 * for 1.28 while it runs a patch of it (test/fixtures/recordings/aks, docs/emulator-conformance.md).
 */
export function goalNames(goal: string | undefined, target: string): boolean {
  if (goal === undefined) return false;
  return goal === target || (/^\d+\.\d+$/.test(goal) && target.startsWith(`${goal}.`));
}

/** The Kubernetes version a pool runs now (not the goal of an upgrade in flight). */
function runningVersion(pool: { currentOrchestratorVersion?: string; orchestratorVersion?: string }): string {
  return pool.currentOrchestratorVersion ?? pool.orchestratorVersion ?? "0.0.0";
}

/** What is still missing on `cluster` for `request`, first step first; undefined = done. */
export function nextStep(cluster: ManagedCluster, request: UpgradeRequest): Step | undefined {
  const target = request.kubernetesVersion;
  const pools = cluster.agentPoolProfiles ?? [];
  if (target !== undefined) {
    const controlPlane = cluster.currentKubernetesVersion ?? cluster.kubernetesVersion ?? "0.0.0";
    const controlPlaneBehind = compareDotted(controlPlane, target) < 0;
    const poolsBehind = request.type === "Full" && pools.some((p) => compareDotted(runningVersion(p), target) < 0);
    if (controlPlaneBehind || poolsBehind) return { kind: "versions", controlPlaneOnly: request.type === "ControlPlaneOnly" };
  }
  for (const pool of pools) {
    const wanted = ownValue(request.nodeImageVersions, pool.name);
    if (wanted !== undefined && compareImageVersions(pool.nodeImageVersion ?? "", wanted) < 0) return { kind: "image", pool: pool.name, version: wanted };
  }
  return undefined;
}

function sameStep(a: Step | undefined, b: Step): boolean {
  if (a === undefined || a.kind !== b.kind) return false;
  return a.kind === "versions" || (b.kind === "image" && a.pool === b.pool);
}

/**
 * Whether `step` was started on `cluster` after all — the cluster shows it under way, no longer
 * missing, or ended without reaching its target since the write — when the write that asked for it
 * failed without a clear answer (the answer was lost, or a 5xx, 409 or 412 came back). `before` is the
 * cluster as it was read for the write. A step found started is followed, never asked for again.
 */
export function stepStarted(cluster: ManagedCluster, request: UpgradeRequest, step: Step, before: ManagedCluster): boolean {
  const pools = cluster.agentPoolProfiles ?? [];
  const target = request.kubernetesVersion;
  const towardTarget = step.kind === "versions" && target !== undefined && goalNames(cluster.kubernetesVersion, target) && (step.controlPlaneOnly || pools.every((p) => goalNames(p.orchestratorVersion, target)));
  const pool = step.kind === "image" ? pools.find((p) => p.name === step.pool) : undefined;
  if (step.kind === "versions" ? isBusy(cluster.provisioningState) && towardTarget : pool?.provisioningState === "UpgradingNodeImageVersion") return true;
  const busy = isBusy(cluster.provisioningState) || pools.some((p) => isBusy(p.provisioningState));
  if (busy) return false;
  if (!sameStep(nextStep(cluster, request), step)) return true;
  // Applied, then failed or aborted before anyone read it: the cluster changed since the write and
  // shows an unsuccessful upgrade toward the step's target. Sending it again would be a second upgrade.
  const ended = step.kind === "versions" ? towardTarget && ENDED_UNSUCCESSFULLY.has(cluster.provisioningState ?? "") : ENDED_UNSUCCESSFULLY.has(pool?.provisioningState ?? "");
  return ended && changedSince(before, cluster);
}

const ENDED_UNSUCCESSFULLY = new Set(["Failed", "Canceled"]);

/** The eTag says whether anything happened; without one, only a change of state or goal does. */
function changedSince(before: ManagedCluster, after: ManagedCluster): boolean {
  if (before.eTag !== undefined && after.eTag !== undefined) return before.eTag !== after.eTag;
  return before.provisioningState !== after.provisioningState || before.kubernetesVersion !== after.kubernetesVersion;
}

/** The cluster as read, with the target version on the control plane (and, for Full, every pool). */
export function withVersions(cluster: ManagedCluster, version: string, pools: boolean): ManagedCluster {
  return {
    ...cluster,
    kubernetesVersion: version,
    ...(pools ? { agentPoolProfiles: (cluster.agentPoolProfiles ?? []).map((p) => ({ ...p, orchestratorVersion: version })) } : {}),
  };
}

/** The name an operation goes by when ARM's answer (with its status URL) never arrived. */
export function stepName(clusterName: string, step: Step): string {
  return step.kind === "image" ? `${clusterName}-${step.pool}` : clusterName;
}

/** Wait until ARM accepted the operation, and name it by the last segment of its status URL. */
export async function operationIdOf(poller: { submitted(): Promise<void>; serialize(): Promise<string> }, fallback: string): Promise<string> {
  await poller.submitted();
  const serialized = await poller.serialize();
  const location = /"operationLocation":"([^"]+)"/.exec(serialized)?.[1];
  if (location === undefined) return fallback;
  const path = location.split("?")[0] as string;
  return path.slice(path.lastIndexOf("/") + 1) || fallback;
}
