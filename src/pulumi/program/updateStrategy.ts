/**
 * `UpdateStrategy`: a reusable, validated update sequence in Azure's `UpdateRunStrategy` shape (the
 * same shape `@pulumi/azure-native`'s `containerservice.FleetUpdateStrategy` takes).
 */
import * as pulumi from "@pulumi/pulumi";
import type { UpdateRunStrategy } from "../../model/strategy";
import { updateStrategyProvider } from "./providers";
import type { AzureFleetBackendArgs } from "./backendArgs";

/** A gate (Azure Fleet's gate configuration): an approval, or a scheduled start. */
export interface GateArgs {
  /** Shown in the status and the report; default "Approval" (or "Scheduled start"). */
  displayName?: pulumi.Input<string>;
  /**
   * "Approval": opened by listing its id in an `UpdateRun`'s `approvals`. "ScheduledStart" (before-gates
   * only): opens at the next occurrence of `scheduledStartConfiguration`'s weekday and time; an approval
   * opens it early.
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

/** A Kubernetes label selector over the members' `labels` (docs/rules.md §16). */
export interface MemberSelectorArgs {
  /** A label selector such as `env=prod,ring in (1,2),!legacy`; at most 512 characters. */
  byLabel: pulumi.Input<string>;
}

/** One group of a stage: its members are updated one at a time, or `maxConcurrency` at a time. */
export interface UpdateGroupArgs {
  /** Group name: lowercase letters, digits and '-', 1–50 characters, unique in the strategy. */
  name: pulumi.Input<string>;
  /** Members of the group updated at once: "N" or "P%" (rounded down, at least 1). Default "1". */
  maxConcurrency?: pulumi.Input<string>;
  /** Gates that must all open before the group starts. */
  beforeGates?: pulumi.Input<pulumi.Input<GateArgs>[]>;
  /** Gates that must all open before the group counts as done. */
  afterGates?: pulumi.Input<pulumi.Input<GateArgs>[]>;
  /** Failures tolerated in the group before it fails: "N" or "P%" of its members (rounded up). Default: none. */
  maxAllowedFailures?: pulumi.Input<string>;
  /** Chooses the group's members by label instead of by their `group`. */
  memberSelector?: pulumi.Input<MemberSelectorArgs>;
}

/** One stage: its groups run in parallel; stages run in order. */
export interface UpdateStageArgs {
  /** Stage name, unique in the strategy. */
  name: pulumi.Input<string>;
  // Optional in the type only because azure-native's `UpdateStageArgs` declares it so; a stage
  // without groups (and without a `memberSelector`) fails the provider's check.
  /**
   * 1 to 50 groups, run in parallel. A stage with a `memberSelector` and no groups has one implicit group of
   * every member it selects.
   */
  groups?: pulumi.Input<pulumi.Input<UpdateGroupArgs>[] | undefined>;
  /** Seconds to wait after the stage ends before the next one starts; default 0. */
  afterStageWaitInSeconds?: pulumi.Input<number | undefined>;
  /** Cap on members updated at once over the whole stage: "N" or "P%". Default: no cap. */
  maxConcurrency?: pulumi.Input<string>;
  /** Gates that must all open before the stage starts. */
  beforeGates?: pulumi.Input<pulumi.Input<GateArgs>[]>;
  /** Gates that must all open before the stage counts as done (beside its wait). */
  afterGates?: pulumi.Input<pulumi.Input<GateArgs>[]>;
  /**
   * Failures tolerated in the stage before it fails: "N" or "P%" of its members (rounded up). Default: no
   * extra limit.
   */
  maxAllowedFailures?: pulumi.Input<string>;
  /** Filters the members before the stage's groups choose (by label). */
  memberSelector?: pulumi.Input<MemberSelectorArgs>;
}

/** What stages and groups both take: gates, failure tolerance, members chosen by label. */
export type GatedArgs = Pick<UpdateGroupArgs, "beforeGates" | "afterGates" | "maxAllowedFailures" | "memberSelector">;

/** Azure's `UpdateRunStrategy`: the stages, in order. */
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
  /** Keep the strategy in Fleet Manager too (created, updated with its eTag, deleted on destroy). */
  backend?: pulumi.Input<{ azureFleet: pulumi.Input<AzureFleetBackendArgs> }>;
}

/**
 * A reusable, validated update sequence in Azure's `UpdateRunStrategy` shape: pass its `strategy` output to
 * an `UpdateRun`. With `backend.azureFleet` it is also kept in Fleet Manager as the fleet's update strategy
 * named after the resource.
 */
export class UpdateStrategy extends pulumi.dynamic.Resource {
  /** The stages, in order. */
  declare readonly stages: pulumi.Output<UpdateRunStrategy["stages"]>;
  /** The validated strategy, normalized: pass it to an `UpdateRun`'s `strategy`. */
  declare readonly strategy: pulumi.Output<UpdateRunStrategy>;

  /**
   * With `backend.azureFleet`: the ARM id of the fleet's update strategy; pass it to an `UpdateRun`'s
   * `updateStrategyId`.
   */
  declare readonly updateStrategyId: pulumi.Output<string | undefined>;
  /** With `backend.azureFleet`: the name of the fleet's update strategy, the resource's name. */
  declare readonly strategyName: pulumi.Output<string | undefined>;
  /**
   * With `backend.azureFleet`: the fleet strategy's eTag as last written or read; an update writes only over
   * that version.
   */
  declare readonly eTag: pulumi.Output<string | undefined>;

  constructor(name: string, args: UpdateStrategyResourceArgs, opts?: pulumi.CustomResourceOptions) {
    const fleet = args.backend === undefined ? {} : { backend: args.backend, strategyName: name, updateStrategyId: undefined, eTag: undefined };
    super(updateStrategyProvider, name, { stages: args.stages, strategy: undefined, ...fleet }, opts);
  }
}
