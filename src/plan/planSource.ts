/**
 * Plan whatever `parsePlanInput` read: a scenario as it is, a run spec by reading its backend. The
 * Azure backends (`planAzure.ts`, with the Azure SDKs) load only for a run spec that names one
 * (issue 13: `plan` of a scenario or a fleet file starts without them).
 */
import type { PlanSource } from "./input";
import type { Plan, PlanSourceOptions } from "./types";
import { buildPlan } from "./buildPlan";
import { worldFromFleetFile } from "./fromFleetFile";
import { worldFromScenario } from "./fromScenario";
import { planChain, type ChainPlan } from "./fromChain";


export async function planFromSource(source: PlanSource, options: PlanSourceOptions): Promise<Plan | ChainPlan> {
  if (source.kind === "scenario") return buildPlan(worldFromScenario(source.scenario));
  if (source.kind === "chain") return planChain(source.chain);
  const { inputs } = source;
  const horizon = options.horizonDays === undefined ? {} : { horizonDays: options.horizonDays };
  if (inputs.backend.simulator !== undefined) return buildPlan(worldFromFleetFile(inputs, options.baseDir, { now: options.now, ...horizon }));
  const azure = await import("./planAzure");
  return inputs.backend.azureFleet !== undefined ? azure.planFleetRun(inputs, options) : azure.planAzureRun(inputs, options);
}
