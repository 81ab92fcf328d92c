/**
 * Issue 23: the run journal as a log (`src/drivers/engine/journal.ts`). Each pass's changes are one record;
 * what the journal reads back is the engine's state after every pass, user actions included; a kill
 * that tears the last record loses that record only; a corrupt record before the last is refused; a
 * format-1 journal, and a format-1 simulated fleet state file, are read and migrated at the first write.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { SimulatedFleet } from "../../../src/backends/simulator";
import { openFileBackedFleet } from "../../../src/backends/simulator/fileBacked";
import { readFleetState } from "../../../src/backends/simulator/stateFile";
import { VirtualClock } from "../../../src/engine/clock";
import type { EngineOptions } from "../../../src/engine/context";
import { drive } from "../../../src/engine/drive";
import { UpdateRunEngine } from "../../../src/engine/engine";
import type { RunState } from "../../../src/engine/runState";
import { withHealthChecks, withoutHealthChecks } from "../../../src/drivers/engine/healthChecks";
import { RunJournal, type JournalEntry } from "../../../src/drivers/engine/journal";
import { JournalError } from "../../../src/drivers/runRecords";
import { isFramed } from "../../../src/runtime/recordLog";
import { resolveScenarioStrategy, scenarioHorizon, type Scenario } from "../../../src/simulation/scenario";
import { toRunActions } from "../../../src/simulation/simulateScenario";
import { scenarioArb } from "../../engine/arbitraries";
import { updateChoiceOf } from "../../../src/model/autoUpgrade";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "journal-log-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;

interface Journaled {
  journal: RunJournal;
  /** What the journal held after each commit, in order. */
  afterCommits: JournalEntry[];
  engine: UpdateRunEngine;
}

/** Run the scenario (its user actions included) with a journal committed as the session does. */
async function runJournaled(scenario: Scenario, compaction: { compactMinBytes?: number; compactFactor?: number } = {}): Promise<Journaled> {
  const clock = new VirtualClock(Date.parse(scenario.start));
  const fleet = new SimulatedFleet({ regions: scenario.regions, members: scenario.members }, clock);
  const journal = new RunJournal(path.join(dir, `${++n}.json`), compaction);
  const afterCommits: JournalEntry[] = [];
  let engine: UpdateRunEngine | undefined;
  const run = () => ({ runId: "r", identity: "i", engine: engine as UpdateRunEngine });
  const options: EngineOptions = {
    trackChanges: true,
    checkpoint: (intent) => {
      if (intent !== undefined) return journal.intent(run(), intent);
      journal.commit(run());
      const read = journal.read() as JournalEntry;
      expect(read.engineState).toEqual(withoutHealthChecks(engine!.snapshot()));
      expect(read.undeliveredEvents ?? []).toEqual(engine!.undeliveredEvents());
      afterCommits.push(read);
    },
  };
  const strategy = resolveScenarioStrategy(scenario);
  engine = UpdateRunEngine.create({ name: "r", members: scenario.members, ...(strategy === undefined ? {} : { strategy }), ...updateChoiceOf(scenario) }, fleet, options);
  await drive(engine, clock, { until: scenarioHorizon(scenario), actions: [{ at: clock.now(), start: true }, ...toRunActions(scenario)], onActionRefused: () => {} });
  return { journal, afterCommits, engine };
}

describe("the journal reads back as the engine's state after every pass (issue 23)", () => {
  it("property: random scenarios with stops, starts, skips and approvals; compacted often or never", async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, fc.boolean(), async (scenario, compactOften) => {
        const { afterCommits, journal } = await runJournaled(scenario, compactOften ? { compactMinBytes: 1_000, compactFactor: 1 } : { compactMinBytes: 1e12 });
        expect(afterCommits.length).toBeGreaterThan(0);
        // A pass record holds what changed, not the run: the log is smaller than a snapshot per pass.
        if (!compactOften && afterCommits.length > 3) expect(fs.statSync(journal.file).size).toBeLessThan(afterCommits.length * JSON.stringify(afterCommits.at(-1)).length);
      }),
      { numRuns: 60, seed: 23_002 },
    );
  });
});

