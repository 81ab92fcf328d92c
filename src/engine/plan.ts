/**
 * Initialization: turn a validated run spec into the run's initial state. The strategy and the
 * member list are snapshotted here (docs/rules.md §1); members whose group is in no stage are left out and
 * listed (docs/rules.md §2). Validation itself lives in `src/model/`.
 */
import { crossValidateRun, type ExcludedMember } from "../model/run";
import { ValidationError } from "../model/issues";
import { DEFAULT_GROUP_NAME, DEFAULT_STAGE_NAME, type UpdateRunStrategy } from "../model/strategy";
import type { UpdateChoice } from "../model/autoUpgrade";
import type { HealthCheck } from "../model/healthCheck";
import type { Analysis } from "../model/analysis";
import type { Labels } from "../model/member";
import { resolveConcurrency } from "./concurrency";
import { resolveTolerance } from "./tolerance";
import { gateRunState, groupRunState, memberRunState, runState, stageRunState, type Controlled, type GateRunState, type MemberRunState, type RunAnalysis, type RunState, type StageRunState } from "./runState";
import { gateId, type Gate } from "../model/strategy";

export type PlanInput = PlanDefinition & UpdateChoice;

/** A run's name, members and strategy; with its update (`UpdateChoice`), a `PlanInput`. */
export interface PlanDefinition {
  /** The run's name (used in events). */
  name: string;
  members: ReadonlyArray<{ name: string; group?: string; labels?: Readonly<Record<string, string>>; clusterResourceId?: string; healthCheck?: HealthCheck }>;
  /** Undefined: the default strategy, one stage and one group holding every member. */
  strategy?: UpdateRunStrategy;
  /** Issue 31: health analysis (docs/rules.md §19); kept in memory only (`RunAnalysis`). */
  analysis?: Analysis;
}

export const DEFAULT_GROUP_CONCURRENCY = 1;

/** The strategy a run without one uses (docs/rules.md §1). */
export function defaultStrategy(): UpdateRunStrategy {
  return { stages: [{ name: DEFAULT_STAGE_NAME, groups: [{ name: DEFAULT_GROUP_NAME }] }] };
}

export function planRun(input: PlanInput): RunState {
  const { issues, excluded, assignment } = crossValidateRun({ members: input.members, strategy: input.strategy, analysis: input.analysis });
  if (issues.length > 0) throw new ValidationError(issues);

  const strategy = structuredClone(input.strategy ?? defaultStrategy());
  // Which members each group holds is decided once, in `assignMembers` (by name or by label, docs/rules.md §16).
  const byName = new Map(input.members.map((m) => [m.name, m]));
  // Every group of every stage has its list (the default strategy's one group too: `assignMembers`).
  const membersOf = (s: number, g: number): MemberRunState[] => assignment.groups[s]![g]!.map((name) => newMember(byName.get(name) as PlanInput["members"][number]));

  const stages: StageRunState[] = strategy.stages.map((stage, s) => {
    const groups = stage.groups.map((g, gi) => {
      const members = membersOf(s, gi);
      return groupRunState({
        name: g.name,
        maxConcurrency: resolveConcurrency(g.maxConcurrency, members.length, DEFAULT_GROUP_CONCURRENCY),
        ...controls(g, members.length, stage.name, g.name),
        members,
      });
    });
    const stageMembers = groups.reduce((n, g) => n + g.members.length, 0);
    const cap = stage.maxConcurrency === undefined ? undefined : resolveConcurrency(stage.maxConcurrency, stageMembers, Number.POSITIVE_INFINITY);
    return stageRunState({
      name: stage.name,
      maxConcurrency: cap,
      ...controls(stage, stageMembers, stage.name, undefined),
      afterStageWaitInSeconds: stage.afterStageWaitInSeconds ?? 0,
      groups,
    });
  });

  return runState({
    name: input.name,
    // structuredClone(undefined) is undefined.
    managedClusterUpdate: structuredClone(input.managedClusterUpdate),
    autoUpgradeProfile: structuredClone(input.autoUpgradeProfile),
    strategy,
    declaredAnalysis: runAnalysis(input.analysis, input.members),
    excludedMembers: excluded satisfies ExcludedMember[],
    stages,
  });
}

/** Issue 31: the analysis as the engine keeps it in memory, with the labels its queries may name. */
export function runAnalysis(spec: Analysis | undefined, members: ReadonlyArray<{ name: string; labels?: Readonly<Record<string, string>> }>): RunAnalysis | undefined {
  if (spec === undefined) return undefined;
  const labels: Record<string, Labels> = {};
  // A member without labels has none to render (`renderQuery` reads labels?.[key]).
  for (const m of members) labels[m.name] = { ...m.labels };
  return { spec: structuredClone(spec), labels };
}

function newMember(m: { name: string; clusterResourceId?: string; healthCheck?: HealthCheck }): MemberRunState {
  return memberRunState({ name: m.name, clusterResourceId: m.clusterResourceId, healthCheck: structuredClone(m.healthCheck) });
}

/** Gates (with their ids) and the resolved failure tolerance of a stage or group. */
function controls(
  spec: { beforeGates?: Gate[]; afterGates?: Gate[]; maxAllowedFailures?: string },
  memberCount: number,
  stage: string,
  group: string | undefined,
): Controlled {
  const gates = (list: Gate[] | undefined, timing: "before" | "after"): GateRunState[] | undefined =>
    list === undefined || list.length === 0
      ? undefined
      : list.map((g, i) =>
          gateRunState({
            gateId: gateId(stage, group, timing, i),
            displayName: g.displayName ?? (g.type === "ScheduledStart" ? "Scheduled start" : "Approval"),
            // Left out when undefined (gateRunState).
            scheduledStart: structuredClone(g.scheduledStartConfiguration),
          }),
        );
  // Unset ones stay undefined: the run-state constructors keep every field (runState.ts).
  return { beforeGates: gates(spec.beforeGates, "before"), afterGates: gates(spec.afterGates, "after"), maxAllowedFailures: resolveTolerance(spec.maxAllowedFailures, memberCount) };
}
