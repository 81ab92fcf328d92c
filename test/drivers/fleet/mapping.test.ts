/**
 * Issue 12: our definitions in Fleet's shapes and Fleet's status in ours (docs/rules.md §5: ISO instants ending
 * in Z, absent values omitted), the outputs derived from it, the events between two reads, and which
 * skip entries are new.
 */
import { describe, expect, it } from "vitest";
import { appliedImagesOf, failedMembersOf, fromFleetStatus } from "../../../src/drivers/fleet/fromFleet";
import { gateResources, gatesToApprove } from "../../../src/drivers/fleet/gateResources";
import type { WireRunStatus as FleetStatus } from "../../../src/backends/azureFleet/wire";
import { statusChanges } from "../../../src/drivers/fleet/statusEvents";
import { fromFleetStrategy, sameManagedClusterUpdate, toFleetManagedClusterUpdate, toFleetStrategy } from "../../../src/drivers/fleet/toFleet";
import { summarize } from "../../../src/engine/summary";
import { UpdateRunStatusSchema } from "../../../src/model/status";
import { UpdateRunStrategySchema } from "../../../src/model/strategy";
import { newSkipTargets } from "../../../src/drivers/fleet/fleetSession";

/** Fleet's JSON writes instants in its own precision; ours are ISO 8601 ending in Z. */
const at = (iso: string) => iso.replace("Z", "+00:00");

const fleetStatus: FleetStatus = {
  status: { state: "Failed", startTime: at("2026-12-05T00:00:00.000Z"), completedTime: at("2026-12-05T01:00:00.500Z"), error: { code: "UpgradeFailed", message: "Member 'eu-1' failed" } },
  nodeImageSelection: { selectedNodeImageVersions: [{ version: "AKSUbuntu-2204gen2containerd-202611.24.0" }] },
  stages: [
    {
      name: "canary",
      status: { state: "Completed", startTime: at("2026-12-05T00:00:00Z"), completedTime: at("2026-12-05T00:30:00Z") },
      afterStageWaitStatus: { status: { state: "Completed", startTime: at("2026-12-05T00:20:00Z"), completedTime: at("2026-12-05T00:30:00Z") }, waitDurationInSeconds: 600 },
      groups: [{ name: "canary", status: { state: "Completed" }, members: [{ name: "c-1", clusterResourceId: "/x/c-1", operationId: "op-1", status: { state: "Completed", startTime: at("2026-12-05T00:00:00Z"), completedTime: at("2026-12-05T00:20:00Z") } }] }],
    },
    {
      name: "prod",
      status: { state: "Failed" },
      groups: [
        {
          name: "eu",
          status: { state: "Failed" },
          members: [
            { name: "eu-1", clusterResourceId: "/x/eu-1", status: { state: "Failed", error: { code: "UpgradeFailed", message: "drain timed out" } } },
            { name: "eu-2", message: "waiting", status: { state: "NotStarted" } },
          ],
        },
      ],
    },
  ],
};