describe("a kill that tears the last record (issue 23)", () => {
  it("resume: the torn record is dropped, every commit before it is seen, and the run resumes from there to the end", async () => {
    const scenario = (await fc.sample(scenarioArb.filter((s) => s.members.length >= 4 && s.actions.length === 0), { numRuns: 1, seed: 23_003 }))[0] as Scenario;
    const { journal, afterCommits } = await runJournaled(scenario, { compactMinBytes: 1e12 });
    expect(afterCommits.length).toBeGreaterThan(2);
    const whole = fs.readFileSync(journal.file);
    const lastLine = whole.lastIndexOf(0x0a, whole.length - 2) + 1;
    for (const cut of [lastLine + 1, lastLine + 10, Math.floor((lastLine + whole.length) / 2), whole.length - 1]) {
      fs.writeFileSync(journal.file, whole.subarray(0, cut));
      const read = new RunJournal(journal.file).read() as JournalEntry;
      // The last commit is lost, the one before it is whole.
      expect(read).toEqual(afterCommits.at(-2));
    }
    // A new process resumes from it and appends after the cut (the torn bytes are cut off first).
    const resumed = new RunJournal(journal.file);
    const entry = resumed.read() as JournalEntry;
    const clock = new VirtualClock(Date.parse(scenario.start));
    const engine = UpdateRunEngine.resume(withHealthChecks(entry.engineState, scenario.members), new SimulatedFleet({ regions: scenario.regions, members: scenario.members }, clock), { trackChanges: true });
    resumed.commit({ runId: "r", identity: "i", engine });
    expect(resumed.read()?.engineState).toEqual(withoutHealthChecks(engine.snapshot()));
  });

  it("a corrupt record that is not the last is refused with JournalError naming the file, never read as empty", async () => {
    const scenario = (await fc.sample(scenarioArb.filter((s) => s.members.length >= 4 && s.actions.length === 0), { numRuns: 1, seed: 23_004 }))[0] as Scenario;
    const { journal } = await runJournaled(scenario, { compactMinBytes: 1e12 });
    const lines = fs.readFileSync(journal.file, "utf8").split("\n");
    expect(lines.length).toBeGreaterThan(3);
    // Flip one character inside the second record's payload: its checksum no longer matches.
    lines[1] = lines[1]!.replace(/"t":"(pass|intent)"/, '"t":"pasx"');
    fs.writeFileSync(journal.file, lines.join("\n"));
    expect(() => journal.read()).toThrow(JournalError);
    expect(() => journal.read()).toThrow(journal.file);
    expect(() => journal.read()).toThrow(/record 2 .*corrupt/);
  });
});

describe("migration on first use (issue 23)", () => {
  it("a format-1 journal (one JSON object) is read, and the first commit rewrites it as format 2", async () => {
    const scenario = (await fc.sample(scenarioArb.filter((s) => s.actions.length === 0), { numRuns: 1, seed: 23_005 }))[0] as Scenario;
    const { afterCommits } = await runJournaled(scenario);
    const middle = afterCommits[Math.floor(afterCommits.length / 2)] as JournalEntry;
    const file = path.join(dir, "format-1.json");
    // What the version before issue 23 wrote (format 1; older journals had no format at all).
    fs.writeFileSync(file, JSON.stringify({ format: 1, ...middle }));
    const journal = new RunJournal(file);
    expect(journal.read()).toEqual(middle);
    fs.writeFileSync(file, JSON.stringify(middle));
    expect(journal.read()).toEqual(middle);
    const clock = new VirtualClock(Date.parse(scenario.start));
    const engine = UpdateRunEngine.resume(middle.engineState, new SimulatedFleet({ regions: scenario.regions, members: scenario.members }, clock), { trackChanges: true });
    journal.commit({ runId: middle.runId, identity: middle.identity, engine });
    expect(isFramed(fs.readFileSync(file))).toBe(true);
    expect(journal.read()?.engineState).toEqual(middle.engineState as RunState);
  });

  it("a format-1 simulated fleet state file is read, and the first write replaces it with a format-2 snapshot", async () => {
    const fleetDir = fs.mkdtempSync(path.join(dir, "fleet-"));
    const fleetFile = path.join(fleetDir, "fleet.yaml");
    fs.writeFileSync(
      fleetFile,
      `regions:
  westeurope:
    kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}]
    nodeImages: [{version: AKSUbuntu-2204gen2containerd-202611.24.0}]
members:
  - {name: a, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: AKSUbuntu-2204gen2containerd-202610.01.0}]}
  - {name: b, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: AKSUbuntu-2204gen2containerd-202610.01.0}]}
`,
    );
    const stateFile = `${fleetFile}.state.json`;
    // What the version before issue 23 wrote: one JSON object, a's upgrade done, the clock's anchor.
    const anchor = { realOrigin: Date.now() - 3_600_000, simulatedOrigin: Date.parse("2026-12-05T00:00:00Z"), timeScale: 60 };
    const done = {
      kubernetesVersion: "1.32.0",
      nodePools: [{ name: "system", orchestratorVersion: "1.32.0", nodeImageVersion: "AKSUbuntu-2204gen2containerd-202611.24.0" }],
      operations: [{ operationId: "op-a-1", request: { type: "Full", kubernetesVersion: "1.32.0", nodeImageVersions: {} }, startAt: anchor.simulatedOrigin, endAt: anchor.simulatedOrigin + 600_000, result: "Succeeded" }],
      nextOperationNumber: 2,
    };
    fs.writeFileSync(stateFile, `${JSON.stringify({ format: 1, clock: anchor, clusters: { a: done } }, null, 2)}\n`);
    const opened = openFileBackedFleet({ fleetFile: "fleet.yaml", timeScale: 60 }, fleetDir);
    expect(opened.clock.anchor).toEqual(anchor);
    expect((await opened.fleet.getCluster({ name: "a" })).kubernetesVersion).toBe("1.32.0");
    const started = await opened.fleet.startUpgrade({ name: "b" }, { type: "Full", kubernetesVersion: "1.32.0", nodeImageVersions: {} });
    opened.flush();
    expect(isFramed(fs.readFileSync(stateFile))).toBe(true);
    const read = readFleetState(stateFile);
    expect(read?.clock).toEqual(anchor);
    expect(read?.clusters.a).toEqual(done);
    expect(read?.clusters.b?.operations.map((op) => op.operationId)).toEqual([started.operationId]);
  });
});
