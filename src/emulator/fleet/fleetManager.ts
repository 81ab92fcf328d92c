/**
 * Azure Kubernetes Fleet Manager in the emulator: the fleets (`fleetState.ts`), the long-running
 * operations of their runs (`fleetOperations.ts`), and how a run is made: planned by our engine over
 * the fleet's members at creation, then driven server-side (`fleetRuns.ts`) against the same clusters
 * the managedClusters routes show (`fleetBackend.ts`), on the emulator's clock.
 */
import type { IncomingHttpHeaders } from "node:http";
import { UpdateRunEngine } from "../../engine";
import type { Fleet } from "../../model/fleet";
import type { RunEvent } from "../../model/status";
import { ArmError, resourceNotFound } from "../core/armErrors";
import { checkSubscription } from "../core/context";
import type { ArmClusters, ArmReply, ArmRequest, ArmScope, EmulatorContext, OperationSource } from "../ports";
import { EmulatedClusterBackend } from "./fleetBackend";
import { fleetOperationResult, fleetOperationStatus, FleetOperationRegistry } from "./fleetOperations";
import { memberClusterId, memberLabels } from "./fleetResources";
import { RunDriver, type RunClock } from "./fleetRuns";
import { FLEETS, FleetStore, isLeaving, type FleetDeclaration, type FleetRecord, type RunLimits, type RunRecord } from "./fleetState";
import { resourceOperationResult, resourceOperationStatus, ResourceOperations } from "./resourceOperations";
import { validated, type RunSpec } from "./fleetValidation";

/**
 * A Pending member waiting for something whose end is not known (a cluster busy with an operation
 * someone else started) is looked at again after this much simulated time.
 */
const RECHECK_UNKNOWN_MS = 60_000;

export class FleetManager implements OperationSource {
  readonly store: FleetStore;
  readonly operations = new FleetOperationRegistry();
  private readonly backend: EmulatedClusterBackend;

  /** Fleets' and members' creates, updates and deletes (`resourceOperations.ts`). */
  readonly resourceOperations = new ResourceOperations();

  constructor(
    world: Fleet,
    /** ARM's clusters: a run's members, and what their regions offer (auto-upgrade channels). */
    readonly clusters: ArmClusters,
    private readonly time: RunClock,
    declarations?: readonly FleetDeclaration[],
  ) {
    const now = time.clock.now();
    // Declared fleets and members were made before the emulator started: their operation is over.
    this.store = new FleetStore(world, declarations, () => this.resourceOperations.add("create", { subscriptionId: "", resourceGroup: "" }, "", now, 0), now);
    this.backend = new EmulatedClusterBackend(clusters);
  }

  /** A new run over the fleet's members now, NotStarted (the engine's `ValidationError` → 400). */
  createRun(fleet: FleetRecord, scope: ArmScope, name: string, spec: RunSpec & { strategyFromReference?: RunSpec["strategy"] }, specDigest: string): RunRecord {
    const strategy = spec.strategy ?? spec.strategyFromReference;
    // The fleet members' labels go to the engine, which decides each group's members once, here,
    // as Fleet snapshots a run's members at creation (docs/rules.md §16).
    // A member leaving the fleet is in no new run. Labels are the member's with Fleet's own five
    // (`fleet.azure.com/*`), as Fleet selects by them.
    const members = [...fleet.members.values()]
      .filter((m) => !isLeaving(m))
      .map((m) => ({
        name: m.name,
        clusterResourceId: memberClusterId(scope, m),
        ...(m.group === undefined ? {} : { group: m.group }),
        labels: memberLabels(scope, m),
      }));
    const events: RunEvent[] = [];
    const gatesReached = new Map<string, string>();
    const engine = validated(
      () =>
        UpdateRunEngine.create({ name, members, ...(strategy === undefined ? {} : { strategy }), managedClusterUpdate: spec.managedClusterUpdate }, this.backend, {
          recheckUnknownAfterMs: RECHECK_UNKNOWN_MS,
          onEvent: (event) => {
            events.push(event);
            // Reached: waiting, or passed. A gate skipped before it was reached (its group or stage
            // skipped) never became a resource, and the run's status gives it no gateId (as on Fleet).
            if (event.scope === "gate" && event.to !== "NotStarted" && event.to !== "Skipped" && !gatesReached.has(event.name)) gatesReached.set(event.name, event.time);
          },
        }),
      "properties",
    );
    const now = this.time.clock.now();
    return {
      name,
      ...(spec.updateStrategyId === undefined ? {} : { updateStrategyId: spec.updateStrategyId }),
      ...(strategy === undefined ? {} : { strategy }),
      managedClusterUpdate: spec.managedClusterUpdate,
      specDigest,
      scope,
      engine,
      driver: new RunDriver(engine, this.time),
      events,
      limits: resolvedLimits(engine),
      gatesReached,
      gatesPatchedAt: new Map(),
      createdAt: now,
      modifiedAt: now,
    };
  }

  /** A run by fleet and name, for assertions (its `engine`, `events`). */
  run(fleet: string, run: string): RunRecord | undefined {
    return this.store.get(fleet)?.runs.get(run.toLowerCase());
  }

