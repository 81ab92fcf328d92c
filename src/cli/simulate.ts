/**
 * `fleet-update simulate FILE [--json]` (SPEC §7): run a scenario on a virtual clock. Invalid input
 * exits 2 with one line per problem naming the field path; otherwise exit 0 whatever the run's end.
 */
import { ValidationError } from "../model/common";
import { parseScenario } from "../model/scenario";
import { SCENARIO_RUN_NAME, simulateScenario } from "../simulation/simulateScenario";
import { simulateScenarioViaArm } from "../simulation/viaArmEmulator";
import { InputError, readInput } from "./input";
import { renderTree } from "./render";

export interface CommandIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export const EXIT_INVALID_INPUT = 2;

export interface SimulateOptions {
  json?: boolean;
  /** "arm-emulator": through the real Azure backend against a freshly started ARM emulator. */
  via?: string;
}

export async function simulateCommand(file: string, options: SimulateOptions, io: CommandIO): Promise<number> {
  let scenario;
  try {
    scenario = parseScenario(readInput(file));
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
  if (options.via !== undefined && options.via !== "arm-emulator") {
    io.stderr(`--via: unknown backend '${options.via}' (known: arm-emulator)\n`);
    return EXIT_INVALID_INPUT;
  }
  const report = options.via === "arm-emulator" ? await simulateScenarioViaArm(scenario) : await simulateScenario(scenario);
  for (const m of report.excludedMembers) io.stderr(`warning: member '${m.name}' is left out of the run: ${m.reason}\n`);
  for (const a of report.refusedActions) io.stderr(`warning: action at ${a.at} refused: ${a.message}\n`);
  const requests = "requests" in report ? { requests: report.requests } : {};
  if (options.json === true) io.stdout(`${JSON.stringify({ ...report.result, ...requests }, null, 2)}\n`);
  else io.stdout(`${renderTree(report.result.status, SCENARIO_RUN_NAME)}\n`);
  return 0;
}