describe("Fleet's status in ours", () => {
  const ours = fromFleetStatus(fleetStatus);

  it("is a valid docs/rules.md §5 status with ISO instants and counted failures", () => {
    expect(UpdateRunStatusSchema.safeParse(ours).success).toBe(true);
    expect(ours.status).toEqual({ state: "Failed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T01:00:00.500Z", error: { code: "UpgradeFailed", message: "Member 'eu-1' failed" } });
    expect(ours.failureCount).toBe(1);
    expect(ours.stages[1]?.failureCount).toBe(1);
    expect(ours.stages[0]?.afterStageWaitStatus).toEqual({ status: { state: "Completed", startTime: "2026-12-05T00:20:00Z", completedTime: "2026-12-05T00:30:00Z" }, waitDurationInSeconds: 600 });
    expect(ours.stages[1]?.afterStageWaitStatus).toBeUndefined();
    expect(ours.stages[1]?.groups[0]?.members[1]).toEqual({ name: "eu-2", message: "waiting", status: { state: "NotStarted" } });
  });

  it("gives today's outputs: summary, failedMembers, applied images", () => {
    expect(summarize(ours)).toMatchObject({ state: "Failed", outcome: "Failed", failureCount: 1, members: { total: 3, Completed: 1, Failed: 1, NotStarted: 1 } });
    expect(failedMembersOf(ours)).toEqual([{ name: "eu-1", group: "eu", clusterResourceId: "/x/eu-1" }]);
    expect(appliedImagesOf(ours, { upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Consistent" } })).toEqual([{ version: "AKSUbuntu-2204gen2containerd-202611.24.0" }]);
    expect(appliedImagesOf(ours, { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } })).toEqual([]);
  });

  it("an absent status is a NotStarted run with no stages", () => {
    expect(fromFleetStatus(undefined)).toEqual({ status: { state: "NotStarted" }, failureCount: 0, nodeImageSelection: { selectedNodeImageVersions: [] }, stages: [] });
  });
});

describe("events between two reads", () => {
  it("names each item that changed, at its own time", () => {
    const before = fromFleetStatus({ ...fleetStatus, status: { state: "Running", startTime: at("2026-12-05T00:00:00Z") }, stages: [fleetStatus.stages?.[0] as never] });
    const after = fromFleetStatus(fleetStatus);
    const events = statusChanges("run1", before, after, Date.parse("2026-12-05T02:00:00Z"));
    expect(events.map((e) => `${e.scope} ${e.name} ${e.from}→${e.to} ${e.time}`)).toEqual([
      "run run1 Running→Failed 2026-12-05T01:00:00.500Z",
      "stage prod NotStarted→Failed 2026-12-05T02:00:00Z",
      "group eu NotStarted→Failed 2026-12-05T02:00:00Z",
      "member eu-1 NotStarted→Failed 2026-12-05T02:00:00Z",
    ]);
    expect(events[3]?.message).toBe("drain timed out");
    expect(statusChanges("run1", after, after, 0)).toEqual([]);
  });
});

describe("our definition in Fleet's shapes", () => {
  it("sends only Fleet's fields, gates included, and reads the snapshot back", () => {
    const strategy = {
      stages: [
        { name: "canary", groups: [{ name: "canary", beforeGates: [{ type: "Approval" as const }] }], afterStageWaitInSeconds: 60, afterGates: [{ type: "Approval" as const, displayName: "Canary looks good" }] },
        { name: "prod", groups: [{ name: "eu" }] },
      ],
    };
    expect(toFleetStrategy(strategy)).toEqual(strategy);
    expect(fromFleetStrategy(toFleetStrategy(strategy))).toEqual(strategy);
    expect(fromFleetStrategy({ stages: [{ name: "s", groups: [{ name: "g", beforeGates: [] }], afterGates: [] }] })).toEqual({ stages: [{ name: "s", groups: [{ name: "g" }] }] });
    const update = { upgrade: { type: "Full" as const, kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Custom" as const, customNodeImageVersions: [{ version: "AKSUbuntu-2204gen2containerd-202611.24.0" }] } };
    expect(toFleetManagedClusterUpdate(update)).toEqual(update);
    expect(sameManagedClusterUpdate(toFleetManagedClusterUpdate(update), update)).toBe(true);
    expect(sameManagedClusterUpdate({ upgrade: { type: "Full", kubernetesVersion: "1.33.0" } }, update)).toBe(false);
    expect(sameManagedClusterUpdate({ upgrade: { type: "NodeImageOnly" } }, { upgrade: { type: "NodeImageOnly" }, nodeImageSelection: { type: "Latest" } })).toBe(true);
  });
});

describe("skip entries sent to Fleet", () => {
  const status = fromFleetStatus(fleetStatus);
  it("only new ones, and not items already finished", () => {
    const skip = [
      { type: "Member" as const, name: "eu-2" },
      { type: "Member" as const, name: "c-1" },
      { type: "Stage" as const, name: "prod" },
      { type: "Group" as const, name: "eu" },
      { type: "Member" as const, name: "eu-2" },
    ];
    expect(newSkipTargets(skip, [{ type: "Group", name: "eu" }], status)).toEqual([{ type: "Member", name: "eu-2" }]);
    expect(newSkipTargets(skip, [{ type: "Member", name: "eu-2" }, { type: "Group", name: "eu" }], status)).toEqual([]);
  });
});

describe("gates in Fleet's status", () => {
  const gateArmId = (guid: string) => `/subscriptions/s/resourceGroups/rg/providers/Microsoft.ContainerService/fleets/f/gates/${guid}`;
  const gated: FleetStatus = {
    status: { state: "Running" },
    stages: [
      {
        name: "canary",
        status: { state: "Running" },
        afterGates: [
          { displayName: "SRE", gateId: gateArmId("aaaa"), status: { state: "Pending", startTime: at("2026-12-05T00:20:00Z") } },
          { gateId: gateArmId("bbbb"), status: { state: "Completed" } },
        ],
        groups: [{ name: "c", status: { state: "Completed" }, beforeGates: [{ displayName: "Go", gateId: gateArmId("cccc"), status: { state: "Completed" } }], members: [] }],
      },
      { name: "prod", status: { state: "NotStarted" }, beforeGates: [{ displayName: "Prod", gateId: gateArmId("dddd"), status: { state: "NotStarted" } }], groups: [] },
    ],
  };

  it("are named by our ids (place and position), in the engine's shape", () => {
    const ours = fromFleetStatus(gated);
    expect(UpdateRunStatusSchema.safeParse(ours).success).toBe(true);
    expect(ours.stages[0]?.afterGates).toEqual([
      { displayName: "SRE", gateId: "canary/after/0", status: { state: "Pending", startTime: "2026-12-05T00:20:00Z" } },
      { displayName: "Approval", gateId: "canary/after/1", status: { state: "Completed" } },
    ]);
    expect(ours.stages[0]?.groups[0]?.beforeGates?.map((g) => g.gateId)).toEqual(["canary/c/before/0"]);
    expect(ours.stages[1]?.beforeGates?.map((g) => g.gateId)).toEqual(["prod/before/0"]);
    expect(ours.stages[1]?.afterGates).toBeUndefined();
  });

  it("map to the gate resources Fleet names, and only Pending ones named by approvals are approved, each once", () => {
    expect([...gateResources(gated).entries()]).toEqual([
      ["canary/after/0", { resourceName: "aaaa", state: "Pending", analysis: false }],
      ["canary/after/1", { resourceName: "bbbb", state: "Completed", analysis: false }],
      ["canary/c/before/0", { resourceName: "cccc", state: "Completed", analysis: false }],
      ["prod/before/0", { resourceName: "dddd", state: "NotStarted", analysis: false }],
    ]);
    expect(gatesToApprove(["canary/after/0", "canary/after/1", "prod/before/0", "canary/after/0", "nowhere/after/0"], gated)).toEqual(["aaaa"]);
    expect(gatesToApprove([], gated)).toEqual([]);
    expect(gatesToApprove(["canary/after/0"], undefined)).toEqual([]);
  });
});

describe("issue 22: selectors and ScheduledStart gates in Fleet's strategy shape", () => {
  it("are sent with Fleet's names and read back as they went; a stage chosen by label keeps the implicit group our model wrote out", () => {
    const ours = UpdateRunStrategySchema.parse({
      stages: [
        { name: "web", memberSelector: { byLabel: "tier=web" }, maxConcurrency: "2" },
        {
          name: "prod",
          memberSelector: { byLabel: "env in (prod, staging)" },
          beforeGates: [{ type: "ScheduledStart", displayName: "Production window", scheduledStartConfiguration: { startDay: "Tuesday", startTime: "09:00", utcOffset: "+01:00" } }],
          groups: [{ name: "eu", memberSelector: { byLabel: "region=eu" } }],
        },
      ],
    });
    const sent = toFleetStrategy(ours);
    expect(sent.stages[0]).toEqual({ name: "web", memberSelector: { byLabel: "tier=web" }, maxConcurrency: "2", groups: [{ name: "web", memberSelector: { byLabel: "tier=web" }, maxConcurrency: "2" }] });
    expect(sent.stages[1]?.beforeGates).toEqual([{ type: "ScheduledStart", displayName: "Production window", scheduledStartConfiguration: { startDay: "Tuesday", startTime: "09:00", utcOffset: "+01:00" } }]);
    expect(fromFleetStrategy(sent)).toEqual(ours);
  });

  it("a strategy written in Fleet with a stage selector and no groups reads as our model writes it: one implicit group named after the stage", () => {
    const theirs = { stages: [{ name: "stage2", maxConcurrency: "50%", memberSelector: { byLabel: "env=production" } }] };
    expect(fromFleetStrategy(theirs)).toEqual(UpdateRunStrategySchema.parse(theirs));
  });
});
