/**
 * The Azure backend follows an upgrade from the cluster itself: what is still missing is the next step
 * (src/backends/azure/azureBackend.ts `nextStep`), and ARM maintenance configurations become the
 * engine's windows (`convert.ts`).
 */
import type { ManagedCluster } from "@azure/arm-containerservice";
import { describe, expect, it } from "vitest";
import { goalNames, nextStep, stepStarted } from "../../../src/backends/azure/steps";
import { parseManagedClusterId } from "../../../src/backends/azure/armIds";
import { clusterInfo, maintenanceConfigurations } from "../../../src/backends/azure/convert";
import { BackendError } from "../../../src/engine/backend";

const OLD = "AKSUbuntu-2204gen2containerd-202610.01.0";
const NEW = "AKSUbuntu-2204gen2containerd-202611.24.0";

function cluster(controlPlane: string, pools: Array<[string, string, string]>, provisioningState = "Succeeded"): ManagedCluster {
  return {
    location: "westeurope",
    provisioningState,
    kubernetesVersion: controlPlane,
    currentKubernetesVersion: controlPlane,
    agentPoolProfiles: pools.map(([name, version, image]) => ({ name, orchestratorVersion: version, currentOrchestratorVersion: version, nodeImageVersion: image, provisioningState: "Succeeded" })),
  } as ManagedCluster;
}

describe("nextStep", () => {
  it("Full: versions first (control plane and pools), then each pool's image still behind, then nothing", () => {
    const request = { type: "Full" as const, kubernetesVersion: "1.32.0", nodeImageVersions: { system: NEW, user: NEW } };
    expect(nextStep(cluster("1.31.2", [["system", "1.31.2", OLD], ["user", "1.31.2", OLD]]), request)).toEqual({ kind: "versions", controlPlaneOnly: false });
    expect(nextStep(cluster("1.32.0", [["system", "1.31.2", OLD], ["user", "1.32.0", OLD]]), request)).toEqual({ kind: "versions", controlPlaneOnly: false });
    expect(nextStep(cluster("1.32.0", [["system", "1.32.0", NEW], ["user", "1.32.0", OLD]]), request)).toEqual({ kind: "image", pool: "user", version: NEW });
    expect(nextStep(cluster("1.32.0", [["system", "1.32.0", NEW], ["user", "1.32.0", NEW]]), request)).toBeUndefined();
  });

  it("ControlPlaneOnly moves only the control plane; NodeImageOnly only images; nothing is moved backwards", () => {
    expect(nextStep(cluster("1.31.2", [["system", "1.31.2", OLD]]), { type: "ControlPlaneOnly", kubernetesVersion: "1.32.0", nodeImageVersions: {} })).toEqual({ kind: "versions", controlPlaneOnly: true });
    expect(nextStep(cluster("1.32.0", [["system", "1.31.2", OLD]]), { type: "ControlPlaneOnly", kubernetesVersion: "1.32.0", nodeImageVersions: {} })).toBeUndefined();
    expect(nextStep(cluster("1.31.2", [["system", "1.31.2", OLD]]), { type: "NodeImageOnly", nodeImageVersions: { system: NEW } })).toEqual({ kind: "image", pool: "system", version: NEW });
    expect(nextStep(cluster("1.33.0", [["system", "1.33.0", NEW]]), { type: "Full", kubernetesVersion: "1.32.0", nodeImageVersions: { system: OLD } })).toBeUndefined();
  });
});

describe("a major.minor alias as ARM's goal version (AKS keeps \"1.32\" when asked for 1.32)", () => {
  it("names its patches, not other minors; a write found under way toward the alias counts as started", () => {
    expect(goalNames("1.32", "1.32.0")).toBe(true);
    expect(goalNames("1.32.0", "1.32.0")).toBe(true);
    expect(goalNames("1.3", "1.32.0")).toBe(false);
    expect(goalNames("1.31", "1.32.0")).toBe(false);
    const request = { type: "Full" as const, kubernetesVersion: "1.32.0", nodeImageVersions: {} };
    const before = cluster("1.31.2", [["system", "1.31.2", OLD]]);
    const underWay = { ...cluster("1.32.0", [["system", "1.32.0", OLD]], "Upgrading"), kubernetesVersion: "1.32", eTag: "b" } as ManagedCluster;
    underWay.agentPoolProfiles = underWay.agentPoolProfiles?.map((p) => ({ ...p, orchestratorVersion: "1.32" }));
    expect(stepStarted(underWay, request, { kind: "versions", controlPlaneOnly: false }, { ...before, eTag: "a" } as ManagedCluster)).toBe(true);
  });
});

