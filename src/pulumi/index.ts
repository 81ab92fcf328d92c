export { UpdateStrategy, type UpdateStrategyArgs, type UpdateStageArgs, type UpdateGroupArgs } from "./updateStrategy";
export { UpdateRun, type UpdateRunArgs, type BackendArgs, type SimulatorBackendArgs, type MemberArgs } from "./updateRun";
