/**
 * A stopped cluster cannot be upgraded: its member fails with `ClusterStopped` and a message naming the
 * cluster, the same through the Azure backend (which checks `powerState` before writing anything) and
 * through the in-process simulated fleet.
 */
import { describe, expect, it } from "vitest";
import { CLUSTER_STOPPED } from "../../../src/engine/backend";
import { validateScenario, type Scenario } from "../../../src/simulation/scenario";
import { simulateScenario, type SimulationReport } from "../../../src/simulation/simulateScenario";
import { simulateScenarioViaArm } from "../../../src/simulation/viaArmEmulator";

const OLD_IMAGE = "AKSUbuntu-2204gen2containerd-202610.01.0";
const NEW_IMAGE = "AKSUbuntu-2204gen2containerd-202611.24.0";

function scenario(): Scenario {
  const member = (name: string, simulation: Record<string, unknown> = {}) => ({
    name,
    group: "prod",
    region: "westeurope",
    kubernetesVersion: "1.31.2",
    nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: OLD_IMAGE }],
    simulation,
  });
  return validateScenario({
    start: "2026-12-05T00:00:00Z",
    regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: OLD_IMAGE }, { version: NEW_IMAGE }] } },
    members: [member("prod-1"), member("prod-2", { powerState: "Stopped" }), member("prod-3")],
    strategy: { stages: [{ name: "production", groups: [{ name: "prod" }] }] },
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Latest" } },
  });
}

function outcome(report: SimulationReport) {
  const { status, clusters } = report.result;
  return {
    run: [status.status.state, status.status.error?.code],
    members: status.stages[0]!.groups[0]!.members.map((m) => ({ name: m.name, state: m.status.state, error: m.status.error, message: m.message })),
    upgrades: clusters.map((c) => [c.name, c.operations.map((o) => o.result)]),
  };
}

describe("a stopped cluster", () => {
  it("in process: the member fails with ClusterStopped naming the cluster, the run fails, nothing touches the cluster", async () => {
    const result = outcome(await simulateScenario(scenario()));
    expect(result.run).toEqual(["Failed", CLUSTER_STOPPED]);
    const stopped = result.members.find((m) => m.name === "prod-2")!;
    expect(stopped.state).toBe("Failed");
    expect(stopped.error?.code).toBe(CLUSTER_STOPPED);
    expect(stopped.error?.message).toContain("managed cluster prod-2 is stopped");
    expect(stopped.message).toContain("prod-2 is stopped");
    expect(result.members.map((m) => [m.name, m.state])).toEqual([
      ["prod-1", "Completed"],
      ["prod-2", "Failed"],
      ["prod-3", "NotStarted"],
    ]);
    expect(result.upgrades).toEqual([
      ["prod-1", ["Succeeded"]],
      ["prod-2", []],
      ["prod-3", []],
    ]);
  });

  it("through the Azure backend and the ARM emulator: the same outcome, and no write is sent for the stopped cluster", async () => {
    const viaArm = await simulateScenarioViaArm(scenario(), { msPerSimulatedMinute: 8 });
    expect(outcome(viaArm)).toEqual(outcome(await simulateScenario(scenario())));
    expect(viaArm.requests.PUT).toBe(1); // prod-1 only
    expect(viaArm.requests.POST).toBe(0);
  }, 30_000);
});
