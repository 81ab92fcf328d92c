/**
 * Approval gates (issue 5, docs/behaviour.md "Approval gates"). A gate is reached when its item is
 * about to start (before-gates) or has finished its members (after-gates); it is then Pending until
 * approved. An approval may come earlier: the gate then passes the moment it is reached. Gates change
 * state only here (and through `skip`, which skips an item's gates with it).
 */
import type { EngineContext } from "./context";
import { allGates, isDone, type GateRunState } from "./runState";
import { isoInstant } from "../model/instants";
import { nextScheduledStart } from "./scheduledStart";

/** An approval naming gates this run does not have. Nothing was approved. */
export class ApprovalRefusedError extends Error {
  constructor(readonly unknownGateIds: string[]) {
    super(`approval refused, nothing was approved: no gate ${unknownGateIds.map((id) => `'${id}'`).join(", ")} in this run`);
    this.name = "ApprovalRefusedError";
  }
}

/**
 * Reach the gates at `now`; returns whether every one has passed (Completed or Skipped). A
 * ScheduledStart gate (issue 22, docs/rules.md §17) fixes the instant it opens when it is first
 * reached, and passes then; an approval naming it passes it earlier.
 */
export function reachGates(ctx: EngineContext, gates: GateRunState[] | undefined, now: number): boolean {
  if (gates === undefined) return true;
  let passed = true;
  for (const gate of gates) {
    if (gate.state === "NotStarted") {
      gate.startTime = now;
      if (ctx.run.approvals?.[gate.gateId] !== undefined) {
        ctx.transitions.transition(gate, "Completed", now, "gate", gate.gateId, "Approved.");
      } else if (gate.scheduledStart !== undefined) {
        // Kept across a stop: a gate reached again after its instant passed opens at once.
        gate.absoluteStartTime ??= nextScheduledStart(gate.scheduledStart, now);
        if (now >= gate.absoluteStartTime) ctx.transitions.transition(gate, "Completed", now, "gate", gate.gateId, "Scheduled start reached.");
        else ctx.transitions.transition(gate, "Pending", now, "gate", gate.gateId, `Waiting until ${isoInstant(gate.absoluteStartTime)} (scheduled start).`);
      } else {
        ctx.transitions.transition(gate, "Pending", now, "gate", gate.gateId, `Waiting for approval of gate '${gate.gateId}'.`);
      }
    } else if (gate.state === "Pending" && gate.absoluteStartTime !== undefined && now >= gate.absoluteStartTime) {
      ctx.transitions.transition(gate, "Completed", now, "gate", gate.gateId, "Scheduled start reached.");
    }
    if (!isDone(gate.state)) passed = false;
  }
  return passed;
}

/** The earliest instant after `now` at which one of these Pending ScheduledStart gates opens. */
export function nextGateOpening(gates: GateRunState[] | undefined, now: number): number | undefined {
  let next: number | undefined;
  for (const gate of gates ?? []) {
    const at = gate.absoluteStartTime;
    if (gate.state === "Pending" && at !== undefined && at > now && (next === undefined || at < next)) next = at;
  }
  return next;
}

/**
 * Record approvals (all or nothing: an unknown id refuses the batch). A Pending gate passes now;
 * one not reached yet passes when it is. Approving twice changes nothing.
 */
export function approveGates(ctx: EngineContext, gateIds: readonly string[], now: number): void {
  const byId = new Map<string, GateRunState>();
  for (const { gate } of allGates(ctx.run)) byId.set(gate.gateId, gate);
  const unknown = gateIds.filter((id) => !byId.has(id));
  if (unknown.length > 0) throw new ApprovalRefusedError(unknown);
  const approvals = (ctx.run.approvals ??= {});
  for (const id of gateIds) {
    approvals[id] ??= now;
    const gate = byId.get(id) as GateRunState;
    // Its group is aggregated again through the gate's own transition (`RunTally`), and the next pass
    // reaches the gate as passed: nothing else needs touching.
    if (gate.state === "Pending") ctx.transitions.transition(gate, "Completed", now, "gate", id, "Approved.");
  }
}

export function skipGates(ctx: EngineContext, gates: GateRunState[] | undefined, now: number, why: string): void {
  for (const gate of gates ?? []) {
    if (gate.state === "NotStarted" || gate.state === "Pending") ctx.transitions.transition(gate, "Skipped", now, "gate", gate.gateId, why);
  }
}

/** A halting run stops waiting: Pending gates go back to NotStarted and are reached again on start. */
export function resetPendingGates(ctx: EngineContext, now: number): void {
  for (const { gate } of allGates(ctx.run)) {
    if (gate.state !== "Pending") continue;
    gate.startTime = undefined;
    ctx.transitions.transition(gate, "NotStarted", now, "gate", gate.gateId);
  }
}
