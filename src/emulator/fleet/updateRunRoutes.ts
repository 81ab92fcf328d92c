/**
 * UpdateRuns: list, GET (live status), PUT, DELETE, and `start`, `stop`, `skip`.
 * A run is planned by our engine when it is created (docs/rules.md §2 checks → 400 naming the field), and
 * driven server-side once started (`fleetRuns.ts`). PUT is idempotent: the same spec again answers
 * the run as it is (a client retrying a lost answer); another spec replaces a run only while it has
 * never been started (409 after). As the live service answers (`test_fleet_hubless`,
 * docs/emulator-conformance.md): `start` answers 200 with the run as it was when the start was taken
 * (still NotStarted: Fleet starts it after answering), `skip` 200 with the run skipped; `stop`, which
 * the recording does not show, stays long-running (202, the operation over once the run is Stopped);
 * DELETE answers 200 whatever the run's state, a started run included: the run stops being driven and
 * is gone (an upgrade already in flight on a cluster is AKS's operation and goes on).
 */
import crypto from "node:crypto";
import { SkipRefusedError } from "../../engine";
import { ArmError, resourceNotFound } from "../core/armErrors";
import { route } from "../core/router";
import type { ArmReply, ArmRequest, ArmScope, EmulatorContext, Route } from "../ports";
import { fleetApi, type FleetApi } from "./apiVersions";
import { checkFleetPreconditions, findFleet, FLEET_PATH, type FleetManager } from "./fleetManager";
import { fleetLroHeaders, type FleetOperationKind } from "./fleetOperations";
import { list, runBody, runETag } from "./fleetResources";
import { FLEETS, fleetId, key, type FleetRecord, type RunRecord } from "./fleetState";
import { checkName, FieldValidationError, parseRunBody, parseSkipBody, type RunSpec } from "./fleetValidation";

const RUN_PATH = `${FLEET_PATH}/updateRuns/{run}`;
const TYPE = "fleets/updateRuns";

function findRun(manager: FleetManager, ctx: EmulatorContext, request: ArmRequest): { fleet: FleetRecord; scope: ArmScope; run: RunRecord | undefined } {
  const found = findFleet(manager, ctx, request);
  return { ...found, run: found.fleet.runs.get(key(request.params.run ?? "")) };
}

function existingRun(manager: FleetManager, ctx: EmulatorContext, request: ArmRequest): { fleet: FleetRecord; scope: ArmScope; run: RunRecord } {
  const found = findRun(manager, ctx, request);
  if (found.run === undefined) throw resourceNotFound(`${FLEETS}/updateRuns`, request.params.run ?? "", found.scope.resourceGroup);
  return { ...found, run: found.run };
}

/** The strategy an `updateStrategyId` names: an update strategy of this fleet (full ARM id, or its bare name). */
export function referencedStrategy(fleet: FleetRecord, scope: ArmScope, id: string): RunSpec["strategy"] {
  const prefix = `${fleetId(scope, fleet.name)}/updateStrategies/`.toLowerCase();
  const name = id.includes("/") ? (id.toLowerCase().startsWith(prefix) ? id.slice(prefix.length) : undefined) : id;
  const found = name === undefined || name.includes("/") ? undefined : fleet.strategies.get(key(name));
  if (found === undefined) {
    throw new FieldValidationError([{ path: "properties.updateStrategyId", message: `'${id}' is not an update strategy of fleet '${fleet.name}' (expected ${prefix}<name>, one of: ${[...fleet.strategies.values()].map((s) => s.name).join(", ") || "none"})` }]);
  }
  return structuredClone(found.strategy);
}

/**
 * POST start / stop / skip, applied to the engine now. Start: 200 with the run as it was when taken
 * (Fleet starts it after answering); skip: 200 with the run skipped; stop: 202 with the operation's
 * URLs, done once the run is no longer Stopping.
 */
