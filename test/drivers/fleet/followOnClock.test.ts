/**
 * Issue 20: following a Fleet Manager run runs on the injected clock, as the engine driver does. On the
 * emulator's compressible clock a day's soak between stages is jumped over pass by pass instead of
 * slept through, and the events are stamped with that clock's instants.
 */
import { afterEach, expect, test } from "vitest";
import type { ArmEmulator } from "../../../src/emulator";
import type { RunEvent } from "../../../src/model/status";
import type { CompressibleClock } from "../../../src/runtime/compressibleClock";
import { parseRunInputs } from "../../../src/drivers/runInputs";
import { openFleetClient } from "../../../src/drivers/fleet/openFleet";
import { runFleetSession } from "../../../src/drivers/fleet/fleetSession";
import { groupedFleet, startFleetEmulator } from "../../emulator/fleetHelpers";
import { fleetBackend } from "../../backends/azureFleet/support";

let emulator: ArmEmulator;
afterEach(async () => {
  await emulator.close();
});

test("a run with a one-day soak is followed to its end on the emulator's clock, which jumps over the soak", async () => {
  // 200 ms a simulated minute, so the real time the client's own requests take (which runs the clock)
  // stays small beside the day: a day would take 4.8 real minutes without the jumps. Upgrades of a
  // simulated minute keep the rest short.
  const minute = { "canary-1": 1, "prod-1": 1, "prod-2": 1, "prod-3": 1, "dev-1": 1 };
  emulator = await startFleetEmulator({ fleet: groupedFleet(minute), msPerSimulatedMinute: 200, startAt: "2026-12-05T00:00:00Z", compressIdleTime: true });
  const inputs = parseRunInputs({
    runName: "soak",
    backend: fleetBackend(emulator, 60),
    members: [],
    strategy: { stages: [{ name: "canary", groups: [{ name: "canary" }], afterStageWaitInSeconds: 86_400 }, { name: "prod", groups: [{ name: "prod" }] }] },
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
    // Minutes on the clock following runs on: two simulated days.
    timeoutMinutes: 2 * 24 * 60,
  });
  const events: RunEvent[] = [];
  const result = await runFleetSession(inputs, openFleetClient(inputs.backend.azureFleet!), 60, { clock: emulator.clock, onEvent: (e) => events.push(e) });

  expect(result.status.status.state).toBe("Completed");
  const wait = result.status.stages[0]!.afterStageWaitStatus!.status;
  expect(Date.parse(wait.completedTime!) - Date.parse(wait.startTime!)).toBeGreaterThanOrEqual(86_400_000);
  // Stamped on the emulator's clock: the last event a day and more after the first.
  expect(Date.parse(events.at(-1)!.time) - Date.parse(events[0]!.time)).toBeGreaterThanOrEqual(86_400_000);
  // The soak was jumped over, not slept through at the clock's scale.
  expect((emulator.clock as CompressibleClock).skippedMs).toBeGreaterThan(20 * 3_600_000);
});
