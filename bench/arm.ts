/**
 * ARM figures (`npm run bench` prints them after the engine's): a 200-member run (2 stages × 10
 * groups × 10 members, maxConcurrency 5, 10-minute upgrades) through the Azure backend against the
 * ARM emulator with ARM's throttling on: requests per upgraded member, 429s seen, wall time. With
 * time compressed this far the run is bound by the read bucket (25/s after a burst of 250), so the
 * wall time follows the request count.
 */
import { FLEET_SCENARIO_200, fleetScenario } from "./armScenario";
import { simulateScenarioViaArm } from "../src/simulation/viaArmEmulator";

const MS_PER_SIMULATED_MINUTE = 250;

export interface ArmFigures {
  members: number;
  /** Clusters with a succeeded upgrade. */
  upgraded: number;
  state: string;
  requests: { GET: number; PUT: number; POST: number; throttled: number };
  /** (GET + PUT + POST) ÷ upgraded members; retried requests count each time. */
  requestsPerUpgradedMember: number;
  /** 429s answered by the emulator's token buckets (all retried by the SDK if the run Completed). */
  throttled: number;
  wallMs: number;
  msPerSimulatedMinute: number;
  /** Simulated minutes from the run's start to its end. */
  makespanMinutes: number;
}

export async function armFigures(): Promise<ArmFigures> {
  const scenario = fleetScenario(FLEET_SCENARIO_200);
  const began = performance.now();
  const report = await simulateScenarioViaArm(scenario, { msPerSimulatedMinute: MS_PER_SIMULATED_MINUTE });
  const wallMs = performance.now() - began;
  const { status, clusters } = report.result;
  const upgraded = clusters.filter((c) => c.operations.some((o) => o.result === "Succeeded")).length;
  const { GET, PUT, POST, throttled } = report.requests;
  const started = Date.parse(status.status.startTime ?? scenario.start);
  const ended = status.status.completedTime === undefined ? Number.NaN : Date.parse(status.status.completedTime);
  return {
    members: scenario.members.length,
    upgraded,
    state: status.status.state,
    requests: { GET, PUT, POST, throttled },
    requestsPerUpgradedMember: upgraded === 0 ? Number.NaN : Math.round(((GET + PUT + POST) / upgraded) * 100) / 100,
    throttled,
    wallMs: Math.round(wallMs),
    msPerSimulatedMinute: MS_PER_SIMULATED_MINUTE,
    makespanMinutes: Math.round((ended - started) / 6_000) / 10,
  };
}
