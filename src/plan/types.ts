/**
 * What `fleet-update plan` predicts, as plain JSON (`--json`, the Pulumi `plan` output). Instants are
 * ISO 8601 UTC strings; a value the plan cannot give (a member not reached before the horizon) is
 * absent, not null, as in the status (docs/rules.md §5).
 */
import type { UpdateState } from "../model/status";
import type { ManagedClusterUpdate } from "../model/update";

/** docs/rules.md §3.3's candidate classes, by name: window open now, opens within 4 h, no window, closed. */
export type PriorityClassName = "open" | "opensSoon" | "noWindow" | "closed";

/** A stretch of time a member is predicted to wait, with the engine's own reason. */
export interface PendingPeriod {
  from: string;
  /** Absent: still Pending at the plan's horizon. */
  until?: string;
  reason: string;
}

export interface PlannedMember {
  name: string;
  stage: string;
  group: string;
  /** The member's docs/rules.md §3.3 class when its group begins picking members (docs/behaviour.md "Plan"). */
  priorityClass: PriorityClassName;
  /** When its upgrade is predicted to begin; absent when it never starts before the horizon. */
  predictedStart?: string;
  /** When it is predicted to finish (Completed, Skipped, Failed); absent when it does not before the horizon. */
  predictedEnd?: string;
  /** The member's state at the horizon. */
  predictedState: UpdateState;
  /** The engine's last message for the member (why it was skipped, what it waits for, what it upgrades). */
  message?: string;
  pending: PendingPeriod[];
}

export interface PlannedGroup {
  name: string;
  predictedStart?: string;
  predictedEnd?: string;
  predictedState: UpdateState;
}

/** Issue 31: a stage's pre-check or soak as predicted: when it measures, and how it ends. */
export interface PlannedAnalysis {
  kind: "preCheck" | "soak";
  template: string;
  predictedStart: string;
  /** When its last measurement is predicted; absent when it does not end before the horizon. */
  predictedEnd?: string;
  predictedPhase: "Running" | "Successful" | "Failed" | "Inconclusive" | "Error";
  measurements: number;
}

export interface PlannedStage {
  name: string;
  predictedStart?: string;
  /** End of the stage, its after-stage wait and its soak analyses included. */
  predictedEnd?: string;
  predictedState: UpdateState;
  afterStageWaitInSeconds: number;
  /** Issue 31: its pre-checks and soak analyses (a soak may hold the stage past its wait). */
  analyses?: PlannedAnalysis[];
  groups: PlannedGroup[];
}

export type FindingSeverity = "error" | "warning" | "info";

export type FindingCode =
  | "UPGRADE_PATH_MINOR_SKIPPED"
  | "DOWNGRADE"
  | "POOL_ABOVE_CONTROL_PLANE"
  | "VERSION_NOT_IN_REGION"
  | "NODE_IMAGE_NOT_IN_REGION"
  | "MEMBER_IN_NO_STAGE"
  | "EMPTY_GROUP"
  | "CLUSTER_STOPPED"
  | "CLUSTER_AUTO_UPGRADES"
  | "OPERATION_IN_FLIGHT"
  | "NODE_IMAGE_STALE"
  | "GATE_AWAITS_APPROVAL"
  | "NOT_FINISHED_BY_HORIZON"
  | "NO_UPGRADE_VERSION"
  | "ANALYSIS_FAILS"
  | "PLAN_ASSUMPTION";

/** One pre-flight finding. `code` is stable (scripts test it); `message` is for people. */
export interface Finding {
  severity: FindingSeverity;
  code: FindingCode;
  member?: string;
  region?: string;
  /** EMPTY_GROUP: the group no member belongs to. */
  group?: string;
  message: string;
}

export interface Plan {
  /** When the run is predicted to start (the scenario's start, or now). */
  plannedFrom: string;
  /** The plan looks this far; later steps are not predicted. */
  horizon: string;
  run: { predictedStart?: string; predictedEnd?: string; predictedState: UpdateState };
  stages: PlannedStage[];
  members: PlannedMember[];
  /** Consistent picks or Custom versions, as the run would record them. */
  selectedNodeImageVersions: string[];
  /** The run's update: as given, or as its `autoUpgradeProfile` generates it at the planned start (docs/rules.md §18). */
  managedClusterUpdate?: ManagedClusterUpdate;
  findings: Finding[];
}

/** How `plan` reads a run spec's world (`planSource.ts`, `planAzure.ts`). */
export interface PlanSourceOptions {
  /** Paths in a run spec's backend are relative to this (the spec file's directory). */
  baseDir: string;
  /** Real time now (epoch ms). */
  now: number;
  horizonDays?: number;
  /** Assumed minutes per upgrade on a real backend. */
  upgradeMinutes?: number;
}
