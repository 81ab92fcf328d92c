/**
 * Plan whatever `parsePlanInput` read: a scenario as it is, a run spec through its driver's view of
 * the world (`src/drivers/runDriver.ts` `PlanView`): the simulated fleet's files, or the members'
 * clusters read through a read-only backend. The Azure drivers load only for a run spec on Azure
 * (issue 13: `plan` of a scenario or a fleet file starts without the Azure SDKs).
 */
import { driverFor } from "../drivers/driverFor";
import type { PlanView } from "../drivers/runDriver";
import type { PlanSource } from "./input";
import type { Plan, PlanSourceOptions } from "./types";
import { buildPlan } from "./buildPlan";
import { worldFromBackend } from "./fromBackend";
import { worldFromFleetFile } from "./fromFleetFile";
import { worldFromScenario } from "./fromScenario";
import { planChain, type ChainPlan } from "./fromChain";

export async function planFromSource(source: PlanSource, options: PlanSourceOptions): Promise<Plan | ChainPlan> {
  if (source.kind === "scenario") return buildPlan(worldFromScenario(source.scenario));
  if (source.kind === "chain") return planChain(source.chain);
  const driver = await driverFor(source.inputs.backend, { baseDir: options.baseDir });
  return planView(await driver.planView(source.inputs), options);
}

/** The plan of a run as its driver's view of the world has it, from `options.now`. */
export async function planView(view: PlanView, options: PlanSourceOptions): Promise<Plan> {
  const horizon = options.horizonDays === undefined ? {} : { horizonDays: options.horizonDays };
  if (view.reads === "fleetFile") return buildPlan(worldFromFleetFile(view, { now: options.now, ...horizon }));
  return buildPlan(await worldFromBackend(view.backend, view.inputs, { now: options.now, ...horizon, ...(options.upgradeMinutes === undefined ? {} : { upgradeMinutes: options.upgradeMinutes }) }));
}
