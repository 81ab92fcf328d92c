/**
 * What an ARM write asks of the simulated fleet, as an `UpgradeRequest` (the fleet's rules then accept
 * or refuse it):
 * - managed cluster PUT: a new `kubernetesVersion` with the pools' `orchestratorVersion` unchanged →
 *   `ControlPlaneOnly`; pools moving too → `Full`; nothing changed → no operation;
 * - agent pool PUT with a new `orchestratorVersion` → `Full` at the control plane's version;
 * - `upgradeNodeImageVersion` → `NodeImageOnly` to the newest image of the pool's family in the region.
 * As in AKS, a pool whose Kubernetes version changes also gets the newest image of its family, and
 * `major.minor` versions mean the newest patch available. Which image is newest is settled when the
 * upgrade starts, by the simulated fleet (`latestNodeImages`: `aks/latestImages.ts`, over
 * `newestImageAt`, the one rule): the operation's start, the instant its status shows and a run records
 * as the member's start (docs/rules.md §20), not the instant this write was read.
 *
 * The simulated fleet knows whole-cluster upgrades only (a `Full` upgrade moves every pool), so a
 * write that would move some pools and leave others behind on another version is refused with
 * `InvalidParameter` naming the pools — see the emulator's README.md.
 */
import { z } from "zod";
import type { UpgradeRequest } from "../../engine/backend";
import { formatPath } from "../../model/issues";
import type { NodePool } from "../../model/fleet";
import { compareDotted, compareImageVersions, imageFamily } from "../../model/nodeImage";
import { NODE_POOL_VERSION_ABOVE_CONTROL_PLANE, UPGRADE_DOWNGRADE_NOT_ALLOWED } from "../../aks/errorCodes";
import { ArmError, invalidParameter } from "../core/armErrors";
import type { ClusterView } from "./clusterView";
import { availableKubernetesVersions, resolveRequestedVersion } from "./offers";

export type Plan = { change: false } | { change: true; request: UpgradeRequest };

const PoolWriteSchema = z.looseObject({
  name: z.string().optional(),
  orchestratorVersion: z.string().optional(),
  nodeImageVersion: z.string().optional(),
});

const ClusterPutSchema = z.looseObject({
  properties: z.looseObject({ kubernetesVersion: z.string().optional(), agentPoolProfiles: z.array(PoolWriteSchema).optional() }).optional(),
});

const AgentPoolPutSchema = z.looseObject({ properties: PoolWriteSchema.optional() });

function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ArmError(400, "InvalidRequestContent", `The request content was invalid: ${issue === undefined ? "" : `${formatPath(issue.path)}: ${issue.message}`}`);
}

interface PoolMove {
  pool: NodePool;
  version: string;
}

export function planClusterPut(view: ClusterView, body: unknown): Plan {
  const properties = parseBody(ClusterPutSchema, body).properties ?? {};
  const available = availableKubernetesVersions(view.region, view.now);
  const current = view.state.kubernetesVersion;
  const target = resolveRequestedVersion(nonEmpty(properties.kubernetesVersion) ?? current, current, available);
  const moves: PoolMove[] = [];
  (properties.agentPoolProfiles ?? []).forEach((profile, i) => {
    const pool = existingPool(view, profile.name, `properties.agentPoolProfiles[${i}].name`);
    checkNodeImageUnchanged(view, pool, profile.nodeImageVersion);
    const version = resolveRequestedVersion(nonEmpty(profile.orchestratorVersion) ?? pool.orchestratorVersion, pool.orchestratorVersion, available);
    if (version !== pool.orchestratorVersion) moves.push({ pool, version });
  });
  if (target === current && moves.length === 0) return { change: false };
  if (moves.length === 0) return { change: true, request: { type: "ControlPlaneOnly", kubernetesVersion: target, nodeImageVersions: {} } };
  return { change: true, request: fullUpgrade(view, target, moves) };
}

