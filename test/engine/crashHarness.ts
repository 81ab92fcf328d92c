/**
 * The crash harness of docs/behaviour.md "Crashes" (issue 19, issue 23): a run over the simulated
 * fleet with the session's persistence, "killed" by an exception at a write boundary of a pass and
 * resumed from its journal; and the invariants every such run keeps. Used by
 * `crashPoints.property.test.ts` and (issue 31) `analysisCrash.property.test.ts`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import type { ClusterBackend } from "../../src/engine/backend";
import { VirtualClock } from "../../src/engine/clock";
import { drive } from "../../src/engine/drive";
import { UpdateRunEngine } from "../../src/engine/engine";
import type { RunState } from "../../src/engine/runState";
import type { EngineOptions } from "../../src/engine/context";
import { RunJournal, type JournaledRun } from "../../src/drivers/engine/journal";
import { withHealthChecks, withoutHealthChecks } from "../../src/drivers/engine/healthChecks";
import { JsonlJournal } from "../../src/events/jsonlJournal";
import { redeliverTo } from "../../src/events/sink";
import { resolveScenarioStrategy, scenarioHorizon, type Scenario } from "../../src/simulation/scenario";
import type { RunEvent, UpdateRunStatus } from "../../src/model/status";
import { updateChoiceOf } from "../../src/model/autoUpgrade";
import { HEALTH_CHECK_FAILED } from "../../src/engine/healthCheck";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crash-points-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The process dies here. */
export class Crash extends Error {}

export type BoundaryKind = "after backend call" | "before journal write" | "after journal write" | "between event sinks";

/** A write boundary, as a crash plan sees it (issue 30). */
export interface Boundary {
  /** Its index over the whole run, across processes. */
  n: number;
  /** Which process (0: the first; 1: the first resumed one; ...). */
  process: number;
  /** Its index within its process. */
  local: number;
  /** The process has not committed a pass yet: its first pass (resumed: the pass that adopts and hands on). */
  firstPass: boolean;
  kind: BoundaryKind;
  /** The journal holds an intent record (`"t":"intent"`) this process wrote (its first write is a snapshot). */
  intentRecorded: () => boolean;
}

/** Where to crash: at the boundaries whose global index is in `at`. */
export const atIndexes =
  (at: ReadonlySet<number>) =>
  (b: Boundary): boolean =>
    at.has(b.n);

export interface Outcome {
  status: UpdateRunStatus;
  /** Every boundary passed (and the one crashed at), in order. */
  passed: Array<Omit<Boundary, "intentRecorded"> & { intentRecorded: boolean }>;
  final: RunState;
  operations: Array<{ member: string; operationId: string; start: number; end?: number; result?: string }>;
  sinks: RunEvent[][];
  boundaries: BoundaryKind[];
  crashes: number;
}

let runCounter = 0;

/**
 * Run the scenario's update (no user actions: a resumed process would not know which it had applied),
 * crashing at the boundaries numbered in `crashAt` (counted over the whole run, across processes), or
 * at those a crash plan picks.
 */
