/**
 * What a plan runs in: a simulated world built from what is known now (a scenario's fleet, a
 * simulated fleet's description and state, or a snapshot of a real backend), the run to plan, the
 * user controls known in advance, and when to start and stop looking. Failures are never part of a
 * world: the plan predicts the run as it goes when nothing fails and nobody acts.
 */
import type { FleetState } from "../simulation/simulatedWorld";
import type { PlanDefinition } from "../engine/plan";
import { isNodeChannel } from "../engine/autoUpgradeChannel";
import type { UpdateChoice } from "../model/autoUpgrade";
import type { RunState } from "../engine/runState";
import type { Fleet, SimulatedCluster } from "../model/fleet";
import type { SkipTarget } from "../model/skip";
import type { UpgradeType } from "../model/update";
import type { Finding } from "./types";

export interface PlanWorld {
  /** The clusters and regions, with every simulated failure removed. */
  fleet: Fleet;
  /** The clusters' current state when it differs from the description (a simulated fleet's state file). */
  restoredState?: FleetState;
  /** When the run is predicted to start (epoch ms). */
  start: number;
  /** Nothing is predicted past this instant. */
  horizon: number;
  run: Omit<PlanDefinition, "name"> & UpdateChoice;
  /** A run already created (the engine's state): the plan continues it instead of creating one. */
  resumeFrom?: RunState;
  /** Skips and approvals already decided (a run spec's `skip` and `approvals`), applied at the start. */
  controls: { skip: SkipTarget[]; approvals: string[] };
  /** Clusters that are stopped (`powerState` Stopped): they refuse every upgrade. */
  stopped: ReadonlySet<string>;
  /** What building the world left out or assumed, for the reader (PLAN_ASSUMPTION, ...). */
  notes: Finding[];
}

export const DAY_MS = 86_400_000;

/** The run's name inside the plan (it names nothing outside). */
export const PLAN_RUN_NAME = "plan";

/**
 * A cluster description without what would make its upgrade fail (`simulation.fail`, `healthy: false`).
 * Everything that shapes the timing stays: upgrade minutes, busy periods, the power state.
 */
export function withoutFailures(cluster: SimulatedCluster): SimulatedCluster {
  if (cluster.simulation === undefined) return cluster;
  const { fail: _fail, healthy: _healthy, ...simulation } = cluster.simulation;
  return { ...cluster, simulation };
}

export function hasSimulatedFailure(cluster: SimulatedCluster): boolean {
  return cluster.simulation?.fail !== undefined || cluster.simulation?.healthy === false;
}

/** Names of the clusters described as stopped. */
export function stoppedClusters(fleet: Fleet): Set<string> {
  return new Set(fleet.members.filter((m) => m.simulation?.powerState === "Stopped").map((m) => m.name));
}

/** The kind of upgrade the run makes, before its update is generated too (an `autoUpgradeProfile`'s channel says). */
export function plannedUpgradeType(run: UpdateChoice): UpgradeType {
  if (run.managedClusterUpdate !== undefined) return run.managedClusterUpdate.upgrade.type;
  return isNodeChannel(run.autoUpgradeProfile.channel) ? "NodeImageOnly" : "Full";
}
