/**
 * The cluster backend a server-side update run uses: the simulated fleet the managedClusters routes
 * show (so a GET of a cluster mid-run shows the run's upgrade), plus what ARM adds on top of it
 * (`ArmClusters`, from the ARM part): a cluster being deleted or canceling an aborted upgrade is busy
 * (the engine waits, Pending), a deleted one is gone (`NotFound`). Fleet members map to clusters by
 * their `clusterResourceId`'s last segment, as Fleet does.
 *
 * Fleet's run keeps its own instants — when its engine started a member and saw it end — so the
 * operation log's times (docs/rules.md §20, for a client on ARM) are not handed on.
 */
import { BackendError, OPERATION_NOT_ALLOWED, type ClusterBackend, type ClusterInfo, type MemberRef, type OperationState, type RegionOffer, type StartedOperation, type UpgradeRequest } from "../../engine/backend";
import { NOT_FOUND } from "../../aks/errorCodes";
import type { ArmClusters } from "../ports";

export class EmulatedClusterBackend implements ClusterBackend {
  constructor(private readonly clusters: ArmClusters) {}

  /** The emulated cluster a member names, or `NotFound` (never declared, or deleted through ARM). */
  private cluster(member: MemberRef): MemberRef {
    const name = member.clusterResourceId?.split("/").at(-1) ?? member.name;
    const found = this.clusters.cluster(name);
    if (found === undefined) {
      throw new BackendError(NOT_FOUND, `The managed cluster '${name}' of fleet member '${member.name}' was not found.`);
    }
    return { name: found.name };
  }

  async getCluster(member: MemberRef): Promise<ClusterInfo> {
    const ref = this.cluster(member);
    const info = await this.clusters.sim.getCluster(ref);
    const other = this.clusters.lifecycleOperation(ref.name);
    if (other === undefined || info.activeOperation !== undefined) return info;
    return { ...info, activeOperation: { expectedEndAt: other.endAt } };
  }

  getRegionOffer(region: string): Promise<RegionOffer> {
    return this.clusters.sim.getRegionOffer(region);
  }

  async startUpgrade(member: MemberRef, request: UpgradeRequest): Promise<StartedOperation> {
    const ref = this.cluster(member);
    const busy = await this.clusters.lifecycleOperationShown(ref.name);
    if (busy !== undefined) {
      throw new BackendError(OPERATION_NOT_ALLOWED, `an ARM ${busy} operation is in progress on managed cluster '${ref.name}'`);
    }
    const { startedAt: _recorded, ...started } = await this.clusters.sim.startUpgrade(ref, request);
    return started;
  }

  async getOperation(member: MemberRef, operationId: string): Promise<OperationState> {
    const { startedAt: _start, endedAt: _end, ...state } = await this.clusters.sim.getOperation(this.cluster(member), operationId);
    return state;
  }

  async findStartedUpgrade(member: MemberRef, request: UpgradeRequest, since: number): Promise<StartedOperation | undefined> {
    const found = await this.clusters.sim.findStartedUpgrade(this.cluster(member), request, since);
    if (found === undefined) return undefined;
    const { startedAt: _recorded, ...started } = found;
    return started;
  }
}