export async function runWithCrashes(scenario: Scenario, crashAt: ReadonlySet<number> | ((b: Boundary) => boolean), downtimeMs: (crash: number) => number): Promise<Outcome> {
  const start = Date.parse(scenario.start);
  const clock = new VirtualClock(start);
  const fleet = new SimulatedFleet({ regions: scenario.regions, members: scenario.members }, clock);
  const files = [path.join(dir, `${++runCounter}-a.jsonl`), path.join(dir, `${runCounter}-b.jsonl`)];
  // Issue 23: the session's journal itself (a log of deltas, intents alone, compacted often here).
  const journalFile = path.join(dir, `${runCounter}-journal.json`);
  const crashHere = typeof crashAt === "function" ? crashAt : atIndexes(crashAt);
  const boundaries: BoundaryKind[] = [];
  const passed: Outcome["passed"] = [];
  // Which process is running, how far it got, and whether it has committed a pass yet.
  const proc = { index: 0, local: 0, committed: false };
  const point = (kind: BoundaryKind): void => {
    boundaries.push(kind);
    // A resumed process's first write is a snapshot that replaces the file: any intent record after it is its own.
    const intentRecorded = () => proc.index > 0 && fs.existsSync(journalFile) && fs.readFileSync(journalFile, "utf8").includes('"t":"intent"');
    const b: Boundary = { n: boundaries.length - 1, process: proc.index, local: proc.local++, firstPass: !proc.committed, kind, intentRecorded };
    const crash = crashHere(b);
    passed.push({ ...b, intentRecorded: b.firstPass && proc.index > 0 && intentRecorded() });
    if (crash) throw new Crash(`crash ${b.n}: ${kind}`);
  };
  // The fleet takes every call; the answer is lost when the process dies right after it.
  const backend: ClusterBackend = {
    getCluster: (m) => fleet.getCluster(m),
    getRegionOffer: (r) => fleet.getRegionOffer(r),
    probe: (m, url) => fleet.probe(m, url),
    queryMetric: (query) => fleet.queryMetric(query),
    startUpgrade: async (m, request) => after(await fleet.startUpgrade(m, request)),
    getOperation: async (m, id) => after(await fleet.getOperation(m, id)),
    findStartedUpgrade: async (m, request, since) => after(await fleet.findStartedUpgrade(m, request, since)),
  };
  const after = <T>(answer: T): T => {
    point("after backend call");
    return answer;
  };

  const strategy = resolveScenarioStrategy(scenario);
  const definition = {
    name: "crash",
    members: scenario.members,
    ...(strategy === undefined ? {} : { strategy }),
    ...(scenario.analysis === undefined ? {} : { analysis: scenario.analysis }),
    ...updateChoiceOf(scenario),
  };
  let crashes = 0;
  let status: UpdateRunStatus | undefined;
  let final: RunState | undefined;
  for (;;) {
    const sinks = files.map((file) => new JsonlJournal(file, { append: true }));
    let engine: UpdateRunEngine | undefined;
    // A new process: a new journal object, reading what the last one made durable.
    const journal = new RunJournal(journalFile, { compactMinBytes: 2_000, compactFactor: 1 });
    const journaled = journal.read();
    const run = (): JournaledRun => ({ runId: "crash", identity: "crash", engine: engine as UpdateRunEngine });
    const options: EngineOptions = {
      onEvent: (event: RunEvent) => {
        sinks[0]!.write(event);
        point("between event sinks");
        sinks[1]!.write(event);
      },
      trackChanges: true,
      checkpoint: (intent) => {
        point("before journal write");
        if (intent !== undefined) {
          journal.intent(run(), intent);
        } else {
          journal.commit(run());
          proc.committed = true;
          // What the journal reads back is the engine's state: no change was left out of a delta.
          expect(journal.read()?.engineState).toEqual(withoutHealthChecks(engine!.snapshot()));
        }
        point("after journal write");
      },
    };
    try {
      if (journaled === undefined) {
        engine = UpdateRunEngine.create(definition, backend, options);
        await drive(engine, clock, { until: scenarioHorizon(scenario), actions: [{ at: clock.now(), start: true }] });
      } else {
        redeliverTo(sinks, journaled.undeliveredEvents ?? []);
        engine = UpdateRunEngine.resume(withHealthChecks(journaled.engineState, scenario.members, scenario.analysis), backend, options);
        await drive(engine, clock, { until: scenarioHorizon(scenario) });
      }
      status = engine.status();
      final = engine.snapshot();
      for (const sink of sinks) await sink.close();
      break;
    } catch (e) {
      if (!(e instanceof Crash)) throw e;
      for (const sink of sinks) await sink.close();
      await clock.sleepUntil(clock.now() + downtimeMs(crashes++));
      Object.assign(proc, { index: proc.index + 1, local: 0, committed: false });
    }
  }
  const operations = fleet.operationLog().map((op) => ({
    member: op.member,
    operationId: op.operationId,
    start: Date.parse(op.startTime),
    ...(op.endTime === undefined ? {} : { end: Date.parse(op.endTime) }),
    ...(op.result === undefined ? {} : { result: op.result }),
  }));
  const sinks = files.map((file) =>
    fs
      .readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as RunEvent),
  );
  return { status: status as UpdateRunStatus, final: final as RunState, operations, sinks, boundaries, passed, crashes };
}

/** The most intervals [start, end) open at one instant. */
function maxOverlap(intervals: ReadonlyArray<{ start: number; end?: number }>): number {
  const edges = intervals.flatMap((i) => [
    { at: i.start, d: 1 },
    { at: i.end ?? Number.POSITIVE_INFINITY, d: -1 },
  ]);
  // Ends before starts at one instant: an upgrade that ends frees its slot for one that starts then.
  edges.sort((a, b) => a.at - b.at || a.d - b.d);
  let open = 0;
  let most = 0;
  for (const e of edges) most = Math.max(most, (open += e.d));
  return most;
}

