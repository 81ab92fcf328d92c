/**
 * Property tests of issue 5's controls over random simulated worlds: approval gates (docs/behaviour.md
 * G1–G10), failure tolerance (F1–F5) and health checks (H1–H5), together with the docs/rules.md §3 invariants
 * they must not break. Scenarios are those of `arbitraries.ts`, decorated by `controlsArbitraries.ts`
 * with gates, `maxAllowedFailures`, failing and unhealthy members, probes and approve actions, and
 * validated again; they run through `simulateScenario`'s wiring (`runScenario`), on a virtual clock that
 * reports a run stuck at one instant instead of hanging, or through the same wiring built here where a
 * property must look at the run between passes or around an approval.
 *
 * Three engine bugs these properties found are kept out, each where it is left out ("Known engine
 * bug"): a start Skipping an unhealthy member instead of verifying it again; after-gates left
 * NotStarted in a stage whose groups the user skipped; a start retrying the tolerated failures of a
 * finished stage (which can loop forever), avoided in `controlsArbitraries.ts`.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import failedStageRestart from "./regressions/failed-stage-restart-gates.json";
import { SimulatedFleet, type ClusterSnapshot } from "../../src/backends/simulator";
import { VirtualClock, type Clock } from "../../src/engine/clock";
import { drive } from "../../src/engine/drive";
import { UpdateRunEngine } from "../../src/engine/engine";
import { isoInstant } from "../../src/model/instants";
import { compareImageVersions, imageFamily } from "../../src/model/nodeImage";
import { resolveScenarioStrategy, scenarioHorizon, type Scenario } from "../../src/simulation/scenario";
import type { GateStatus, UpdateRunStatus, UpdateState } from "../../src/model/status";
import { gateIdsFor } from "../../src/model/strategy";
import { runScenario, toRunActions, type SimulationReport } from "../../src/simulation/simulateScenario";
import { approvedWithoutObstaclesArb, controlledScenarioArb, failingScenarioArb, toleratedFailuresArb } from "./controlsArbitraries";
import { updateChoiceOf } from "../../src/model/autoUpgrade";

/** Cases per property; `PROPERTY_RUNS=2000 npx vitest run test/engine/controls.property.test.ts` to hunt harder. */
const NUM_RUNS = Number(process.env.PROPERTY_RUNS ?? 150);
/** Per property: far above what NUM_RUNS cases take on a slow machine (a run stuck at one instant is caught by `ProgressCheckingClock`, which no timeout could stop). */
const TIMEOUT_MS = 60_000 + NUM_RUNS * 400;

/** Both kinds of decorated scenario: every control with pauses, and failure-heavy ones within and past tolerance. */
const scenariosArb = fc.oneof(controlledScenarioArb, failingScenarioArb);

const ms = (iso: string): number => Date.parse(iso);
/** An instant as the status and events write it. */
const at = (instant: number): string => isoInstant(instant);

// ---------------------------------------------------------------------------------------------
// Running a scenario
// ---------------------------------------------------------------------------------------------

/** Reconcile passes allowed at one instant before the run counts as stuck (a real run needs a handful). */
const MAX_PASSES_AT_ONE_INSTANT = 1_000;

/**
 * A virtual clock that fails the run when `drive` keeps asking to sleep until an instant that is not
 * in the future: on a virtual clock such a loop never yields to the event loop, so no test timeout
 * could stop it, and the whole file would hang instead of reporting a counterexample.
 */
class ProgressCheckingClock implements Clock {
  private readonly clock: VirtualClock;
  private passesHere = 0;

  constructor(start: number) {
    this.clock = new VirtualClock(start);
  }

  now(): number {
    return this.clock.now();
  }

  sleepUntil(instant: number): Promise<void> {
    if (instant > this.clock.now()) this.passesHere = 0;
    else if (++this.passesHere > MAX_PASSES_AT_ONE_INSTANT) {
      return Promise.reject(new Error(`no progress: ${MAX_PASSES_AT_ONE_INSTANT} reconcile passes at ${isoInstant(this.clock.now())}, each asking to wake at ${isoInstant(instant)}`));
    }
    return this.clock.sleepUntil(instant);
  }
}

/** `simulateScenario`, on a clock that turns a run stuck at one instant into a failure. */
async function simulate(scenario: Scenario): Promise<SimulationReport> {
  const clock = new ProgressCheckingClock(ms(scenario.start));
  const fleet = new SimulatedFleet({ regions: scenario.regions, members: scenario.members }, clock);
  return runScenario(scenario, { backend: fleet, clock, clusters: () => fleet.snapshot().clusters });
}

