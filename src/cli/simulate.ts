/**
 * `fleet-update simulate FILE [--json] [--events FILE] [--webhook URL]` (docs/rules.md §7): run a scenario on a
 * virtual clock, the events also going to a journal file or a webhook as they happen. Invalid input
 * exits 2 with one line per problem naming the field path; otherwise exit 0 whatever the run's end.
 */
import { ValidationError } from "../model/issues";
import { parseAnyScenario, type ChainScenario } from "../simulation/chain";
import type { RunEvent } from "../model/status";
import { simulateChain } from "../simulation/simulateChain";
import { SCENARIO_RUN_NAME, simulateScenario } from "../simulation/simulateScenario";
import type { ArmSimulationReport } from "../simulation/viaArmEmulator";
import type { SimulationReport } from "../simulation/simulateScenario";
import { fanOut } from "../events/sink";
import { closeEventSinks, openEventSinks, type EventSinkFlags } from "./eventSinks";
import { EXIT_INVALID_INPUT, InputError, readInput, reportInputProblem, printable } from "./input";
import { renderTree } from "./render";
import { writeJson } from "./jsonStream";
import type { CommandIO } from "./commandIO";
import { API_VERSION_WORDS, isClientFleetApiVersion, type ClientFleetApiVersion } from "../spec/fleet";

export type { CommandIO } from "./commandIO";

export { EXIT_INVALID_INPUT };

export interface SimulateOptions extends EventSinkFlags {
  json?: boolean;
  /** "arm-emulator": through the real Azure backend against a freshly started ARM emulator; "fleet-emulator": through the azureFleet backend against its Fleet Manager. */
  via?: string;
  /** With `--via fleet-emulator`: the Fleet Manager api-version the client speaks (default 2026-06-01). */
  apiVersion?: string;
}

export async function simulateCommand(file: string, options: SimulateOptions, io: CommandIO): Promise<number> {
  let parsed;
  try {
    parsed = parseAnyScenario(readInput(file));
  } catch (e) {
    const code = reportInputProblem(e, file, io);
    if (code === undefined) throw e;
    return code;
  }
  if (options.via !== undefined && options.via !== "arm-emulator" && options.via !== "fleet-emulator") {
    io.stderr(`--via: unknown backend '${printable(options.via)}' (known: arm-emulator, fleet-emulator)\n`);
    return EXIT_INVALID_INPUT;
  }
  if (options.apiVersion !== undefined && options.via !== "fleet-emulator") {
    io.stderr("--api-version: applies to --via fleet-emulator only\n");
    return EXIT_INVALID_INPUT;
  }
  if (options.apiVersion !== undefined && !isClientFleetApiVersion(options.apiVersion)) {
    io.stderr(`--api-version: ${API_VERSION_WORDS}, got '${printable(options.apiVersion)}'\n`);
    return EXIT_INVALID_INPUT;
  }
  if (parsed.kind === "chain" && options.via !== undefined) {
    io.stderr("--via: chained runs (runs:) are simulated in process only\n");
    return EXIT_INVALID_INPUT;
  }
  // Loaded here, before anything starts (the emulator's clock runs in real time): the Azure SDKs
  // come with these modules, and an in-process simulation never needs them (issue 13).
  const via = await loadVia(options.via, options.apiVersion as ClientFleetApiVersion | undefined);
  let sinks;
  try {
    sinks = openEventSinks(options);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    io.stderr(`${printable(e.message)}\n`);
    return EXIT_INVALID_INPUT;
  }
  const onEvent = fanOut(sinks);
  if (parsed.kind === "chain") return simulateChainCommand(file, parsed.chain, options, io, sinks, onEvent);
  const scenario = parsed.scenario;
  let report;
  try {
    report = via === undefined ? await simulateScenario(scenario, { onEvent }) : await via(scenario, { onEvent });
  } catch (e) {
    await closeEventSinks(sinks, io);
    // Issue 12: a scenario feature Fleet Manager lacks, named by its field path.
    if (e instanceof ValidationError && options.via === "fleet-emulator") {
      for (const issue of e.issues) io.stderr(`${printable(file)}: ${printable(issue.path)}: ${printable(issue.message)}\n`);
      return EXIT_INVALID_INPUT;
    }
    throw e;
  }
  for (const m of report.excludedMembers) io.stderr(`warning: member '${m.name}' is left out of the run: ${printable(m.reason)}\n`);
  for (const a of report.refusedActions) io.stderr(`warning: action at ${a.at} refused: ${printable(a.message)}\n`);
  const requests = "requests" in report ? { requests: report.requests } : {};
  const generated = report.generatedUpdate === undefined ? {} : { generatedUpdate: report.generatedUpdate };
  if (options.json === true) writeJson({ ...report.result, ...generated, ...requests }, io.stdout);
  else io.stdout(`${renderTree(report.result.status, SCENARIO_RUN_NAME, report.generatedUpdate)}\n`);
  // After the result is out: a slow or dead webhook delays the exit by its flush bound, not the output.
  await closeEventSinks(sinks, io);
  return 0;
}

type ViaSimulation = (scenario: Parameters<typeof simulateScenario>[0], options: { onEvent: (event: RunEvent) => void }) => Promise<SimulationReport | ArmSimulationReport>;

/** `--via`'s backend, its modules loaded now (the SDKs with them); undefined = in process. */
async function loadVia(via: string | undefined, apiVersion: ClientFleetApiVersion | undefined): Promise<ViaSimulation | undefined> {
  if (via === "arm-emulator") return (await import("../simulation/viaArmEmulator")).simulateScenarioViaArm;
  if (via === "fleet-emulator") {
    const { simulateScenarioViaFleet } = await import("../simulation/viaFleetEmulator");
    return (scenario, options) => simulateScenarioViaFleet(scenario, { ...options, ...(apiVersion === undefined ? {} : { apiVersion }) });
  }
  return undefined;
}

/** `runs:` scenarios: every run's tree (or `{ runs, clusters }` as JSON). */
async function simulateChainCommand(
  file: string,
  chain: ChainScenario,
  options: SimulateOptions,
  io: CommandIO,
  sinks: Parameters<typeof closeEventSinks>[0],
  onEvent: (event: RunEvent) => void,
): Promise<number> {
  let report;
  try {
    report = await simulateChain(chain, { onEvent });
  } catch (e) {
    await closeEventSinks(sinks, io);
    if (!(e instanceof ValidationError)) throw e;
    // A reference that resolves to something this run cannot take (e.g. no applied images to promote).
    for (const issue of e.issues) io.stderr(`${printable(file)}: ${printable(issue.path)}: ${printable(issue.message)}\n`);
    return EXIT_INVALID_INPUT;
  }
  for (const warning of report.warnings) io.stderr(`warning: ${printable(warning)}\n`);
  if (options.json === true) writeJson(report.result, io.stdout);
  else io.stdout(`${report.result.runs.map((run) => renderTree(run.status, run.name)).join("\n\n")}\n`);
  await closeEventSinks(sinks, io);
  return 0;
}
