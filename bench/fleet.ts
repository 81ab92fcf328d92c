/**
 * Issue 12, Fleet Manager figures: the 200-member scenario of `bench/arm.ts` (2 stages × 10 groups ×
 * 10 members, 10-minute upgrades; without `maxConcurrency`, which Fleet lacked before 2026-06-01 —
 * kept so, so that the figures compare with earlier ones — so each group takes its members one at a
 * time) executed server-side by the ARM emulator's Fleet Manager and followed through the azureFleet
 * client, one GET per simulated minute (the backend's default poll interval, 60 s), with ARM's
 * throttling on. What the client costs ARM: its requests per simulated hour of following (every
 * request it sent, each SDK retry included), and per upgraded member.
 *
 * Issue 21: 500 members with `maxConcurrency: "20%"` on every group, run by Fleet Manager at
 * api-version 2026-06-01 and followed the same way: the requests an hour, and that run's makespan
 * against the in-process engine's for the same fleet (a ratio).
 */
import { FLEET_SCENARIO_200, FLEET_SCENARIO_500_PACED, fleetScenario } from "./armScenario";
import { simulateScenarioViaFleet } from "../src/simulation/viaFleetEmulator";
import { readFileSync } from "node:fs";
import { parseScenario, validateScenario } from "../src/simulation/scenario";
import { simulateScenario } from "../src/simulation/simulateScenario";
import { LONG_HORIZON_FILE, ending } from "./longHorizonScenario";

const MS_PER_SIMULATED_MINUTE = 100;

export interface FleetFigures {
  members: number;
  upgraded: number;
  state: string;
  /** Requests the client sent, by method, and 429s it was answered. */
  requests: { GET: number; PUT: number; POST: number; PATCH: number; throttled: number };
  /** Simulated minutes from the run's start to its end: the time the client followed it. */
  makespanMinutes: number;
  /** (GET + PUT + POST + PATCH) ÷ simulated hours followed. */
  requestsPerHour: number;
  requestsPerUpgradedMember: number;
  /** Seconds of simulated time between GETs while following. */
  pollSeconds: number;
  wallMs: number;
  msPerSimulatedMinute: number;
  longHorizon: LongHorizonFigures;
  paced: PacedFleetFigures;
}

/** Issue 21: a 500-member run with `maxConcurrency: "20%"` through Fleet Manager at 2026-06-01. */
export interface PacedFleetFigures {
  members: number;
  upgraded: number;
  state: string;
  apiVersion: string;
  maxConcurrency: string;
  requests: { GET: number; PUT: number; POST: number; PATCH: number; throttled: number };
  /** Every request the client sent ÷ simulated hours from the run's start to its end. */
  requestsPerHour: number;
  makespanMinutes: number;
  /** The same scenario run by the engine in process (virtual clock). */
  inProcessMakespanMinutes: number;
  /** makespanMinutes ÷ inProcessMakespanMinutes. */
  makespanRatio: number;
  pollSeconds: number;
  wallMs: number;
}

/**
 * Issue 20: `simulate --via fleet-emulator` of the weeks-long scenario (test/scenarios/long-horizon-windows.yaml,
 * weekly and monthly windows; without its one `maxConcurrency`, which the Fleet client refused before
 * issue 21, kept so for comparable figures), the
 * emulator's clock jumping over idle time to each server-side pass; beside it in process.
 */
export interface LongHorizonFigures {
  simulatedDays: number;
  wallMs: number;
  inProcessMs: number;
  /** Every state of the tree and every cluster's versions equal to the in-process run's. */
  endsAsInProcess: boolean;
}


async function longHorizonFigures(): Promise<LongHorizonFigures> {
  const parsed = parseScenario(readFileSync(LONG_HORIZON_FILE, "utf8"));
  const scenario = validateScenario({ ...parsed, strategy: { stages: parsed.strategy?.stages.map((s) => ({ ...s, groups: s.groups.map(({ maxConcurrency: _none, ...g }) => g) })) } });
  let began = performance.now();
  const inProcess = await simulateScenario(scenario);
  const inProcessMs = performance.now() - began;
  began = performance.now();
  const viaFleet = await simulateScenarioViaFleet(scenario);
  const wallMs = performance.now() - began;
  const { startTime, completedTime } = viaFleet.result.status.status;
  return {
    simulatedDays: Math.round(((Date.parse(completedTime ?? scenario.start) - Date.parse(startTime ?? scenario.start)) / 864e5) * 10) / 10,
    wallMs: Math.round(wallMs),
    inProcessMs: Math.round(inProcessMs),
    endsAsInProcess: ending(viaFleet) === ending(inProcess),
  };
}

