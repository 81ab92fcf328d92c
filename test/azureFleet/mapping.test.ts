/**
 * Issue 12: our definitions in Fleet's shapes and Fleet's status in ours (SPEC §5: ISO instants ending
 * in Z, absent values omitted), the outputs derived from it, the events between two reads, and which
 * skip entries are new.
 */
import type { UpdateRunStatus as FleetStatus } from "@azure/arm-containerservicefleet";
import { describe, expect, it } from "vitest";
import { appliedImagesOf, failedMembersOf, fromFleetStatus } from "../../src/backends/azureFleet/fromFleet";
import { statusChanges } from "../../src/backends/azureFleet/statusEvents";
import { fromFleetStrategy, sameManagedClusterUpdate, toFleetManagedClusterUpdate, toFleetStrategy } from "../../src/backends/azureFleet/toFleet";
import { summarize } from "../../src/engine/summary";
import { UpdateRunStatusSchema } from "../../src/model/status";
import { newSkipTargets } from "../../src/session/fleetSession";

const at = (iso: string) => new Date(iso);

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

  it("is a valid SPEC §5 status with ISO instants and counted failures", () => {
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
  it("sends only Fleet's fields, and reads the snapshot back", () => {
    const strategy = { stages: [{ name: "canary", groups: [{ name: "canary" }], afterStageWaitInSeconds: 60 }, { name: "prod", groups: [{ name: "eu" }] }] };
    expect(toFleetStrategy(strategy)).toEqual(strategy);
    expect(fromFleetStrategy(toFleetStrategy(strategy))).toEqual(strategy);
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
