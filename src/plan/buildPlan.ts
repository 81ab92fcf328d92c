/** A plan from a world: predict the run, read its schedule, check for findings. */
import { isoInstant } from "../model/common";
import { findings } from "./findings";
import { predict } from "./predict";
import { readSchedule } from "./schedule";
import type { Plan } from "./types";
import type { PlanWorld } from "./world";

export async function buildPlan(world: PlanWorld): Promise<Plan> {
  const prediction = await predict(world);
  const schedule = readSchedule(world, prediction);
  const run = prediction.status.status;
  return {
    plannedFrom: isoInstant(world.start),
    horizon: isoInstant(world.horizon),
    run: {
      ...(run.startTime === undefined ? {} : { predictedStart: run.startTime }),
      ...(run.completedTime === undefined ? {} : { predictedEnd: run.completedTime }),
      predictedState: run.state,
    },
    stages: schedule.stages,
    members: schedule.members,
    selectedNodeImageVersions: prediction.status.nodeImageSelection.selectedNodeImageVersions.map((v) => v.version),
    findings: findings(world, prediction, schedule),
  };
}
