/**
 * Fleet gates: list, GET, and PATCH `{properties: {state: "Completed"}}` to approve one (our engine's
 * `approve`, applied at once to the server-side run). The body is checked against the api-version's
 * `GatePatch`; any state but Completed is refused (400 naming
 * `properties.state`): a gate is skipped with its stage or group, not by a PATCH. Completing a
 * ScheduledStart gate opens it before its instant, as an approval does in our engine (docs/rules.md §17). GET and PATCH send
 * the gate's eTag as the `ETag` header too, as Fleet's examples show. Gates exist from api-version
 * 2025-04-01-preview: an older version is answered as ARM answers a type its version does not have
 * (400 `NoRegisteredProviderFound`, `apiVersions.ts`).
 */
import { resourceNotFound } from "../core/armErrors";
import { route } from "../core/router";
import type { ArmRequest, EmulatorContext, Route } from "../ports";
import { fleetApi, type FleetApi } from "./apiVersions";
import { gateBody, gateETag, gatesOf, type FleetGate } from "./fleetGates";
import { checkFleetPreconditions, findFleet, FLEET_PATH, type FleetManager } from "./fleetManager";
import { list } from "./fleetResources";
import { FLEETS } from "./fleetState";
import { parseGatePatch } from "./fleetValidation";

const GATE_PATH = `${FLEET_PATH}/gates/{gate}`;
const TYPE = "fleets/gates";

async function findGate(manager: FleetManager, ctx: EmulatorContext, request: ArmRequest, api: FleetApi) {
  const found = findFleet(manager, ctx, request);
  await Promise.all([...found.fleet.runs.values()].map((r) => r.driver.catchUp()));
  const wanted = (request.params.gate ?? "").toLowerCase();
  const gate: FleetGate | undefined = gatesOf(found.fleet, api.features).find((g) => g.name === wanted);
  if (gate === undefined) throw resourceNotFound(`${FLEETS}/gates`, request.params.gate ?? "", found.scope.resourceGroup);
  return { ...found, gate };
}

/** The gate routes of `manager`'s fleets. */
export const gateRoutes = (manager: FleetManager): Route[] => [
  route("GET", `${FLEET_PATH}/gates`, async (ctx, request) => {
    const api = fleetApi(request, TYPE);
    const { fleet, scope } = findFleet(manager, ctx, request);
    await Promise.all([...fleet.runs.values()].map((r) => r.driver.catchUp()));
    return { status: 200, body: list(gatesOf(fleet, api.features).map((g) => gateBody(scope, fleet, g, api.features))) };
  }),

  route("GET", GATE_PATH, async (ctx, request) => {
    const api = fleetApi(request, TYPE);
    const { fleet, scope, gate } = await findGate(manager, ctx, request, api);
    return { status: 200, body: gateBody(scope, fleet, gate, api.features), headers: { ETag: gateETag(gate) } };
  }),

  route("PATCH", GATE_PATH, async (ctx, request) => {
    const api = fleetApi(request, TYPE);
    const { fleet, scope, gate } = await findGate(manager, ctx, request, api);
    checkFleetPreconditions(request.headers, gateETag(gate), `gate '${gate.name}'`);
    parseGatePatch(request.body, api);
    await gate.run.driver.approve([gate.gateId]);
    gate.run.gatesPatchedAt.set(gate.gateId, ctx.clock.now());
    const after = gatesOf(fleet, api.features).find((g) => g.name === gate.name) ?? gate;
    return { status: 200, body: gateBody(scope, fleet, after, api.features), headers: { ETag: gateETag(after) } };
  }),
];
