/**
 * docs/rules.md §3.4: what happens when a group reaches a member, checked in the spec's order:
 * already at target → Skipped; Consistent without a version for a pool's family → Skipped; target
 * version or image not yet in the region → Pending; maintenance window closed → Pending; otherwise
 * start. One more guard, ours: a cluster with an operation already running is Pending until it ends,
 * so the engine never races another operation; when the backend says the versions it shows may be
 * that operation's target (`versionsUnsettled`: ARM mid-upgrade), that guard comes first, so a cluster
 * is never judged at its target before the operation ends. (The user-skip check comes first, in `execute.ts`.)
 */
import { compareDotted } from "../model/nodeImage";
import type { ManagedClusterUpdate } from "../model/update";
import type { ClusterInfo, RegionOffer, UpgradeRequest } from "./backend";
import { availability, imageToApply, poolImageTarget, type PoolImageTarget } from "./nodeImages";
import { relevantWindow, type WindowTracker } from "./priority";
import { isoInstant as iso } from "../model/instants";

export type StartDecision =
  | { kind: "skip"; message: string }
  | { kind: "pending"; message: string; checkAgainAt?: number; /** Pending only until its window opens at `checkAgainAt`. */ windowClosed?: true }
  | { kind: "start"; request: UpgradeRequest };

export interface CheckContext {
  member: string;
  update: ManagedClusterUpdate;
  selectedNodeImageVersions: readonly string[] | undefined;
  cluster: ClusterInfo;
  offer: RegionOffer;
  windows: WindowTracker;
  now: number;
}

export function decideStart(ctx: CheckContext): StartDecision {
  const { update, cluster, offer, now } = ctx;
  const type = update.upgrade.type;
  const target = update.upgrade.kubernetesVersion;
  const images = cluster.nodePools.map((pool) => {
    const imageTarget = poolImageTarget(update, ctx.selectedNodeImageVersions, pool, offer, now);
    return { pool, target: imageTarget, apply: imageToApply(pool, imageTarget) };
  });

  // Versions that may be an operation's target, not what runs (ARM mid-upgrade): wait for it before judging.
  if (cluster.activeOperation !== undefined && cluster.versionsUnsettled === true) return otherOperation(cluster.activeOperation);

  // Already at target.
  // "At target" means at or past it: nothing is ever moved backwards (AKS refuses downgrades).
  const atOrPast = (version: string) => target === undefined || compareDotted(version, target) >= 0;
  const controlPlaneAtTarget = atOrPast(cluster.kubernetesVersion);
  const poolsAtVersion = cluster.nodePools.every((p) => atOrPast(p.orchestratorVersion));
  const imagesAtTarget = images.every(({ target: t, apply }) => t.kind !== "noConsistentVersion" && apply === undefined);
  if (type === "ControlPlaneOnly" && controlPlaneAtTarget) {
    return { kind: "skip", message: `Already at target: control plane runs Kubernetes ${cluster.kubernetesVersion}${cluster.kubernetesVersion === target ? "" : `, newer than the target ${target}`}.` };
  }
  // Full over a cluster at or past the target everywhere, and past it somewhere: its versions stay
  // (nothing is moved backwards); only images behind their target move (docs/behaviour.md).
  const versionsPastTarget =
    type === "Full" && controlPlaneAtTarget && poolsAtVersion && [cluster.kubernetesVersion, ...cluster.nodePools.map((p) => p.orchestratorVersion)].some((v) => compareDotted(v, target as string) > 0);
  if (type === "Full" && controlPlaneAtTarget && poolsAtVersion && imagesAtTarget) {
    return { kind: "skip", message: `Already at target: ${fullVersionsText(cluster, target as string, versionsPastTarget)} with the target node images.` };
  }
  if (type === "NodeImageOnly" && imagesAtTarget) {
    return { kind: "skip", message: "Already at target: every node pool runs the target node image." };
  }

  // Consistent selection found no version for a pool's family.
  const missing = images.find((i): i is typeof i & { target: Extract<PoolImageTarget, { kind: "noConsistentVersion" }> } => i.target.kind === "noConsistentVersion");
  if (missing !== undefined) {
    return {
      kind: "skip",
      message: `Node pool '${missing.pool.name}' uses image family ${missing.target.family}, for which no version is available in every region of the run (Consistent selection).`,
    };
  }

  // Target version or image not yet offered in the member's region (a version not moved need not be).
  if (target !== undefined && !versionsPastTarget) {
    const k8s = availability(offer.kubernetesVersions, target, now);
    if (!k8s.now) return notYetAvailable(`Kubernetes version ${target}`, cluster.region, k8s.at);
  }
  for (const { apply } of images) {
    if (apply === undefined) continue;
    const image = availability(offer.nodeImages, apply, now);
    if (!image.now) return notYetAvailable(`Node image ${apply}`, cluster.region, image.at);
  }

  // Maintenance window.
  const window = relevantWindow(cluster.maintenanceConfigurations, type);
  if (window !== undefined) {
    const interval = ctx.windows.interval(ctx.member, window, now);
    if (interval === undefined) return { kind: "pending", message: "Maintenance window closed and it never opens again (check its schedule and notAllowedDates)." };
    if (interval.start > now) {
      return { kind: "pending", message: `Maintenance window closed; next opening at ${iso(interval.start)}.`, checkAgainAt: interval.start, windowClosed: true };
    }
  }

  // Never race another operation on the cluster.
  if (cluster.activeOperation !== undefined) return otherOperation(cluster.activeOperation);

  const nodeImageVersions: Record<string, string> = {};
  for (const { pool, apply } of images) if (apply !== undefined) nodeImageVersions[pool.name] = apply;
  // Latest (docs/behaviour.md): a pool re-imaged later in this upgrade may take a newer image than named
  // here. (A ControlPlaneOnly upgrade names no image: its pools have no image target.)
  const latest = (update.nodeImageSelection?.type ?? "Latest") === "Latest" && Object.keys(nodeImageVersions).length > 0;
  // Past the target: only the images move, as a NodeImageOnly upgrade (a Full one would ask for a downgrade).
  const requestType = versionsPastTarget ? "NodeImageOnly" : type;
  const version = target === undefined || versionsPastTarget ? {} : { kubernetesVersion: target };
  return { kind: "start", request: { type: requestType, ...version, nodeImageVersions, ...(latest ? { latestNodeImages: true } : {}) } };
}

