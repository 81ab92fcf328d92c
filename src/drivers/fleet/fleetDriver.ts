/**
 * The Fleet Manager driver (issue 12): Azure Kubernetes Fleet Manager runs the update server-side.
 * A call creates the fleet's update run named after ours, or attaches to it, steers it (start, stop,
 * skip, approvals) and follows it (`fleetSession.ts`); Fleet's status becomes ours in
 * `drivers/fleet/fromFleet.ts`. The fleet keeps the run; what the client must remember between
 * calls is the `FleetRunRecord` (an output), and, between processes, the status whose changes it told
 * (`fleetSeen.ts`, issue 30), so a client taken up again tells each change once.
 */
import path from "node:path";
import { summarize } from "../../engine/summary";
import { ValidationError, type FieldIssue } from "../../model/issues";
import type { ExcludedMember } from "../../model/run";
import type { UpdateRunStatus } from "../../model/status";
import type { UpdateRunStrategy } from "../../model/strategy";
import { FleetRequestError, type FleetClient } from "../../backends/azureFleet/fleetClient";
import { appliedImagesOf, failedMembersOf } from "./fromFleet";
import { gateResources } from "./gateResources";
import { checkMembersAgainstFleet } from "./members";
import { fromFleetManagedClusterUpdate, fromFleetStrategy } from "./toFleet";
import type { ManagedClusterUpdate } from "../../model/update";
import { ScheduledStartInstants } from "./scheduledStarts";
import type { AzureFleetBackendConfig, UpdateRunInputs } from "../../spec/runSpec";
import type { Clock } from "../../engine/clock";
import { FleetSeenFile } from "./fleetSeen";
import { removeWebhookOutboxes } from "../../events/webhookOutbox";
import { JOURNAL_DIRECTORY } from "../runRecords";
import { analysisPlan, checkFleetRun, findFleetRun, runFleetSession, type FleetRunRecord, type FleetSessionOptions } from "./fleetSession";
import { FleetAnalyst } from "./fleetAnalysis";
import type { MeasurePorts } from "../../engine/analysis";
import { readOnlyAzureBackend } from "../clusterReader";
import { openFleetClient } from "./openFleet";
import { GateRefusedError, type DriveOptions, type GateView, type PlanView, type RunCall, type RunControls, type RunDriver, type RunReport, type RunSelection, type RunView, type StoredRun } from "../runDriver";
import { FleetStrategyStore } from "./strategyStore";
import { statusGates } from "../waiting";

export interface FleetDriverOptions {
  /** The clock following runs on (default the wall clock): tests and the simulation pass a compressible one. */
  clock?: Clock;
  /** The client to use instead of one opened from the backend config (the simulation tunes its retries). */
  client?: FleetClient;
  /** When to read a followed run next, instead of every poll interval (`FleetSessionOptions.nextReadAt`). */
  nextReadAt?: (now: number, nextPoll: number) => number;
  /**
   * Keep what the client saw of the run beside the engine's journals (`fleetSeen.ts`; default true).
   * The simulation, one client in one process, keeps nothing on disk.
   */
  keepSeen?: boolean;
  /** Issue 31: how analyses measure (`FleetSessionOptions.measure`; default over HTTP). */
  measure?: MeasurePorts;
}

export class FleetManagerDriver implements RunDriver {
  readonly executes = "server";
  // The fleet's update run is named after the resource, so the old one goes first.
  readonly deleteBeforeReplace = true;
  readonly plansLocally = false;

  constructor(
    private readonly config: AzureFleetBackendConfig,
    private readonly baseDir: string,
    private readonly options: FleetDriverOptions = {},
  ) {}

  private client(): FleetClient {
    return this.options.client ?? openFleetClient(this.config, this.baseDir);
  }

  /** The fleet's members against the run: a listed member not in the fleet, or in another group, is named. */
  async check(inputs: UpdateRunInputs): Promise<FieldIssue[]> {
    try {
      await checkFleetRun(inputs, this.client());
      return [];
    } catch (e) {
      if (e instanceof ValidationError) return e.issues;
      return [{ path: "backend.azureFleet.fleetId", message: `cannot read the fleet's members: ${(e as Error).message}` }];
    }
  }

