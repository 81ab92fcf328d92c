/** `fleet-update reset-fleet FLEET_FILE`: forget what the simulated clusters went through. */
import { resetSimulatedFleet } from "../drivers/engine/openBackend";
import type { CommandIO } from "./commandIO";
import { printable } from "../runtime/printable";

export function resetFleetCommand(fleetFile: string, options: { stateFile?: string }, io: CommandIO): number {
  const { stateFile, existed } = resetSimulatedFleet({ fleetFile, ...(options.stateFile === undefined ? {} : { stateFile: options.stateFile }) }, process.cwd());
  io.stdout(`${printable(existed ? `reset: removed ${stateFile} and its run journals; the next run starts from ${fleetFile}` : `nothing to reset: ${stateFile} does not exist`)}\n`);
  return 0;
}
