/**
 * The predicted schedule, read off the predicted run: times and states from its status tree (exactly
 * what `simulate` reports), Pending periods from its events, and each member's docs/rules.md §3.3 class.
 */
import { relevantWindow, WindowTracker, type PriorityClass } from "../engine/priority";
import type { UpdateStatus } from "../model/status";
import type { Prediction } from "./predict";
import type { PlannedMember, PlannedStage, PriorityClassName } from "./types";
import { plannedUpgradeType, type PlanWorld } from "./world";

export const PRIORITY_CLASS_NAMES: Record<PriorityClass, PriorityClassName> = { 1: "open", 2: "opensSoon", 3: "noWindow", 4: "closed" };

export interface Schedule {
  stages: PlannedStage[];
  members: PlannedMember[];
}

export function readSchedule(world: PlanWorld, prediction: Prediction): Schedule {
  const type = plannedUpgradeType(prediction.managedClusterUpdate === undefined ? world.run : { managedClusterUpdate: prediction.managedClusterUpdate });
  const windows = new WindowTracker();
  const stages: PlannedStage[] = [];
  const members: PlannedMember[] = [];
  for (const stage of prediction.status.stages) {
    stages.push({
      name: stage.name,
      ...times(stage.status),
      predictedState: stage.status.state,
      afterStageWaitInSeconds: stage.afterStageWaitStatus?.waitDurationInSeconds ?? 0,
      ...(stage.analysisRuns === undefined
        ? {}
        : {
            analyses: stage.analysisRuns.map((a) => ({
              kind: a.kind as "preCheck" | "soak",
              template: a.template,
              predictedStart: a.startedAt,
              ...(a.finishedAt === undefined ? {} : { predictedEnd: a.finishedAt }),
              predictedPhase: a.phase,
              measurements: a.successful + a.failed + a.inconclusive + a.error,
            })),
          }),
      groups: stage.groups.map((g) => ({ name: g.name, ...times(g.status), predictedState: g.status.state })),
    });
    for (const group of stage.groups) {
      // The class the member has when its group begins picking (or when the run starts, if the group never does).
      const picksFrom = group.status.startTime === undefined ? world.start : Date.parse(group.status.startTime);
      for (const member of group.members) {
        const cluster = prediction.clustersAtStart.get(member.name);
        const window = relevantWindow(cluster?.maintenanceConfigurations, type);
        members.push({
          name: member.name,
          stage: stage.name,
          group: group.name,
          priorityClass: PRIORITY_CLASS_NAMES[windows.priorityClass(member.name, window, picksFrom)],
          ...times(member.status),
          predictedState: member.status.state,
          ...(member.message === undefined ? {} : { message: member.message }),
          pending: prediction.pending.of(member.name),
        });
      }
    }
  }
  return { stages, members };
}

function times(status: UpdateStatus): { predictedStart?: string; predictedEnd?: string } {
  return {
    ...(status.startTime === undefined ? {} : { predictedStart: status.startTime }),
    ...(status.completedTime === undefined ? {} : { predictedEnd: status.completedTime }),
  };
}