  async open(inputs: UpdateRunInputs, selection: RunSelection): Promise<RunCall> {
    const previous = selection.by === "stack" ? selection.stored?.fleetRun : undefined;
    const seenFile = this.options.keepSeen === false ? undefined : FleetSeenFile.in(path.resolve(this.baseDir, JOURNAL_DIRECTORY), inputs.runName);
    return new FleetRunCall(inputs, this.client(), this.config, previous, this.options, seenFile);
  }

  /** One GET of the run, nothing sent (`pulumi refresh`). */
  async observe(inputs: UpdateRunInputs, stored: StoredRun): Promise<RunView> {
    const client = this.client();
    const { excluded, strategy } = await checkFleetRun(inputs, client);
    const found = await findFleetRun(inputs, client, stored.fleetRun);
    if (found === undefined) throw new Error(`update run '${inputs.runName}' is not in fleet '${client.fleet.fleetName}' (deleted outside Pulumi?)`);
    const { run, name } = found;
    // Issue 31: what the client measured, as the last call kept it (nothing is measured on a refresh).
    const status = analysisShown(inputs, strategy, stored.fleetRun, await new ScheduledStartInstants(client).statusOf(run));
    const strategySnapshot = fromFleetStrategy(run.properties?.strategy) ?? inputs.strategy ?? { stages: [] };
    const generated = inputs.autoUpgradeProfile === undefined ? undefined : fromFleetManagedClusterUpdate(run.properties?.managedClusterUpdate);
    return fleetView(inputs, stored.fleetRun ?? { id: run.id ?? client.runId(name), skipsSent: [] }, status, strategySnapshot, excluded, generated);
  }

  async gates(inputs: UpdateRunInputs): Promise<GateView[]> {
    const { status } = await this.runOf(inputs, this.client());
    return statusGates(status).map((g) => ({ gateId: g.gateId, state: g.status.state, displayName: g.displayName }));
  }

  /**
   * docs/behaviour.md FM12: PATCHed in Fleet at once; the server-side run goes on without any client.
   * Fleet takes an approval once a gate is Pending: a gate not reached yet is refused, naming the way
   * to approve it ahead (the spec's `approvals`, applied by `fleet-update run` when it is reached).
   */
  async approve(inputs: UpdateRunInputs, gateIds: readonly string[]): Promise<string> {
    const client = this.client();
    const { run } = await this.runOf(inputs, client);
    // All or nothing, as on the engine driver: every id is checked before anything is sent.
    const resources = gateResources(run.properties?.status);
    const problems = gateIds.flatMap((id) => {
      const gate = resources.get(id);
      if (gate === undefined) return [`no gate '${id}' in this run (its gates: ${[...resources.keys()].join(", ") || "none"})`];
      // Issue 31: ours pass only when their analysis does (docs/health-analysis.md "On Fleet Manager").
      if (gate.analysis) return [`gate '${id}' holds the run for its health analysis: fleet-update approves it when the analysis passes, never on request`];
      if (gate.state === "NotStarted") return [`gate '${id}' is not reached yet: Fleet Manager takes an approval once a gate is Pending; list it under approvals in the run's spec and \`fleet-update run\` approves it when it is reached`];
      return [];
    });
    if (problems.length > 0) throw new GateRefusedError(problems.map((p) => `approval refused, nothing was approved: ${p}`));
    const sent: string[] = [];
    for (const id of gateIds) {
      const gate = resources.get(id);
      if (gate === undefined || gate.state !== "Pending") continue;
      try {
        await client.approveGate(gate.resourceName);
      } catch (e) {
        if (!(e instanceof FleetRequestError)) throw e;
        throw new GateRefusedError([`gate '${id}': Fleet Manager refused: ${e.message}${sent.length > 0 ? ` (approved before it: ${sent.join(", ")})` : ""}`]);
      }
      sent.push(id);
    }
    const already = gateIds.filter((id) => !sent.includes(id));
    return `${sent.length > 0 ? `approved ${sent.join(", ")} in fleet '${client.fleet.fleetName}'; the run goes on server-side` : "nothing to approve"}${already.length > 0 ? ` (already passed: ${already.join(", ")})` : ""}`;
  }

