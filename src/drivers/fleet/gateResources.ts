/**
 * Approvals on Fleet Manager (docs/behaviour.md FM12). Fleet names a gate in a run's status by the ARM
 * id of its `fleets/{f}/gates/{guid}` resource; we name it by place (`canary/after/0`, `model/strategy.ts`
 * `gateId`). The status lists an item's gates in the strategy's order, so position maps one to the
 * other. A gate is approved by PATCHing its resource once it is Pending (reached and waiting), which is
 * when Fleet takes an approval.
 */
import { gateId } from "../../model/strategy";
import { isAnalysisGate } from "../waiting";
import type { FleetClient } from "../../backends/azureFleet/fleetClient";
import type { WireGatesStatus, WireRunStatus } from "../../backends/azureFleet/wire";

export interface FleetGateRef {
  /**
   * The gate resource's name: the last segment of the ARM id the status gives. Empty for a gate not
   * reached yet: Fleet makes the resource when the run reaches the gate, and its status lists the gate
   * without a `gateId` until then (Fleet's examples).
   */
  resourceName: string;
  state: string;
  /** Issue 31: one the client added for analysis (`analysisGates.ts`), approved only when its analysis passes. */
  analysis: boolean;
}

/** Each gate of the run's status, by our id. */
export function gateResources(status: WireRunStatus | undefined): Map<string, FleetGateRef> {
  const out = new Map<string, FleetGateRef>();
  const add = (item: WireGatesStatus, stage: string, group: string | undefined) => {
    for (const timing of ["before", "after"] as const) {
      (timing === "before" ? item.beforeGates : item.afterGates)?.forEach((g, i) => {
        const resourceName = g.gateId?.split("/").at(-1) ?? "";
        out.set(gateId(stage, group, timing, i), { resourceName, state: g.status?.state ?? "NotStarted", analysis: isAnalysisGate(g.displayName) });
      });
    }
  };
  for (const stage of status?.stages ?? []) {
    add(stage, stage.name ?? "", undefined);
    for (const group of stage.groups ?? []) add(group, stage.name ?? "", group.name ?? "");
  }
  return out;
}

/**
 * The gate resources to approve now: those `approvals` names that are Pending, each once. A gate the
 * client added for analysis is never among them, whatever `approvals` says (Check refuses its id).
 */
export function gatesToApprove(approvals: readonly string[], status: WireRunStatus | undefined): string[] {
  // Called at every read while following: no approvals, no walk of the status.
  if (approvals.length === 0) return [];
  const gates = gateResources(status);
  const names = approvals.flatMap((id) => {
    const gate = gates.get(id);
    return gate !== undefined && !gate.analysis && gate.state === "Pending" && gate.resourceName !== "" ? [gate.resourceName] : [];
  });
  return [...new Set(names)];
}

/**
 * Sends approvals as their gates become Pending, each gate at most once: a gate still shown Pending
 * right after its approval (a read racing the PATCH) is left to the next read, not approved again.
 */
export class GateApprover {
  private readonly sent = new Set<string>();

  constructor(private readonly client: Pick<FleetClient, "approveGate">) {}

  /** PATCH the gates `approvals` names that are Pending in `status`; whether any was sent (read the run again then). */
  async approveDue(approvals: readonly string[], status: WireRunStatus | undefined): Promise<boolean> {
    const due = gatesToApprove(approvals, status).filter((gate) => !this.sent.has(gate));
    for (const gate of due) {
      await this.client.approveGate(gate);
      this.sent.add(gate);
    }
    return due.length > 0;
  }
}
