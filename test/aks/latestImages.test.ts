/**
 * Issue 29: "latest at start" is one rule, `newestImageAt` (src/model/nodeImage.ts), under the engine's
 * pick at a member's start, the simulated fleet's images part by part (`latestImages.ts`) and the ARM
 * emulator, whose writes name a pool at its own image and leave the newest to be settled when the
 * operation starts — the instant a run records as the member's start — not when the write was read.
 */
import { describe, expect, it } from "vitest";
import { poolImageTarget } from "../../src/engine/nodeImages";
import { newestImageAt } from "../../src/model/nodeImage";
import { IMAGE_DEC, IMAGE_NOV, IMAGE_OCT, LATER, MINUTE, REGIONS, cluster, setup } from "../backends/simulator/fixtures";

const UBUNTU = "AKSUbuntu-2204gen2containerd";

describe("newestImageAt: the newest image of a family a region offers at an instant", () => {
  const offers = REGIONS.westeurope.nodeImages;

  it("leaves out images not yet available, and other families; available from the instant itself", () => {
    expect(newestImageAt(offers, UBUNTU, LATER - 1)).toBe(IMAGE_NOV);
    expect(newestImageAt(offers, UBUNTU, LATER)).toBe(IMAGE_DEC);
    expect(newestImageAt(offers, "AzureLinux-V2gen2", LATER)).toBe("AzureLinux-V2gen2-202611.20.0");
    expect(newestImageAt(offers, "Windows2022", LATER)).toBeUndefined();
  });

  it("reads an announced instant as a fleet file writes it (ISO text) and as the engine's offers carry it (epoch ms)", () => {
    const asNumbers = offers.map((o) => ({ version: o.version, ...(o.availableAt === undefined ? {} : { availableAt: Date.parse(o.availableAt) }) }));
    for (const at of [LATER - 1, LATER, LATER + 1]) expect(newestImageAt(asNumbers, UBUNTU, at)).toBe(newestImageAt(offers, UBUNTU, at));
  });

  it("the engine's Latest pick is this rule at the member's start", () => {
    const offer = { kubernetesVersions: [], nodeImages: offers.map((o) => ({ version: o.version, ...(o.availableAt === undefined ? {} : { availableAt: Date.parse(o.availableAt) }) })) };
    const update = { upgrade: { type: "NodeImageOnly" as const }, nodeImageSelection: { type: "Latest" as const } };
    const pool = { name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE_OCT };
    expect(poolImageTarget(update, undefined, pool, offer, LATER - 1)).toEqual({ kind: "version", version: IMAGE_NOV });
    expect(poolImageTarget(update, undefined, pool, offer, LATER)).toEqual({ kind: "version", version: IMAGE_DEC });
  });
});

describe("an upgrade asking for the newest images takes them when it starts", () => {
  it("a pool named at its own image (as the ARM emulator's upgradeNodeImageVersion names it) gets the newest at the upgrade's start", async () => {
    const { clock, sim } = setup(cluster("before"), cluster("after"));
    await clock.sleepUntil(LATER - MINUTE);
    const early = sim.startUpgradeNow({ name: "before" }, { type: "NodeImageOnly", nodeImageVersions: { system: IMAGE_OCT }, latestNodeImages: true });
    await clock.sleepUntil(LATER);
    const late = sim.startUpgradeNow({ name: "after" }, { type: "NodeImageOnly", nodeImageVersions: { system: IMAGE_OCT }, latestNodeImages: true });
    const applied = (name: string) => sim.toState().clusters[name]?.operations[0];
    expect([early.startedAt, applied("before")?.request.nodeImageVersions]).toEqual([LATER - MINUTE, { system: IMAGE_NOV }]);
    expect([late.startedAt, applied("after")?.request.nodeImageVersions]).toEqual([LATER, { system: IMAGE_DEC }]);
  });

  it("a pool named at its own image that nothing newer replaces is re-imaged in place, even when that image is no longer offered", async () => {
    const old = "AKSUbuntu-2204gen2containerd-202601.01.0";
    const { sim } = setup(cluster("solo", { nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE_NOV }] }), cluster("gone", { region: "eastus", kubernetesVersion: "1.32.0", nodePools: [{ name: "system", orchestratorVersion: "1.32.0", nodeImageVersion: old }] }));
    sim.startUpgradeNow({ name: "solo" }, { type: "NodeImageOnly", nodeImageVersions: { system: IMAGE_NOV }, latestNodeImages: true });
    expect(sim.toState().clusters.solo?.operations[0]?.request.nodeImageVersions).toEqual({ system: IMAGE_NOV });
    // eastus offers only November: the pool on an unlisted January image moves to it; named at its own image, it is not refused.
    sim.startUpgradeNow({ name: "gone" }, { type: "NodeImageOnly", nodeImageVersions: { system: old }, latestNodeImages: true });
    expect(sim.toState().clusters.gone?.operations[0]?.request.nodeImageVersions).toEqual({ system: IMAGE_NOV });
  });

  it("a Full upgrade's moved pool takes the newest image at the upgrade's start, however old the image named for it", async () => {
    const { clock, sim } = setup(cluster("full"));
    await clock.sleepUntil(LATER);
    sim.startUpgradeNow({ name: "full" }, { type: "Full", kubernetesVersion: "1.32.0", nodeImageVersions: { system: IMAGE_OCT }, latestNodeImages: true });
    expect(sim.toState().clusters.full?.operations[0]?.request.nodeImageVersions).toEqual({ system: IMAGE_DEC });
  });

  it("without latestNodeImages the images named are applied as named (Consistent, Custom)", async () => {
    const { clock, sim } = setup(cluster("pinned"));
    await clock.sleepUntil(LATER);
    sim.startUpgradeNow({ name: "pinned" }, { type: "NodeImageOnly", nodeImageVersions: { system: IMAGE_NOV } });
    expect(sim.toState().clusters.pinned?.operations[0]?.request.nodeImageVersions).toEqual({ system: IMAGE_NOV });
  });
});
