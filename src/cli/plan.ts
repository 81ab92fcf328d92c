/**
 * `fleet-update plan FILE [--json]`: the predicted schedule of a run and its pre-flight findings, from
 * a scenario, a run spec with `--backend` (the spec `fleet-update run` takes, with the same flags), or
 * a run spec holding its `backend`. The backend is read, never written. Invalid input exits 2 with
 * one line per problem naming the field path (or the flag); otherwise 0, whatever the findings say.
 */
import path from "node:path";
import { MAX_HORIZON_DAYS } from "../model/limits";
import { ValidationError } from "../model/issues";
import { MAX_UPGRADE_MINUTES } from "../model/fleet";
import { parsePlanInput, type PlanSource } from "../plan/input";
import { planFromSource } from "../plan/planSource";
import { renderChainPlan, renderPlan } from "../plan/render";
import { writeJson } from "./jsonStream";
import { InputError, readInput, printable } from "./input";
import { backendFromFlags, parseRunSpec, type BackendFlags } from "./runSpec";
import { EXIT_INVALID_INPUT, type CommandIO } from "./simulate";

export interface PlanOptions extends BackendFlags {
  json?: boolean;
  /** Days the plan looks ahead for a run spec (a scenario has its own horizon). */
  horizonDays?: string;
  /** Minutes one upgrade is assumed to take on a real backend. */
  upgradeMinutes?: string;
}

export async function planCommand(file: string, options: PlanOptions, io: CommandIO, now: number = Date.now()): Promise<number> {
  const numbers = numericOptions(options);
  if (typeof numbers === "string") {
    io.stderr(`${printable(numbers)}\n`);
    return EXIT_INVALID_INPUT;
  }
  let plan;
  try {
    const { source, baseDir } = readSource(file, options);
    plan = await planFromSource(source, { baseDir, now, ...numbers });
  } catch (e) {
    if (e instanceof ValidationError) {
      for (const issue of e.issues) io.stderr(`${printable(sourceOf(issue.path, file, options))}: ${printable(issue.message)}\n`);
      return EXIT_INVALID_INPUT;
    }
    if (e instanceof InputError) {
      io.stderr(`${printable(e.message)}\n`);
      return EXIT_INVALID_INPUT;
    }
    throw e;
  }
  // The same bytes as JSON.stringify(plan, null, 2), written in pieces (a plan of 100,000 members is ~60 MB).
  if (options.json === true) writeJson(plan, io.stdout);
  else io.stdout(`${"runs" in plan ? renderChainPlan(plan) : renderPlan(plan)}\n`);
  return 0;
}

/**
 * With `--backend`, the file is `fleet-update run`'s spec and paths in flags are relative to the
 * working directory (as for `run`); otherwise paths in the file are relative to the file.
 */
function readSource(file: string, options: PlanOptions): { source: PlanSource; baseDir: string } {
  if (options.backend !== undefined) {
    const backend = backendFromFlags(options, process.cwd());
    return { source: { kind: "runSpec", inputs: parseRunSpec(readInput(file), file, backend) }, baseDir: process.cwd() };
  }
  return { source: parsePlanInput(readInput(file)), baseDir: file === "-" ? process.cwd() : path.dirname(path.resolve(file)) };
}

/** Flags are named as typed; with `--backend`, the backend's problems are the flag's. */
function sourceOf(fieldPath: string, file: string, options: PlanOptions): string {
  if (fieldPath.startsWith("--")) return fieldPath;
  if (options.backend !== undefined && fieldPath.startsWith("backend")) return "--backend";
  return `${file}: ${fieldPath}`;
}

function numericOptions(options: PlanOptions): { horizonDays?: number; upgradeMinutes?: number } | string {
  const out: { horizonDays?: number; upgradeMinutes?: number } = {};
  for (const [key, flag] of [["horizonDays", "--horizon-days"], ["upgradeMinutes", "--upgrade-minutes"]] as const) {
    const text = options[key];
    if (text === undefined) continue;
    const value = Number(text);
    // Issue 19: bounded like the scenario's horizon and a simulated upgrade.
    const max = key === "horizonDays" ? MAX_HORIZON_DAYS : MAX_UPGRADE_MINUTES;
    const unit = key === "horizonDays" ? "days" : "minutes";
    if (!Number.isFinite(value) || value <= 0) return `${flag}: must be a positive number of ${unit}, got '${text}'`;
    if (value > max) return `${flag}: must be at most ${max} ${unit}, got '${text}'`;
    out[key] = value;
  }
  return out;
}
