/** Helpers for the plan's tests: plan and simulate one scenario, and read both side by side. */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseScenario, validateScenario, type Scenario } from "../../src/simulation/scenario";
import { buildPlan } from "../../src/plan/buildPlan";
import { worldFromScenario } from "../../src/plan/fromScenario";
import type { Plan } from "../../src/plan/types";
import { simulateScenario, type SimulationResult } from "../../src/simulation/simulateScenario";

export const EXAMPLE_SCENARIOS = resolve(__dirname, "../../examples/scenarios");
export const TEST_SCENARIOS = resolve(__dirname, "../scenarios");
export const DEMO = resolve(__dirname, "../../examples/demo/scenario.yaml");

export function scenarioFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}

export const readScenario = (file: string): Scenario => parseScenario(readFileSync(file, "utf8"));

/** A scenario with nothing failing and nobody acting: the case where plan and simulate must agree. */
export function isQuiet(scenario: Scenario): boolean {
  return scenario.actions.length === 0 && scenario.members.every((m) => m.simulation?.fail === undefined && m.simulation?.healthy !== false);
}

/** The same scenario with its failures and actions taken out. */
export function quieted(scenario: Scenario): Scenario {
  const copy = structuredClone(scenario) as Scenario;
  copy.actions = [];
  copy.members = copy.members.map((m) => {
    if (m.simulation === undefined) return m;
    const { fail: _fail, healthy: _healthy, ...simulation } = m.simulation;
    return { ...m, simulation };
  });
  return validateScenario(copy);
}

export const planScenario = (scenario: Scenario): Promise<Plan> => buildPlan(worldFromScenario(scenario));

export interface Timing {
  start?: string;
  end?: string;
  state: string;
}

/** Every member's start, end and final state, by name, as the plan predicts them. */
export function plannedTimings(plan: Plan): Record<string, Timing> {
  return Object.fromEntries(plan.members.map((m) => [m.name, timing(m.predictedStart, m.predictedEnd, m.predictedState)]));
}

/** Every member's start, end and final state, by name, as the simulation ran them. */
export function simulatedTimings(result: SimulationResult): Record<string, Timing> {
  return Object.fromEntries(
    result.status.stages.flatMap((s) => s.groups.flatMap((g) => g.members.map((m) => [m.name, timing(m.status.startTime, m.status.completedTime, m.status.state)]))),
  );
}

function timing(start: string | undefined, end: string | undefined, state: string): Timing {
  return { ...(start === undefined ? {} : { start }), ...(end === undefined ? {} : { end }), state };
}

export interface PendingInterval {
  from: string;
  until?: string;
  /** The reason given on entering Pending. */
  reason?: string;
}

/** Pending intervals of each member from a simulation's events (enter Pending → leave it). */
export function simulatedPendingIntervals(result: SimulationResult): Record<string, PendingInterval[]> {
  const out: Record<string, PendingInterval[]> = {};
  for (const e of result.events) {
    if (e.scope !== "member") continue;
    if (e.from === "Pending") (out[e.name]?.at(-1) as PendingInterval).until = e.time;
    if (e.to === "Pending") (out[e.name] ??= []).push({ from: e.time, ...(e.message === undefined ? {} : { reason: e.message }) });
  }
  return out;
}

/** A plan's Pending periods with the splits at reason changes joined back together (keeping the first reason). */
export function plannedPendingIntervals(plan: Plan): Record<string, PendingInterval[]> {
  const out: Record<string, PendingInterval[]> = {};
  for (const m of plan.members) {
    const joined: PendingInterval[] = [];
    for (const p of m.pending) {
      const last = joined[joined.length - 1];
      if (last !== undefined && last.until === p.from) {
        if (p.until === undefined) delete last.until;
        else last.until = p.until;
      } else joined.push({ from: p.from, ...(p.until === undefined ? {} : { until: p.until }), reason: p.reason });
    }
    if (joined.length > 0) out[m.name] = joined;
  }
  return out;
}

export { simulateScenario };
