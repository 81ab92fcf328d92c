#!/usr/bin/env node
/** The `fleet-update` command. Each subcommand lives in its own file; this one only wires them. */
import { Command } from "commander";
import { EMULATOR_COMMAND_OPTIONS, type EmulatorFlags } from "../emulator/commandOptions";
import type { PlanOptions } from "./plan";
import type { BackendFlags } from "./runSpec";
import type { RunOptions } from "./run";
import type { CommandIO, SimulateOptions } from "./simulate";
import { printable } from "../runtime/printable";

/*
 * Each subcommand's module is loaded when that subcommand runs, not at every start (issue 13): the
 * Azure SDKs alone took ~0.27 s of a ~0.5 s start, which `simulate` and `plan` on a file never use.
 * A command's whole module graph (the SDK with it, when it has a backend that needs it) loads before
 * the command does anything, so no clock — the run's, an emulator's — is running while it loads.
 */
const load = {
  simulate: () => import("./simulate"),
  run: () => import("./run"),
  gate: () => import("./gate"),
  plan: () => import("./plan"),
  report: () => import("./report"),
  resetFleet: () => import("./resetFleet"),
  emulator: () => import("../emulator/command"),
};

const io: CommandIO = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

// `fleet-update simulate x.yaml --json | head`: the reader stopped reading, nothing is lost that
// anyone wanted. End quietly, as command-line tools do, instead of crashing with a stack trace.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code !== "EPIPE") throw e;
  process.exit(process.exitCode ?? 0);
});

