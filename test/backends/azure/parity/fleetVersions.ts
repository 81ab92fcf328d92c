/**
 * Issue 21: which api-version a scenario file runs at through Fleet Manager. The parity tests run
 * each file at the first version the client speaks that has every feature it uses — 2026-06-01 (GA,
 * the default) when it can, else 2026-06-02-preview (`maxAllowedFailures`) — or at a given one; a
 * file no version takes is left out, with the fields refused.
 */
import type { ClientFleetApiVersion } from "../../../../src/backends/azureFleet/wire";
import type { FieldIssue } from "../../../../src/model/issues";
import { fleetScenarioProblems } from "../../../../src/simulation/viaFleetEmulator";
import type { ScenarioFile } from "./scenarioFiles";

/** The versions the parity runs at, in order of preference. */
export const PARITY_VERSIONS: readonly ClientFleetApiVersion[] = ["2026-06-01", "2026-06-02-preview"];

export interface FleetParityFile extends ScenarioFile {
  apiVersion: ClientFleetApiVersion;
}

export interface FleetParitySelection {
  files: FleetParityFile[];
  /** Files no version takes, with what the newest refuses. */
  excluded: Array<{ file: ScenarioFile; problems: FieldIssue[] }>;
}

/** Each file at `only`, or at the first of `PARITY_VERSIONS` that takes it. */
export function fleetParityFiles(files: ScenarioFile[], only?: ClientFleetApiVersion): FleetParitySelection {
  const out: FleetParitySelection = { files: [], excluded: [] };
  for (const file of files) {
    const versions = only === undefined ? PARITY_VERSIONS : [only];
    const apiVersion = versions.find((v) => fleetScenarioProblems(file.scenario, v).length === 0);
    if (apiVersion !== undefined) out.files.push({ ...file, apiVersion });
    else out.excluded.push({ file, problems: fleetScenarioProblems(file.scenario, versions.at(-1)) });
  }
  return out;
}

/** `34 at 2026-06-01, 1 at 2026-06-02-preview`. */
export function countsByVersion(files: FleetParityFile[]): string {
  const counts = new Map<string, number>();
  for (const f of files) counts.set(f.apiVersion, (counts.get(f.apiVersion) ?? 0) + 1);
  return [...counts].map(([v, n]) => `${n} at ${v}`).join(", ");
}
