/**
 * The cluster backend a server-side update run uses: the simulated fleet the managedClusters routes
 * show (so a GET of a cluster mid-run shows the run's upgrade), plus what ARM adds on top of it
 * (`lifecycle.ts`): a cluster being deleted or canceling an aborted upgrade is busy (the engine waits,
 * Pending), a deleted one is gone (`NotFound`). Fleet members map to clusters by their
 * `clusterResourceId`'s last segment, as Fleet does.
 */
import { BackendError, OPERATION_NOT_ALLOWED, type ClusterBackend, type ClusterInfo, type MemberRef, type OperationState, type RegionOffer, type StartedOperation, type UpgradeRequest } from "../../engine/backend";
import { NOT_FOUND } from "../../backends/simulator/errorCodes";
import { findMember, isDeleted, readCluster, type ViewSource } from "../arm/clusterView";

export class EmulatedClusterBackend implements ClusterBackend {
  constructor(private readonly source: ViewSource) {}

  /** The emulated cluster a member names, or `NotFound` (never declared, or deleted through ARM). */
  private cluster(member: MemberRef): MemberRef {
    const name = member.clusterResourceId?.split("/").at(-1) ?? member.name;
    const found = findMember(this.source.fleet, name);
    if (found === undefined || isDeleted(this.source, found.name)) {
      throw new BackendError(NOT_FOUND, `The managed cluster '${name}' of fleet member '${member.name}' was not found.`);
    }
    return { name: found.name };
  }

  async getCluster(member: MemberRef): Promise<ClusterInfo> {
    const ref = this.cluster(member);
    const info = await this.source.sim.getCluster(ref);
    const other = this.lifecycleOperation(ref.name);
    if (other === undefined || info.activeOperation !== undefined) return info;
    return { ...info, activeOperation: { expectedEndAt: other.endAt } };
  }

  getRegionOffer(region: string): Promise<RegionOffer> {
    return this.source.sim.getRegionOffer(region);
  }

  async startUpgrade(member: MemberRef, request: UpgradeRequest): Promise<StartedOperation> {
    const ref = this.cluster(member);
    const description = findMember(this.source.fleet, ref.name);
    if (description !== undefined) {
      const view = await readCluster(this.source, description);
      if (view.deleting !== undefined || view.canceling !== undefined || view.deletingPools.size > 0) {
        throw new BackendError(OPERATION_NOT_ALLOWED, `an ARM ${view.deleting !== undefined || view.deletingPools.size > 0 ? "delete" : "abort"} operation is in progress on managed cluster '${ref.name}'`);
      }
    }
    return this.source.sim.startUpgrade(ref, request);
  }

  getOperation(member: MemberRef, operationId: string): Promise<OperationState> {
    return this.source.sim.getOperation(this.cluster(member), operationId);
  }

  findStartedUpgrade(member: MemberRef, request: UpgradeRequest, since: number): Promise<StartedOperation | undefined> {
    return this.source.sim.findStartedUpgrade(this.cluster(member), request, since);
  }

  /** A deletion or abort cancellation under way on the cluster (ARM busy), if any. */
  private lifecycleOperation(cluster: string): { endAt: number } | undefined {
    const now = this.source.clock.now();
    const running = [this.source.lifecycle.deletion(cluster), this.source.lifecycle.abort(cluster), ...this.source.lifecycle.poolDeletions(cluster)];
    return running.find((op) => op !== undefined && now < op.endAt);
  }
}
