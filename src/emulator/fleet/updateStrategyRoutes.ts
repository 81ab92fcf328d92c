/**
 * FleetUpdateStrategies: list, GET, PUT (create 201 / replace 200), DELETE, with `eTag` and
 * `If-Match` / `If-None-Match` (412 `PreconditionFailed`). A strategy is checked with docs/rules.md §2's
 * strategy rules when written; whether its groups have members is checked when a run uses it. A run
 * copies the strategy when it is created, so later edits or a deletion do not change that run.
 */
import { resourceNotFound } from "../core/armErrors";
import { route } from "../core/router";
import type { ArmRequest, EmulatorContext, Route } from "../ports";
import { fleetApi } from "./apiVersions";
import { checkFleetPreconditions, findFleet, FLEET_PATH, type FleetManager } from "./fleetManager";
import { list, strategyBody, strategyETag } from "./fleetResources";
import { FLEETS, key, type StrategyRecord } from "./fleetState";
import { checkName, parseStrategyBody } from "./fleetValidation";

const STRATEGY_PATH = `${FLEET_PATH}/updateStrategies/{strategy}`;
const TYPE = "fleets/updateStrategies";

function findStrategy(manager: FleetManager, ctx: EmulatorContext, request: ArmRequest) {
  const found = findFleet(manager, ctx, request);
  return { ...found, strategy: found.fleet.strategies.get(key(request.params.strategy ?? "")) };
}

/** The update strategy routes of `manager`'s fleets. */
export const updateStrategyRoutes = (manager: FleetManager): Route[] => [
  route("GET", `${FLEET_PATH}/updateStrategies`, async (ctx, request) => {
    const api = fleetApi(request, TYPE);
    const { fleet, scope } = findFleet(manager, ctx, request);
    return { status: 200, body: list([...fleet.strategies.values()].map((s) => strategyBody(scope, fleet, s, api.features))) };
  }),

  route("GET", STRATEGY_PATH, async (ctx, request) => {
    const api = fleetApi(request, TYPE);
    const { fleet, scope, strategy } = findStrategy(manager, ctx, request);
    if (strategy === undefined) throw resourceNotFound(`${FLEETS}/updateStrategies`, request.params.strategy ?? "", scope.resourceGroup);
    return { status: 200, body: strategyBody(scope, fleet, strategy, api.features) };
  }),

  route("PUT", STRATEGY_PATH, async (ctx, request) => {
    const api = fleetApi(request, TYPE);
    const { fleet, scope, strategy: existing } = findStrategy(manager, ctx, request);
    const name = request.params.strategy ?? "";
    checkName(name, "updateStrategyName");
    checkFleetPreconditions(request.headers, existing === undefined ? undefined : strategyETag(existing), `update strategy '${name}'`);
    const now = ctx.clock.now();
    const record: StrategyRecord = { name: existing?.name ?? name, strategy: parseStrategyBody(request.body, api), createdAt: existing?.createdAt ?? now, modifiedAt: now };
    fleet.strategies.set(key(name), record);
    return { status: existing === undefined ? 201 : 200, body: strategyBody(scope, fleet, record, api.features) };
  }),

  route("DELETE", STRATEGY_PATH, async (ctx, request) => {
    fleetApi(request, TYPE);
    const { fleet, strategy } = findStrategy(manager, ctx, request);
    if (strategy === undefined) return { status: 204 };
    checkFleetPreconditions(request.headers, strategyETag(strategy), `update strategy '${strategy.name}'`);
    fleet.strategies.delete(key(strategy.name));
    return { status: 200 };
  }),
];
