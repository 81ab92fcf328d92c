/**
 * A simulated cluster as ARM shows it: the simulated fleet's state (settled at the instant of the
 * request) plus what ARM derives from it — the upgrade running now, a failed last upgrade, an
 * operation started outside the fleet. Read-only: every change goes through `SimulatedFleet`.
 */
import type { Clock } from "../../../engine/clock";
import type { Fleet, Region, SimulatedCluster } from "../../../model/fleet";
import type { SimulatedFleet } from "../../simulator";
import { runningOperation, type ClusterState, type OperationRecord } from "../../simulator/fleetState";
import { armCall } from "./armErrors";

export interface ClusterView {
  name: string;
  description: SimulatedCluster;
  region: Region;
  /** The cluster's region, ARM's `location`. */
  location: string;
  state: ClusterState;
  /** The upgrade running now. */
  running?: OperationRecord;
  /** The latest upgrade, when it failed (the cluster stays `Failed` until the next one). */
  failed?: OperationRecord;
  /** An operation started outside the fleet (`simulation.busyUntil`) is running. */
  busyElsewhere: boolean;
  /** Simulated instant the view was taken at. */
  now: number;
}

/** The member a request names; ARM resource names are case-insensitive. */
export function findMember(fleet: Fleet, name: string): SimulatedCluster | undefined {
  const wanted = name.toLowerCase();
  return fleet.members.find((m) => m.name.toLowerCase() === wanted);
}

export async function readCluster(sim: SimulatedFleet, fleet: Fleet, clock: Clock, description: SimulatedCluster): Promise<ClusterView> {
  const name = description.name;
  // getCluster settles the operations that have ended, so toState() below is current.
  const info = await armCall(() => sim.getCluster({ name }));
  const state = sim.toState().clusters[name];
  const region = fleet.regions[description.region];
  if (state === undefined || region === undefined) throw new Error(`simulated fleet has no state for '${name}'`);
  const running = runningOperation(state);
  const last = state.operations.at(-1);
  const view: ClusterView = {
    name,
    description,
    region,
    location: description.region,
    state,
    busyElsewhere: info.activeOperation !== undefined && info.activeOperation.operationId === undefined,
    now: clock.now(),
  };
  if (running !== undefined) view.running = running;
  else if (last?.result === "Failed") view.failed = last;
  return view;
}

/** Whether an operation, running or ended, touches `pool` (Full and NodeImageOnly do; ControlPlaneOnly never). */
export function touchesPool(op: OperationRecord, pool: string): boolean {
  if (op.request.type === "Full") return true;
  if (op.request.type === "NodeImageOnly") return Object.hasOwn(op.request.nodeImageVersions, pool);
  return false;
}

export function isBusy(view: ClusterView): boolean {
  return view.running !== undefined || view.busyElsewhere;
}
