/**
 * Persisting the simulated fleet between runs, so that consecutive CLI runs see the clusters as the
 * last run left them. The file holds state only (see `fleetState.ts`): the fleet description stays the
 * source of regions, maintenance windows and simulation settings. A cluster the file names keeps the
 * file's versions and node pools; a cluster it does not name starts as described; clusters the file
 * names but the description no longer has are dropped at the next save.
 *
 * Writes go to a temporary file in the same directory, are flushed to disk, then renamed over the state
 * file: rename is atomic, so a crash leaves either the old file or the new one, never a torn one.
 */
import fs from "node:fs";
import path from "node:path";
import type { Clock } from "../../engine/clock";
import type { Fleet } from "../../model/fleet";
import { formatPath } from "../../model/common";
import { FleetStateSchema, type FleetState } from "./fleetState";
import { SimulatedFleet } from "./simulatedFleet";

/** The state file exists but cannot be used; names the file and what is wrong with it. */
export class StateFileError extends Error {
  readonly filePath: string;
  constructor(filePath: string, problem: string) {
    super(`simulated fleet state file ${filePath}: ${problem} (delete it to start from the fleet description)`);
    this.name = "StateFileError";
    this.filePath = filePath;
  }
}

/** The state saved at `filePath`, or `undefined` when there is no such file. */
export function readFleetState(filePath: string): FleetState | undefined {
  let text: string;
  try {
    text = fs.readFileSync(filePath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new StateFileError(filePath, `not valid JSON (${(error as Error).message})`);
  }
  const parsed = FleetStateSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
    throw new StateFileError(filePath, problems.join("; "));
  }
  return parsed.data;
}

/** Replace the state file atomically (temporary file, flush, rename). */
export function writeFleetState(filePath: string, state: FleetState): void {
  const tempPath = path.join(path.dirname(filePath), `.${path.basename(filePath)}.${process.pid}.tmp`);
  try {
    const fd = fs.openSync(tempPath, "w");
    try {
      fs.writeSync(fd, `${JSON.stringify(state, null, 2)}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tempPath, filePath);
  } catch (error) {
    fs.rmSync(tempPath, { force: true });
    throw error;
  }
}

/** Forget everything the simulated clusters went through: the next load starts from the description. */
export function resetFleetState(filePath: string): void {
  fs.rmSync(filePath, { force: true });
}

/**
 * A simulated fleet that starts from the state saved at `filePath` (if any) and, unless `autoSave` is
 * false, saves it there after every call that changes it.
 */
export function loadSimulatedFleet(fleet: Fleet, clock: Clock, filePath: string, { autoSave = true }: { autoSave?: boolean } = {}): SimulatedFleet {
  const restoredState = readFleetState(filePath);
  const onStateChange = autoSave ? (state: FleetState) => writeFleetState(filePath, state) : undefined;
  return new SimulatedFleet(fleet, clock, { restoredState, onStateChange });
}

/** Save the fleet's current state to `filePath`. */
export function saveSimulatedFleet(simulated: SimulatedFleet, filePath: string): void {
  writeFleetState(filePath, simulated.toState());
}
