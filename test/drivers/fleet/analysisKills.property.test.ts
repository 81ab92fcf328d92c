/**
 * Issue 31 on Fleet Manager, property: the client killed during an analysis — at any of its requests to
 * Fleet or to Prometheus, before the request was sent or after it landed, once or several times, with
 * minutes passing before the next client — never approves a gate twice, never has a member upgraded
 * twice, approves no gate before its soak is over, and ends as the client never killed ends: the healthy
 * rollout Completed, the sick one halted before its last stage with the early stage's gate never
 * approved. A resumed analysis goes on where it was: each soak that a client measured to its end counts
 * all its measurements, the first at the instant Fleet reached the gate.
 */
import fc from "fast-check";
import { expect, test } from "vitest";
import type { MeasurePorts } from "../../../src/engine/analysis";
import type { FleetClient } from "../../../src/backends/azureFleet/fleetClient";
import { openFleetClient } from "../../../src/drivers/fleet/openFleet";
import { runFleetSession, type FleetSessionResult } from "../../../src/drivers/fleet/fleetSession";
import { SOAK_SECONDS, analysisRunInputs, gateApprovals, simulatedPorts, startAnalysisEmulator } from "./analysisSupport";

class Killed extends Error {}

/** Where a client dies: at its `at`-th request (Fleet or Prometheus), before sending it or after it landed. */
interface Kill {
  at: number;
  landed: boolean;
  /** Simulated minutes before the next client starts. */
  gapMinutes: number;
}

/** The client and its measuring ports, dying at `kill` (never, without one). */
function mortal(client: FleetClient, ports: MeasurePorts, kill: Kill | undefined): { client: FleetClient; ports: MeasurePorts } {
  let count = 0;
  const call = async <T>(request: () => Promise<T> | T): Promise<T> => {
    count += 1;
    if (kill !== undefined && count === kill.at && !kill.landed) throw new Killed(`killed before request ${count}`);
    const answer = await request();
    if (kill !== undefined && count === kill.at && kill.landed) throw new Killed(`killed after request ${count} landed`);
    return answer;
  };
  const sent = new Set(["listMembers", "getRun", "createRun", "startRun", "stopRun", "approveGate", "getGate", "getStrategy"]);
  const proxy = new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof prop !== "string" || !sent.has(prop) || typeof value !== "function") return value;
      return (...args: unknown[]) => call(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
    },
  });
  return { client: proxy, ports: { probe: ports.probe, queryMetric: (query) => call(() => ports.queryMetric(query)) } };
}

const kills = fc.array(fc.record({ at: fc.integer({ min: 1, max: 70 }), landed: fc.boolean(), gapMinutes: fc.constantFrom(0, 3, 12) }), { minLength: 1, maxLength: 3 });

test("killed anywhere during its analyses, the client's successors approve no gate twice, upgrade no member twice, and end as it would", async () => {
  const seen = new Set<string>();
  await fc.assert(
    fc.asyncProperty(fc.boolean(), kills, async (sick, plan) => {
      const emulator = await startAnalysisEmulator(sick ? ["aks-3"] : []);
      try {
        const inputs = analysisRunInputs(emulator, "kills");
        let result: FleetSessionResult | undefined;
        let lastStart = 0;
        for (const kill of [...plan, undefined]) {
          const { client, ports } = mortal(openFleetClient(inputs.backend.azureFleet!), simulatedPorts(emulator), kill);
          lastStart = emulator.clock.now();
          try {
            // A killed client keeps nothing: each successor starts with no record.
            result = await runFleetSession(inputs, client, 60, { clock: emulator.clock, measure: ports });
          } catch (e) {
            if (!(e instanceof Killed)) throw e;
            seen.add(kill?.landed === true ? "landed" : "before");
          }
          if (kill !== undefined && kill.gapMinutes > 0) await emulator.clock.sleepUntil(emulator.clock.now() + kill.gapMinutes * 60_000);
          if (result !== undefined) break;
        }
        if (result === undefined) lastStart = emulator.clock.now();
        result ??= await runFleetSession(inputs, openFleetClient(inputs.backend.azureFleet!), 60, { clock: emulator.clock, measure: simulatedPorts(emulator) });
        const status = result.status;

        // No gate approved twice; no member upgraded twice.
        const approvals = gateApprovals(emulator);
        expect([...approvals.values()].every((n) => n === 1)).toBe(true);
        for (const cluster of emulator.fleet.snapshot().clusters) expect(cluster.operations.length, cluster.name).toBeLessThanOrEqual(1);

        // No gate approved before its soak was over.
        for (const stage of status.stages) {
          const gate = stage.afterGates?.at(-1);
          if (gate?.status.state !== "Completed") continue;
          const wait = stage.afterStageWaitStatus!.status;
          expect(Date.parse(gate.status.completedTime!)).toBeGreaterThanOrEqual(Date.parse(wait.startTime!) + SOAK_SECONDS * 1000);
        }

        // The same end as a client never killed.
        if (sick) {
          expect(status.status.state).toBe("Failed");
          expect(status.status.error?.message).toContain('cluster_error_rate{cluster="aks-3"} = 0.31');
          expect(status.stages[1]!.afterGates?.at(-1)?.status.state).not.toBe("Completed");
          expect(approvals.size).toBe(1);
          expect(emulator.fleet.snapshot().clusters.filter((c) => c.operations.length > 0).map((c) => c.name)).toEqual(["aks-1", "aks-2", "aks-3"]);
          seen.add("sick");
        } else {
          expect(status.status.state).toBe("Completed");
          expect(approvals.size).toBe(3);
          for (const cluster of emulator.fleet.snapshot().clusters) expect(cluster.operations.map((o) => o.result)).toEqual(["Succeeded"]);
          // Each soak the last client measured to its end: all 11 measurements, one after another from the
          // gate's instant; one reached before that client started was taken up where it was — its missed
          // measurements taken at their own instants, from the first.
          for (const stage of status.stages) {
            const soak = stage.analysisRuns?.find((a) => a.kind === "soak");
            if (soak === undefined) continue;
            expect(soak).toMatchObject({ phase: "Successful", count: 11, successful: 11 });
            const reached = Date.parse(stage.afterStageWaitStatus!.status.startTime!);
            const instants = soak.measurements.map((m) => Date.parse(m.measuredAt));
            expect(instants.every((t, i) => t >= reached && (i === 0 || t > (instants[i - 1] as number)))).toBe(true);
            if (reached < lastStart) {
              expect(instants[0]).toBe(reached);
              seen.add("resumed");
            }
          }
          seen.add("healthy");
        }
      } finally {
        await emulator.close();
      }
    }),
    { numRuns: 12, seed: 31_0031 },
  );
  // The runs covered both rollouts and both kinds of death.
  expect([...seen].sort()).toEqual(["before", "healthy", "landed", "resumed", "sick"]);
}, 600_000);