  /** The earliest pass due of any run, server-side (`CompressibleClock.nextScheduledAt`). */
  nextPassAt(): number | undefined {
    let next: number | undefined;
    for (const run of this.store.runs()) {
      const at = run.driver.nextPassAt;
      if (at !== undefined && (next === undefined || at < next)) next = at;
    }
    return next;
  }

  /** Run every pass that is due now (after a jump of the clock, whose timers are behind it). */
  async runDuePasses(): Promise<void> {
    await Promise.all([...this.store.runs()].map((run) => run.driver.catchUp()));
  }

  /** `OperationSource`: a run's start, stop or skip at the shared `Azure-AsyncOperation` URL. */
  operationStatus(operationId: string): Promise<ArmReply> | undefined {
    const op = this.operations.get(operationId);
    if (op !== undefined) return fleetOperationStatus(op, this.time.clock);
    const write = this.resourceOperations.get(operationId);
    return write === undefined ? undefined : Promise.resolve(resourceOperationStatus(write, this.time.clock.now()));
  }

  /** `OperationSource`: the same at the shared `Location` URL. */
  operationResult(operationId: string, baseUrl: string): Promise<ArmReply> | undefined {
    const op = this.operations.get(operationId);
    if (op !== undefined) return fleetOperationResult(baseUrl, op, this.time.clock);
    const write = this.resourceOperations.get(operationId);
    return write === undefined ? undefined : Promise.resolve(resourceOperationResult(baseUrl, write, this.time.clock.now()));
  }

  close(): void {
    this.store.close();
  }
}

/** The limits the engine resolved when it planned the run (they do not change after). */
function resolvedLimits(engine: UpdateRunEngine): RunLimits {
  const run = engine.snapshot();
  return {
    stages: run.stages.map((stage) => ({
      ...(stage.maxConcurrency === undefined ? {} : { maxConcurrency: stage.maxConcurrency }),
      ...(stage.maxAllowedFailures === undefined ? {} : { maxAllowedFailures: stage.maxAllowedFailures }),
      groups: stage.groups.map((group) => ({ maxConcurrency: group.maxConcurrency, ...(group.maxAllowedFailures === undefined ? {} : { maxAllowedFailures: group.maxAllowedFailures }) })),
    })),
  };
}

/** The scope a fleet route addresses (checked against the emulator's configured scope). */
export function fleetScope(ctx: EmulatorContext, request: ArmRequest): ArmScope {
  const subscriptionId = request.params.subscriptionId ?? "";
  const resourceGroup = request.params.resourceGroup ?? "";
  checkSubscription(ctx, subscriptionId);
  if (ctx.resourceGroup !== undefined && ctx.resourceGroup.toLowerCase() !== resourceGroup.toLowerCase()) {
    throw new ArmError(404, "ResourceGroupNotFound", `Resource group '${resourceGroup}' could not be found.`);
  }
  return { subscriptionId, resourceGroup };
}

/** The fleet a route names, or 404. */
export function findFleet(manager: FleetManager, ctx: EmulatorContext, request: ArmRequest): { fleet: FleetRecord; scope: ArmScope } {
  const scope = fleetScope(ctx, request);
  const name = request.params.fleet ?? "";
  manager.store.purge(ctx.clock.now());
  const fleet = manager.store.get(name);
  if (fleet === undefined) throw resourceNotFound(FLEETS, name, scope.resourceGroup);
  fleet.homeScope ??= scope;
  return { fleet, scope };
}

function etagValues(header: string | string[] | undefined): string[] | undefined {
  if (header === undefined) return undefined;
  const text = Array.isArray(header) ? header.join(",") : header;
  return text.split(",").map((v) => v.trim().replace(/^W\//, "").replace(/^"(.*)"$/, "$1"));
}

/**
 * `If-Match` / `If-None-Match` against a Fleet resource's eTag (`undefined`: it does not exist yet):
 * 412 `PreconditionFailed` when `If-Match` names another eTag (or the resource is missing), or
 * `If-None-Match: *` meets an existing one (create-only).
 */
export function checkFleetPreconditions(headers: IncomingHttpHeaders, current: string | undefined, what: string): void {
  const ifMatch = etagValues(headers["if-match"]);
  if (ifMatch !== undefined && (current === undefined || (!ifMatch.includes("*") && !ifMatch.includes(current)))) {
    throw new ArmError(
      412,
      "PreconditionFailed",
      current === undefined
        ? `Operation is not allowed: ${what} does not exist, so the If-Match header (${ifMatch.join(", ")}) cannot match.`
        : `Operation is not allowed: the eTag in the If-Match header (${ifMatch.join(", ")}) does not match the current eTag of ${what} (${current}). Get the resource again and retry.`,
    );
  }
  const ifNoneMatch = etagValues(headers["if-none-match"]);
  if (ifNoneMatch !== undefined && current !== undefined && (ifNoneMatch.includes("*") || ifNoneMatch.includes(current))) {
    throw new ArmError(412, "PreconditionFailed", `Operation is not allowed: ${what} already exists and matches the If-None-Match header.`);
  }
}

export const FLEET_PATH = "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroup}/providers/Microsoft.ContainerService/fleets/{fleet}";
