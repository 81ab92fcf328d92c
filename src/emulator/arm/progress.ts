/**
 * An upgrade as ARM shows it while it runs. AKS upgrades a cluster part by part: the control plane
 * first, then the node pools one at a time. The simulated fleet applies an upgrade whole when it ends,
 * so the emulator splits the operation's time into equal phases — the control plane (Full), then each
 * pool the upgrade changes, in declaration order (Full: version and image; NodeImageOnly: image) — and
 * shows each part moved once its phase is over. A GET in the middle of a Full upgrade shows some pools
 * on the new `currentOrchestratorVersion` and others still on the old one.
 *
 * An upgrade set to fail (`simulation.fail`) fails in its first phase and shows nothing moved, so what
 * a GET shows never goes back when the failure lands. An aborted upgrade keeps what its phases had
 * moved by then (`SimulatedFleet.abortOperation`).
 */
import { ownValue } from "../../model/values";
import type { NodePool } from "../../model/fleet";
import type { ClusterState, OperationRecord } from "../../backends/simulator/fleetState";
import type { ClusterVersions } from "../../aks/upgradeRules";

export interface Progress extends ClusterVersions {
  /** Pools whose phase is over (they show the upgrade's versions). */
  movedPools: string[];
  /** The pool being upgraded now, if a pool phase is running. */
  upgradingPool?: string;
}

/** Pools `op` changes, in declaration order. */
function changedPools(state: ClusterState, op: OperationRecord): NodePool[] {
  const { type, kubernetesVersion, nodeImageVersions } = op.request;
  if (type === "ControlPlaneOnly") return [];
  return state.nodePools.filter((pool) => {
    const image = ownValue(nodeImageVersions, pool.name);
    const newImage = image !== undefined && image !== pool.nodeImageVersion;
    return newImage || (type === "Full" && kubernetesVersion !== undefined && pool.orchestratorVersion !== kubernetesVersion);
  });
}

/** The versions the cluster shows at `now` while `op` (running on it) is under way. */
export function progressAt(state: ClusterState, op: OperationRecord, now: number): Progress {
  const shown: Progress = { kubernetesVersion: state.kubernetesVersion, nodePools: state.nodePools.map((p) => ({ ...p })), movedPools: [] };
  if (op.failWith !== undefined) return shown;
  const { type, kubernetesVersion: target, nodeImageVersions } = op.request;
  const pools = changedPools(state, op);
  const controlPlanePhase = type !== "NodeImageOnly" && target !== undefined ? 1 : 0;
  const phases = controlPlanePhase + pools.length;
  if (phases === 0) return shown;
  const phaseMs = (op.endAt - op.startAt) / phases;
  const over = phaseMs <= 0 ? phases : Math.min(phases, Math.max(0, Math.floor((now - op.startAt) / phaseMs)));
  if (controlPlanePhase === 1 && over >= 1) shown.kubernetesVersion = target as string;
  pools.forEach((pool, i) => {
    const phase = controlPlanePhase + i;
    if (over > phase) {
      const moved = shown.nodePools.find((p) => p.name === pool.name) as NodePool;
      if (type === "Full" && target !== undefined) moved.orchestratorVersion = target;
      moved.nodeImageVersion = ownValue(nodeImageVersions, pool.name) ?? moved.nodeImageVersion;
      shown.movedPools.push(pool.name);
    } else if (over === phase) {
      shown.upgradingPool = pool.name;
    }
  });
  return shown;
}
