/**
 * The simulated fleet as a world to predict a run in (`src/plan/predict.ts`): a fleet description on a
 * virtual clock, nothing written anywhere. Only the drivers and the simulation reach the backends
 * (`.dependency-cruiser.cjs`): the plan gets its world here.
 */
// The fleet's own modules, not the simulator's index (issue 13: start-up).
import { SimulatedFleet } from "../backends/simulator/simulatedFleet";
import type { FleetState } from "../backends/simulator/fleetState";
import type { Clock } from "../engine/clock";
import type { Fleet } from "../model/fleet";

export type { FleetState } from "../backends/simulator/fleetState";
export type { ClusterSnapshot } from "../backends/simulator/snapshot";

/** `fleet` on `clock`, its clusters as `restoredState` has them (a simulated fleet's state file, or where an earlier prediction left them). */
export function simulatedWorld(fleet: Fleet, clock: Clock, restoredState?: FleetState): SimulatedFleet {
  return new SimulatedFleet(fleet, clock, restoredState === undefined ? {} : { restoredState });
}
