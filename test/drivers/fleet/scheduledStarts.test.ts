/**
 * Issue 22: a ScheduledStart gate in Fleet's run status carries neither its configuration nor its
 * instant; the client puts the configuration (from the run's strategy) and `absoluteStartTime` (from
 * the gate resource, read once per reached gate) into our status's `scheduledStartProperties`, so a run
 * waiting for one is not taken for a run waiting for an approval.
 */
import { describe, expect, it } from "vitest";
import { fromFleetStatus } from "../../../src/drivers/fleet/fromFleet";
import { ScheduledStartInstants } from "../../../src/drivers/fleet/scheduledStarts";
import type { WireGate, WireStrategy, WireUpdateRun } from "../../../src/backends/azureFleet/wire";
import { pendingGates, waitingLine } from "../../../src/drivers/waiting";

const GATES = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.ContainerService/fleets/f/gates";
const WINDOW = { startDay: "Tuesday", startTime: "09:00", utcOffset: "+01:00" } as const;
const STRATEGY: WireStrategy = {
  stages: [
    { name: "canary", groups: [{ name: "canary" }], afterGates: [{ type: "Approval" }] },
    { name: "prod", beforeGates: [{ type: "ScheduledStart", displayName: "Production window", scheduledStartConfiguration: WINDOW }], groups: [{ name: "prod" }] },
  ],
};

function run(prodGate: { state: string; reached: boolean }): WireUpdateRun {
  return {
    properties: {
      strategy: STRATEGY,
      status: {
        status: { state: "Running" },
        stages: [
          { name: "canary", status: { state: "Completed" }, groups: [{ name: "canary", status: { state: "Completed" }, members: [] }], afterGates: [{ displayName: "Approval", gateId: `${GATES}/g-approval`, status: { state: "Completed" } }] },
          {
            name: "prod",
            status: { state: prodGate.state === "Pending" ? "Pending" : "NotStarted" },
            beforeGates: [{ displayName: "Production window", ...(prodGate.reached ? { gateId: `${GATES}/g-window` } : {}), status: { state: prodGate.state } }],
            groups: [{ name: "prod", status: { state: "NotStarted" }, members: [{ name: "p-1", status: { state: "NotStarted" } }] }],
          },
        ],
      },
    },
  };
}

/** A fake Fleet that counts its gate reads. */
function gateReader(absoluteStartTime: string) {
  const reads: string[] = [];
  return {
    reads,
    async getGate(name: string): Promise<WireGate | undefined> {
      reads.push(name);
      return name === "g-window" ? { name, properties: { gateType: "ScheduledStart", state: "Pending", scheduledStartProperties: { ...WINDOW, absoluteStartTime } } } : undefined;
    },
  };
}

describe("ScheduledStart gates read from Fleet", () => {
  it("without the strategy, a Pending ScheduledStart gate reads as an approval gate (why the strategy is needed)", () => {
    const status = fromFleetStatus(run({ state: "Pending", reached: true }).properties?.status);
    expect(pendingGates(status)).toEqual(["prod/before/0"]);
  });

  it("the configuration comes from the run's strategy, the instant from the gate resource; only ScheduledStart gates get them", async () => {
    const fleet = gateReader("2026-12-08T08:00:00Z");
    const status = await new ScheduledStartInstants(fleet).statusOf(run({ state: "Pending", reached: true }));
    expect(status.stages[1]?.beforeGates?.[0]).toEqual({
      displayName: "Production window",
      gateId: "prod/before/0",
      status: { state: "Pending" },
      scheduledStartProperties: { ...WINDOW, absoluteStartTime: "2026-12-08T08:00:00Z" },
    });
    expect(status.stages[0]?.afterGates?.[0]).not.toHaveProperty("scheduledStartProperties");
    expect(pendingGates(status)).toEqual([]);
    expect(waitingLine(status)).toBe("Waiting: gate 'prod/before/0' opens at 2026-12-08T08:00:00Z (scheduled start; approving it opens it now).");
    expect(fleet.reads).toEqual(["g-window"]);
  });

  it("a gate not reached yet has no resource: its configuration is shown, no instant, and nothing is read", async () => {
    const fleet = gateReader("2026-12-08T08:00:00Z");
    const status = await new ScheduledStartInstants(fleet).statusOf(run({ state: "NotStarted", reached: false }));
    expect(status.stages[1]?.beforeGates?.[0]?.scheduledStartProperties).toEqual(WINDOW);
    expect(fleet.reads).toEqual([]);
  });

  it("each reached gate is read once while followed, and again after a stop put it back to NotStarted", async () => {
    const fleet = gateReader("2026-12-08T08:00:00Z");
    const reader = new ScheduledStartInstants(fleet);
    for (let i = 0; i < 5; i++) await reader.statusOf(run({ state: "Pending", reached: true }));
    expect(fleet.reads).toEqual(["g-window"]);
    await reader.statusOf(run({ state: "NotStarted", reached: true }));
    const after = await reader.statusOf(run({ state: "Pending", reached: true }));
    expect(fleet.reads).toEqual(["g-window", "g-window"]);
    expect(after.stages[1]?.beforeGates?.[0]?.scheduledStartProperties?.absoluteStartTime).toBe("2026-12-08T08:00:00Z");
  });

  it("a run without ScheduledStart gates reads no gate", async () => {
    const fleet = gateReader("2026-12-08T08:00:00Z");
    const plain: WireUpdateRun = { properties: { strategy: { stages: [{ name: "canary", groups: [{ name: "canary" }] }] }, status: { status: { state: "Running" }, stages: [] } } };
    await new ScheduledStartInstants(fleet).statusOf(plain);
    expect(fleet.reads).toEqual([]);
  });
});