async function control(manager: FleetManager, ctx: EmulatorContext, request: ArmRequest, kind: FleetOperationKind): Promise<ArmReply> {
  const api: FleetApi = fleetApi(request, TYPE);
  const { fleet, scope, run } = existingRun(manager, ctx, request);
  await run.driver.catchUp();
  checkFleetPreconditions(request.headers, runETag(run), `update run '${run.name}'`);
  if (kind === "skip") {
    const targets = parseSkipBody(request.body, api);
    try {
      await run.driver.skip(targets);
    } catch (error) {
      if (error instanceof SkipRefusedError) throw new ArmError(400, "InvalidSkipTargets", error.message);
      throw error;
    }
    return { status: 200, body: runBody(scope, fleet, run, api.features) };
  }
  if (kind === "start") {
    const taken = runBody(scope, fleet, run, api.features);
    await run.driver.start();
    return { status: 200, body: taken };
  }
  await run.driver.stop();
  const op = manager.operations.add({ kind, fleet, run, scope, location: fleet.location, startAt: ctx.clock.now(), api: api.features });
  return { status: 202, headers: fleetLroHeaders(ctx.baseUrl(), op) };
}

/** The update run routes of `manager`'s fleets. */
export const updateRunRoutes = (manager: FleetManager): Route[] => [
  route("GET", `${FLEET_PATH}/updateRuns`, async (ctx, request) => {
    const api = fleetApi(request, TYPE);
    const { fleet, scope } = findFleet(manager, ctx, request);
    const runs = [...fleet.runs.values()];
    await Promise.all(runs.map((r) => r.driver.catchUp()));
    return { status: 200, body: list(runs.map((r) => runBody(scope, fleet, r, api.features))) };
  }),

  route("GET", RUN_PATH, async (ctx, request) => {
    const api = fleetApi(request, TYPE);
    const { fleet, scope, run } = existingRun(manager, ctx, request);
    await run.driver.catchUp();
    return { status: 200, body: runBody(scope, fleet, run, api.features) };
  }),

  route("PUT", RUN_PATH, async (ctx, request) => {
    const api = fleetApi(request, TYPE);
    const { fleet, scope, run: existing } = findRun(manager, ctx, request);
    const name = request.params.run ?? "";
    checkName(name, "updateRunName");
    if (existing !== undefined) await existing.driver.catchUp();
    checkFleetPreconditions(request.headers, existing === undefined ? undefined : runETag(existing), `update run '${name}'`);
    const spec = parseRunBody(request.body, api);
    const specDigest = crypto.createHash("sha256").update(JSON.stringify(spec)).digest("hex");
    if (existing !== undefined) {
      if (existing.specDigest === specDigest) return { status: 200, body: runBody(scope, fleet, existing, api.features) };
      if (existing.engine.state !== "NotStarted") {
        throw new ArmError(409, "UpdateRunAlreadyStarted", `Update run '${existing.name}' has been started (state ${existing.engine.state}); its strategy and managedClusterUpdate cannot change. Create a new update run.`);
      }
    }
    const strategyFromReference = spec.updateStrategyId === undefined ? undefined : referencedStrategy(fleet, scope, spec.updateStrategyId);
    const run = manager.createRun(fleet, scope, existing?.name ?? name, { ...spec, ...(strategyFromReference === undefined ? {} : { strategyFromReference }) }, specDigest);
    if (existing !== undefined) run.createdAt = existing.createdAt;
    existing?.driver.close();
    fleet.runs.set(key(name), run);
    return { status: existing === undefined ? 201 : 200, body: runBody(scope, fleet, run, api.features) };
  }),

  route("DELETE", RUN_PATH, async (ctx, request) => {
    fleetApi(request, TYPE);
    const { fleet, run } = findRun(manager, ctx, request);
    if (run === undefined) return { status: 204 };
    await run.driver.catchUp();
    checkFleetPreconditions(request.headers, runETag(run), `update run '${run.name}'`);
    run.driver.close();
    fleet.runs.delete(key(run.name));
    return { status: 200 };
  }),

  route("POST", `${RUN_PATH}/start`, (ctx, request) => control(manager, ctx, request, "start")),
  route("POST", `${RUN_PATH}/stop`, (ctx, request) => control(manager, ctx, request, "stop")),
  route("POST", `${RUN_PATH}/skip`, (ctx, request) => control(manager, ctx, request, "skip")),
];
