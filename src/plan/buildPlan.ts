/** A plan from a world: predict the run, read its schedule, check for findings. */
import { isoInstant } from "../model/instants";
import { findings } from "./findings";
import { predict, type Prediction } from "./predict";
import { readSchedule } from "./schedule";
import type { Plan } from "./types";
import type { PlanWorld } from "./world";

export async function buildPlan(world: PlanWorld): Promise<Plan> {
  return (await buildPlanAndPrediction(world)).plan;
}

/** The plan and the prediction it was read from (a chained run's next run starts where this one ends). */
export async function buildPlanAndPrediction(world: PlanWorld): Promise<{ plan: Plan; prediction: Prediction }> {
  const prediction = await predict(world);
  const schedule = readSchedule(world, prediction);
  const run = prediction.status.status;
  const plan: Plan = {
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
    ...(world.run.autoUpgradeProfile === undefined || prediction.managedClusterUpdate === undefined ? {} : { managedClusterUpdate: prediction.managedClusterUpdate }),
    findings: findings(world, prediction, schedule),
  };
  return { plan, prediction };
}
