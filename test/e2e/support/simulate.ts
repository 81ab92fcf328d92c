/**
 * `fleet-update simulate` on the fleet, members, strategy and target a Pulumi run ran, and the shape
 * of a status to compare the two by: states, order and operation ids (times differ: a real scaled
 * clock against a virtual one).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { REPO_ROOT } from "./pulumiCli";

export interface MemberStatus { name: string; operationId?: string; status: { state: string } }
export interface RunStatus { status: { state: string }; stages: Array<{ name: string; status: { state: string }; groups: Array<{ name: string; members: MemberStatus[] }> }> }
export interface RunSummaryShape { state: string; outcome: string; members: Record<string, number> }

/** Simulates, in `scratchDir`, the run whose inputs Pulumi stored, over the fleet file `fleetFile`. */
export function simulateStoredRun(inputs: Record<string, unknown>, fleetFile: string, scratchDir: string): { status: RunStatus; summary: RunSummaryShape } {
  const run = inputs as { members: Array<{ name: string; group?: string }>; strategy: unknown; managedClusterUpdate: unknown };
  const fleet = parseYaml(fs.readFileSync(fleetFile, "utf8")) as { regions: unknown; members: Array<{ name: string }> };
  const scenario = {
    start: "2026-12-05T00:00:00Z",
    regions: fleet.regions,
    members: run.members.map((m) => ({ ...fleet.members.find((f) => f.name === m.name)!, ...(m.group === undefined ? {} : { group: m.group }) })),
    strategy: run.strategy,
    managedClusterUpdate: run.managedClusterUpdate,
  };
  const file = path.join(scratchDir, "scenario.json");
  fs.writeFileSync(file, JSON.stringify(scenario));
  return JSON.parse(execFileSync(process.execPath, [path.join(REPO_ROOT, "dist", "cli", "main.js"), "simulate", file, "--json"], { encoding: "utf8" }));
}

export function statusShape(status: RunStatus): unknown {
  return {
    state: status.status.state,
    stages: status.stages.map((s) => ({
      name: s.name,
      state: s.status.state,
      groups: s.groups.map((g) => ({ name: g.name, members: g.members.map((m) => [m.name, m.status.state, m.operationId]) })),
    })),
  };
}
