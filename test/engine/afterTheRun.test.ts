/**
 * What a finished run leaves behind (docs/behaviour.md "Retry and promotion", "Refresh and drift"): the
 * members that failed and the images applied, which the next run takes; and drift, a Completed member
 * whose cluster no longer reports what the run applied. Issue 34: these were tested only through the
 * CLI and the Pulumi provider.
 */
import { describe, expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import { BackendError, type ClusterBackend, type ClusterInfo, type MemberRef } from "../../src/engine/backend";
import { VirtualClock } from "../../src/engine/clock";
import { driftOf } from "../../src/engine/drift";
import { drive } from "../../src/engine/drive";
import { UpdateRunEngine } from "../../src/engine/engine";
import { updateChoiceOf } from "../../src/model/autoUpgrade";
import { parseScenario, resolveScenarioStrategy, scenarioHorizon } from "../../src/simulation/scenario";
import { IMAGE, member, scenario } from "./helpers";

async function finished(yaml: string, over: (fleet: SimulatedFleet) => ClusterBackend = (fleet) => fleet) {
  const parsed = parseScenario(yaml);
  const clock = new VirtualClock(Date.parse(parsed.start));
  const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
  const engine = UpdateRunEngine.create({ name: "run", members: parsed.members, strategy: resolveScenarioStrategy(parsed), ...updateChoiceOf(parsed) }, over(fleet));
  engine.start(clock.now());
  await drive(engine, clock, { until: scenarioHorizon(parsed) });
  return { engine, fleet };
}

const TWO_REGIONS = {
  westeurope: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.OCT, IMAGE.NOV, IMAGE.DEC, IMAGE.AZL_NOV] },
  eastus: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.OCT, IMAGE.NOV, IMAGE.AZL_NOV] },
};

describe("results", () => {
  it("the members that failed, with their group and cluster id, in the run's order", async () => {
    const id = "/subscriptions/00000000-1111-2222-3333-444444444444/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/b-2";
    const yaml = scenario({
      members: [member("a-1", { group: "a", fail: "boom" }), member("b-1", { group: "b" }), member("b-2", { group: "b", fail: "boom" })],
      strategy: '{stages: [{name: s, groups: [{name: a, maxAllowedFailures: "1"}, {name: b, maxAllowedFailures: "1"}]}]}',
    }).replace("  - {name: b-2,", `  - {name: b-2, clusterResourceId: "${id}",`);
    const { engine } = await finished(yaml);
    expect(engine.results().failedMembers).toStrictEqual([
      { name: "a-1", group: "a" },
      { name: "b-2", group: "b", clusterResourceId: id },
    ]);
  });

  it("the images applied, one per family: the oldest when regions gave a family different ones; none from failed members", async () => {
    const { engine } = await finished(
      scenario({
        regions: TWO_REGIONS,
        members: [
          member("eu-1", { pools: [{ name: "azl", image: IMAGE.AZL_OCT }, { name: "ubuntu", image: IMAGE.OCT }] }),
          member("us-1", { region: "eastus", image: IMAGE.AZL_OCT }),
          member("us-2", { region: "eastus", fail: "boom" }),
        ],
        update: "{upgrade: {type: NodeImageOnly}}",
        strategy: '{stages: [{name: s, groups: [{name: default, maxAllowedFailures: "1"}]}]}',
      }).replaceAll("  - {name: ", "  - {group: default, name: "),
    );
    // Ubuntu: DEC for eu-1 (us-2 asked for NOV but failed: it does not count); AzureLinux: AZL_NOV.
    // One entry per family, by family name.
    expect(engine.results().appliedNodeImageVersions).toEqual([{ version: IMAGE.DEC }, { version: IMAGE.AZL_NOV }]);
  });

  it("of one family, the oldest image applied is kept whichever member came first", async () => {
    const { engine } = await finished(
      scenario({
        regions: TWO_REGIONS,
        members: [member("eu-1"), member("us-1", { region: "eastus" }), member("eu-2")],
        update: "{upgrade: {type: NodeImageOnly}}",
      }),
    );
    // eu-1 got DEC, us-1 NOV (its region's newest), eu-2 DEC: NOV, the oldest, whatever the order.
    expect(engine.results().appliedNodeImageVersions).toEqual([{ version: IMAGE.NOV }]);
  });
});

/** The fleet, but from `after` on a cluster answers as `change` makes it (or throws it). */
function changedAfter(fleet: SimulatedFleet, clock: VirtualClock, after: number, change: (name: string, info: ClusterInfo) => ClusterInfo): ClusterBackend {
  return {
    getCluster: async (m: MemberRef) => {
      const info = await fleet.getCluster(m);
      return clock.now() < after ? info : change(m.name, info);
    },
    getRegionOffer: (region) => fleet.getRegionOffer(region),
    startUpgrade: (m, request) => fleet.startUpgrade(m, request),
    getOperation: (m, id) => fleet.getOperation(m, id),
    findStartedUpgrade: (m, request, since) => fleet.findStartedUpgrade(m, request, since),
  };
}

