/**
 * Approval gates as Fleet Manager shows them (the `fleets/{fleet}/gates` resources, from api-version
 * 2025-04-01-preview). Each is one of our engine's gates (`canary/after/0`, `canary/prod/before/1`;
 * engine `gates.ts`) under a stable GUID name derived from the run and that id. As in Fleet's examples,
 * a gate becomes a resource when the run reaches it: before, the run's status lists it (NotStarted)
 * without a `gateId`, and there is no resource to GET or PATCH. A gate resource's state is one of the
 * version's `GateState` values: Pending (reached, waiting; also once a stop put it back to wait for the
 * next start), Completed, Skipped (2025-04-01-preview has no Skipped: a skipped gate shows Completed,
 * since it no longer holds anything). The run's status names a gate by the gate resource's ARM id,
 * as Fleet does. A ScheduledStart gate (2026-06-02-preview) is `gateType: ScheduledStart` with
 * `scheduledStartProperties`: its configuration and `absoluteStartTime`, the instant the engine fixed
 * when the run reached it (`engine/scheduledStart.ts`); the run's status does not show that instant,
 * only the gate resource does (Fleet's `Gates_Get_ScheduledStart` example). A version without
 * ScheduledStart gates lists none of them.
 */
import crypto from "node:crypto";
import type { FleetApiFeatures } from "../../backends/azureFleet/wire/index";
import { isoInstant } from "../../model/instants";
import type { UpdateState } from "../../model/status";
import type { ScheduledStartConfiguration } from "../../model/strategy";
import type { ArmScope } from "../ports";
import { systemData } from "./systemData";
import { FLEETS, fleetId, type FleetRecord, type RunRecord } from "./fleetState";

export interface FleetGate {
  /** The resource name: a GUID. */
  name: string;
  /** Our engine's id (what `approve` takes). */
  gateId: string;
  displayName: string;
  state: UpdateState;
  /** A ScheduledStart gate's configuration, and the instant it opens once reached (ms). */
  scheduledStart?: ScheduledStartConfiguration;
  absoluteStartTime?: number;
  run: RunRecord;
  /** When the run first reached it (ISO). */
  reachedAt: string;
}

/** A GUID-shaped name, the same for the same run and gate id. */
export function gateName(run: string, gateId: string): string {
  const hex = crypto.createHash("sha256").update(`${run.toLowerCase()}\n${gateId}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The fleet's gate resources at `api`: the gates its runs have reached (ScheduledStart ones only at a version that has them). */
export function gatesOf(fleet: FleetRecord, api: FleetApiFeatures): FleetGate[] {
  return [...fleet.runs.values()].flatMap((run) =>
    run.engine.gates().flatMap((g) => {
      const reachedAt = run.gatesReached.get(g.gateId);
      if (reachedAt === undefined || (g.scheduledStart !== undefined && !api.scheduledStartGates)) return [];
      return [{ ...g, name: gateName(run.name, g.gateId), run, reachedAt }];
    }),
  );
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

/** The gate resource's state at `api`: one of its `GateState` values. */
function gateState(state: UpdateState, api: FleetApiFeatures): string {
  if (state === "Completed") return "Completed";
  if (state === "Skipped") return api.gateStates.includes("Skipped") ? "Skipped" : "Completed";
  return "Pending";
}

/** The gate's eTag: a digest of what it holds, the same at every api-version. */
export function gateETag(gate: FleetGate): string {
  return crypto.createHash("sha256").update(JSON.stringify([gate.run.name, gate.gateId, gate.displayName, gate.state, gate.absoluteStartTime ?? null])).digest("hex").slice(0, 16);
}

export function gateBody(scope: ArmScope, fleet: FleetRecord, gate: FleetGate, api: FleetApiFeatures): Record<string, unknown> {
  const place = placeOf(gate.gateId);
  const runId = `${fleetId(scope, fleet.name)}/updateRuns/${gate.run.name}`;
  const updateRun = { name: gate.run.name, stage: place.stage, ...(place.group === undefined ? {} : { group: place.group }), timing: place.timing };
  // Fleet made the gate itself (no `systemData`) until a user writes it (test_fleet_hubless).
  const patchedAt = gate.run.gatesPatchedAt.get(gate.gateId);
  return {
    id: `${fleetId(scope, fleet.name)}/gates/${gate.name}`,
    name: gate.name,
    type: `${FLEETS}/gates`,
    ...(patchedAt === undefined ? {} : { systemData: systemData(Date.parse(gate.reachedAt), patchedAt) }),
    eTag: gateETag(gate),
    properties: {
      provisioningState: "Succeeded",
      displayName: gate.displayName,
      gateType: gate.scheduledStart === undefined ? "Approval" : "ScheduledStart",
      ...(gate.scheduledStart === undefined
        ? {}
        : { scheduledStartProperties: { ...gate.scheduledStart, ...(gate.absoluteStartTime === undefined ? {} : { absoluteStartTime: isoInstant(gate.absoluteStartTime) }) } }),
      target: { id: runId, updateRunProperties: updateRun },
      state: gateState(gate.state, api),
    },
  };
}
