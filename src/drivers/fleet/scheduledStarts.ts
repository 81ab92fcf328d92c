/**
 * Issue 22: the instants ScheduledStart gates open, as Fleet Manager shows them. Fleet's run status
 * lists such a gate like any other; `absoluteStartTime` is only on the gate resource
 * (`fleets/{f}/gates/{guid}`, `properties.scheduledStartProperties`, 2026-06-02-preview), which exists
 * once the run has reached the gate. So each reached ScheduledStart gate is read once — one GET per
 * gate, not one per poll while a run waits days for Tuesday 09:00 — and read again only after a stop
 * put it back to NotStarted (it is then reached anew, and Fleet may fix another instant).
 */
import type { UpdateRunStatus } from "../../model/status";
import type { FleetClient } from "../../backends/azureFleet/fleetClient";
import { fromFleetStatus, scheduledStartConfigurations } from "./fromFleet";
import { gateResources } from "./gateResources";
import type { WireUpdateRun } from "../../backends/azureFleet/wire";

export class ScheduledStartInstants {
  /** Gate resource name → the `absoluteStartTime` it showed. */
  private readonly known = new Map<string, string>();

  constructor(private readonly client: Pick<FleetClient, "getGate">) {}

  /** The run's status in our shape, its ScheduledStart gates with their configuration and, once reached, their instant. */
  async statusOf(run: WireUpdateRun): Promise<UpdateRunStatus> {
    const strategy = run.properties?.strategy;
    const status = run.properties?.status;
    const scheduled = scheduledStartConfigurations(strategy);
    if (scheduled.size === 0) return fromFleetStatus(status);
    const gates = gateResources(status);
    const absoluteStartTimes = new Map<string, string>();
    for (const id of scheduled.keys()) {
      const gate = gates.get(id);
      if (gate === undefined || gate.resourceName === "") continue;
      if (gate.state === "NotStarted") {
        this.known.delete(gate.resourceName);
        continue;
      }
      let at = this.known.get(gate.resourceName);
      if (at === undefined) {
        const read = await this.client.getGate(gate.resourceName);
        const shown = read?.properties?.scheduledStartProperties?.absoluteStartTime;
        if (typeof shown === "string" && shown !== "") this.known.set(gate.resourceName, (at = shown));
      }
      if (at !== undefined) absoluteStartTimes.set(id, at);
    }
    return fromFleetStatus(status, { strategy, absoluteStartTimes });
  }
}
