/**
 * Issue 12: one call's work on a run executed by Azure Kubernetes Fleet Manager. The engine runs
 * server-side, so this is not a `ClusterBackend` session: it creates the fleet's update run named
 * after ours — or attaches to it when the fleet already has it (a killed client, the next `up`), never
 * creating a second — maps the user's controls to Fleet's calls (`state` → start / stop, new `skip`
 * entries → skip with only those targets), then follows the run with GETs until it ends, reaches the
 * state asked for, or the client's own deadline. The run goes on server-side whatever the client does.
 */
import { ValidationError } from "../../model/issues";
import type { ExcludedMember } from "../../model/run";
import type { SkipTarget } from "../../model/skip";
import type { RunEvent, UpdateRunStatus, UpdateState } from "../../model/status";
import { gateId, unknownApprovals, type UpdateRunStrategy } from "../../model/strategy";
import type { UpdateRunInputs } from "../../spec/runSpec";
import { FleetRequestError, type FleetClient } from "../../backends/azureFleet/fleetClient";
import { GateApprover, gateResources } from "./gateResources";
import { ScheduledStartInstants } from "./scheduledStarts";
import { checkMembersAgainstFleet } from "./members";
import { statusChanges } from "./statusEvents";
import { fromFleetManagedClusterUpdate, fromFleetStrategy, sameManagedClusterUpdate, toFleetManagedClusterUpdate, toFleetStrategy } from "./toFleet";
import type { ManagedClusterUpdate } from "../../model/update";
import type { AutoUpgradeProfile } from "../../model/autoUpgrade";
import type { WireUpdateRun as UpdateRun } from "../../backends/azureFleet/wire";
import { analysisGates, withAnalysisGates, type AnalysisGate } from "./analysisGates";
import { unknownAnalysisStages } from "../../model/analysis";
import type { Labels } from "../../model/member";
import type { MeasurePorts } from "../../engine/analysis";
import { httpProbe } from "../../runtime/httpProbe";
import { prometheusQuery } from "../../runtime/prometheusQuery";
import { FleetAnalyst } from "./fleetAnalysis";
import { waitsForApproval } from "../waiting";
import { DEFAULT_FLEET_POLL_SECONDS } from "./openFleet";
import { StoppableClock, StopRequested, type StopRequest } from "../stopRequest";
import type { Clock } from "../../engine/clock";
import { RealClock } from "../../runtime/realClock";

import type { FleetRunRecord, RunEnd } from "../runDriver";
import { FleetStrategyStore, keepsSame } from "./strategyStore";

export type { FleetRunRecord } from "../runDriver";


export interface FleetSessionResult {
  record: FleetRunRecord;
  status: UpdateRunStatus;
  strategySnapshot: UpdateRunStrategy;
  excludedMembers: ExcludedMember[];
  /** Why following ended: as a call on an engine run ends (`RunEnd`). */
  end: RunEnd;
  /** With an `autoUpgradeProfile`: the update Fleet generated for the run (docs/rules.md §18). */
  generatedUpdate?: ManagedClusterUpdate;
}

export interface FleetSessionOptions {
  /** The skips sent by earlier calls (the previous `fleetRun` output). */
  previous?: FleetRunRecord;
  onEvent?: (event: RunEvent) => void;
  /** Ends following at once (Ctrl-C): the run goes on server-side. */
  stop?: StopRequest;
  /**
   * The clock following runs on, as the engine driver's does (default the wall clock): it times the
   * polls, the deadline and `returnAfterMinutes`, and stamps the events.
   */
  clock?: Clock;
  /**
   * The status the caller saw last (an earlier call of the same client): only changes since are
   * events. Default: none, so the first read reports the run's states.
   */
  lastSeen?: UpdateRunStatus;
  /**
   * Issue 30: what an earlier client (an earlier process) saw of the run (its ARM id and creation),
   * when there is no `lastSeen`: its status, and the events of it that may not have gone out (`fleetSeen.ts`).
   */
  seenBefore?: (runId: string) => { seen: UpdateRunStatus; undeliveredEvents: RunEvent[] } | undefined;
  /** Those events, handed on before anything else (default: to `onEvent`). */
  onRedelivered?: (events: readonly RunEvent[]) => void;
  /** Called with each status read and its changes, before the changes go to `onEvent` (to keep them: `fleetSeen.ts`). */
  onSeen?: (runId: string, status: UpdateRunStatus, events: readonly RunEvent[]) => void;
  /**
   * When to read the run next, instead of every poll interval (the simulation asks the emulator when
   * its next pass is; no real client can). Given the instant of the next poll; never later than the
   * deadline or `returnAfterMinutes`.
   */
  nextReadAt?: (now: number, nextPoll: number) => number;
  /**
   * The ScheduledStart instants read so far (an earlier call of the same client), so each gate
   * resource is read once. Default: a new reader.
   */
  scheduledStarts?: ScheduledStartInstants;
  /**
   * Issue 31: how the run's analyses measure (default: HTTP probes and Prometheus' HTTP API; the
   * simulation and the tests give the simulated fleet's metrics).
   */
  measure?: MeasurePorts;
}

