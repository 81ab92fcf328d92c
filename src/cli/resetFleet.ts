/** `fleet-update reset-fleet FLEET_FILE`: forget what the simulated clusters went through. */
import fs from "node:fs";
import { stateFilePath } from "../backends/simulator/fileBacked";
import { journalDirectory } from "../drivers/journal";
import type { CommandIO } from "./simulate";
import { printable } from "../runtime/printable";

export function resetFleetCommand(fleetFile: string, options: { stateFile?: string }, io: CommandIO): number {
  const stateFile = stateFilePath({ fleetFile, ...(options.stateFile === undefined ? {} : { stateFile: options.stateFile }) }, process.cwd());
  const journals = journalDirectory(stateFile);
  const existed = fs.existsSync(stateFile) || fs.existsSync(journals);
  fs.rmSync(stateFile, { force: true });
  fs.rmSync(journals, { recursive: true, force: true });
  io.stdout(`${printable(existed ? `reset: removed ${stateFile} and its run journals; the next run starts from ${fleetFile}` : `nothing to reset: ${stateFile} does not exist`)}\n`);
  return 0;
}