/** Pending while another operation runs on the cluster, until its expected end if known. */
function otherOperation(op: NonNullable<ClusterInfo["activeOperation"]>): StartDecision {
  return {
    kind: "pending",
    message: `Another operation${op.operationId === undefined ? "" : ` (${op.operationId})`} is in progress on the cluster; waiting for it to end${op.expectedEndAt === undefined ? "" : ` (expected at ${iso(op.expectedEndAt)})`}.`,
    ...(op.expectedEndAt === undefined ? {} : { checkAgainAt: op.expectedEndAt }),
  };
}

/** What a Full run's member found at or past its target runs: `Kubernetes 1.32.0`, or how it is past it. */
function fullVersionsText(cluster: ClusterInfo, target: string, pastTarget: boolean): string {
  if (!pastTarget) return `control plane and every node pool run Kubernetes ${target}`;
  const versions = new Set([cluster.kubernetesVersion, ...cluster.nodePools.map((p) => p.orchestratorVersion)]);
  return versions.size === 1
    ? `control plane and every node pool run Kubernetes ${cluster.kubernetesVersion}, newer than the target ${target},`
    : `control plane and every node pool run Kubernetes ${target} or newer (control plane ${cluster.kubernetesVersion}), none moved back,`;
}

function notYetAvailable(what: string, region: string, at: number | undefined): StartDecision {
  return at === undefined
    ? { kind: "pending", message: `${what} is not yet available in region ${region}.` }
    : { kind: "pending", message: `${what} is not yet available in region ${region}; expected at ${iso(at)}.`, checkAgainAt: at };
}