// ---------------------------------------------------------------------------------------------
// Reading a result
// ---------------------------------------------------------------------------------------------

/** One operation of a cluster as an interval [start, end); end undefined = still running at the end. */
interface Op {
  operationId: string;
  start: number;
  end?: number;
  result?: "Succeeded" | "Failed";
}

function operationsByCluster(clusters: readonly ClusterSnapshot[]): Map<string, Op[]> {
  return new Map(
    clusters.map((c) => [
      c.name,
      c.operations
        .map((o) => ({
          operationId: o.operationId,
          start: ms(o.startTime),
          ...(o.endTime === undefined ? {} : { end: ms(o.endTime) }),
          ...(o.result === undefined ? {} : { result: o.result }),
        }))
        .sort((a, b) => a.start - b.start),
    ]),
  );
}

/** The strategy as written (the default: one stage, one group, every member, no gates, no tolerance). */
function strategyOf(scenario: Scenario) {
  return resolveScenarioStrategy(scenario) ?? { stages: [{ name: "default", groups: [{ name: "default" }] }] };
}

function declaredStage(scenario: Scenario, stage: string) {
  return strategyOf(scenario).stages.find((s) => s.name === stage);
}

function declaredGroup(scenario: Scenario, stage: string, group: string) {
  return declaredStage(scenario, stage)?.groups.find((g) => g.name === group);
}

/** docs/rules.md §6: "N", or "P%" of `count` rounded down, at least 1. */
function cap(value: string | undefined, count: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (value.endsWith("%")) return Math.max(1, Math.floor((count * Number(value.slice(0, -1))) / 100));
  return Number(value);
}

/** F1: "N", or "P%" of `count` rounded UP; undefined when unset. Written here, not imported from the engine. */
function tolerance(value: string | undefined, count: number): number | undefined {
  if (value === undefined) return undefined;
  if (value.endsWith("%")) return Math.ceil((count * Number(value.slice(0, -1))) / 100);
  return Number(value);
}

const allMembers = (status: UpdateRunStatus) => status.stages.flatMap((s) => s.groups.flatMap((g) => g.members));
const isDone = (s: UpdateState) => s === "Completed" || s === "Skipped";
const failedCount = (members: ReadonlyArray<{ status: { state: UpdateState } }>) => members.filter((m) => m.status.state === "Failed").length;

/** A gate of the status tree, with where it sits. */
interface PlacedGate {
  gate: GateStatus;
  stage: string;
  group?: string;
  timing: "Before" | "After";
}

function gatesOf(status: UpdateRunStatus): PlacedGate[] {
  const gates: PlacedGate[] = [];
  for (const stage of status.stages) {
    for (const gate of stage.beforeGates ?? []) gates.push({ gate, stage: stage.name, timing: "Before" });
    for (const gate of stage.afterGates ?? []) gates.push({ gate, stage: stage.name, timing: "After" });
    for (const group of stage.groups) {
      for (const gate of group.beforeGates ?? []) gates.push({ gate, stage: stage.name, group: group.name, timing: "Before" });
      for (const gate of group.afterGates ?? []) gates.push({ gate, stage: stage.name, group: group.name, timing: "After" });
    }
  }
  return gates;
}

/** Gate id → the instants approve actions name it, earliest first (G9: an action approves every gate at its place and timing). */
function approvalInstants(scenario: Scenario): Map<string, number[]> {
  const strategy = resolveScenarioStrategy(scenario);
  const instants = new Map<string, number[]>();
  for (const action of scenario.actions) {
    for (const approval of action.approve ?? []) {
      for (const id of gateIdsFor(strategy, approval)) instants.set(id, [...(instants.get(id) ?? []), ms(action.at)].sort((a, b) => a - b));
    }
  }
  return instants;
}

/** A gate that let its item go on: Completed or Skipped, with the instant it did. */
function passedAt(gate: GateStatus): number | undefined {
  return isDone(gate.status.state) && gate.status.completedTime !== undefined ? ms(gate.status.completedTime) : undefined;
}

