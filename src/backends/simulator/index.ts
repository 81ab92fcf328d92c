/** The simulated fleet: the embedded default backend (docs/rules.md §7). */
export * from "../../aks/errorCodes";
export { FLEET_STATE_FORMAT, FleetStateSchema, type ClusterState, type FleetState, type OperationRecord } from "./fleetState";
export { type ClusterSnapshot, type FleetSnapshot, type OperationLogEntry } from "./snapshot";
export {
  DEFAULT_UPGRADE_MINUTES,
  SimulatedFleet,
  type FleetOperationLogEntry,
  type SimulatedFleetOptions,
  type StartUpgradeCall,
} from "./simulatedFleet";
export { StateFileError, loadSimulatedFleet, readFleetState, resetFleetState, saveSimulatedFleet, writeFleetState } from "./stateFile";
export { DEFAULT_TIME_SCALE, openFileBackedFleet, readFleetDescription, resetFileBackedFleet, stateFilePath, type FileBackedFleet, type FileBackedFleetOptions } from "./fileBacked";
