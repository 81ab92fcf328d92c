/** The AKS rules the simulated fleet enforces: each refusal has its own code and changes nothing. */
import { describe, expect, it } from "vitest";
import {
  CLUSTER_STOPPED,
  INVALID_PARAMETER,
  KUBERNETES_VERSION_NOT_AVAILABLE,
  NODE_IMAGE_FAMILY_MISMATCH,
  NODE_IMAGE_VERSION_NOT_AVAILABLE,
  NODE_POOL_VERSION_ABOVE_CONTROL_PLANE,
  NOT_FOUND,
  UPGRADE_DOWNGRADE_NOT_ALLOWED,
  UPGRADE_MINOR_VERSION_SKIP_NOT_ALLOWED,
} from "../../src/aks/errorCodes";
import {
  AZURE_LINUX_IMAGE,
  IMAGE_DEC,
  IMAGE_NOV,
  IMAGE_OCT,
  LATER,
  MINUTE,
  backendError,
  cluster,
  controlPlaneOnly,
  expectRefused,
  full,
  nodeImageOnly,
  setup,
} from "../backends/simulator/fixtures";

describe("downgrades", () => {
  it("refuses a control plane downgrade", async () => {
    const { sim } = setup(cluster("a"));
    await expectRefused(sim, "a", controlPlaneOnly("1.30.5"), UPGRADE_DOWNGRADE_NOT_ALLOWED, "'a'", "1.31.2", "1.30.5");
    await expectRefused(sim, "a", full("1.30.5"), UPGRADE_DOWNGRADE_NOT_ALLOWED, "'a'", "1.31.2", "1.30.5");
  });

  it("refuses a Full upgrade that would move a pool down", async () => {
    const { sim } = setup(cluster("a", { nodePools: [{ name: "user", orchestratorVersion: "1.32.0", nodeImageVersion: IMAGE_OCT }] }));
    await expectRefused(sim, "a", full("1.31.2"), UPGRADE_DOWNGRADE_NOT_ALLOWED, "'a'", "node pool 'user'", "1.32.0", "1.31.2");
  });

  it("refuses an older node image", async () => {
    const { sim } = setup(cluster("a", { nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE_NOV }] }));
    await expectRefused(sim, "a", nodeImageOnly({ system: IMAGE_OCT }), UPGRADE_DOWNGRADE_NOT_ALLOWED, "'a'", "'system'", IMAGE_NOV, IMAGE_OCT);
  });
});

describe("minor versions", () => {
  it("refuses a control plane that skips a minor version, whatever the upgrade type", async () => {
    const { sim } = setup(cluster("a", { kubernetesVersion: "1.30.5", nodePools: [{ name: "system", orchestratorVersion: "1.30.5", nodeImageVersion: IMAGE_OCT }] }));
    await expectRefused(sim, "a", controlPlaneOnly("1.32.0"), UPGRADE_MINOR_VERSION_SKIP_NOT_ALLOWED, "'a'", "1.30.5", "1.32.0");
    await expectRefused(sim, "a", full("1.32.0"), UPGRADE_MINOR_VERSION_SKIP_NOT_ALLOWED, "'a'", "1.30.5", "1.32.0");
  });

  it("lets lagging pools jump to the control plane's target in a Full upgrade", async () => {
    const { sim, clock } = setup(cluster("a", { nodePools: [{ name: "old", orchestratorVersion: "1.30.5", nodeImageVersion: IMAGE_OCT }] }));
    await sim.startUpgrade({ name: "a" }, full("1.32.0"));
    await clock.sleepUntil(clock.now() + 10 * MINUTE);
    const after = await sim.getCluster({ name: "a" });
    expect(after.kubernetesVersion).toBe("1.32.0");
    expect(after.nodePools[0]?.orchestratorVersion).toBe("1.32.0");
  });

  it("allows a patch upgrade within the same minor version", async () => {
    const { sim } = setup(cluster("a", { kubernetesVersion: "1.30.5", nodePools: [{ name: "system", orchestratorVersion: "1.30.5", nodeImageVersion: IMAGE_OCT }] }));
    await expect(sim.startUpgrade({ name: "a" }, controlPlaneOnly("1.31.2"))).resolves.toMatchObject({ operationId: "op-a-1" });
  });
});

describe("pools above the control plane", () => {
  it("refuses a request that would leave a pool newer than the control plane", async () => {
    const { sim } = setup(cluster("a", { nodePools: [{ name: "user", orchestratorVersion: "1.32.0", nodeImageVersion: IMAGE_OCT }] }));
    await expectRefused(sim, "a", controlPlaneOnly("1.31.2"), NODE_POOL_VERSION_ABOVE_CONTROL_PLANE, "'a'", "'user'", "1.32.0", "1.31.2");
  });
});