export async function fleetFigures(): Promise<FleetFigures> {
  const base = fleetScenario({ ...FLEET_SCENARIO_200, maxConcurrency: "1" });
  // Fleet Manager has no maxConcurrency: the same stages and groups without it (one at a time).
  const scenario = validateScenario({ ...base, strategy: { stages: base.strategy?.stages.map((s) => ({ name: s.name, groups: s.groups.map((g) => ({ name: g.name })) })) } });
  const began = performance.now();
  const report = await simulateScenarioViaFleet(scenario, { msPerSimulatedMinute: MS_PER_SIMULATED_MINUTE, pollMs: MS_PER_SIMULATED_MINUTE, throttling: true });
  const wallMs = performance.now() - began;
  const { status, clusters } = report.result;
  const upgraded = clusters.filter((c) => c.operations.some((o) => o.result === "Succeeded")).length;
  const { GET, PUT, POST, PATCH, throttled } = report.clientRequests;
  const started = Date.parse(status.status.startTime ?? scenario.start);
  const ended = status.status.completedTime === undefined ? Number.NaN : Date.parse(status.status.completedTime);
  const minutes = (ended - started) / 60_000;
  const total = GET + PUT + POST + PATCH;
  return {
    members: scenario.members.length,
    upgraded,
    state: status.status.state,
    requests: { GET, PUT, POST, PATCH, throttled },
    makespanMinutes: Math.round(minutes * 10) / 10,
    requestsPerHour: Math.round((total / (minutes / 60)) * 10) / 10,
    requestsPerUpgradedMember: upgraded === 0 ? Number.NaN : Math.round((total / upgraded) * 100) / 100,
    pollSeconds: 60,
    wallMs: Math.round(wallMs),
    msPerSimulatedMinute: MS_PER_SIMULATED_MINUTE,
    longHorizon: await longHorizonFigures(),
    paced: await pacedFigures(),
  };
}

/** Simulated minutes from the run's start to its end. */
function makespan(status: { status: { startTime?: string; completedTime?: string } }, start: string): number {
  const ended = status.status.completedTime === undefined ? Number.NaN : Date.parse(status.status.completedTime);
  return (ended - Date.parse(status.status.startTime ?? start)) / 60_000;
}

export async function pacedFigures(): Promise<PacedFleetFigures> {
  const scenario = fleetScenario(FLEET_SCENARIO_500_PACED);
  const inProcess = await simulateScenario(scenario);
  const apiVersion = "2026-06-01";
  const began = performance.now();
  const report = await simulateScenarioViaFleet(scenario, { apiVersion, msPerSimulatedMinute: MS_PER_SIMULATED_MINUTE, pollMs: MS_PER_SIMULATED_MINUTE, throttling: true });
  const wallMs = performance.now() - began;
  const { status, clusters } = report.result;
  const { GET, PUT, POST, PATCH, throttled } = report.clientRequests;
  const minutes = makespan(status, scenario.start);
  const local = makespan(inProcess.result.status, scenario.start);
  return {
    members: scenario.members.length,
    upgraded: clusters.filter((c) => c.operations.some((o) => o.result === "Succeeded")).length,
    state: status.status.state,
    apiVersion,
    maxConcurrency: FLEET_SCENARIO_500_PACED.maxConcurrency,
    requests: { GET, PUT, POST, PATCH, throttled },
    requestsPerHour: Math.round(((GET + PUT + POST + PATCH) / (minutes / 60)) * 10) / 10,
    makespanMinutes: Math.round(minutes * 10) / 10,
    inProcessMakespanMinutes: Math.round(local * 10) / 10,
    makespanRatio: Math.round((minutes / local) * 1000) / 1000,
    pollSeconds: 60,
    wallMs: Math.round(wallMs),
  };
}
