/**
 * The one place that looks at which backend a run is on: every caller (the Pulumi resources, the
 * CLI's `run`, `gate` and `plan`) gets its `RunDriver` here. The Azure drivers load only for a run on
 * Azure, so a run on the simulated fleet starts without the Azure SDKs.
 */
import type { BackendConfig } from "../spec/runSpec";
import { EngineDriver } from "./engine/engineDriver";
import type { FleetDriverOptions } from "./fleet/fleetDriver";
import { simulatorOpener } from "./engine/openBackend";
import type { RunDriver } from "./runDriver";

export interface DriverOptions {
  /** Where relative paths (fleet file, CA file, journals) are resolved from (default the working directory). */
  baseDir?: string;
  /** Fleet Manager only: the clock following runs on (default the wall clock). */
  fleet?: FleetDriverOptions;
}

export async function driverFor(backend: BackendConfig, options: DriverOptions = {}): Promise<RunDriver> {
  const baseDir = options.baseDir ?? process.cwd();
  if (backend.simulator !== undefined) return new EngineDriver(simulatorOpener(backend.simulator, baseDir));
  if (backend.azure !== undefined) return new EngineDriver((await import("./engine/openAzure")).azureOpener(backend.azure, baseDir));
  const { FleetManagerDriver } = await import("./fleet/fleetDriver");
  return new FleetManagerDriver(backend.azureFleet, baseDir, options.fleet);
}
