/**
 * `UpdateStrategy`: a reusable, validated update sequence in Azure's `UpdateRunStrategy` shape (the
 * same shape `@pulumi/azure-native`'s `containerservice.FleetUpdateStrategy` takes).
 */
import * as pulumi from "@pulumi/pulumi";
import type { UpdateRunStrategy } from "../model/strategy";
import { updateStrategyProvider } from "./providers";
import type { AzureFleetBackendArgs } from "./backendArgs";

/** A gate (Azure Fleet's gate configuration shape). */
export interface GateArgs {
  /** Shown in the status; default "Approval" (or "Scheduled start"). */
  displayName?: pulumi.Input<string>;
  /**
   * "Approval": a person approves it by listing its id in `UpdateRun.approvals`. "ScheduledStart"
   * (before-gates only): it opens at the next occurrence of `scheduledStartConfiguration`'s weekday
   * and time; an approval opens it early (docs/rules.md §17).
   */
  type: pulumi.Input<"Approval" | "ScheduledStart">;
  /** ScheduledStart only: when the gate opens. */
  scheduledStartConfiguration?: pulumi.Input<ScheduledStartConfigurationArgs>;
}

/** When a ScheduledStart gate opens, e.g. production on Tuesday at 09:00 +01:00. */
export interface ScheduledStartConfigurationArgs {
  /** Monday to Sunday. */
  startDay: pulumi.Input<string>;
  /** `HH:mm`, local to `utcOffset`. */
  startTime: pulumi.Input<string>;
  /** `+HH:mm` or `-HH:mm`, from -14:00 to +14:00. */
  utcOffset: pulumi.Input<string>;
}

/** Approval gates and failure tolerance: what stages and groups both take. */
export interface GatedArgs {
  /** Must all be approved before the item starts. */
  beforeGates?: pulumi.Input<pulumi.Input<GateArgs>[]>;
  /** Must all be approved before the item counts as done (a stage's run beside its wait). */
  afterGates?: pulumi.Input<pulumi.Input<GateArgs>[]>;
  /** Failures tolerated before the item fails: "N" or "P%" of its members (rounded up). Default: none for a group; no extra limit for a stage. */
  maxAllowedFailures?: pulumi.Input<string>;
  /**
   * Choose members by label (docs/rules.md §16): on a group, instead of matching members' `group`; on
   * a stage, a filter before its groups choose. Not yet sent to Fleet Manager.
   */
  memberSelector?: pulumi.Input<MemberSelectorArgs>;
}

/** A Kubernetes label selector over the members' `labels`. */
export interface MemberSelectorArgs {
  /** E.g. `env=prod,ring in (1,2),!legacy`; at most 512 characters. */
  byLabel: pulumi.Input<string>;
}

/** One group of a stage: members updated one at a time (or `maxConcurrency` at a time). */
export interface UpdateGroupArgs extends GatedArgs {
  /** Group name: lowercase letters, digits and '-', 1–50 characters, unique in the strategy. */
  name: pulumi.Input<string>;
  /** Members of the group updated at once: "N" or "P%" (rounded down, at least 1). Default "1". */
  maxConcurrency?: pulumi.Input<string>;
}

/**
 * One stage: its groups run in parallel; stages run in order. Every `@pulumi/azure-native`
 * `containerservice.UpdateStageArgs` is one of these (test/pulumi/azureNativeTypes.test.ts).
 */
export interface UpdateStageArgs extends GatedArgs {
  /** Stage name, unique in the strategy. */
  name: pulumi.Input<string>;
  /**
   * 1 to 50 groups: required. Optional in the type only because azure-native's `UpdateStageArgs`
   * declares it so; a stage without groups fails the provider's check (`stages[i].groups: is required`).
   */
  groups?: pulumi.Input<pulumi.Input<UpdateGroupArgs>[] | undefined>;
  /** Seconds to wait after the stage ends before the next one starts. Default 0. */
  afterStageWaitInSeconds?: pulumi.Input<number | undefined>;
  /** Cap on members running at once over the whole stage: "N" or "P%". Default: no cap. */
  maxConcurrency?: pulumi.Input<string>;
}

/** Azure's `UpdateRunStrategy`, as Pulumi inputs: azure-native's `containerservice.UpdateRunStrategyArgs` fits. */
export interface UpdateStrategyArgs {
  /** The stages, in order. */
  stages: pulumi.Input<pulumi.Input<UpdateStageArgs>[]>;
}

/**
 * Issue 12: keep the strategy in Fleet Manager too, as `fleets/{f}/updateStrategies/{resource name}`
 * (created, updated with its eTag, deleted on destroy). Credentials and `apiVersion` as `UpdateRun`'s
 * azureFleet: a limit the api-version lacks (`maxConcurrency` before 2026-06-01, `maxAllowedFailures`
 * before 2026-06-02-preview) is refused at preview; a change of `apiVersion` alone writes the same
 * fleet strategy again at the new version (never deleted and created again).
 */
export interface UpdateStrategyResourceArgs extends UpdateStrategyArgs {
  backend?: pulumi.Input<{ azureFleet: pulumi.Input<AzureFleetBackendArgs> }>;
}

export class UpdateStrategy extends pulumi.dynamic.Resource {
  /** The stages as given. */
  declare readonly stages: pulumi.Output<UpdateRunStrategy["stages"]>;
  /** The validated strategy, normalized: pass it to `UpdateRun`'s `strategy`. */
  declare readonly strategy: pulumi.Output<UpdateRunStrategy>;

  /** Issue 12, with `backend.azureFleet`: the ARM id of the fleet's update strategy. */
  declare readonly updateStrategyId: pulumi.Output<string | undefined>;

  constructor(name: string, args: UpdateStrategyResourceArgs, opts?: pulumi.CustomResourceOptions) {
    const fleet = args.backend === undefined ? {} : { backend: args.backend, strategyName: name, updateStrategyId: undefined, eTag: undefined };
    super(updateStrategyProvider, name, { stages: args.stages, strategy: undefined, ...fleet }, opts);
  }
}