const ENDED: ReadonlySet<UpdateState> = new Set(["Completed", "Failed", "Skipped", "Stopped"]);

/** Is the status where the user asked the run to be (so following can end)? */
function reached(state: UpdateState, asked: UpdateRunInputs["state"]): boolean {
  if (ENDED.has(state)) return true;
  return asked === "NotStarted" && state === "NotStarted";
}

/** What Check learnt from the fleet: members left out, the members' labels, and the run's strategy. */
export interface CheckedFleetRun {
  excluded: ExcludedMember[];
  /** Each fleet member's labels (what an analysis's query may name). */
  labels: Map<string, Labels>;
  /** The strategy the user gave: inline, or the one `updateStrategyId` names, read from the fleet. */
  strategy?: UpdateRunStrategy;
}

/** Validate against the fleet's members (Check does the same): problems are a ValidationError. */
export async function checkFleetRun(inputs: UpdateRunInputs, client: FleetClient): Promise<CheckedFleetRun> {
  const members = await client.listMembers();
  const strategy = inputs.strategy ?? (await referencedStrategy(inputs, client));
  const checked = checkMembersAgainstFleet(inputs.members, members, client.fleet.fleetName, strategy);
  // An inline strategy's approvals are checked at Check; one read from the fleet, here.
  if (inputs.strategy === undefined && strategy !== undefined) {
    checked.issues.push(...unknownApprovals(inputs.approvals, strategy, { strategy: "the fleet's update strategy", noGates: "it has no gates" }));
    checked.issues.push(...unknownAnalysisStages(inputs.analysis, strategy.stages.map((s) => s.name)));
  }
  if (checked.issues.length > 0) throw new ValidationError(checked.issues);
  const labels = new Map(members.flatMap((m) => (m.labels === undefined ? [] : [[m.name, m.labels] as const])));
  return { excluded: checked.excluded, labels, ...(strategy === undefined ? {} : { strategy }) };
}

/**
 * Issue 31: the strategy the run is created with when the client adds gates for its analysis — the
 * user's (inline, or the fleet's one `updateStrategyId` names, copied in) with our gates after theirs
 * (`analysisGates.ts`) — and those gates. Without analysis, nothing changes: the run is created as
 * the user gave it.
 */
export interface AnalysisPlan {
  gates: AnalysisGate[];
  /** The strategy sent inline instead of the user's, when there are gates to add. */
  sent?: UpdateRunStrategy;
}

export function analysisPlan(inputs: Pick<UpdateRunInputs, "analysis">, strategy: UpdateRunStrategy | undefined): AnalysisPlan {
  if (inputs.analysis === undefined || strategy === undefined) return { gates: [] };
  const gates = analysisGates(strategy, inputs.analysis);
  return gates.length === 0 ? { gates } : { gates, sent: withAnalysisGates(strategy, gates) };
}

/** The fleet update strategy `updateStrategyId` names, read from the fleet; a missing one is named. */
async function referencedStrategy(inputs: UpdateRunInputs, client: FleetClient): Promise<UpdateRunStrategy | undefined> {
  if (inputs.updateStrategyId === undefined) return undefined;
  const name = inputs.updateStrategyId.split("/").at(-1) as string;
  const found = await new FleetStrategyStore(client).read(name);
  if (found === undefined) throw new ValidationError([{ path: "updateStrategyId", message: `fleet '${client.fleet.fleetName}' has no update strategy '${name}'` }]);
  return found.strategy;
}

/** The fleet's update run this run is, found by name, and its name in the fleet. */
export interface FoundFleetRun {
  name: string;
  run: UpdateRun;
}