describe("drift", () => {
  it("names each Completed member whose cluster moved away from what the run applied, and why; others are not drift", async () => {
    const yaml = scenario({
      members: [member("same"), member("rolled-back"), member("re-imaged", { version: "1.32.0" }), member("gone"), member("busy-now"), member("skipped", { version: "1.32.0", image: IMAGE.NOV }), member("failed", { fail: "boom" })],
      update: "{upgrade: {type: Full, kubernetesVersion: 1.32.0}}",
      // A failed member is not drift: the run never left it at its target.
      strategy: '{stages: [{name: s, groups: [{name: default, maxAllowedFailures: "1"}]}]}',
    }).replaceAll("  - {name: ", "  - {group: default, name: ");
    const { engine, fleet } = await finished(yaml);
    const clock = new VirtualClock(Date.parse("2026-12-06T00:00:00Z"));
    const backend = changedAfter(fleet, clock, 0, (name, info) => {
      if (name === "rolled-back") return { ...info, kubernetesVersion: "1.31.2" };
      if (name === "re-imaged") return { ...info, nodePools: [{ ...info.nodePools[0]!, nodeImageVersion: IMAGE.OCT }] };
      if (name === "gone") throw new BackendError("ResourceNotFound", "The Resource 'gone' was not found.");
      if (name === "busy-now") return { ...info, provisioningState: "Upgrading" };
      return info;
    });
    expect(await driftOf(engine.live, backend)).toEqual([
      { member: "rolled-back", message: "the control plane reports Kubernetes 1.31.2, expected 1.32.0 (the run left it at its target)" },
      { member: "re-imaged", message: `node pool 'system' reports image ${IMAGE.OCT}, expected ${IMAGE.NOV} (the run left it at its target)` },
      { member: "gone", message: "the cluster cannot be read: The Resource 'gone' was not found. (the run left it at its target)" },
    ]);
  });

  it("a member given its cluster's resource id is read by it, in the run and for drift (ARM finds a cluster by its id)", async () => {
    const id = "/subscriptions/00000000-1111-2222-3333-444444444444/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/by-id";
    const yaml = scenario({ members: [member("by-id"), member("by-name")], update: "{upgrade: {type: Full, kubernetesVersion: 1.32.0}}" }).replace("  - {name: by-id,", `  - {name: by-id, clusterResourceId: "${id}",`);
    // The member with an id is found only by it (as through ARM); the one without only by its name.
    const byId = (fleet: SimulatedFleet, change: (info: ClusterInfo) => ClusterInfo = (info) => info): ClusterBackend => {
      const find = (m: MemberRef) => {
        if (m.name === "by-id" ? m.clusterResourceId !== id : m.clusterResourceId !== undefined) throw new BackendError("ResourceNotFound", `The Resource '${m.clusterResourceId ?? m.name}' was not found.`);
        return { name: m.name };
      };
      return {
        getCluster: async (m) => change(await fleet.getCluster(find(m))),
        getRegionOffer: (region) => fleet.getRegionOffer(region),
        startUpgrade: (m, request) => fleet.startUpgrade(find(m), request),
        getOperation: (m, op) => fleet.getOperation(find(m), op),
        findStartedUpgrade: (m, request, since) => fleet.findStartedUpgrade(find(m), request, since),
      };
    };
    const { engine, fleet } = await finished(yaml, byId);
    expect(engine.snapshot().stages[0]!.groups[0]!.members.map((m) => [m.name, m.state])).toEqual([["by-id", "Completed"], ["by-name", "Completed"]]);
    expect(await driftOf(engine.live, byId(fleet))).toEqual([]);
    const rolledBack = byId(fleet, (info) => ({ ...info, kubernetesVersion: "1.31.2" }));
    expect((await driftOf(engine.live, rolledBack)).map((d) => d.member)).toEqual(["by-id", "by-name"]);
  });

  it("a Full member whose pool's version moved back is drift too", async () => {
    const { engine, fleet } = await finished(scenario({ members: [member("m-1")], update: "{upgrade: {type: Full, kubernetesVersion: 1.32.0}}" }));
    const backend = changedAfter(fleet, new VirtualClock(0), 0, (_name, info) => ({ ...info, nodePools: [{ ...info.nodePools[0]!, orchestratorVersion: "1.31.2" }] }));
    expect(await driftOf(engine.live, backend)).toEqual([{ member: "m-1", message: "node pool 'system' reports Kubernetes 1.31.2, expected 1.32.0 (the run left it at its target)" }]);
  });
});
