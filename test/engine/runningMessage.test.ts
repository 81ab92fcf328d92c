/**
 * The message a Running member shows: what its upgrade asks for (docs/rules.md). The text is made once
 * per distinct request and reused while the next member asks for the same (issue 13); a member that
 * asks for anything else — another type, version, image, pool, or the pools in another order — must
 * show its own request, never the previous member's.
 * Issue 34: the texts and the reuse rule could each be broken without a test failing.
 */
import { describe, expect, it } from "vitest";
import type { UpgradeRequest } from "../../src/engine/backend";
import { RequestDescriber } from "../../src/engine/describeRequest";

const full = (kubernetesVersion: string, nodeImageVersions: Record<string, string> = {}): UpgradeRequest => ({ type: "Full", kubernetesVersion, nodeImageVersions });

describe("the Running message of each upgrade type", () => {
  it("ControlPlaneOnly names the control plane and the version", () => {
    expect(new RequestDescriber().describe({ type: "ControlPlaneOnly", kubernetesVersion: "1.32.0", nodeImageVersions: {} })).toBe("Upgrading the control plane to Kubernetes 1.32.0.");
  });

  it("NodeImageOnly names each pool's image, in the pools' order", () => {
    expect(new RequestDescriber().describe({ type: "NodeImageOnly", nodeImageVersions: { system: "AKSUbuntu-2204gen2containerd-202511.10.0", user: "AKSUbuntu-2204gen2containerd-202511.12.0" } })).toBe(
      "Upgrading node images system=AKSUbuntu-2204gen2containerd-202511.10.0, user=AKSUbuntu-2204gen2containerd-202511.12.0.",
    );
  });

  it("Full names the version, and the images when there are any", () => {
    const describer = new RequestDescriber();
    expect(describer.describe(full("1.32.0", { system: "img-a" }))).toBe("Upgrading the control plane and node pools to Kubernetes 1.32.0, node images system=img-a.");
    expect(describer.describe(full("1.32.0"))).toBe("Upgrading the control plane and node pools to Kubernetes 1.32.0.");
  });
});

describe("one member's text is never shown for another member's different request", () => {
  const cases: Array<[string, UpgradeRequest, UpgradeRequest]> = [
    ["another type, same version", { type: "ControlPlaneOnly", kubernetesVersion: "1.32.0", nodeImageVersions: {} }, full("1.32.0")],
    ["another version", full("1.31.2"), full("1.32.0")],
    ["one more pool", full("1.32.0", { system: "img-a" }), full("1.32.0", { system: "img-a", user: "img-a" })],
    ["another image on the second pool", full("1.32.0", { system: "img-a", user: "img-a" }), full("1.32.0", { system: "img-a", user: "img-b" })],
    ["another image on the only pool", full("1.32.0", { system: "img-a" }), full("1.32.0", { system: "img-b" })],
    ["another pool with the same image", full("1.32.0", { system: "img-a" }), full("1.32.0", { user: "img-a" })],
    ["the same pools in another order", full("1.32.0", { system: "img-a", user: "img-b" }), full("1.32.0", { user: "img-b", system: "img-a" })],
  ];
  for (const [name, first, second] of cases) {
    it(name, () => {
      const describer = new RequestDescriber();
      describer.describe(first);
      expect(describer.describe(second)).toBe(new RequestDescriber().describe(second));
      expect(describer.describe(first)).toBe(new RequestDescriber().describe(first));
    });
  }

  it("an equal request (a fresh object) gets the same text", () => {
    const describer = new RequestDescriber();
    expect(describer.describe(full("1.32.0", { system: "img-a" }))).toBe(describer.describe(full("1.32.0", { system: "img-a" })));
  });
});
