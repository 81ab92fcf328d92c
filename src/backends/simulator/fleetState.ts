/**
 * The mutable part of the simulated fleet: what each cluster runs now and what was done to it. This is
 * exactly what the state file holds (see `stateFile.ts`); everything else — regions, maintenance
 * windows, `simulation` settings — always comes from the fleet description.
 */
import { z } from "zod";
import { KubernetesVersionSchema } from "../../model/values";
import { NodePoolSchema, type SimulatedCluster } from "../../model/fleet";
import { UpgradeTypeSchema } from "../../model/update";

const BackendErrorBodySchema = z.strictObject({ code: z.string(), message: z.string() });

/** One upgrade the simulator accepted, from its start to its end. Instants are epoch ms. */
export const OperationRecordSchema = z.strictObject({
  operationId: z.string(),
  /** The request as accepted; applied to the cluster when the operation succeeds. */
  request: z.strictObject({
    type: UpgradeTypeSchema,
    kubernetesVersion: KubernetesVersionSchema.optional(),
    nodeImageVersions: z.record(z.string(), z.string()),
  }),
  startAt: z.number().int(),
  endAt: z.number().int(),
  /**
   * Decided when the operation starts (from `simulation.fail`), so that an in-flight operation
   * restored from a state file ends the way it was going to, whatever the description says now.
   */
  failWith: BackendErrorBodySchema.optional(),
  /** Set when the operation has ended; `Canceled` when it was aborted (ARM's abort, see `abortOperation`). */
  result: z.enum(["Succeeded", "Failed", "Canceled"]).optional(),
});
export type OperationRecord = z.infer<typeof OperationRecordSchema>;

export const ClusterStateSchema = z.strictObject({
  /** Control plane version. */
  kubernetesVersion: KubernetesVersionSchema,
  nodePools: z.array(NodePoolSchema),
  /** Every accepted upgrade, oldest first. */
  operations: z.array(OperationRecordSchema),
  /** Number of the next operation id (`op-<cluster>-<n>`), kept so ids never repeat across runs. */
  nextOperationNumber: z.number().int().positive(),
});
export type ClusterState = z.infer<typeof ClusterStateSchema>;

/** Bumped when the shape changes incompatibly, so an old file is refused rather than misread. */
export const FLEET_STATE_FORMAT = 1;

export const FleetStateSchema = z.strictObject({
  format: z.literal(FLEET_STATE_FORMAT),
  /** Where simulated time stands against real time, for fleets driven in real time (`fileBacked.ts`). */
  clock: z.strictObject({ realOrigin: z.number(), simulatedOrigin: z.number(), timeScale: z.number().positive() }).optional(),
  /** Cluster name → state, in fleet declaration order. */
  clusters: z.record(z.string(), ClusterStateSchema),
});
export type FleetState = z.infer<typeof FleetStateSchema>;

/** A cluster as the fleet description declares it, before anything was done to it. */
export function initialClusterState(cluster: SimulatedCluster): ClusterState {
  return {
    kubernetesVersion: cluster.kubernetesVersion,
    nodePools: cluster.nodePools.map((pool) => ({ ...pool })),
    operations: [],
    nextOperationNumber: 1,
  };
}

/** The operation still running on the cluster, if any (at most one: the busy rule sees to that). */
export function runningOperation(state: ClusterState): OperationRecord | undefined {
  return state.operations.find((op) => op.result === undefined);
}