  /**
   * Planned on the client (read-only, so safe): the fleet's members are read and checked as the run's
   * Check does, then their clusters are read through the Azure backend with the same endpoint and
   * credentials. Fleet runs the same stage and group order, so the schedule is Fleet's as far as
   * docs/rules.md §3 decides it.
   */
  async planView(inputs: UpdateRunInputs): Promise<PlanView> {
    const client = this.client();
    const checked = checkMembersAgainstFleet(inputs.members, await client.listMembers(), client.fleet.fleetName, inputs.strategy);
    if (checked.issues.length > 0) throw new ValidationError(checked.issues);
    const { fleetId: _fleetId, pollIntervalSeconds: _poll, apiVersion: _apiVersion, ...azure } = this.config;
    return {
      reads: "clusters",
      inputs: { ...inputs, members: checked.members, backend: { azure } },
      backend: readOnlyAzureBackend(azure, this.baseDir, inputs.managedClusterUpdate, "backend.azureFleet"),
    };
  }

  /**
   * Delete the fleet's update run, in whatever state it is, as Fleet takes it (the live service
   * answers 200 for a started run, test_fleet_hubless): the run is gone and goes no further; an
   * upgrade already in flight on a cluster is AKS's operation and ends as it would (docs/behaviour.md
   * FM9). A run created again with this name is a new run.
   */
  async forget(inputs: UpdateRunInputs, stored: StoredRun): Promise<void> {
    const client = this.client();
    const found = await findFleetRun(inputs, client, stored.fleetRun);
    if (found !== undefined) await client.deleteRun(found.name);
    // docs/rules.md §18: the disabled profile the run was generated from, and the strategy kept for it.
    if (inputs.autoUpgradeProfile !== undefined) {
      await client.deleteAutoUpgradeProfile(inputs.runName);
      if (inputs.strategy !== undefined) await new FleetStrategyStore(client).remove(inputs.runName);
    }
    // What the clients saw of it, and their webhooks' outboxes.
    if (this.options.keepSeen !== false) {
      const seen = FleetSeenFile.in(path.resolve(this.baseDir, JOURNAL_DIRECTORY), inputs.runName);
      seen.remove();
      removeWebhookOutboxes(seen.file);
    }
  }

  private async runOf(inputs: UpdateRunInputs, client: FleetClient) {
    const found = await findFleetRun(inputs, client);
    if (found === undefined) throw new GateRefusedError([`fleet '${client.fleet.fleetName}' has no update run '${inputs.runName}': start it first (fleet-update run), or list the gate ids under approvals in the run's spec`]);
    return { run: found.run, status: await new ScheduledStartInstants(client).statusOf(found.run) };
  }
}

/**
 * One client's steering of the fleet's run. Driven again (the simulation's timed actions), it goes
 * on from what it sent and saw: skips already sent are not sent again, and only changes since its
 * last read are events.
 */
class FleetRunCall implements RunCall {
  readonly executes = "server";
  readonly resumed = undefined;
  readonly excludedMembers: readonly ExcludedMember[] = [];
  readonly whereKept: string;
  /** What the client saw (`fleetSeen.ts`): a webhook keeps its outbox beside it. */
  readonly journalFile: string | undefined;
  private latest: UpdateRunStatus | undefined;
  private record: FleetRunRecord | undefined;
  private readonly pollIntervalSeconds: number | undefined;
  /** Kept across drives, so each ScheduledStart gate resource is read once. */
  private readonly scheduledStarts: ScheduledStartInstants;

  constructor(
    private readonly inputs: UpdateRunInputs,
    private readonly client: FleetClient,
    config: AzureFleetBackendConfig,
    previous: FleetRunRecord | undefined,
    private readonly options: FleetDriverOptions,
    private readonly seenFile: FleetSeenFile | undefined,
  ) {
    this.whereKept = config.fleetId;
    this.journalFile = seenFile?.file;
    this.record = previous;
    this.pollIntervalSeconds = config.pollIntervalSeconds;
    this.scheduledStarts = new ScheduledStartInstants(client);
  }

