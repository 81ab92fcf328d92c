/**
 * The simulated fleet as the Pulumi resources use it: described by a fleet file (a scenario's
 * `regions` + `members`; a whole scenario file works too), its clusters' state kept in a state file
 * beside it, and simulated time running `timeScale` times faster than real time, continuing from one
 * `pulumi up` to the next. Delete the state file (`resetFileBackedFleet`) to start again from the
 * description.
 */
import fs from "node:fs";
import path from "node:path";
import { ValidationError, parseOrThrow } from "../../model/issues";
import { parseYamlMapping } from "../../model/textInput";
import { FleetSchema, type Fleet } from "../../model/fleet";
import { HeldScaledClock } from "../../runtime/scaledClock";
import { SimulatedFleet } from "./simulatedFleet";
import { FleetStateStore, resetFleetState } from "./stateFile";

/** Simulated minutes per real minute unless the user says otherwise: a 10-minute upgrade takes 10 s. */
export const DEFAULT_TIME_SCALE = 60;

export interface FileBackedFleetOptions {
  /** The fleet description (YAML or JSON), relative to `baseDir`. */
  fleetFile: string;
  /** Where the clusters' state is kept; default `<fleetFile>.state.json`. */
  stateFile?: string;
  /** Simulated time per real time (default 60: a simulated minute per real second). */
  timeScale?: number;
}

export interface FileBackedFleet {
  fleet: SimulatedFleet;
  clock: HeldScaledClock;
  stateFile: string;
  /**
   * Write the clock's anchor, if this open made a new one (a new fleet, or another time scale) and
   * nothing has written it since. Opening writes nothing (issue 19: a refused run touches no file);
   * whoever is about to record a simulated instant elsewhere (the run journal) calls this first, so
   * the instant means the same after a restart. A change of the fleet writes the anchor with it.
   */
  saveClock: () => void;
  /** Whether the state file holds this open's clock (it was there, or was written since). */
  readonly clockSaved: boolean;
  /**
   * Issue 23: the fleet's changes are kept in memory and made durable here, all at once (one append,
   * one fsync). A run's journal calls this before it writes (`RunJournal.beforeWrite`), so the journal
   * never names an operation the state file does not hold; and `store.beforeFlush` holds what must be
   * durable before the fleet's changes are (the runs' write-ahead intents).
   */
  flush: () => void;
  store: FleetStateStore;
}

export function stateFilePath(options: FileBackedFleetOptions, baseDir: string): string {
  return path.resolve(baseDir, options.stateFile ?? `${options.fleetFile}.state.json`);
}

/** Read and validate a fleet description; a scenario file's other fields are ignored. */
export function readFleetDescription(file: string): Fleet {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new ValidationError([{ path: "backend.simulator.fleetFile", message: `cannot read ${file}: ${(e as Error).message.split("\n")[0]}` }]);
  }
  try {
    // The scenario's parser (JSON fast path, unknown YAML tags and too deep a nesting refused).
    const { regions, members } = parseYamlMapping(text, "a fleet file is a mapping with regions and members");
    return parseOrThrow(FleetSchema, { regions, members });
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    throw new ValidationError(e.issues.map((i) => ({ path: "backend.simulator.fleetFile", message: `${file}: ${i.path}: ${i.message}` })));
  }
}

/**
 * Fleets open in this process, by state file: runs that share a fleet in one `pulumi up` (the host
 * runs resources in parallel) share one instance, so they see each other's operations and never
 * overwrite each other's state. Reopened when the description or the time scale changes.
 */
const open = new Map<string, { key: string; fleet: FileBackedFleet }>();

export function openFileBackedFleet(options: FileBackedFleetOptions, baseDir: string): FileBackedFleet {
  const fleetFile = path.resolve(baseDir, options.fleetFile);
  const stateFile = stateFilePath(options, baseDir);
  const key = `${readText(fleetFile)}\n${options.timeScale ?? DEFAULT_TIME_SCALE}`;
  const cached = open.get(stateFile);
  // A state file deleted since (a reset) is read again; one not written yet is this open's to write.
  if (cached !== undefined && cached.key === key && (fs.existsSync(stateFile) || !cached.fleet.clockSaved)) {
    // Held between sleeps (docs/behaviour.md#scaled-clock): a new use starts at the wall's instant.
    cached.fleet.clock.catchUp();
    return cached.fleet;
  }
  cached?.fleet.store.close();
  const fleet = load(fleetFile, stateFile, options.timeScale ?? DEFAULT_TIME_SCALE);
  open.set(stateFile, { key, fleet });
  return fleet;
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function load(fleetFile: string, stateFile: string, timeScale: number): FileBackedFleet {
  const description = readFleetDescription(fleetFile);
  let fleet: SimulatedFleet | undefined;
  let clock: HeldScaledClock | undefined;
  const { saved, store } = FleetStateStore.open(stateFile, () => ({ ...(fleet as SimulatedFleet).toState(), clock: (clock as HeldScaledClock).anchor }));
  clock = saved?.clock === undefined ? HeldScaledClock.startingNow(timeScale) : new HeldScaledClock(saved.clock).rescaled(timeScale);
  const theClock = clock;
  let clockSaved = saved?.clock !== undefined && theClock.anchor === saved.clock;
  fleet = new SimulatedFleet(description, theClock, {
    ...(saved === undefined ? {} : { restoredState: saved }),
    onStateChange: (changed) => store.record(changed),
  });
  const flush = (): void => {
    if (!clockSaved) store.setClock(theClock.anchor);
    store.flush();
    clockSaved = true;
  };
  return {
    fleet,
    clock: theClock,
    stateFile,
    saveClock: flush,
    flush,
    store,
    get clockSaved() {
      return clockSaved;
    },
  };
}

/** Forget what the simulated clusters went through: the next run starts from the description. */
export function resetFileBackedFleet(options: FileBackedFleetOptions, baseDir: string): void {
  const stateFile = stateFilePath(options, baseDir);
  open.get(stateFile)?.fleet.store.close();
  open.delete(stateFile);
  resetFleetState(stateFile);
}