export function planAgentPoolPut(view: ClusterView, pool: NodePool, body: unknown): Plan {
  const properties = parseBody(AgentPoolPutSchema, body).properties ?? {};
  checkNodeImageUnchanged(view, pool, properties.nodeImageVersion);
  const available = availableKubernetesVersions(view.region, view.now);
  const version = resolveRequestedVersion(nonEmpty(properties.orchestratorVersion) ?? pool.orchestratorVersion, pool.orchestratorVersion, available);
  if (version === pool.orchestratorVersion) return { change: false };
  return { change: true, request: fullUpgrade(view, view.state.kubernetesVersion, [{ pool, version }]) };
}

/**
 * AKS's node image upgrade: the newest image of the pool's family the region offers when the upgrade
 * starts (the pool named at its own image, a floor; the fleet takes the newest then).
 */
export function planNodeImageUpgrade(pool: NodePool): UpgradeRequest {
  return { type: "NodeImageOnly", nodeImageVersions: { [pool.name]: pool.nodeImageVersion }, latestNodeImages: true };
}

/** A Full upgrade to `target` that moves exactly `moves`: every other pool must already be on `target`. */
function fullUpgrade(view: ClusterView, target: string, moves: PoolMove[]): UpgradeRequest {
  for (const { pool, version } of moves) {
    if (version === target) continue;
    if (compareDotted(version, target) > 0) {
      throw new ArmError(
        400,
        NODE_POOL_VERSION_ABOVE_CONTROL_PLANE,
        `Managed cluster '${view.name}': node pool '${pool.name}' would run Kubernetes ${version}, above the control plane's ${target}; a node pool may not be newer than the control plane.`,
      );
    }
    throw invalidParameter(
      `Managed cluster '${view.name}': node pool '${pool.name}' would move to ${version}, but the emulated cluster moves node pools only to the control plane's version (${target}).`,
      "orchestratorVersion",
    );
  }
  const left = view.state.nodePools.filter((pool) => pool.orchestratorVersion !== target && !moves.some((m) => m.pool.name === pool.name));
  if (left.length > 0) {
    throw invalidParameter(
      `Managed cluster '${view.name}': node pool(s) ${left.map((p) => `'${p.name}' (${p.orchestratorVersion})`).join(", ")} would stay behind on another version than ${target}; the emulated cluster upgrades all node pools together. Move them in the same request.`,
      "orchestratorVersion",
    );
  }
  // Each moved pool takes the newest image of its family when the upgrade starts (named at its own: a floor).
  const nodeImageVersions = Object.fromEntries(moves.map(({ pool }) => [pool.name, pool.nodeImageVersion]));
  return { type: "Full", kubernetesVersion: target, nodeImageVersions, latestNodeImages: true };
}

function existingPool(view: ClusterView, name: string | undefined, field: string): NodePool {
  const pool = name === undefined ? undefined : view.state.nodePools.find((p) => p.name.toLowerCase() === name.toLowerCase());
  if (pool === undefined) {
    throw invalidParameter(`Managed cluster '${view.name}' has no node pool '${name ?? ""}' (pools: ${view.state.nodePools.map((p) => p.name).join(", ")}); the emulator does not create node pools.`, field);
  }
  return pool;
}

/**
 * AKS accepts a written `nodeImageVersion` only to roll a pool back to a recently used image; images
 * move forward through `upgradeNodeImageVersion`. The simulated fleet never goes back, so any other
 * value than the current one is refused.
 */
function checkNodeImageUnchanged(view: ClusterView, pool: NodePool, requested: string | undefined): void {
  const wanted = nonEmpty(requested);
  if (wanted === undefined || wanted === pool.nodeImageVersion) return;
  if (imageFamily(wanted) === imageFamily(pool.nodeImageVersion) && compareImageVersions(wanted, pool.nodeImageVersion) < 0) {
    throw new ArmError(400, UPGRADE_DOWNGRADE_NOT_ALLOWED, `Managed cluster '${view.name}': rolling node pool '${pool.name}' back from node image ${pool.nodeImageVersion} to ${wanted} is not supported by the emulator.`);
  }
  throw invalidParameter(
    `Node pool '${pool.name}' runs ${pool.nodeImageVersion}; nodeImageVersion can only be set to roll back to a recently used image. Use upgradeNodeImageVersion to move to the newest image.`,
    "nodeImageVersion",
  );
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
