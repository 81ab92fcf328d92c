/**
 * Issue 12: the Fleet Manager client for a run's `backend.azureFleet`, with the azure backend's
 * credential handling (DefaultAzureCredential, or the emulator's dummy token on a loopback endpoint)
 * and trusted CA file, at the run's api-version (issue 21; default 2026-06-01). Relative paths resolve
 * against `baseDir`.
 */
import fs from "node:fs";
import path from "node:path";
import { credentialFor } from "../../backends/azure/credentials";
import { FleetClient } from "../../backends/azureFleet/fleetClient";
import type { BackendConfig } from "../../spec/runSpec";

export type AzureFleetConfig = NonNullable<BackendConfig["azureFleet"]>;

/** Default seconds between GETs of a run being followed: 60 reads an hour. */
export const DEFAULT_FLEET_POLL_SECONDS = 60;

/** The SDK's pollers (start, stop, skip, creates) read no more often than the run is followed, nor less than every 2 s. */
export function lroIntervalMs(config: AzureFleetConfig): number | undefined {
  const poll = (config.pollIntervalSeconds ?? DEFAULT_FLEET_POLL_SECONDS) * 1000;
  return poll < 2000 ? poll : undefined;
}

export function openFleetClient(config: AzureFleetConfig, baseDir: string = process.cwd()): FleetClient {
  const lro = lroIntervalMs(config);
  return new FleetClient({
    fleetId: config.fleetId,
    credential: credentialFor(config.credential),
    ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint }),
    ...(config.apiVersion === undefined ? {} : { apiVersion: config.apiVersion }),
    ...(config.trustedCaFile === undefined ? {} : { trustedCaPem: fs.readFileSync(path.resolve(baseDir, config.trustedCaFile), "utf8") }),
    ...(lro === undefined ? {} : { lroIntervalMs: lro }),
  });
}