/**
 * The fleet's update run that is ours: the one named after the run; or, for a run given an
 * `autoUpgradeProfile` (docs/rules.md §18), the one Fleet generated from the profile named after the
 * run — the record's (an earlier call's output) or, when none was kept, the one the fleet lists as
 * generated by that profile. Undefined when the fleet has none yet.
 */
export async function findFleetRun(inputs: UpdateRunInputs, client: FleetClient, record?: FleetRunRecord): Promise<FoundFleetRun | undefined> {
  const names = inputs.autoUpgradeProfile === undefined ? [inputs.runName] : record !== undefined ? [record.id.split("/").at(-1) as string] : await client.runsGeneratedBy(inputs.runName);
  // One profile per run, and one generated run per profile: the driver never generates twice.
  const name = names.at(-1);
  if (name === undefined) return undefined;
  const run = await client.getRun(name);
  return run === undefined ? undefined : { name, run };
}

/**
 * Create the fleet's run, or attach to ours; a different run of that name is refused. With analysis
 * gates (`plan.sent`), the run is created with that strategy inline, whatever the user gave.
 */
async function createOrAttach(inputs: UpdateRunInputs, client: FleetClient, record: FleetRunRecord | undefined, plan: AnalysisPlan): Promise<FoundFleetRun> {
  if (inputs.managedClusterUpdate === undefined) return (await findFleetRun(inputs, client, record)) ?? (await generate(inputs, client, plan));
  const name = inputs.runName;
  const update = inputs.managedClusterUpdate;
  const wanted = { ...inputs, managedClusterUpdate: update, ...(plan.sent === undefined ? {} : { strategy: plan.sent }) };
  const found = await client.getRun(name);
  if (found !== undefined) return { name, run: attachable(found, wanted, client) };
  try {
    return await client.createRun(name, {
      ...(wanted.strategy === undefined ? {} : { strategy: toFleetStrategy(wanted.strategy) }),
      ...(wanted.strategy !== undefined || inputs.updateStrategyId === undefined ? {} : { updateStrategyId: inputs.updateStrategyId }),
      managedClusterUpdate: toFleetManagedClusterUpdate(update),
    }).then((run) => ({ name, run }));
  } catch (e) {
    // Created meanwhile (If-None-Match: *): attach to it, never a second run.
    if (e instanceof FleetRequestError && (e.statusCode === 412 || e.statusCode === 409)) {
      const raced = await client.getRun(name);
      if (raced !== undefined) return { name, run: attachable(raced, wanted, client) };
    }
    throw e;
  }
}

/**
 * Issue 31: the run attached to must hold the client's gates where the analysis needs them (a run
 * created before the analysis was declared, or by someone else, is not measured silently).
 */
function checkAnalysisGates(run: UpdateRun, gates: readonly AnalysisGate[], inputs: UpdateRunInputs, client: FleetClient): void {
  if (gates.length === 0) return;
  const shown = new Map<string, string | undefined>();
  for (const stage of fromFleetStrategy(run.properties?.strategy)?.stages ?? []) {
    const add = (list: Array<{ displayName?: string }> | undefined, group: string | undefined, timing: "before" | "after") => list?.forEach((g, i) => shown.set(gateId(stage.name, group, timing, i), g.displayName));
    add(stage.beforeGates, undefined, "before");
    add(stage.afterGates, undefined, "after");
    for (const group of stage.groups) add(group.afterGates, group.name, "after");
  }
  const missing = gates.filter((g) => shown.get(g.gateId) !== g.displayName).map((g) => g.gateId);
  if (missing.length > 0) {
    throw new ValidationError([{ path: "analysis", message: `update run '${inputs.runName}' of fleet '${client.fleet.fleetName}' has no analysis gate ${missing.map((id) => `'${id}'`).join(", ")} (created without this analysis): give the run another name, or delete that run` }]);
  }
}

/**
 * docs/rules.md §18 on Fleet Manager: the profile, named after the run, is put with `disabled: true`
 * (Fleet then starts nothing from it by itself), and `generateUpdateRun` makes the run, NotStarted,
 * whose update Fleet chose from what AKS offers now. An inline strategy is kept in the fleet first, under
 * the run's name, for the profile to reference (a profile takes no inline strategy).
 */
