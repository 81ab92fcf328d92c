/** Report inputs for the tests: real simulate results, hand-made status trees, and a 10,000-member run. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseScenario } from "../../src/simulation/scenario";
import { simulateScenario } from "../../src/simulation/simulateScenario";

export const EXAMPLE_SCENARIOS = resolve(__dirname, "../../examples/scenarios");
export const DEMO_SCENARIO = resolve(__dirname, "../../examples/demo/scenario.yaml");
export const MIXED_STATES_SCENARIO = resolve(__dirname, "mixedStates.yaml");
export const GATED_SCENARIO = resolve(__dirname, "gatedRun.yaml");

/** What `fleet-update simulate FILE --json` prints, parsed back. */
export async function simulateJson(file: string): Promise<SimulateJson> {
  const report = await simulateScenario(parseScenario(readFileSync(file, "utf8")));
  return JSON.parse(JSON.stringify(report.result)) as SimulateJson;
}

export interface SimulateJson {
  status: StatusJson;
  clusters: unknown[];
  events: Array<{ time: string; scope: string; name: string; from: string; to: string; message?: string }>;
}

export interface TimedJson {
  state: string;
  startTime?: string;
  completedTime?: string;
  error?: { code: string; message: string };
}
export interface MemberJson {
  name: string;
  operationId?: string;
  clusterResourceId?: string;
  message?: string;
  status: TimedJson;
}
export interface GateJson {
  displayName: string;
  gateId: string;
  status: TimedJson;
}
export interface GroupJson {
  name: string;
  status: TimedJson;
  members: MemberJson[];
  beforeGates?: GateJson[];
  afterGates?: GateJson[];
}
export interface StageJson {
  name: string;
  status: TimedJson;
  afterStageWaitStatus?: { status: TimedJson; waitDurationInSeconds: number };
  groups: GroupJson[];
  beforeGates?: GateJson[];
  afterGates?: GateJson[];
}
export interface StatusJson {
  status: TimedJson;
  nodeImageSelection: { selectedNodeImageVersions: Array<{ version: string }> };
  stages: StageJson[];
}

export function allMembers(status: StatusJson): MemberJson[] {
  return status.stages.flatMap((s) => s.groups.flatMap((g) => g.members));
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, "Z");

/**
 * A finished run of `stages × groups × members` members, each Pending for ten minutes and then
 * upgraded in twenty, one after the other in its group (three events per member), with an hour's wait
 * after each stage: the size of the benchmark fleet.
 */
export function largeRunInput(stageCount: number, groupCount: number, memberCount: number): { status: StatusJson; events: SimulateJson["events"] } {
  const events: SimulateJson["events"] = [];
  const stages: StageJson[] = [];
  const begin = Date.parse("2026-12-05T00:00:00Z");
  let stageStart = begin;
  for (let s = 0; s < stageCount; s++) {
    const groups: GroupJson[] = [];
    let stageEnd = stageStart;
    for (let g = 0; g < groupCount; g++) {
      const members: MemberJson[] = [];
      let at = stageStart;
      for (let m = 0; m < memberCount; m++) {
        const name = `s${s}-g${g}-m${m}`;
        const start = at + 10 * 60_000;
        const end = start + 20 * 60_000;
        events.push({ time: iso(at), scope: "member", name, from: "NotStarted", to: "Pending", message: `Maintenance window closed; next opening at ${iso(start)}.` });
        events.push({ time: iso(start), scope: "member", name, from: "Pending", to: "Running" });
        events.push({ time: iso(end), scope: "member", name, from: "Running", to: "Completed" });
        members.push({
          name,
          operationId: `op-${name}-1`,
          clusterResourceId: `/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/fleet/providers/Microsoft.ContainerService/managedClusters/${name}`,
          status: { state: "Completed", startTime: iso(start), completedTime: iso(end) },
        });
        at = end;
      }
      groups.push({ name: `s${s}-g${g}`, status: { state: "Completed", startTime: iso(stageStart), completedTime: iso(at) }, members });
      stageEnd = Math.max(stageEnd, at);
    }
    const waitEnd = stageEnd + 3_600_000;
    stages.push({
      name: `stage-${s}`,
      status: { state: "Completed", startTime: iso(stageStart), completedTime: iso(waitEnd) },
      afterStageWaitStatus: { status: { state: "Completed", startTime: iso(stageEnd), completedTime: iso(waitEnd) }, waitDurationInSeconds: 3600 },
      groups,
    });
    stageStart = waitEnd;
  }
  return {
    status: { status: { state: "Completed", startTime: iso(begin), completedTime: iso(stageStart) }, nodeImageSelection: { selectedNodeImageVersions: [] }, stages },
    events,
  };
}