describe("what the region offers", () => {
  it("refuses a Kubernetes version the region does not offer", async () => {
    const { sim } = setup(cluster("a"));
    await expectRefused(sim, "a", controlPlaneOnly("1.32.1"), KUBERNETES_VERSION_NOT_AVAILABLE, "'a'", "1.32.1", "westeurope", "not offered");
  });

  it("refuses a Kubernetes version before its availableAt, and accepts it from then on", async () => {
    const { sim, clock } = setup(cluster("a", { kubernetesVersion: "1.32.0", nodePools: [{ name: "system", orchestratorVersion: "1.32.0", nodeImageVersion: IMAGE_OCT }] }));
    await expectRefused(sim, "a", controlPlaneOnly("1.33.1"), KUBERNETES_VERSION_NOT_AVAILABLE, "1.33.1", "westeurope", "until 2026-12-06T00:00:00Z");
    await clock.sleepUntil(LATER);
    await expect(sim.startUpgrade({ name: "a" }, controlPlaneOnly("1.33.1"))).resolves.toMatchObject({ operationId: "op-a-1" });
  });

  it("refuses a node image the region does not offer", async () => {
    const { sim } = setup(cluster("a"));
    const image = "AKSUbuntu-2204gen2containerd-202701.01.0";
    await expectRefused(sim, "a", nodeImageOnly({ system: image }), NODE_IMAGE_VERSION_NOT_AVAILABLE, "'a'", image, "westeurope");
  });

  it("refuses a node image before its availableAt, and accepts it from then on", async () => {
    const { sim, clock } = setup(cluster("a"));
    await expectRefused(sim, "a", full("1.32.0", { system: IMAGE_DEC }), NODE_IMAGE_VERSION_NOT_AVAILABLE, IMAGE_DEC, "until 2026-12-06T00:00:00Z");
    await clock.sleepUntil(LATER);
    await expect(sim.startUpgrade({ name: "a" }, full("1.32.0", { system: IMAGE_DEC }))).resolves.toMatchObject({ operationId: "op-a-1" });
  });

  it("refuses a node image of another family than the pool's", async () => {
    const { sim } = setup(cluster("a"));
    await expectRefused(sim, "a", nodeImageOnly({ system: AZURE_LINUX_IMAGE }), NODE_IMAGE_FAMILY_MISMATCH, "'a'", "'system'", "AKSUbuntu-2204gen2containerd", "AzureLinux-V2gen2");
  });
});

describe("malformed requests", () => {
  it("refuses a Full or ControlPlaneOnly upgrade without a version", async () => {
    const { sim } = setup(cluster("a"));
    await expectRefused(sim, "a", { type: "Full", nodeImageVersions: {} }, INVALID_PARAMETER, "Full", "version");
    await expectRefused(sim, "a", { type: "ControlPlaneOnly", nodeImageVersions: {} }, INVALID_PARAMETER, "ControlPlaneOnly");
  });

  it("refuses a NodeImageOnly upgrade with a version", async () => {
    const { sim } = setup(cluster("a"));
    await expectRefused(sim, "a", { type: "NodeImageOnly", kubernetesVersion: "1.32.0", nodeImageVersions: {} }, INVALID_PARAMETER, "NodeImageOnly", "1.32.0");
  });

  it("refuses node images in a ControlPlaneOnly upgrade, which never changes pools", async () => {
    const { sim } = setup(cluster("a"));
    await expectRefused(sim, "a", { type: "ControlPlaneOnly", kubernetesVersion: "1.32.0", nodeImageVersions: { system: IMAGE_NOV } }, INVALID_PARAMETER, "never changes node pools", "system");
  });

  it("refuses a node image for a pool the cluster does not have", async () => {
    const { sim } = setup(cluster("a"));
    await expectRefused(sim, "a", nodeImageOnly({ gpu: IMAGE_NOV }), INVALID_PARAMETER, "'gpu'", "system");
  });
});

describe("stopped clusters (simulation.powerState: Stopped)", () => {
  it("refuses every upgrade with ClusterStopped, naming the cluster, before anything else is checked", async () => {
    const { sim } = setup(cluster("a", { simulation: { powerState: "Stopped", busyUntil: "2026-12-05T01:00:00Z" } }), cluster("b", { simulation: { powerState: "Running" } }));
    for (const request of [full("1.32.0"), controlPlaneOnly("1.32.0"), nodeImageOnly({ system: IMAGE_NOV }), full("1.30.5")]) {
      await expectRefused(sim, "a", request, CLUSTER_STOPPED, "managed cluster a", "stopped");
    }
    expect(sim.startUpgradeCalls().map((c) => ("error" in c.outcome ? c.outcome.error.code : "started"))).toEqual([CLUSTER_STOPPED, CLUSTER_STOPPED, CLUSTER_STOPPED, CLUSTER_STOPPED]);
    await expect(sim.startUpgrade({ name: "b" }, full("1.32.0"))).resolves.toMatchObject({ operationId: "op-b-1" });
  });
});

describe("unknown names", () => {
  it("answers NotFound for an unknown member, naming it", async () => {
    const { sim } = setup(cluster("a"));
    for (const call of [sim.getCluster({ name: "ghost" }), sim.startUpgrade({ name: "ghost" }, full("1.32.0")), sim.getOperation({ name: "ghost" }, "op-ghost-1")]) {
      const error = await backendError(call);
      expect(error.code).toBe(NOT_FOUND);
      expect(error.message).toContain("managedClusters/ghost");
    }
    expect(sim.snapshot().clusters[0]?.operations).toEqual([]);
  });

  it("answers NotFound for an unknown region or operation", async () => {
    const { sim } = setup(cluster("a"));
    expect((await backendError(sim.getRegionOffer("mars"))).code).toBe(NOT_FOUND);
    expect((await backendError(sim.getRegionOffer("toString"))).code).toBe(NOT_FOUND);
    const error = await backendError(sim.getOperation({ name: "a" }, "op-a-7"));
    expect(error.code).toBe(NOT_FOUND);
    expect(error.message).toContain("op-a-7");
  });
});