export function buildProgram(): Command {
  const program = new Command("fleet-update")
    .description("Staged, maintenance-window-aware upgrades of AKS fleets.")
    .showHelpAfterError();
  program
    .command("simulate")
    .description("Run a scenario (YAML or JSON; '-' reads stdin) on a virtual clock and print the result.")
    .argument("<file>", "scenario file")
    .option("--json", "print the JSON result (status, clusters, events) instead of a tree")
    .option("--via <backend>", "run through a backend instead of in process: arm-emulator (the Azure backend against a fresh ARM emulator) or fleet-emulator (Fleet Manager in a fresh emulator, through the azureFleet backend)")
    .option("--api-version <version>", "with --via fleet-emulator: the Fleet Manager api-version the client speaks: 2026-06-01 (the default), 2026-06-02-preview or 2025-04-01-preview")
    .option("--events <file>", "write every state change as one JSON line to this file, as it happens")
    .option("--webhook <url>", "POST every state change as JSON to this URL (retried with backoff; never holds up the run)")
    .action(async (file: string, options: SimulateOptions) => {
      process.exitCode = await (await load.simulate()).simulateCommand(file, options, io);
    });
  program
    .command("run")
    .description("Execute a run spec (YAML or JSON: UpdateRun's fields) in real time; re-running resumes. Exit 0 succeeded, 1 failed, 2 invalid, 3 stopped or deadline, 4 waiting.")
    .argument("<spec>", "run spec file ('-' reads stdin)")
    .option("--backend <backend>", "simulator:FLEET_FILE (a simulated fleet, state beside it), azure, or azure-fleet:FLEET_ID (Fleet Manager runs it)")
    .option("--poll-seconds <n>", "azure-fleet: seconds between GETs of the run while following it (default 60); azure: between reads of a cluster being upgraded (default 15, then 60)")
    .option("--time-scale <n>", "simulator: simulated time per real time (default 60)")
    .option("--endpoint <url>", "azure: ARM endpoint (default the Azure public cloud)")
    .option("--ca-file <file>", "azure: PEM file of extra CA certificates to trust")
    .option("--credential <kind>", "azure: default (DefaultAzureCredential) or emulator (loopback endpoints only)")
    .option("--api-version <version>", "azure-fleet: the Fleet Manager api-version: 2026-06-01 (GA, the default; maxConcurrency), 2026-06-02-preview (also maxAllowedFailures) or 2025-04-01-preview (legacy)")
    .option("--json", "print {status, summary, failedMembers, appliedNodeImageVersions} at the end")
    .option("--new", "start a new run even if the journal holds an unfinished run of another spec")
    .option("--progress <mode>", "tree (redrawn; default on a terminal), lines (one per transition), summary (counts per state and an ETA, at most once a second) or auto (lines, then summaries above 200 members; the default otherwise)")
    .option("--events <file>", "write every state change as one JSON line to this file, as it happens")
    .option("--webhook <url>", "POST every state change as JSON to this URL (retried with backoff; never holds up the run)")
    .action(async (file: string, options: RunOptions) => {
      process.exitCode = await (await load.run()).runCommand(file, options, io);
    });
  const gate = program.command("gate").description("A run's approval gates: list them, approve them in its journal (then run the same `run` command again), or in the fleet on azure-fleet.");
  for (const action of ["list", "approve"] as const) {
    const sub = gate
      .command(action)
      .description(action === "list" ? "List the run's gates with their state." : "Approve gates by id (e.g. prod/before/0).")
      .argument("<spec>", "the run spec `fleet-update run` was given");
    if (action === "approve") sub.argument("<gate-id...>", "gate ids, as `gate list` shows them");
    sub
      .option("--backend <backend>", "simulator:FLEET_FILE, azure or azure-fleet:FLEET_ID, as given to `run`")
      .option("--time-scale <n>", "simulator: as given to `run`")
      .option("--endpoint <url>", "azure: ARM endpoint")
      .option("--ca-file <file>", "azure: PEM file of extra CA certificates to trust")
      .option("--credential <kind>", "azure: default or emulator")
      .option("--api-version <version>", "azure-fleet: as given to `run` (default 2026-06-01)")
      .action(async (file: string, ...rest: unknown[]) => {
        const ids = action === "approve" ? (rest[0] as string[]) : [];
        const flags = (action === "approve" ? rest[1] : rest[0]) as BackendFlags;
        process.exitCode = await (await load.gate()).gateCommand(action, file, ids, flags, io);
      });
  }
  program
    .command("plan")
    .description("Predict a run (scenario, or run spec whose backend is read, never written): each member's start, end and Pending periods, and pre-flight findings.")
    .argument("<file>", "scenario, or run spec with --backend or a backend field (YAML or JSON; '-' reads stdin)")
    .option("--json", "print the plan as JSON")
    .option("--horizon-days <days>", "how far a run spec's plan looks ahead (default 30)")
    .option("--upgrade-minutes <minutes>", "minutes one upgrade is assumed to take on a real backend (default 30)")
    .option("--backend <backend>", "the file is `run`'s spec: plan it on simulator:FLEET_FILE, azure or azure-fleet:FLEET_ID")
    .option("--endpoint <url>", "azure: ARM endpoint (default the Azure public cloud)")
    .option("--ca-file <file>", "azure: PEM file of extra CA certificates to trust")
    .option("--credential <kind>", "azure: default (DefaultAzureCredential) or emulator (loopback endpoints only)")
    .option("--api-version <version>", "azure-fleet: the Fleet Manager api-version: 2026-06-01 (GA, the default; maxConcurrency), 2026-06-02-preview (also maxAllowedFailures) or 2025-04-01-preview (legacy)")
    .action(async (file: string, options: PlanOptions) => {
      process.exitCode = await (await load.plan()).planCommand(file, options, io);
    });
  program
    .command("report")
    .description("Write a run's HTML report (timeline, summary) from 'simulate --json' or 'pulumi stack output --json' ('-' reads stdin).")
    .argument("<input>", "JSON file")
    .option("-o, --output <file>", "where to write the HTML (default: stdout)")
    .action(async (input: string, options: { output?: string }) => {
      process.exitCode = (await load.report()).reportCommand(input, options, io);
    });
  program
    .command("reset-fleet")
    .description("Forget what a simulated fleet's clusters went through (its state file and run journals).")
    .argument("<fleet-file>", "the fleet description the Pulumi resources use")
    .option("--state-file <file>", "the state file, if not <fleet-file>.state.json")
    .action(async (fleetFile: string, options: { stateFile?: string }) => {
      process.exitCode = (await load.resetFleet()).resetFleetCommand(fleetFile, options, io);
    });
  const emulator = program
    .command("emulator")
    .description("Serve a simulated fleet as an ARM endpoint (HTTPS on 127.0.0.1) for the Azure backend and its tests.")
    .requiredOption("--fleet <file>", "fleet description (a scenario's regions + members)");
  for (const option of EMULATOR_COMMAND_OPTIONS) emulator.option(option.flags, option.description);
  emulator.action(async (options: EmulatorFlags & { fleet: string }) => {
    const { fleet, ...flags } = options;
    const { runEmulatorCommand, stopOnSignals } = await load.emulator();
    const started = await runEmulatorCommand(fleet, flags);
    process.exitCode = started.exitCode;
    if (started.emulator !== undefined) stopOnSignals(started.emulator);
  });
  return program;
}

if (require.main === module) {
  buildProgram()
    .parseAsync(process.argv)
    .catch((e: unknown) => {
      process.stderr.write(`fleet-update: ${printable((e as Error).message)}\n`);
      process.exitCode = 1;
    });
}
