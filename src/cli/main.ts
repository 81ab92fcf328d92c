#!/usr/bin/env node
/** The `fleet-update` command. Each subcommand lives in its own file; this one only wires them. */
import { Command } from "commander";
import { resetFleetCommand } from "./resetFleet";
import { simulateCommand, type CommandIO } from "./simulate";

const io: CommandIO = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

export function buildProgram(): Command {
  const program = new Command("fleet-update")
    .description("Staged, maintenance-window-aware upgrades of AKS fleets.")
    .showHelpAfterError();
  program
    .command("simulate")
    .description("Run a scenario (YAML or JSON; '-' reads stdin) on a virtual clock and print the result.")
    .argument("<file>", "scenario file")
    .option("--json", "print the JSON result (status, clusters, events) instead of a tree")
    .action(async (file: string, options: { json?: boolean }) => {
      process.exitCode = await simulateCommand(file, options, io);
    });
  program
    .command("reset-fleet")
    .description("Forget what a simulated fleet's clusters went through (its state file and run journals).")
    .argument("<fleet-file>", "the fleet description the Pulumi resources use")
    .option("--state-file <file>", "the state file, if not <fleet-file>.state.json")
    .action((fleetFile: string, options: { stateFile?: string }) => {
      process.exitCode = resetFleetCommand(fleetFile, options, io);
    });
  return program;
}

if (require.main === module) {
  buildProgram()
    .parseAsync(process.argv)
    .catch((e: unknown) => {
      process.stderr.write(`fleet-update: ${(e as Error).message}\n`);
      process.exitCode = 1;
    });
}
