/**
 * `fleet-update plan FILE [--json]`: the predicted schedule of a run and its pre-flight findings, from
 * a scenario or a run spec (`UpdateRun`'s inputs; its backend is read, never written). Invalid input
 * exits 2 with one line per problem naming the field path; otherwise 0, whatever the findings say.
 */
import path from "node:path";
import { ValidationError } from "../model/common";
import { parsePlanInput } from "../plan/input";
import { planFromSource } from "../plan/planSource";
import { renderPlan } from "../plan/render";
import { InputError, readInput } from "./input";
import { EXIT_INVALID_INPUT, type CommandIO } from "./simulate";

export interface PlanOptions {
  json?: boolean;
  /** Days the plan looks ahead for a run spec (a scenario has its own horizon). */
  horizonDays?: string;
  /** Minutes one upgrade is assumed to take on a real backend. */
  upgradeMinutes?: string;
}

export async function planCommand(file: string, options: PlanOptions, io: CommandIO, now: number = Date.now()): Promise<number> {
  const numbers = numericOptions(options);
  if (typeof numbers === "string") {
    io.stderr(`${numbers}\n`);
    return EXIT_INVALID_INPUT;
  }
  let plan;
  try {
    const source = parsePlanInput(readInput(file));
    plan = await planFromSource(source, { baseDir: file === "-" ? process.cwd() : path.dirname(path.resolve(file)), now, ...numbers });
  } catch (e) {
    if (e instanceof ValidationError) {
      for (const issue of e.issues) io.stderr(`${file}: ${issue.path}: ${issue.message}\n`);
      return EXIT_INVALID_INPUT;
    }
    if (e instanceof InputError) {
      io.stderr(`${e.message}\n`);
      return EXIT_INVALID_INPUT;
    }
    throw e;
  }
  io.stdout(options.json === true ? `${JSON.stringify(plan, null, 2)}\n` : `${renderPlan(plan)}\n`);
  return 0;
}

function numericOptions(options: PlanOptions): { horizonDays?: number; upgradeMinutes?: number } | string {
  const out: { horizonDays?: number; upgradeMinutes?: number } = {};
  for (const [key, flag] of [["horizonDays", "--horizon-days"], ["upgradeMinutes", "--upgrade-minutes"]] as const) {
    const text = options[key];
    if (text === undefined) continue;
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0) return `${flag}: must be a positive number of ${key === "horizonDays" ? "days" : "minutes"}, got '${text}'`;
    out[key] = value;
  }
  return out;
}