/** Fails with the list of what is wrong (shown in the counterexample report), not just "false". */
function noProblems(problems: string[]): void {
  expect(problems.slice(0, 12)).toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// The run, wired as `simulateScenario` wires it, watched between passes and around approvals
// ---------------------------------------------------------------------------------------------

interface Watchers {
  /** After every reconcile pass, with the tree as the pass left it. */
  afterPass?: (status: UpdateRunStatus, now: number) => void;
  /** Around every approval: the tree just before and just after the engine took it. */
  onApprove?: (gateIds: readonly string[], now: number, before: UpdateRunStatus, after: UpdateRunStatus) => void;
}

/** Runs the scenario as `simulate` does, calling the watchers; returns the approvals the engine refused (none should be). */
async function simulateWatching(scenario: Scenario, watchers: Watchers): Promise<string[]> {
  const start = ms(scenario.start);
  const clock = new ProgressCheckingClock(start);
  const fleet = new SimulatedFleet({ regions: scenario.regions, members: scenario.members }, clock);
  const strategy = resolveScenarioStrategy(scenario);
  const engine = UpdateRunEngine.create(
    { name: "scenario", members: scenario.members, ...(strategy === undefined ? {} : { strategy }), ...updateChoiceOf(scenario) },
    fleet,
  );
  const watched = new Proxy(engine, {
    get(target, property) {
      if (property === "approve") {
        return (gateIds: readonly string[], now: number) => {
          const before = target.status();
          target.approve(gateIds, now);
          watchers.onApprove?.(gateIds, now, before, target.status());
        };
      }
      if (property === "reconcile") {
        return async (now: number) => {
          const result = await target.reconcile(now);
          watchers.afterPass?.(target.status(), now);
          return result;
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const refused: string[] = [];
  engine.start(start);
  await drive(watched, clock, {
    until: scenarioHorizon(scenario),
    actions: toRunActions(scenario),
    onActionRefused: (action, error) => {
      if ("approve" in action) refused.push(`approval of [${action.approve.join(", ")}] at ${at(action.at)} refused: ${error.message}`);
    },
  });
  return refused;
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

describe("gates, failure tolerance and health checks over random fleets and strategies", () => {
  it(
    "1. the docs/rules.md §3 invariants still hold: no cluster upgraded twice (but a failed one retried after a start), no overlap, concurrency caps, stages in order after their waits (or after the instant a wait under way was skipped)",
    async () => {
      await fc.assert(
        fc.asyncProperty(scenariosArb, async (scenario) => {
          const { result } = await simulate(scenario);
          const ops = operationsByCluster(result.clusters);
          const starts = scenario.actions.filter((a) => a.start === true).map((a) => ms(a.at));
          const failures = (member: string) => result.events.filter((e) => e.scope === "member" && e.name === member && e.to === "Failed").map((e) => ms(e.time));
          const problems: string[] = [];

          // Twice only as a retry: the member failed after the earlier operation began (the upgrade or its
          // health check), and a start action came after that failure (actions at an instant come before
          // the pass that sees a failure then, so a start at the failure's own instant is no retry).
          for (const [cluster, clusterOps] of ops) {
            const busyUntil = scenario.members.find((m) => m.name === cluster)?.simulation?.busyUntil;
            for (const op of clusterOps) {
              if (busyUntil !== undefined && op.start < ms(busyUntil)) problems.push(`${cluster}: ${op.operationId} started before busyUntil ${busyUntil}`);
            }
            for (let i = 1; i < clusterOps.length; i++) {
              const before = clusterOps[i - 1] as Op;
              const after = clusterOps[i] as Op;
              if (before.end === undefined || before.end > after.start) {
                problems.push(`${cluster}: ${after.operationId} overlaps ${before.operationId}`);
                continue;
              }
              const failedAt = failures(cluster).find((f) => f >= before.start && f <= after.start);
              if (failedAt === undefined) problems.push(`${cluster}: ${after.operationId} started after ${before.operationId} (${before.result}) with no failure of the member in between`);
              else if (!starts.some((s) => s > failedAt && s <= after.start)) {
                problems.push(`${cluster}: ${after.operationId} retried the attempt that failed at ${at(failedAt)} with no start action after the failure`);
              }
            }
          }

          // Concurrency: members Running (upgrading or being verified, H1) at the end of each instant.
          const placeOf = new Map<string, { stage: string; group: string }>();
          for (const stage of result.status.stages) for (const group of stage.groups) for (const m of group.members) placeOf.set(m.name, { stage: stage.name, group: group.name });
          const limits = new Map<string, number>();
          for (const stage of result.status.stages) {
            const stageMembers = stage.groups.reduce((n, g) => n + g.members.length, 0);
            limits.set(`stage ${stage.name}`, cap(declaredStage(scenario, stage.name)?.maxConcurrency, stageMembers, Number.POSITIVE_INFINITY));
            for (const group of stage.groups) limits.set(`group ${group.name}`, cap(declaredGroup(scenario, stage.name, group.name)?.maxConcurrency, group.members.length, 1));
          }
          const running = new Set<string>();
          const memberEvents = result.events.filter((e) => e.scope === "member");
          memberEvents.forEach((event, i) => {
            if (event.to === "Running") running.add(event.name);
            else running.delete(event.name);
            if (memberEvents[i + 1]?.time === event.time) return;
            const counts = new Map<string, number>();
            for (const name of running) {
              const place = placeOf.get(name);
              if (place === undefined) continue;
              for (const key of [`stage ${place.stage}`, `group ${place.group}`]) counts.set(key, (counts.get(key) ?? 0) + 1);
            }
            for (const [key, n] of counts) if (n > (limits.get(key) ?? 0)) problems.push(`${key}: ${n} members Running at ${event.time}, maxConcurrency ${limits.get(key)}`);
          });

          // Stage order: nothing of a later stage starts before an earlier one is done and its wait over.
          const bounds: Array<{ stage: string; bound: number | undefined }> = [];
          for (const stage of result.status.stages) {
            const firstStart = Math.min(
              stage.status.startTime === undefined ? Number.POSITIVE_INFINITY : ms(stage.status.startTime),
              ...stage.groups.flatMap((g) => g.members.flatMap((m) => (ops.get(m.name) ?? []).map((o) => o.start))),
            );
            if (firstStart < Number.POSITIVE_INFINITY) {
              for (const { stage: earlier, bound } of bounds) {
                if (bound === undefined) problems.push(`stage ${stage.name} started at ${at(firstStart)} although stage ${earlier} never ended`);
                else if (firstStart < bound) problems.push(`stage ${stage.name} started at ${at(firstStart)}, before stage ${earlier} allowed (${at(bound)})`);
              }
            }
            let bound = stage.status.completedTime === undefined || !isDone(stage.status.state) ? undefined : ms(stage.status.completedTime);
            const wait = stage.afterStageWaitStatus;
            if (bound !== undefined && wait !== undefined && stage.status.state !== "Skipped" && wait.status.state !== "Skipped") {
              const lastGroupEnd = Math.max(...stage.groups.map((g) => (g.status.completedTime === undefined ? Number.POSITIVE_INFINITY : ms(g.status.completedTime))));
              bound = Math.max(bound, lastGroupEnd + wait.waitDurationInSeconds * 1000);
            }
            // docs/rules.md §3.9: a wait under way that the user skipped ends at the skip's instant (an AfterStageWait
            // skip naming this stage); the next stage may start from then, and the stage is not done before it.
            if (bound !== undefined && wait?.status.state === "Skipped" && wait.status.startTime !== undefined) {
              const end = wait.status.completedTime === undefined ? Number.NaN : ms(wait.status.completedTime);
              const skips = scenario.actions.filter((a) => a.skip?.some((t) => (t.type === "AfterStageWait" || t.type === "Stage") && t.name === stage.name)).map((a) => ms(a.at));
              if (!skips.includes(end)) problems.push(`stage ${stage.name}: its wait under way was Skipped at ${wait.status.completedTime}, when no skip of its wait or stage names it`);
              if (bound < end) problems.push(`stage ${stage.name}: done at ${stage.status.completedTime}, before its wait was cut short at ${wait.status.completedTime}`);
              bound = Math.max(bound, end);
            }
            bounds.push({ stage: stage.name, bound });
          }
          noProblems(problems);
        }),
        { numRuns: NUM_RUNS },
      );
    },
    TIMEOUT_MS,
  );

  it(
    "2. gates hold what they guard: no member starts before its stage's and group's before-gates passed, no later stage before every gate of the earlier ones passed, and no gate passes unapproved or stays Pending after its approval",
    async () => {
      await fc.assert(
        fc.asyncProperty(scenariosArb, async (scenario) => {
          const { result } = await simulate(scenario);
          const ops = operationsByCluster(result.clusters);
          const approvals = approvalInstants(scenario);
          const gates = gatesOf(result.status);
          const problems: string[] = [];

          const mustHavePassed = (gate: PlacedGate, instant: number, what: string) => {
            const passed = passedAt(gate.gate);
            if (passed === undefined || passed > instant) {
              problems.push(`${what} at ${at(instant)} although gate ${gate.gate.gateId} ${passed === undefined ? `is ${gate.gate.status.state}` : `passed only at ${at(passed)}`}`);
            }
          };
          result.status.stages.forEach((stage, k) => {
            for (const group of stage.groups) {
              // G4: the stage's before-gates hold every group of the stage; a group's hold that group.
              const holding = gates.filter((g) => g.stage === stage.name && g.timing === "Before" && (g.group === undefined || g.group === group.name));
              for (const m of group.members) {
                for (const op of ops.get(m.name) ?? []) for (const gate of holding) mustHavePassed(gate, op.start, `${m.name} (stage ${stage.name}, group ${group.name}) started ${op.operationId}`);
              }
            }
            // G5: every gate of an earlier stage has passed before a later stage starts anything.
            const earlier = gates.filter((g) => result.status.stages.findIndex((s) => s.name === g.stage) < k);
            const starts = [
              ...(stage.status.startTime === undefined ? [] : [{ what: `stage ${stage.name} started`, instant: ms(stage.status.startTime) }]),
              ...stage.groups.flatMap((g) => g.members.flatMap((m) => (ops.get(m.name) ?? []).map((o) => ({ what: `${m.name} of stage ${stage.name} started ${o.operationId}`, instant: o.start })))),
            ];
            for (const { what, instant } of starts) for (const gate of earlier) mustHavePassed(gate, instant, what);
          });

          for (const { gate } of gates) {
            const approved = approvals.get(gate.gateId) ?? [];
            const first = approved[0];
            // G3: Completed only by an approval (at or before the instant it passed); Skipped gates need none.
            if (gate.status.state === "Completed") {
              const passed = ms(gate.status.completedTime as string);
              if (first === undefined) problems.push(`gate ${gate.gateId} is Completed at ${gate.status.completedTime} but no action approves it`);
              else if (first > passed) problems.push(`gate ${gate.gateId} passed at ${gate.status.completedTime}, before its first approval at ${at(first)}`);
            }
            // G3: once approved, a gate passes when reached: it is never Pending at the end of an instant from its approval on.
            if (first !== undefined) {
              const pendingAfter = result.events.filter((e) => e.scope === "gate" && e.name === gate.gateId && e.to === "Pending" && ms(e.time) >= first);
              for (const e of pendingAfter) problems.push(`gate ${gate.gateId} went ${e.from}->Pending at ${e.time}, although approved at ${at(first)}`);
              if (gate.status.state === "Pending") problems.push(`gate ${gate.gateId} ends Pending although approved at ${at(first)}`);
            }
          }
          noProblems(problems);
        }),
        { numRuns: NUM_RUNS },
      );
    },
    TIMEOUT_MS,
  );

  it(
    "3. watched between passes: an approval passes a Pending gate at its very instant; a Pending gate keeps its group, stage and run from completing and makes them Pending when nothing else runs; a halting run has no Pending gate",
    async () => {
      await fc.assert(
        fc.asyncProperty(scenariosArb, async (scenario) => {
          const problems: string[] = [];
          const refused = await simulateWatching(scenario, {
            onApprove: (gateIds, now, before, after) => {
              const stateIn = (status: UpdateRunStatus, id: string) => gatesOf(status).find((g) => g.gate.gateId === id)?.gate.status;
              for (const id of gateIds) {
                const was = stateIn(before, id);
                const is = stateIn(after, id);
                if (was?.state === "Pending" && (is?.state !== "Completed" || is.completedTime === undefined || ms(is.completedTime) !== now)) {
                  problems.push(`gate ${id} was Pending when approved at ${at(now)} but is then ${JSON.stringify(is)}`);
                }
                // Not reached yet (or reset by a stop): it waits to be reached; finished: it stays as it was.
                if (was?.state !== "Pending" && is?.state !== was?.state) problems.push(`gate ${id} approved at ${at(now)} went ${was?.state} -> ${is?.state}`);
              }
            },
            afterPass: (status, now) => {
              const run = status.status.state;
              const runRunning = allMembers(status).some((m) => m.status.state === "Running") || status.stages.some((s) => s.afterStageWaitStatus?.status.state === "Running");
              for (const { gate, stage: stageName, group: groupName } of gatesOf(status)) {
                if (gate.status.state !== "Pending") continue;
                const where = `${at(now)}: gate ${gate.gateId} is Pending`;
                const stage = status.stages.find((s) => s.name === stageName);
                if (stage === undefined) continue;
                const stageRunning = stage.groups.some((g) => g.members.some((m) => m.status.state === "Running")) || stage.afterStageWaitStatus?.status.state === "Running";
                if (groupName !== undefined) {
                  const group = stage.groups.find((g) => g.name === groupName);
                  const groupRunning = group?.members.some((m) => m.status.state === "Running") ?? false;
                  if (group !== undefined && isDone(group.status.state)) problems.push(`${where} but group ${groupName} is ${group.status.state}`);
                  if (group !== undefined && !groupRunning && group.status.state !== "Pending") problems.push(`${where}, nothing in group ${groupName} runs, yet the group is ${group.status.state}`);
                }
                if (isDone(stage.status.state)) problems.push(`${where} but stage ${stageName} is ${stage.status.state}`);
                if (!stageRunning && stage.status.state !== "Pending") problems.push(`${where}, nothing in stage ${stageName} runs, yet the stage is ${stage.status.state}`);
                if (isDone(run)) problems.push(`${where} but the run is ${run}`);
                if (!runRunning && run !== "Pending") problems.push(`${where}, nothing in the run runs, yet the run is ${run}`);
                // G8: a halt puts Pending gates back to NotStarted at once.
                if (run === "Stopping" || run === "Stopped" || run === "Failed") problems.push(`${where} in a ${run} run`);
              }
            },
          });
          noProblems([...refused, ...problems]);
        }),
        // Found by this property: a start after a failure that could not reopen its stage reached the
        // stage's after-gates (Pending in a Failed run).
        { numRuns: NUM_RUNS, examples: [[failedStageRestart as unknown as Scenario]] },
      );
    },
    TIMEOUT_MS,
  );

  it(
    "4. failure tolerance: a group or stage is Failed exactly when its members' failures exceed what it tolerates (percent rounded up, unset group = 0, unset stage = no limit), failure counts add up, and the outcome says whether any member failed",
    async () => {
      await fc.assert(
        fc.asyncProperty(scenariosArb, async (scenario) => {
          const { result } = await simulate(scenario);
          const { status, summary } = result;
          const run = status.status.state;
          const problems: string[] = [];
          let exceededSomewhere = false;
          let stageSum = 0;
          for (const stage of status.stages) {
            let groupSum = 0;
            let anyGroupExceeded = false;
            for (const group of stage.groups) {
              const failed = failedCount(group.members);
              groupSum += group.failureCount;
              const tolerated = tolerance(declaredGroup(scenario, stage.name, group.name)?.maxAllowedFailures, group.members.length) ?? 0;
              const exceeded = failed > tolerated;
              anyGroupExceeded ||= exceeded;
              const where = `group ${group.name} (${failed} Failed of ${group.members.length}, tolerates ${tolerated})`;
              if (group.failureCount !== failed) problems.push(`${where}: failureCount ${group.failureCount}`);
              if (exceeded !== (group.status.state === "Failed")) problems.push(`${where} is ${group.status.state}`);
              if (exceeded && run !== "Failed" && run !== "Stopping") problems.push(`${where} exceeded its tolerance, yet the run is ${run}`);
            }
            const failed = failedCount(stage.groups.flatMap((g) => g.members));
            const stageMembers = stage.groups.reduce((n, g) => n + g.members.length, 0);
            const tolerated = tolerance(declaredStage(scenario, stage.name)?.maxAllowedFailures, stageMembers);
            const exceeded = tolerated !== undefined && failed > tolerated;
            const where = `stage ${stage.name} (${failed} Failed of ${stageMembers}, tolerates ${tolerated ?? "no limit of its own"})`;
            if (stage.failureCount !== failed || stage.failureCount !== groupSum) problems.push(`${where}: failureCount ${stage.failureCount}, its groups' sum ${groupSum}`);
            if ((exceeded || anyGroupExceeded) !== (stage.status.state === "Failed")) problems.push(`${where} is ${stage.status.state} (a group exceeded its own: ${anyGroupExceeded})`);
            if (exceeded && run !== "Failed" && run !== "Stopping") problems.push(`${where} exceeded its tolerance, yet the run is ${run}`);
            exceededSomewhere ||= exceeded || anyGroupExceeded;
            stageSum += stage.failureCount;
          }
          const failed = failedCount(allMembers(status));
          if (status.failureCount !== failed || status.failureCount !== stageSum || summary.failureCount !== failed) {
            problems.push(`run failureCount ${status.failureCount}, summary ${summary.failureCount}, stages' sum ${stageSum}, members Failed ${failed}`);
          }
          // F3: within tolerance a failure halts nothing, so a Failed run has something past its tolerance.
          if (run === "Failed" && !exceededSomewhere) problems.push("the run is Failed although every group and stage is within its tolerance");
          // F5.
          const expected = isDone(run) ? (failed > 0 ? "CompletedWithFailures" : "Succeeded") : run === "Failed" ? "Failed" : run === "Stopped" ? "Stopped" : "Pending";
          if (summary.outcome !== expected) problems.push(`outcome ${summary.outcome} for a ${run} run with ${failed} Failed members, expected ${expected}`);
          if (run === "Skipped" && failed > 0) problems.push(`the run is Skipped with ${failed} Failed members`);
          noProblems(problems);
        }),
        { numRuns: NUM_RUNS },
      );
    },
    TIMEOUT_MS,
  );

  it(
    "5. health checks: an unhealthy cluster's successful upgrade fails its member (HealthCheckFailed) the moment it ends; a Completed member's cluster is on target, healthy, and was verified (probe after its settle time) before it completed",
    async () => {
      await fc.assert(
        fc.asyncProperty(scenariosArb, async (scenario) => {
          const { result } = await simulate(scenario);
          const ops = operationsByCluster(result.clusters);
          const { type, kubernetesVersion: target } = scenario.managedClusterUpdate!.upgrade;
          const selection = scenario.managedClusterUpdate!.nodeImageSelection?.type ?? "Latest";
          const recorded = result.status.nodeImageSelection.selectedNodeImageVersions.map((v) => v.version);
          const problems: string[] = [];
          for (const m of allMembers(result.status)) {
            const spec = scenario.members.find((c) => c.name === m.name);
            const cluster = result.clusters.find((c) => c.name === m.name);
            if (spec === undefined || cluster === undefined) continue;
            const op = (ops.get(m.name) ?? []).find((o) => o.operationId === m.operationId);
            const state = m.status.state;
            const code = m.status.error?.code;

            // H2/H4: an unhealthy cluster never passes; its upgrade shows Succeeded while the member fails then.
            const upgraded = (ops.get(m.name) ?? []).some((o) => o.result === "Succeeded");
            // A start after the health-check failure checks the cluster again (it stays unhealthy): still Failed.
            if (spec.simulation?.healthy === false && upgraded) {
              if (state !== "Failed" || code !== "HealthCheckFailed") problems.push(`${m.name} (healthy: false) had a Succeeded upgrade but ends ${state}${code === undefined ? "" : ` (${code})`}: '${m.message ?? ""}'`);
            }
            if (code === "HealthCheckFailed") {
              if (op?.result !== "Succeeded") problems.push(`${m.name} failed its health check but its operation ${m.operationId} is ${op?.result ?? "missing"}`);
              if (spec.simulation?.healthy !== false) problems.push(`${m.name} failed its health check on a healthy cluster: '${m.message ?? ""}'`);
              // The cluster check comes first and needs no settle time: it fails when the upgrade ends, or
              // again at a later start (which checks the cluster again rather than upgrading it again).
              const recheckedAt = scenario.actions.filter((a) => a.start === true && op?.end !== undefined && ms(a.at) > op.end).map((a) => ms(a.at));
              const failedAt = m.status.completedTime === undefined ? undefined : ms(m.status.completedTime);
              if (op?.end !== undefined && failedAt !== op.end && !recheckedAt.includes(failedAt as number)) {
                problems.push(`${m.name} failed its health check at ${m.status.completedTime}, its upgrade ended at ${at(op.end)}, and no start came then`);
              }
            }
            if (state !== "Completed") continue;

            // H1/H3: verified before Completed — at the upgrade's end, or after the probe's settle time (healthy probes answer at once).
            if (op?.result !== "Succeeded" || op.end === undefined) {
              problems.push(`${m.name} is Completed but its operation ${m.operationId} is ${op?.result ?? "missing"}`);
              continue;
            }
            const verifiedAt = op.end + (spec.healthCheck?.settleSeconds ?? 0) * 1000;
            if (ms(m.status.completedTime as string) !== verifiedAt) problems.push(`${m.name} Completed at ${m.status.completedTime}, expected ${at(verifiedAt)} (upgrade end + settle time)`);
            if (spec.simulation?.healthy === false) problems.push(`${m.name} is Completed on a cluster simulated as unhealthy`);
            // H2: what the cluster reports matches the run's target.
            if (type !== "NodeImageOnly" && cluster.kubernetesVersion !== target) problems.push(`${m.name} is Completed with its control plane on ${cluster.kubernetesVersion}, target ${target}`);
            for (const pool of cluster.nodePools) {
              if (type === "Full" && pool.orchestratorVersion !== target) problems.push(`${m.name} is Completed with pool ${pool.name} on ${pool.orchestratorVersion}, target ${target}`);
              if (type === "ControlPlaneOnly") continue;
              const family = imageFamily(pool.nodeImageVersion);
              const offered = (scenario.regions[spec.region]?.nodeImages ?? [])
                .filter((o) => (o.availableAt === undefined || ms(o.availableAt) <= op.start) && imageFamily(o.version) === family)
                .map((o) => o.version);
              const wanted = selection === "Latest" ? offered.sort(compareImageVersions).pop() : recorded.find((v) => imageFamily(v) === family);
              if (wanted !== undefined && compareImageVersions(pool.nodeImageVersion, wanted) < 0) problems.push(`${m.name} is Completed with pool ${pool.name} on ${pool.nodeImageVersion}, target ${wanted}`);
            }
          }
          noProblems(problems);
        }),
        { numRuns: NUM_RUNS },
      );
    },
    TIMEOUT_MS,
  );

  it(
    "6. liveness: with every gate approved at the start and no windows, delays, busy or failing clusters, every run finishes Completed (Skipped when every member already was at target)",
    async () => {
      await fc.assert(
        fc.asyncProperty(approvedWithoutObstaclesArb, async (scenario) => {
          const { result } = await simulate(scenario);
          const members = allMembers(result.status);
          const allSkipped = members.length > 0 && members.every((m) => m.status.state === "Skipped");
          expect({
            run: result.status.status.state,
            outcome: result.summary.outcome,
            unfinished: members.filter((m) => !isDone(m.status.state)).map((m) => `${m.name}: ${m.status.state} (${m.message ?? ""})`),
            gatesNotPassed: gatesOf(result.status).filter((g) => !isDone(g.gate.status.state)).map((g) => `${g.gate.gateId}: ${g.gate.status.state}`),
          }).toEqual({ run: allSkipped ? "Skipped" : "Completed", outcome: "Succeeded", unfinished: [], gatesNotPassed: [] });
        }),
        { numRuns: NUM_RUNS },
      );
    },
    TIMEOUT_MS,
  );

  it(
    "7. liveness within tolerance: when every group tolerates all its members failing, failing and unhealthy members do not stop the run: it finishes Completed, and CompletedWithFailures exactly when a member failed",
    async () => {
      await fc.assert(
        fc.asyncProperty(toleratedFailuresArb, async (scenario) => {
          const { result } = await simulate(scenario);
          const ops = operationsByCluster(result.clusters);
          const members = allMembers(result.status);
          const failed = members.filter((m) => m.status.state === "Failed").map((m) => m.name);
          // Expected to fail: every member that was upgraded on a cluster set to fail or to be unhealthy.
          const faulty = members
            .filter((m) => {
              const simulation = scenario.members.find((c) => c.name === m.name)?.simulation;
              return (simulation?.fail !== undefined || simulation?.healthy === false) && (ops.get(m.name) ?? []).length > 0;
            })
            .map((m) => m.name);
          const allSkipped = members.length > 0 && members.every((m) => m.status.state === "Skipped");
          expect({
            run: result.status.status.state,
            outcome: result.summary.outcome,
            failed,
            unfinished: members.filter((m) => !isDone(m.status.state) && m.status.state !== "Failed").map((m) => `${m.name}: ${m.status.state} (${m.message ?? ""})`),
          }).toEqual({
            run: allSkipped ? "Skipped" : "Completed",
            outcome: failed.length > 0 ? "CompletedWithFailures" : "Succeeded",
            failed: faulty,
            unfinished: [],
          });
        }),
        { numRuns: NUM_RUNS },
      );
    },
    TIMEOUT_MS,
  );
});
