/**
 * A run spec on the simulated fleet (`backend.simulator`) as a plan's world: the fleet file's
 * description, the clusters as its state file says they are now, and simulated time where the state
 * file's clock says it stands — as the run's driver read them (`PlanView`, `src/drivers/engine/openBackend.ts`:
 * read-only, the state file is never written nor created).
 */
import type { PlanView } from "../drivers/runDriver";
import { ValidationError } from "../model/issues";
import type { Fleet } from "../model/fleet";
import type { UpdateRunInputs } from "../spec/runSpec";
import { ScaledClock } from "../runtime/scaledClock";
import type { FleetState } from "../simulation/simulatedWorld";
import { runSpecNotes, runSpecPart } from "./runSpec";
import { DAY_MS, hasSimulatedFailure, stoppedClusters, withoutFailures, type PlanWorld } from "./world";

export interface SnapshotOptions {
  /** Real time now (epoch ms): the plan starts at the simulated instant it corresponds to. */
  now: number;
  /** How far the plan looks (default 30 days, as a scenario's default horizon). */
  horizonDays?: number;
}

export const DEFAULT_PLAN_HORIZON_DAYS = 30;

export function worldFromFleetFile(view: Extract<PlanView, { reads: "fleetFile" }>, options: SnapshotOptions): PlanWorld {
  const { inputs, fleet: description, state: saved } = view;
  checkMembersExist(inputs, description, view.fleetFile);
  // Whole seconds: the plan's instants read like the status's.
  const start = Math.ceil((saved?.clock === undefined ? options.now : new ScaledClock(saved.clock).toSimulated(options.now)) / 1000) * 1000;
  const fleet: Fleet = { regions: description.regions, members: description.members.map(withoutFailures) };
  const failing = description.members.filter(hasSimulatedFailure).map((m) => m.name);
  return {
    fleet,
    ...(saved === undefined ? {} : { restoredState: withoutPendingFailures(saved) }),
    start,
    horizon: start + (options.horizonDays ?? DEFAULT_PLAN_HORIZON_DAYS) * DAY_MS,
    ...runSpecPart(inputs),
    stopped: stoppedClusters(fleet),
    notes: [
      ...runSpecNotes(inputs),
      ...(failing.length === 0 ? [] : [{ severity: "info" as const, code: "PLAN_ASSUMPTION" as const, message: `The plan assumes nothing fails: it leaves out the simulated failures of ${failing.join(", ")}.` }]),
    ],
  };
}

function checkMembersExist(inputs: UpdateRunInputs, fleet: Fleet, fleetFile: string): void {
  const names = new Set(fleet.members.map((m) => m.name));
  const issues = inputs.members.flatMap((m, i) => (names.has(m.name) ? [] : [{ path: `members[${i}].name`, message: `no cluster '${m.name}' in the fleet file ${fleetFile}` }]));
  if (issues.length > 0) throw new ValidationError(issues);
}

/** An upgrade in flight is decided to fail when it starts; the plan assumes it succeeds. */
function withoutPendingFailures(state: FleetState): FleetState {
  const copy = structuredClone(state);
  for (const cluster of Object.values(copy.clusters)) {
    for (const op of cluster.operations) if (op.result === undefined) delete op.failWith;
  }
  return copy;
}
