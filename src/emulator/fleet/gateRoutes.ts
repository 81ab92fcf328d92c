/**
 * Fleet gates: list, GET, and PATCH `{properties: {state: "Completed"}}` to approve one (our engine's
 * `approve`, applied at once to the server-side run). Any other state is refused (400 naming
 * `properties.state`): a gate is skipped with its stage or group, not by a PATCH. Gates exist from
 * api-version 2025-04-01-preview: an older version is answered as ARM answers a type its version
 * does not have (400 `NoRegisteredProviderFound`).
 */
import { ArmError, resourceNotFound } from "../core/armErrors";
import { route } from "../core/router";
import type { ArmRequest, EmulatorContext, Route } from "../ports";
import { gateBody, gatesOf, type FleetGate } from "./fleetGates";
import { checkFleetPreconditions, findFleet, FLEET_PATH, type FleetManager } from "./fleetManager";
import { list } from "./fleetResources";
import { FLEETS } from "./fleetState";
import { FieldValidationError } from "./fleetValidation";

const GATE_PATH = `${FLEET_PATH}/gates/{gate}`;

/** Fleet api-versions that have gates (the previews from 2025-04-01-preview on). */
const GATE_API_VERSIONS = ["2025-04-01-preview", "2025-08-01-preview", "2026-03-02-preview"];

function checkGateApiVersion(request: ArmRequest): void {
  const version = request.query.get("api-version") ?? "";
  if (!GATE_API_VERSIONS.includes(version)) {
    throw new ArmError(400, "NoRegisteredProviderFound", `No registered resource provider found for API version '${version}' and type 'fleets/gates'. The supported api-versions are '${GATE_API_VERSIONS.join(", ")}'.`);
  }
}

async function findGate(manager: FleetManager, ctx: EmulatorContext, request: ArmRequest) {
  checkGateApiVersion(request);
  const found = findFleet(manager, ctx, request);
  await Promise.all([...found.fleet.runs.values()].map((r) => r.driver.catchUp()));
  const wanted = (request.params.gate ?? "").toLowerCase();
  const gate: FleetGate | undefined = gatesOf(found.fleet).find((g) => g.name === wanted);
  if (gate === undefined) throw resourceNotFound(`${FLEETS}/gates`, request.params.gate ?? "", found.scope.resourceGroup);
  return { ...found, gate };
}

/** The gate routes of `manager`'s fleets. */
export const gateRoutes = (manager: FleetManager): Route[] => [
  route("GET", `${FLEET_PATH}/gates`, async (ctx, request) => {
    checkGateApiVersion(request);
    const { fleet, scope } = findFleet(manager, ctx, request);
    await Promise.all([...fleet.runs.values()].map((r) => r.driver.catchUp()));
    return { status: 200, body: list(gatesOf(fleet).map((g) => gateBody(scope, fleet, g))) };
  }),

  route("GET", GATE_PATH, async (ctx, request) => {
    const { fleet, scope, gate } = await findGate(manager, ctx, request);
    return { status: 200, body: gateBody(scope, fleet, gate) };
  }),

  route("PATCH", GATE_PATH, async (ctx, request) => {
    const { fleet, scope, gate } = await findGate(manager, ctx, request);
    checkFleetPreconditions(request.headers, gateBody(scope, fleet, gate).eTag as string, `gate '${gate.name}'`);
    const state = (request.body as { properties?: { state?: unknown } } | undefined)?.properties?.state;
    if (state !== "Completed") {
      throw new FieldValidationError([{ path: "properties.state", message: `must be Completed (to approve the gate), got ${JSON.stringify(state ?? null)}` }]);
    }
    await gate.run.driver.approve([gate.gateId]);
    const after = gatesOf(fleet).find((g) => g.name === gate.name) ?? gate;
    return { status: 200, body: gateBody(scope, fleet, after) };
  }),
];
