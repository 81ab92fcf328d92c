/**
 * The emulator's server-side run driver applies a user action and the pass that follows it at one
 * instant, as a run in process does. Its clock here moves a simulated minute at every reading, the
 * worst a busy machine can do between two readings: a start read apart from its pass showed the run
 * Pending (the start aggregates the run before its first member starts) for that minute.
 */
import { expect, test } from "vitest";
import { RunDriver } from "../../src/emulator/fleet/fleetRuns";
import { SimulatedFleet } from "../../src/backends/simulator";
import { UpdateRunEngine, type Clock } from "../../src/engine";
import type { RunEvent } from "../../src/model/status";
import { groupedFleet } from "./fleetHelpers";

class TickingClock implements Clock {
  constructor(private current: number) {}
  now(): number {
    this.current += 60_000;
    return this.current;
  }
  async sleepUntil(): Promise<void> {}
}

test("a start and its first pass happen at one instant: the run goes NotStarted → Running, never Pending", async () => {
  const clock = new TickingClock(Date.parse("2026-12-05T00:00:00Z"));
  const fleet = groupedFleet();
  const backend = new SimulatedFleet(fleet, clock);
  const events: RunEvent[] = [];
  const engine = UpdateRunEngine.create(
    { name: "run", members: fleet.members.map((m) => ({ name: m.name, ...(m.group === undefined ? {} : { group: m.group }) })), strategy: { stages: [{ name: "all", groups: [{ name: "canary" }, { name: "prod" }, { name: "dev" }] }] }, managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } } },
    backend,
    { onEvent: (e) => events.push(e) },
  );
  const driver = new RunDriver(engine, { clock, timeScale: 1 });
  try {
    await driver.start();
    const run = events.filter((e) => e.scope === "run");
    expect(run.map((e) => `${e.from}→${e.to}`)).toEqual(["NotStarted→Running"]);
    // The member started in that pass: its start is its operation's (docs/rules.md §20), this clock ticking at every read.
    const firstStart = events.find((e) => e.scope === "member" && e.to === "Running");
    expect(firstStart?.time).toBe(backend.operationLog()[0]?.startTime);
    expect(Date.parse(firstStart?.time ?? "")).toBeGreaterThan(Date.parse(run[0]?.time ?? ""));
  } finally {
    driver.close();
  }
});