async function generate(inputs: UpdateRunInputs & { autoUpgradeProfile: AutoUpgradeProfile }, client: FleetClient, plan: AnalysisPlan): Promise<FoundFleetRun> {
  let updateStrategyId = inputs.updateStrategyId;
  // With analysis gates, the profile references the strategy with them (docs/health-analysis.md).
  const strategy = plan.sent ?? inputs.strategy;
  if (strategy !== undefined) {
    const store = new FleetStrategyStore(client);
    const kept = await store.ensure(inputs.runName, strategy);
    if (kept !== undefined && !keepsSame(kept.strategy, strategy)) {
      throw new ValidationError([{ path: "strategy", message: `fleet '${client.fleet.fleetName}' already keeps another update strategy '${inputs.runName}', which this run's auto-upgrade profile would reference: give the run another name, or delete that strategy` }]);
    }
    updateStrategyId = store.idOf(inputs.runName);
  }
  const { channel, targetKubernetesVersion, longTermSupport, nodeImageSelection } = inputs.autoUpgradeProfile;
  await client.putAutoUpgradeProfile(inputs.runName, {
    channel,
    ...(targetKubernetesVersion === undefined ? {} : { targetKubernetesVersion }),
    ...(longTermSupport === undefined ? {} : { longTermSupport }),
    ...(nodeImageSelection === undefined ? {} : { nodeImageSelection }),
    ...(updateStrategyId === undefined ? {} : { updateStrategyId }),
  });
  let generated;
  try {
    generated = await client.generateUpdateRun(inputs.runName);
  } catch (e) {
    // No qualifying version (and any refusal of the profile): Fleet made no run; nothing was touched.
    if (e instanceof FleetRequestError && e.statusCode === 400) throw new ValidationError([{ path: "autoUpgradeProfile", message: `Fleet Manager generated no update run: ${e.message}` }]);
    throw e;
  }
  const run = await client.getRun(generated.name);
  if (run === undefined) throw new Error(`fleet '${client.fleet.fleetName}' has no update run '${generated.name}', which generateUpdateRun just reported`);
  return { name: generated.name, run };
}

function attachable(run: UpdateRun, inputs: UpdateRunInputs & { managedClusterUpdate: ManagedClusterUpdate }, client: FleetClient): UpdateRun {
  const where = `update run '${inputs.runName}' of fleet '${client.fleet.fleetName}'`;
  if (!sameManagedClusterUpdate(run.properties?.managedClusterUpdate, inputs.managedClusterUpdate)) {
    throw new ValidationError([{ path: "managedClusterUpdate", message: `${where} exists with another managedClusterUpdate: give this run another name, or delete that run` }]);
  }
  const theirs = fromFleetStrategy(run.properties?.strategy);
  if (inputs.strategy !== undefined && theirs !== undefined && !keepsSame(theirs, inputs.strategy)) {
    throw new ValidationError([{ path: "strategy", message: `${where} exists with another strategy: give this run another name, or delete that run` }]);
  }
  return run;
}

const key = (t: SkipTarget) => `${t.type}/${t.name}`;

/** States of every skippable item, by `Type/name`. */
function skippableStates(status: UpdateRunStatus): Map<string, UpdateState> {
  const out = new Map<string, UpdateState>();
  for (const stage of status.stages) {
    out.set(`Stage/${stage.name}`, stage.status.state);
    if (stage.afterStageWaitStatus !== undefined) out.set(`AfterStageWait/${stage.name}`, stage.afterStageWaitStatus.status.state);
    for (const group of stage.groups) {
      out.set(`Group/${group.name}`, group.status.state);
      for (const m of group.members) out.set(`Member/${m.name}`, m.status.state);
    }
  }
  return out;
}

/**
 * The skip entries to send: new since the last call (not in `sent`), and not already finished in the
 * fleet's status (a client killed after its skip was applied but before its outputs were saved).
 */
export function newSkipTargets(skip: readonly SkipTarget[], sent: readonly SkipTarget[], status: UpdateRunStatus): SkipTarget[] {
  const already = new Set(sent.map(key));
  const states = skippableStates(status);
  const seen = new Set<string>();
  return skip.filter((t) => {
    const k = key(t);
    if (already.has(k) || seen.has(k)) return false;
    seen.add(k);
    const state = states.get(k);
    return state === undefined || !(state === "Skipped" || state === "Completed" || state === "Failed");
  });
}

