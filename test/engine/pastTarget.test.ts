/** Nothing is moved backwards: a cluster newer than the run's target is Skipped, not failed (docs/behaviour.md). */
import { expect, it } from "vitest";
import { parseScenario } from "../../src/model/scenario";
import { simulateScenario } from "../../src/simulation/simulateScenario";

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
