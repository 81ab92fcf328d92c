/**
 * Approval gates as Fleet Manager shows them (the `fleets/{fleet}/gates` resources of the preview
 * API; `@azure/arm-containerservicefleet` 2.0.0 has no gates, so they are reached with plain ARM
 * requests). Each is one of our engine's gates (`canary/after/0`, `canary/prod/before/1`; engine
 * `gates.ts`) under a stable GUID name derived from the run and that id. The run's status names a gate
 * by the gate resource's ARM id, as Fleet does.
 */
import crypto from "node:crypto";
import type { UpdateState } from "../../model/status";
import type { ArmScope } from "../ports";
import { FLEETS, fleetId, type FleetRecord, type RunRecord } from "./fleetState";

export interface FleetGate {
  /** The resource name: a GUID. */
  name: string;
  /** Our engine's id (what `approve` takes). */
  gateId: string;
  displayName: string;
  state: UpdateState;
  run: RunRecord;
}

/** A GUID-shaped name, the same for the same run and gate id. */
export function gateName(run: string, gateId: string): string {
  const hex = crypto.createHash("sha256").update(`${run.toLowerCase()}\n${gateId}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function gatesOf(fleet: FleetRecord): FleetGate[] {
  return [...fleet.runs.values()].flatMap((run) => run.engine.gates().map((g) => ({ ...g, name: gateName(run.name, g.gateId), run })));
}

export function gateArmId(scope: ArmScope, fleet: FleetRecord, run: string, gateId: string): string {
  return `${fleetId(scope, fleet.name)}/gates/${gateName(run, gateId)}`;
}

/** Where a gate stands, from its id: `<stage>/<timing>/<i>` or `<stage>/<group>/<timing>/<i>`. */
function placeOf(gateId: string): { stage: string; group?: string; timing: "Before" | "After" } {
  const parts = gateId.split("/");
  const timing = parts.at(-2) === "after" ? "After" : "Before";
  return parts.length === 4 ? { stage: parts[0] as string, group: parts[1] as string, timing } : { stage: parts[0] as string, timing };
}

export function gateBody(scope: ArmScope, fleet: FleetRecord, gate: FleetGate): Record<string, unknown> {
  const place = placeOf(gate.gateId);
  const properties = {
    provisioningState: "Succeeded",
    displayName: gate.displayName,
    gateType: "Approval",
    target: {
      id: `${fleetId(scope, fleet.name)}/updateRuns/${gate.run.name}`,
      updateRunProperties: { name: place.group ?? place.stage, stage: place.stage, ...(place.group === undefined ? {} : { group: place.group }), timing: place.timing },
    },
    state: gate.state,
  };
  const eTag = crypto.createHash("sha256").update(JSON.stringify(properties)).digest("hex").slice(0, 16);
  return { id: `${fleetId(scope, fleet.name)}/gates/${gate.name}`, name: gate.name, type: `${FLEETS}/gates`, eTag, properties };
}
