/** Nothing is moved backwards: a cluster newer than the run's target is Skipped, not failed (docs/behaviour.md). */
import { expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import { VirtualClock } from "../../src/engine/clock";
import { parseScenario } from "../../src/simulation/scenario";
import { runScenario, simulateScenario } from "../../src/simulation/simulateScenario";

it("skips a member whose control plane is already newer than the target, and the run completes", async () => {
  const { result } = await simulateScenario(
    parseScenario(`
start: 2026-12-05T00:00:00Z
regions: {westeurope: {kubernetesVersions: [{version: 1.32.0}, {version: 1.33.0}]}}
members:
  - {name: ahead, region: westeurope, kubernetesVersion: 1.33.0, nodePools: [{name: system, orchestratorVersion: 1.33.0, nodeImageVersion: AKSUbuntu-2204gen2containerd-202610.01.0}]}
  - {name: behind, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: AKSUbuntu-2204gen2containerd-202610.01.0}]}
managedClusterUpdate: {upgrade: {type: ControlPlaneOnly, kubernetesVersion: 1.32.0}}
`),
  );
  const [ahead, behind] = result.status.stages[0]!.groups[0]!.members;
  expect(ahead!.status.state).toBe("Skipped");
  expect(ahead!.message).toBe("Already at target: control plane runs Kubernetes 1.33.0, newer than the target 1.32.0.");
  expect(behind!.status.state).toBe("Completed");
  expect(result.status.status.state).toBe("Completed");
  expect(result.clusters.find((c) => c.name === "ahead")!.operations).toEqual([]);
});

it("a Full run over a cluster newer than its target moves only the images that are behind, never a version back", async () => {
  const old = "AKSUbuntu-2204gen2containerd-202610.01.0";
  const latest = "AKSUbuntu-2204gen2containerd-202611.24.0";
  const { result } = await simulateScenario(
    parseScenario(`
start: 2026-12-05T00:00:00Z
regions: {westeurope: {kubernetesVersions: [{version: 1.32.0}, {version: 1.33.0}], nodeImages: [{version: ${latest}}]}}
members:
  - {name: ahead-images-behind, region: westeurope, kubernetesVersion: 1.33.0, nodePools: [{name: system, orchestratorVersion: 1.33.0, nodeImageVersion: ${old}}]}
  - {name: ahead-up-to-date, region: westeurope, kubernetesVersion: 1.33.0, nodePools: [{name: system, orchestratorVersion: 1.33.0, nodeImageVersion: ${latest}}]}
managedClusterUpdate: {upgrade: {type: Full, kubernetesVersion: 1.32.0}}
`),
  );
  const [imagesBehind, upToDate] = result.status.stages[0]!.groups[0]!.members;
  expect(imagesBehind!.status.state).toBe("Completed");
  const cluster = result.clusters.find((c) => c.name === "ahead-images-behind")!;
  expect(cluster).toMatchObject({ kubernetesVersion: "1.33.0", nodePools: [{ name: "system", orchestratorVersion: "1.33.0", nodeImageVersion: latest }] });
  expect(cluster.operations.map((o) => [o.kind, o.result])).toEqual([["NodeImageOnly", "Succeeded"]]);
  // Its upgrade says what it asks for: images only, no Kubernetes version.
  expect(result.events.filter((e) => e.name === "ahead-images-behind" && e.to === "Running").map((e) => e.message)).toEqual([`Upgrading node images system=${latest}.`]);
  expect(upToDate!.status.state).toBe("Skipped");
  expect(upToDate!.message).toBe("Already at target: control plane and every node pool run Kubernetes 1.33.0, newer than the target 1.32.0, with the target node images.");
  expect(result.status.status.state).toBe("Completed");
});

it("what is asked of AKS for a cluster past the target: its images only, as NodeImageOnly, with no Kubernetes version", async () => {
  const old = "AKSUbuntu-2204gen2containerd-202610.01.0";
  const latest = "AKSUbuntu-2204gen2containerd-202611.24.0";
  const parsed = parseScenario(`
start: 2026-12-05T00:00:00Z
regions: {westeurope: {kubernetesVersions: [{version: 1.32.0}, {version: 1.33.0}], nodeImages: [{version: ${latest}}]}}
members:
  - {name: ahead, region: westeurope, kubernetesVersion: 1.33.0, nodePools: [{name: system, orchestratorVersion: 1.33.0, nodeImageVersion: ${old}}]}
managedClusterUpdate: {upgrade: {type: Full, kubernetesVersion: 1.32.0}}
`);
  const clock = new VirtualClock(Date.parse(parsed.start));
  const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
  await runScenario(parsed, { backend: fleet, clock, clusters: () => fleet.snapshot().clusters, engineOptions: {} });
  expect(fleet.startUpgradeCalls().map((c) => c.request)).toEqual([{ type: "NodeImageOnly", nodeImageVersions: { system: latest } }]);
});