export function expectInvariants(outcome: Outcome): void {
  const { operations, final, status } = outcome;
  // No cluster upgraded twice (there are no user starts, so no retries): at most one operation each.
  const perMember = new Map<string, number>();
  for (const op of operations) perMember.set(op.member, (perMember.get(op.member) ?? 0) + 1);
  for (const [member, count] of perMember) expect(count, `operations on ${member}`).toBe(1);

  // Concurrency at every instant, per group and per stage; stage order with its wait.
  const opOf = new Map(operations.map((op) => [op.member, op]));
  let previousStageEnd: number | undefined;
  for (const stage of final.stages) {
    const stageOps = stage.groups.flatMap((g) => g.members.flatMap((m) => (opOf.has(m.name) ? [opOf.get(m.name)!] : [])));
    for (const group of stage.groups) {
      const groupOps = group.members.flatMap((m) => (opOf.has(m.name) ? [opOf.get(m.name)!] : []));
      expect(maxOverlap(groupOps), `upgrades at once in group ${group.name}`).toBeLessThanOrEqual(group.maxConcurrency);
    }
    if (stage.maxConcurrency !== undefined) expect(maxOverlap(stageOps), `upgrades at once in stage ${stage.name}`).toBeLessThanOrEqual(stage.maxConcurrency);
    if (previousStageEnd !== undefined) for (const op of stageOps) expect(op.start, `first upgrade of stage ${stage.name}`).toBeGreaterThanOrEqual(previousStageEnd);
    if (stageOps.length > 0 && stageOps.every((op) => op.end !== undefined)) {
      previousStageEnd = Math.max(...stageOps.map((op) => op.end as number)) + stage.afterStageWaitInSeconds * 1000;
    }
  }

  // Every Completed member carries the id of the operation that upgraded it.
  for (const stage of status.stages) {
    for (const group of stage.groups) {
      for (const member of group.members) {
        const op = opOf.get(member.name);
        if (member.status.state === "Completed" && op !== undefined) expect(member.operationId, `operation id of ${member.name}`).toBe(op.operationId);
        if (member.status.state === "Running" || (member.status.state === "Completed" && op === undefined)) {
          // Completed without an operation only when the fleet never upgraded it: impossible without one.
          expect(op, `${member.name} is ${member.status.state}`).toBeDefined();
        }
      }
    }
  }

  // docs/rules.md §20, across crashes: a member's times are its operation's, as the fleet recorded it
  // (an adopted one's too) — its end later when an analysis verified it; no member starts before its
  // group, no group before its stage, no stage before the one before it ended; a group or stage that
  // completed ended after its parts.
  let previousCompleted: number | undefined;
  for (const stage of final.stages) {
    for (const group of stage.groups) {
      for (const member of group.members) {
        const op = opOf.get(member.name);
        if ((member.state === "Completed" || member.state === "Failed") && op?.end !== undefined && member.error?.code !== HEALTH_CHECK_FAILED) {
          expect(member.startTime, `start of ${member.name}`).toBe(op.start);
          if ((member.analysis ?? []).length === 0) expect(member.completedTime, `end of ${member.name}`).toBe(op.end);
          else expect(member.completedTime, `end of ${member.name}`).toBeGreaterThanOrEqual(op.end);
        }
        if (member.startTime !== undefined) expect(member.startTime, `${member.name} starts after its group`).toBeGreaterThanOrEqual(group.startTime ?? Number.NaN);
        if (group.state === "Completed" && member.completedTime !== undefined) expect(member.completedTime, `${member.name} ends before its group`).toBeLessThanOrEqual(group.completedTime ?? Number.NaN);
      }
      if (group.startTime !== undefined) expect(group.startTime, `group ${group.name} starts after its stage`).toBeGreaterThanOrEqual(stage.startTime ?? Number.NaN);
      if (stage.state === "Completed" && group.completedTime !== undefined) expect(group.completedTime, `group ${group.name} ends before its stage`).toBeLessThanOrEqual(stage.completedTime ?? Number.NaN);
    }
    if (stage.startTime !== undefined && previousCompleted !== undefined) expect(stage.startTime, `stage ${stage.name} starts after the one before ended`).toBeGreaterThanOrEqual(previousCompleted);
    previousCompleted = stage.state === "Completed" ? stage.completedTime : undefined;
  }

  // Each sink: per item, one chain NotStarted → … → its final state, every link once.
  const finalStates = new Map<string, string>();
  finalStates.set(`run/${final.name}`, final.state);
  for (const stage of final.stages) {
    finalStates.set(`stage/${stage.name}`, stage.state);
    finalStates.set(`wait/${stage.name}`, stage.wait.state);
    for (const group of stage.groups) {
      finalStates.set(`group/${group.name}`, group.state);
      for (const member of group.members) finalStates.set(`member/${member.name}`, member.state);
    }
  }
  for (const events of outcome.sinks) {
    const at = new Map<string, string>();
    for (const event of events) {
      const key = `${event.scope}/${event.name}`;
      expect(event.from, `event ${JSON.stringify(event)} follows the last one of ${key}`).toBe(at.get(key) ?? "NotStarted");
      at.set(key, event.to);
    }
    for (const [key, state] of finalStates) if (!key.startsWith("wait/") || at.has(key)) expect(at.get(key) ?? "NotStarted", `last event of ${key}`).toBe(state);
  }
}

