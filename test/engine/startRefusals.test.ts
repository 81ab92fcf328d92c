/**
 * How the engine takes an upgrade the cluster refuses, by ARM's error code: a stopped cluster
 * (ClusterStopped) fails its member with a message that says how to put it right; a cluster busy with
 * another operation (409 OperationNotAllowed) leaves it Pending, to be tried again (docs/behaviour.md).
 * Issue 34: the codes and the message could be changed without a test failing.
 */
import { expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import { BackendError, type ClusterBackend } from "../../src/engine/backend";
import { VirtualClock } from "../../src/engine/clock";
import { parseScenario } from "../../src/simulation/scenario";
import { runScenario } from "../../src/simulation/simulateScenario";
import { member, scenario, simulate } from "./helpers";

it("a stopped cluster's member fails with ClusterStopped, saying to start the cluster", async () => {
  const yaml = scenario({ members: [member("stopped-1")] }).replace("  - {name: stopped-1,", "  - {name: stopped-1, simulation: {powerState: Stopped},");
  const out = await simulate(yaml);
  expect(out.member("stopped-1").status).toMatchObject({
    state: "Failed",
    error: { code: "ClusterStopped", message: "managed cluster stopped-1 is stopped (powerState Stopped) and cannot be upgraded; start it (az aks start) and start the run again" },
  });
  expect(out.ops("stopped-1")).toEqual([]);
});

it("a start refused with ARM's OperationNotAllowed leaves the member Pending, and it starts when tried again", async () => {
  const parsed = parseScenario(scenario({ members: [member("m-1")] }));
  const clock = new VirtualClock(Date.parse(parsed.start));
  const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
  let refusals = 1;
  const backend: ClusterBackend = {
    getCluster: (m) => fleet.getCluster(m),
    getRegionOffer: (region) => fleet.getRegionOffer(region),
    startUpgrade: (m, request) => {
      if (refusals-- > 0) throw new BackendError("OperationNotAllowed", "Operation is not allowed because there's an in progress upgrade on managed cluster 'm-1'.");
      return fleet.startUpgrade(m, request);
    },
    getOperation: (m, id) => fleet.getOperation(m, id),
    findStartedUpgrade: (m, request, since) => fleet.findStartedUpgrade(m, request, since),
  };
  const { result } = await runScenario(parsed, { backend, clock, clusters: () => fleet.snapshot().clusters, engineOptions: {} });
  const m1 = result.events.filter((e) => e.name === "m-1").map((e) => [e.to, e.message]);
  expect(m1[0]).toEqual(["Pending", "Another operation is in progress on the cluster; waiting for it to end (Operation is not allowed because there's an in progress upgrade on managed cluster 'm-1'.)."]);
  expect(m1.at(-1)?.[0]).toBe("Completed");
  expect(result.status.status.state).toBe("Completed");
});