describe("stepStarted: after a write with no clear answer, did it land?", () => {
  const full = { type: "Full" as const, kubernetesVersion: "1.32.0", nodeImageVersions: { system: NEW } };
  const versions = { kind: "versions" as const, controlPlaneOnly: false };
  const image = { kind: "image" as const, pool: "system", version: NEW };
  const before = { ...cluster("1.31.2", [["system", "1.31.2", OLD]]), eTag: "a" };
  /** The cluster with goal versions `goal`, in `state`, with eTag `eTag`. */
  const shown = (goal: string, state: string, eTag: string, poolState = state) =>
    ({ ...before, eTag, provisioningState: state, kubernetesVersion: goal, agentPoolProfiles: [{ ...before.agentPoolProfiles?.[0], orchestratorVersion: goal, provisioningState: poolState }] }) as ManagedCluster;

  it("landed: under way toward the target, already done, or already ended Failed/Canceled since the write", () => {
    expect(stepStarted(shown("1.32.0", "Upgrading", "b"), full, versions, before)).toBe(true);
    expect(stepStarted({ ...cluster("1.32.0", [["system", "1.32.0", OLD]]), eTag: "b" }, full, versions, before)).toBe(true);
    expect(stepStarted(shown("1.32.0", "Failed", "b"), full, versions, before)).toBe(true);
    expect(stepStarted(shown("1.32.0", "Canceled", "b"), full, versions, before)).toBe(true);
    const imaging = { ...before, agentPoolProfiles: [{ ...before.agentPoolProfiles?.[0], provisioningState: "UpgradingNodeImageVersion" }] } as ManagedCluster;
    expect(stepStarted(imaging, { type: "NodeImageOnly", nodeImageVersions: { system: NEW } }, image, before)).toBe(true);
  });

  it("not landed: nothing changed (a Failed cluster as it was before the write), or busy with something else", () => {
    const failedBefore = shown("1.32.0", "Failed", "a");
    expect(stepStarted(failedBefore, full, versions, failedBefore)).toBe(false);
    expect(stepStarted(before, full, versions, before)).toBe(false);
    expect(stepStarted(shown("1.31.2", "Updating", "b"), full, versions, before)).toBe(false);
    expect(stepStarted(shown("1.31.2", "Succeeded", "b", "Upgrading"), full, versions, before)).toBe(false);
  });
});

describe("ARM → engine", () => {
  it("a busy provisioning state is an operation in flight; the region is ARM's location", () => {
    expect(clusterInfo(cluster("1.31.2", [["system", "1.31.2", OLD]], "Upgrading"), []).activeOperation).toEqual({});
    const idle = clusterInfo(cluster("1.31.2", [["system", "1.31.2", OLD]]), []);
    expect(idle).toEqual({ region: "westeurope", kubernetesVersion: "1.31.2", nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: OLD }], provisioningState: "Succeeded" });
  });

  it("reads the two AKS-managed schedules, with dates as the SDK returns them, and ignores others", () => {
    const configs = maintenanceConfigurations([
      {
        name: "aksManagedAutoUpgradeSchedule",
        maintenanceWindow: {
          schedule: { relativeMonthly: { dayOfWeek: "Monday", intervalMonths: 3, weekIndex: "First" } },
          durationHours: 10,
          startTime: "08:30",
          utcOffset: "+05:30",
          startDate: new Date("2023-01-01T00:00:00Z"),
          notAllowedDates: [{ start: new Date("2023-02-18T00:00:00Z"), end: new Date("2023-02-25T00:00:00Z") }],
        },
      },
      { name: "default", timeInWeek: [] },
    ] as never);
    expect(configs).toEqual({
      aksManagedAutoUpgradeSchedule: {
        maintenanceWindow: {
          schedule: { relativeMonthly: { dayOfWeek: "Monday", intervalMonths: 3, weekIndex: "First" } },
          durationHours: 10,
          startTime: "08:30",
          utcOffset: "+05:30",
          startDate: "2023-01-01",
          notAllowedDates: [{ start: "2023-02-18", end: "2023-02-25" }],
        },
      },
    });
  });

  it("a window it cannot read fails loudly rather than counting as no window", () => {
    expect(() => maintenanceConfigurations([{ name: "aksManagedNodeOSUpgradeSchedule", maintenanceWindow: { schedule: {}, durationHours: 2, startTime: "8" } }] as never)).toThrow(BackendError);
  });

  it("parses managed cluster ids", () => {
    expect(parseManagedClusterId("/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg1/providers/Microsoft.ContainerService/managedClusters/aks-1")).toEqual({
      subscriptionId: "00000000-0000-0000-0000-000000000000",
      resourceGroup: "rg1",
      name: "aks-1",
    });
    expect(() => parseManagedClusterId("/subscriptions/x/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm")).toThrow();
  });
});
