export { UpdateStrategy, type UpdateStrategyArgs, type UpdateStageArgs, type UpdateGroupArgs, type GateArgs, type GatedArgs, type MemberSelectorArgs, type ScheduledStartConfigurationArgs } from "./updateStrategy";
export {
  UpdateRun,
  UPDATE_RUN_SECRET_OUTPUTS,
  type UpdateRunArgs,
  type BackendArgs,
  type SimulatorBackendArgs,
  type AzureBackendArgs,
  type MemberArgs,
  type HealthCheckArgs,
  type ManagedClusterUpdateArgs,
  type ManagedClusterUpgradeSpecArgs,
  type NodeImageSelectionArgs,
  type NodeImageVersionArgs,
  type WebhookArgs,
} from "./updateRun";
export {
  asExactStatus,
  type UpdateRunStatusOutput,
  type UpdateStageStatusOutput,
  type UpdateGroupStatusOutput,
  type MemberUpdateStatusOutput,
  type UpdateStatusOutput,
  type WaitStatusOutput,
  type ErrorDetailOutput,
} from "./statusOutput";
