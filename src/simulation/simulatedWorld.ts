/**
 * The simulated fleet as a world to predict a run in (`src/plan/predict.ts`): a fleet description on a
 * virtual clock, nothing written anywhere. Only the drivers and the simulation reach the backends
 * (`.dependency-cruiser.cjs`): the plan gets its world here. The AKS rules the simulated fleet enforces
 * are here too, so the plan's findings judge a request by the same rules, until they move to a room of
 * their own below the backends (docs/architecture.md, "Working notes" 2).
 */
// The fleet's own modules, not the simulator's index (issue 13: start-up).
import { SimulatedFleet } from "../backends/simulator/simulatedFleet";
import type { FleetState } from "../backends/simulator/fleetState";
import type { Clock } from "../engine/clock";
import type { Fleet } from "../model/fleet";

export type { FleetState } from "../backends/simulator/fleetState";
export type { ClusterSnapshot } from "../backends/simulator/snapshot";
export { checkUpgradeRequest } from "../backends/simulator/upgradeRules";
export { NODE_POOL_VERSION_ABOVE_CONTROL_PLANE, UPGRADE_DOWNGRADE_NOT_ALLOWED, UPGRADE_MINOR_VERSION_SKIP_NOT_ALLOWED } from "../backends/simulator/errorCodes";

/** `fleet` on `clock`, its clusters as `restoredState` has them (a simulated fleet's state file, or where an earlier prediction left them). */
export function simulatedWorld(fleet: Fleet, clock: Clock, restoredState?: FleetState): SimulatedFleet {
  return new SimulatedFleet(fleet, clock, restoredState === undefined ? {} : { restoredState });
}