  get id(): string | undefined {
    return this.record?.id;
  }

  latestStatus(): UpdateRunStatus | undefined {
    return this.latest;
  }

  engineState(): undefined {
    return undefined;
  }

  async drive(controls: RunControls, options: DriveOptions): Promise<RunReport> {
    const { clock, nextReadAt, measure } = this.options;
    const result = await runFleetSession({ ...this.inputs, ...controls }, this.client, this.pollIntervalSeconds, {
      ...(this.record === undefined ? {} : { previous: this.record }),
      ...(this.latest === undefined ? {} : { lastSeen: this.latest }),
      ...(options.stop === undefined ? {} : { stop: options.stop }),
      ...(clock === undefined ? {} : { clock }),
      ...(nextReadAt === undefined ? {} : { nextReadAt }),
      ...(measure === undefined ? {} : { measure }),
      scheduledStarts: this.scheduledStarts,
      onEvent: (event) => options.onEvent(event),
      ...(options.onRedelivered === undefined ? {} : { onRedelivered: options.onRedelivered }),
      ...(this.seenFile === undefined ? {} : this.keptSeen(this.seenFile)),
    });
    this.latest = result.status;
    this.record = result.record;
    const view = fleetView(this.inputs, result.record, result.status, result.strategySnapshot, result.excludedMembers, result.generatedUpdate);
    return { ...view, end: result.end, busy: view.summary.members.Running > 0 || result.status.status.state === "Stopping" };
  }

  /** Issue 30: what a client taken up again goes on from (`fleetSeen.ts`). */
  private keptSeen(file: FleetSeenFile): Pick<FleetSessionOptions, "seenBefore" | "onSeen"> {
    let untold = false;
    return {
      seenBefore: (runId) => file.read(runId),
      onSeen: (runId, status, events) => {
        // Written when there is something to tell, or to say that what was listed has been told.
        if (events.length === 0 && !untold) return;
        file.write({ runId, seen: status, undeliveredEvents: [...events] });
        untold = events.length > 0;
      },
    };
  }

  /** Nothing to keep: the fleet holds the run, which goes on server-side (what was seen is kept as it is seen). */
  leaveNow(): void {}

  release(): void {}
}

/** Fleet's status with the analyses a record kept, and its halt (`FleetAnalyst.overlay`). */
function analysisShown(inputs: UpdateRunInputs, strategy: UpdateRunStrategy | undefined, record: FleetRunRecord | undefined, status: UpdateRunStatus): UpdateRunStatus {
  const { gates } = analysisPlan(inputs, strategy);
  if (inputs.analysis === undefined || gates.length === 0 || record === undefined) return status;
  const unmeasured: MeasurePorts = { probe: () => ({ ok: false, detail: "not measured on a refresh" }), queryMetric: () => ({ error: "not measured on a refresh" }) };
  return new FleetAnalyst(inputs.analysis, gates, new Map(), unmeasured, record, () => undefined).overlay(status);
}

/** Fleet's status as our outputs: `summary`, `failedMembers`, … derived from it. Drift is not read on Fleet Manager. */
function fleetView(inputs: UpdateRunInputs, record: FleetRunRecord, status: UpdateRunStatus, strategySnapshot: UpdateRunStrategy, excludedMembers: ExcludedMember[], generatedUpdate?: ManagedClusterUpdate): RunView {
  return {
    id: record.id,
    executes: "server",
    status,
    summary: summarize(status),
    strategySnapshot,
    selectedNodeImageVersions: status.nodeImageSelection.selectedNodeImageVersions.map((v) => v.version),
    excludedMembers,
    failedMembers: failedMembersOf(status),
    appliedNodeImageVersions: appliedImagesOf(status, inputs.managedClusterUpdate ?? generatedUpdate),
    drift: [],
    fleetRun: record,
    ...(generatedUpdate === undefined ? {} : { generatedUpdate }),
  };
}
