/**
 * Issue 22 on Fleet Manager: the scenario files with label-selected groups and a ScheduledStart gate
 * end, executed by the emulator's Fleet Manager at 2026-06-02-preview (the version that has them) and
 * driven through the azureFleet backend's client, in the same states as in process; the gate's
 * instant (`absoluteStartTime`, read from Fleet's gate resource) is the engine's. At 2026-06-01 the
 * same files are refused before anything is sent, naming the field and the version that has it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { statusGates } from "../../../src/drivers/waiting";
import { simulateScenarioViaFleet, fleetScenarioProblems, type FleetSimulationReport } from "../../../src/simulation/viaFleetEmulator";
import { ValidationError } from "../../../src/model/issues";
import { SimulatedFleet } from "../../../src/backends/simulator";
import { VirtualClock } from "../../../src/engine/clock";
import { runScenario } from "../../../src/simulation/simulateScenario";
import { fleetParityFiles } from "./parity/fleetVersions";
import { inProcess } from "./parity/runAll";
import { outcomeOf, type Outcome } from "./parity/outcome";
import { scenarioFiles, type ScenarioFile } from "./parity/scenarioFiles";

const MS_PER_SIMULATED_MINUTE = 4;
const LABELS = "suite/label-selected-groups.yaml";
const SCHEDULED = "suite/scheduled-start-gate.yaml";

const files = new Map(scenarioFiles().filter((f) => f.label === LABELS || f.label === SCHEDULED).map((f) => [f.label, f]));
const file = (label: string): ScenarioFile => files.get(label) as ScenarioFile;

describe("label selection and ScheduledStart gates through Fleet Manager (2026-06-02-preview)", () => {
  const viaFleet = new Map<string, { outcome: Outcome; report: FleetSimulationReport }>();
  const expected = new Map<string, Outcome>();
  beforeAll(async () => {
    for (const label of [LABELS, SCHEDULED]) expected.set(label, await inProcess(file(label).scenario));
    for (const label of [LABELS, SCHEDULED]) {
      const { scenario } = file(label);
      const report = await simulateScenarioViaFleet(scenario, { apiVersion: "2026-06-02-preview", msPerSimulatedMinute: MS_PER_SIMULATED_MINUTE });
      viaFleet.set(label, { outcome: outcomeOf(scenario, report, report.fleetState), report });
    }
  }, 120_000);

  it("the parity tests run both files at 2026-06-02-preview, the first version that takes them", () => {
    const chosen = fleetParityFiles([file(LABELS), file(SCHEDULED)]);
    expect(chosen.excluded).toEqual([]);
    expect(chosen.files.map((f) => f.apiVersion)).toEqual(["2026-06-02-preview", "2026-06-02-preview"]);
  });

  it("groups chosen by the fleet members' labels end as in process: a group matching nobody Skipped, x-1 left out", () => {
    const got = viaFleet.get(LABELS);
    expect(got?.outcome).toEqual(expected.get(LABELS));
    expect(got?.report.apiVersionsSent).toEqual(["2026-06-02-preview"]);
    const prod = got?.report.result.status.stages.find((s) => s.name === "prod");
    expect(prod?.groups.map((g) => [g.name, g.status.state, g.members.map((m) => m.name).sort()])).toEqual([
      ["staging", "Completed", ["s-1"]],
      ["production", "Completed", ["e-1", "e-2"]],
      ["nobody", "Skipped", []],
    ]);
    expect(got?.report.excludedMembers.map((m) => m.name)).toEqual(["x-1"]);
  });

  it("production waits for its ScheduledStart gate until Tuesday 09:00 +01:00, as in process, and shows the same instant", async () => {
    const got = viaFleet.get(SCHEDULED);
    expect(got?.outcome).toEqual(expected.get(SCHEDULED));
    const clock = new VirtualClock(Date.parse(file(SCHEDULED).scenario.start));
    const fleet = new SimulatedFleet({ regions: file(SCHEDULED).scenario.regions, members: file(SCHEDULED).scenario.members }, clock);
    const here = await runScenario(file(SCHEDULED).scenario, { backend: fleet, clock, clusters: () => fleet.snapshot().clusters });
    const gate = (status: typeof here.result.status) => statusGates(status).find((g) => g.gateId === "prod/before/0");
    expect(gate(here.result.status)?.scheduledStartProperties).toEqual({ startDay: "Tuesday", startTime: "09:00", utcOffset: "+01:00", absoluteStartTime: "2026-12-08T08:00:00Z" });
    expect(gate(got?.report.result.status as typeof here.result.status)?.scheduledStartProperties).toEqual(gate(here.result.status)?.scheduledStartProperties);
    // Nobody approved it: p-1 started when it opened, not before (requests through ARM take real time,
    // a few simulated seconds at this scale).
    const p1 = got?.report.result.status.stages[1]?.groups[0]?.members.find((m) => m.name === "p-1");
    const started = Date.parse(p1?.status.startTime ?? "");
    expect(started - Date.parse("2026-12-08T08:00:00Z")).toBeGreaterThanOrEqual(0);
    expect(started - Date.parse("2026-12-08T08:00:00Z")).toBeLessThan(2 * 60_000);
  });

  it("at 2026-06-01 both files are refused before anything is sent, naming each field and 2026-06-02-preview", async () => {
    const labels = fleetScenarioProblems(file(LABELS).scenario, "2026-06-01");
    expect(labels.map((p) => p.path)).toEqual([
      "strategy.stages[0].groups[0].memberSelector",
      "strategy.stages[1].memberSelector",
      "strategy.stages[1].groups[0].memberSelector",
      "strategy.stages[1].groups[1].memberSelector",
      "strategy.stages[1].groups[2].memberSelector",
    ]);
    for (const p of labels) expect(p.message).toBe("Fleet Manager takes memberSelector from api-version 2026-06-02-preview (--api-version is 2026-06-01)");
    const scheduled = fleetScenarioProblems(file(SCHEDULED).scenario, "2026-06-01");
    expect(scheduled).toEqual([{ path: "strategy.stages[1].beforeGates[0].type", message: "Fleet Manager takes ScheduledStart gates from api-version 2026-06-02-preview (--api-version is 2026-06-01)" }]);
    await expect(simulateScenarioViaFleet(file(SCHEDULED).scenario, { apiVersion: "2026-06-01" })).rejects.toBeInstanceOf(ValidationError);
  });
});