export async function runFleetSession(inputs: UpdateRunInputs, client: FleetClient, pollIntervalSeconds: number | undefined, options: FleetSessionOptions = {}): Promise<FleetSessionResult> {
  const clock = options.clock ?? new RealClock();
  const now = (): number => clock.now();
  const sleeper = options.stop === undefined ? clock : new StoppableClock(clock, (instant) => instant - clock.now(), options.stop);
  const started = now();
  const { excluded, labels, strategy: userStrategy } = await checkFleetRun(inputs, client);
  const plan = analysisPlan(inputs, userStrategy);
  const found = await createOrAttach(inputs, client, options.previous, plan);
  checkAnalysisGates(found.run, plan.gates, inputs, client);
  // The fleet's name for the run: ours, or the one Fleet gave a run generated from a profile.
  const fleetRunName = found.name;
  let run = found.run;
  const record: FleetRunRecord = { id: run.id ?? client.runId(fleetRunName), skipsSent: [...(options.previous?.skipsSent ?? [])] };
  // Issue 31: the client measures the analysis and approves its own gates (`fleetAnalysis.ts`).
  const analyst =
    plan.gates.length === 0 || inputs.analysis === undefined
      ? undefined
      : new FleetAnalyst(inputs.analysis, plan.gates, labels, options.measure ?? { probe: httpProbe, queryMetric: prometheusQuery }, options.previous ?? {}, (event) => options.onEvent?.(event));

  let seen: UpdateRunStatus | undefined = options.lastSeen;
  // The run, as made: one deleted and made again under its name has the same ARM id, not the same creation.
  const runKey = run.systemData?.createdAt === undefined ? record.id : `${record.id} created ${run.systemData.createdAt}`;
  if (seen === undefined) {
    // A client taking up a run another one followed: from what it saw, its untold events first.
    // (A run is never NotStarted again once it started: one that is, is another run.)
    const before = options.seenBefore?.(runKey);
    const another = before !== undefined && before.seen.status.state !== "NotStarted" && (run.properties?.status?.status?.state ?? "NotStarted") === "NotStarted";
    if (before !== undefined && !another) {
      seen = before.seen;
      if (before.undeliveredEvents.length > 0) (options.onRedelivered ?? ((events) => events.forEach((e) => options.onEvent?.(e))))(before.undeliveredEvents);
    }
  }
  const scheduledStarts = options.scheduledStarts ?? new ScheduledStartInstants(client);
  /** Fleet's status as the user sees it: with the analyses measured, and the run Failed once one halted it. */
  let shown: UpdateRunStatus | undefined;
  const show = (fleet: UpdateRunStatus): void => {
    shown = analyst?.overlay(fleet) ?? fleet;
    const events = statusChanges(inputs.runName, seen, shown, now());
    // Kept before they go out, as the engine's journal is written before a pass's events.
    options.onSeen?.(runKey, shown, events);
    for (const event of events) options.onEvent?.(event);
    seen = shown;
  };
  const observe = async (r: UpdateRun): Promise<UpdateRunStatus> => {
    const status = await scheduledStarts.statusOf(r);
    show(status);
    return status;
  };
  let status = await observe(run);

  // The controls answer with the run as SDK 2.0.0 reads it (without gates): read it again after one.
  const reread = async (): Promise<UpdateRunStatus> => {
    const read = await client.getRun(fleetRunName);
    if (read === undefined) throw new Error(`update run '${fleetRunName}' was deleted from fleet '${client.fleet.fleetName}' while it was followed`);
    run = read;
    return observe(run);
  };

  // Controls, in the order the engine applies them: skips, then start or stop.
  const skips = newSkipTargets(inputs.skip, record.skipsSent, status);
  if (skips.length > 0) {
    await client.skip(fleetRunName, skips.map((t) => ({ type: t.type, name: t.name })));
    status = await reread();
  }
  record.skipsSent = dedupe([...record.skipsSent, ...inputs.skip]);
  const state = status.status.state;
  let startSent = false;
  if (inputs.state === "Running" && (state === "NotStarted" || state === "Stopped" || state === "Failed")) {
    // A start after an analysis halted the run measures again (its gate is reached again).
    analyst?.restarted();
    await client.startRun(fleetRunName);
    status = await reread();
    startSent = true;
  } else if (inputs.state !== "Running" && (state === "Running" || (state as string) === "Pending")) {
    await client.stopRun(fleetRunName);
    status = await reread();
  }

  // Follow with GETs; approve the gates `approvals` names as each becomes Pending (FM12).
  const intervalMs = (pollIntervalSeconds ?? DEFAULT_FLEET_POLL_SECONDS) * 1000;
  const deadline = started + inputs.timeoutMinutes * 60_000;
  const returnAt = inputs.returnAfterMinutes === undefined ? undefined : started + inputs.returnAfterMinutes * 60_000;
  const interrupted = (): boolean => options.stop?.isPending === true;
  const approver = new GateApprover(client);
  /** Our gates approved by this call (never twice: a read racing the approval still shows it Pending). */
  const analysisApproved = new Set<string>();
  let haltSent = false;
  let end: RunEnd;
  for (;;) {
    // A run found Stopping while `Running` is asked for is started again once its stop has ended —
    // unless this call stopped it, for a failed analysis.
    if (inputs.state === "Running" && !startSent && !haltSent && status.status.state === "Stopped") {
      analyst?.restarted();
      await client.startRun(fleetRunName);
      status = await reread();
      startSent = true;
      continue;
    }
    if (await approver.approveDue(inputs.approvals, run.properties?.status)) {
      status = await reread();
      continue;
    }
    // Fleet shows a run waiting at a gate as Pending.
    if (analyst !== undefined && inputs.state === "Running" && (status.status.state === "Running" || (status.status.state as string) === "Pending")) {
      const decision = await analyst.step(status, now());
      if (decision.halt !== undefined && !haltSent) {
        // The gate stays Pending; Fleet's stop ends the rollout there (docs/health-analysis.md).
        haltSent = true;
        await client.stopRun(fleetRunName);
        status = await reread();
        continue;
      }
      const resources = gateResources(run.properties?.status);
      const due = decision.approve.filter((id) => !analysisApproved.has(id) && resources.get(id)?.state === "Pending" && resources.get(id)?.resourceName !== "");
      for (const id of due) {
        await client.approveGate((resources.get(id) as { resourceName: string }).resourceName);
        analysisApproved.add(id);
        analyst.approved(id, now());
      }
      if (due.length > 0) {
        status = await reread();
        continue;
      }
      show(status);
    }
    if (reached(status.status.state, inputs.state)) {
      end = ENDED.has(status.status.state) ? "settled" : "asked";
      break;
    }
    // A person's gate waits; the client's own are measured on, and approved, first.
    if (waitsForApproval(status) && analyst?.measuring(status) !== true) {
      end = "gate";
      break;
    }
    if (interrupted()) {
      end = "interrupted";
      break;
    }
    const t = now();
    if (returnAt !== undefined && t >= returnAt) {
      end = "returned";
      break;
    }
    if (t >= deadline) {
      end = "deadline";
      break;
    }
    const nextPoll = t + intervalMs;
    // A measurement due, or a soak's end, before the next poll wakes the client then (issue 31).
    const analysisAt = analyst?.nextAt(status, t);
    const wake = Math.min(options.nextReadAt?.(t, nextPoll) ?? nextPoll, analysisAt ?? Infinity, deadline, returnAt ?? Infinity);
    try {
      await sleeper.sleepUntil(wake);
    } catch (e) {
      if (!(e instanceof StopRequested)) throw e;
    }
    if (interrupted()) {
      end = "interrupted";
      break;
    }
    status = await reread();
  }

  const strategySnapshot = fromFleetStrategy(run.properties?.strategy) ?? inputs.strategy ?? { stages: status.stages.map((s) => ({ name: s.name, groups: s.groups.map((g) => ({ name: g.name })) })) };
  const generatedUpdate = inputs.autoUpgradeProfile === undefined ? undefined : fromFleetManagedClusterUpdate(run.properties?.managedClusterUpdate);
  const kept = { ...record, ...(analyst?.record() ?? {}) };
  return { record: kept, status: shown ?? status, strategySnapshot, excludedMembers: excluded, end, ...(generatedUpdate === undefined ? {} : { generatedUpdate }) };
}

function dedupe(targets: SkipTarget[]): SkipTarget[] {
  const out = new Map<string, SkipTarget>();
  for (const t of targets) out.set(key(t), { type: t.type, name: t.name });
  return [...out.values()];
}
