/**
 * One run driven in real (or scaled) time with a journal: create it or resume it, apply the user's
 * controls, drive it until it settles, returns early or meets its deadline. The engine driver's
 * session (`engineDriver.ts`), whoever calls it: the Pulumi resources, `fleet-update run`.
 */
import { drive, type RunAction } from "../../engine/drive";
import { UpdateRunEngine } from "../../engine/engine";
import type { EngineOptions } from "../../engine/context";
import type { Clock } from "../../engine/clock";
import type { MemberRef } from "../../engine/backend";
import type { MemberPlace, RunState } from "../../engine/runState";
import type { RunEvent } from "../../model/status";
import type { JournaledInputs, RunJournal } from "./journal";
import type { UpdateRunInputs } from "../../spec/runSpec";
import { updateChoiceOf, type UpdateChoice } from "../../model/autoUpgrade";
import { httpProbe } from "../../runtime/httpProbe";
import { prometheusQuery } from "../../runtime/prometheusQuery";
import { withHealthChecks } from "./healthChecks";
import type { OpenBackend } from "./openBackend";
import { StopRequested, StoppableClock, type StopRequest } from "../stopRequest";

/** Which run to drive: `engineState` to resume it, or none for a new run with this id. */
export interface RunChoice {
  id: string;
  engineState?: RunState;
  /** The journal's events that may not have reached the sinks before the last process stopped. */
  undeliveredEvents?: RunEvent[];
}

/** What makes the run: the fields a new engine is created from. */
export type RunDefinition = Pick<UpdateRunInputs, "runName" | "members" | "strategy" | "analysis"> & UpdateChoice;

import type { RunControls } from "../runDriver";

export interface Session {
  id: string;
  engine: UpdateRunEngine;
  clock: Clock;
  journal: RunJournal;
  /** Whether this continues a run created earlier (its events so far went elsewhere). */
  resumed: boolean;
  /** Write the engine's state to the journal now. */
  save: () => void;
  opened: OpenBackend;
}

/**
 * The engine of the chosen run, journaling its state before every upgrade it starts (write-ahead)
 * and at the end of every pass, before the pass's events go to `onEvent`. A resumed run's
 * undelivered events (`RunChoice.undeliveredEvents`) are the caller's to send first
 * (`engineDriver.ts`: a sink that keeps events dedupes them, `JsonlJournal.redeliver`).
 */
export function openSession(
  opened: OpenBackend,
  run: RunDefinition,
  identity: string,
  choice: Omit<RunChoice, "undeliveredEvents">,
  onEvent: (event: RunEvent) => void,
  /** The run's inputs as its journal keeps them (`journaledInputs`): what `pulumi import` adopts it from. */
  journalInputs?: JournaledInputs,
): Session {
  let save = (): void => {};
  let intent = (_place: MemberPlace): void => {};
  const options: EngineOptions = {
    onEvent,
    // Issue 23: before a start, that member's intent; at the end of a pass, the pass's changes.
    checkpoint: (place) => (place === undefined ? save() : intent(place)),
    trackChanges: true,
    probe: httpProbe,
    queryMetric: prometheusQuery,
    ...(opened.recheckUnknownAfterMs === undefined ? {} : { recheckUnknownAfterMs: opened.recheckUnknownAfterMs }),
  };
  // A stored state has no health checks (their URLs may hold secrets): the run's members give them back.
  const engine = choice.engineState === undefined ? newEngine(run, opened, options) : UpdateRunEngine.resume(withHealthChecks(choice.engineState, run.members, run.analysis), opened.backend, options);
  const journaled = { runId: choice.id, identity, engine, ...(journalInputs === undefined ? {} : { inputs: journalInputs }) };
  save = () => opened.journal.commit(journaled);
  intent = (place) => opened.journal.intent(journaled, place);
  return { id: choice.id, engine, clock: opened.clock, journal: opened.journal, resumed: choice.engineState !== undefined, save, opened };
}

function newEngine(run: RunDefinition, opened: OpenBackend, options: EngineOptions): UpdateRunEngine {
  return UpdateRunEngine.create(
    { name: run.runName, members: run.members, ...(run.strategy === undefined ? {} : { strategy: run.strategy }), ...(run.analysis === undefined ? {} : { analysis: run.analysis }), ...updateChoiceOf(run) },
    opened.backend,
    options,
  );
}

export interface DriveResult {
  /** `returnAfterMinutes` on the backend's clock (ms), when set. */
  returnWhenIdleFor?: number;
}

/**
 * Apply the controls and drive the run until it settles, returns early (`returnAfterMinutes`) or
 * meets its deadline (`timeoutMinutes`, real minutes from now). With `stop`, a stop asked for
 * meanwhile is applied at that instant and the run is driven on while in-flight upgrades finish.
 */
export async function driveSession(session: Session, controls: RunControls, stop?: StopRequest): Promise<DriveResult> {
  const { engine, clock, save, opened } = session;
  const first = firstMember(engine);
  if (opened.syncClock !== undefined && first !== undefined) await opened.syncClock(first);
  // Our own deadline, in real minutes (the Pulumi host ignores customTimeouts), kept in real time: a
  // clock learned from the backend's answers moves by their instants (`ServerClock`).
  const realDeadline = Date.now() + controls.timeoutMinutes * 60_000;
  const pastDeadline = (instant: number): boolean => opened.realMsUntil(instant) > realDeadline - Date.now();
  // Issue 5: with `returnAfterMinutes`, a long wait ends this call (the next call continues).
  const returnWhenIdleFor = controls.returnAfterMinutes === undefined ? undefined : opened.deadline(controls.returnAfterMinutes * 60_000) - opened.deadline(0);
  // Every pass journals itself (the engine's `checkpoint`) before its events go out.
  const options = { pastDeadline, ...(returnWhenIdleFor === undefined ? {} : { returnWhenIdleFor }) };
  const sleeper = stop === undefined ? clock : new StoppableClock(clock, opened.realMsUntil, stop);
  // The user's controls are actions at this instant, so they and the first pass share one instant.
  let actions = controlActions(controls, clock.now());
  for (;;) {
    try {
      await drive(engine, sleeper, { ...options, actions });
    } catch (e) {
      // Thrown only between passes, after the state was journaled.
      if (!(e instanceof StopRequested)) throw e;
    }
    if (stop?.take() !== true || engine.settled) break;
    actions = [{ at: clock.now(), stop: true }];
  }
  save();
  return returnWhenIdleFor === undefined ? {} : { returnWhenIdleFor };
}

/** The run's first member, for a backend clock learned from its answers (`OpenBackend.syncClock`). */
export function firstMember(engine: Pick<UpdateRunEngine, "live">): MemberRef | undefined {
  const member = engine.live.stages.flatMap((s) => s.groups.flatMap((g) => g.members))[0];
  return member === undefined ? undefined : { name: member.name, ...(member.clusterResourceId === undefined ? {} : { clusterResourceId: member.clusterResourceId }) };
}

/**
 * `skip`, `approvals` and `state` as actions (docs/rules.md §3.8, §3.9). Skips are idempotent: items already
 * finished are left as they are, so the whole list is applied on every call. A refused skip throws.
 */
function controlActions(controls: RunControls, at: number): RunAction[] {
  const actions: RunAction[] = [];
  if (controls.skip.length > 0) actions.push({ at, skip: controls.skip });
  if (controls.approvals.length > 0) actions.push({ at, approve: controls.approvals });
  actions.push(controls.state === "Running" ? { at, start: true } : { at, stop: true });
  return actions;
}
