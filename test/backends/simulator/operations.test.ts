/** Operations on a virtual clock: busy clusters, lifecycle, failures, ids, logs and region offers. */
import { describe, expect, it } from "vitest";
import { OPERATION_NOT_ALLOWED, SimulatedFleet } from "../../../src/backends/simulator";
import { VirtualClock } from "../../../src/engine/clock";
import { IMAGE_NOV, IMAGE_OCT, MINUTE, T0, backendError, cluster, controlPlaneOnly, expectRefused, full, makeFleet, nodeImageOnly, setup } from "./fixtures";

const twoPools = [
  { name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE_OCT },
  { name: "user", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE_OCT },
];

describe("a busy cluster", () => {
  it("refuses a second start while its own upgrade runs, and shows that upgrade as active", async () => {
    const { sim, clock } = setup(cluster("a"));
    const started = await sim.startUpgrade({ name: "a" }, controlPlaneOnly("1.32.0"));
    expect(started).toEqual({ operationId: "op-a-1", checkAgainAt: T0 + 10 * MINUTE, startedAt: T0 });
    expect((await sim.getCluster({ name: "a" })).activeOperation).toEqual({ operationId: "op-a-1", expectedEndAt: T0 + 10 * MINUTE });

    await clock.sleepUntil(T0 + 9 * MINUTE);
    const error = await backendError(sim.startUpgrade({ name: "a" }, nodeImageOnly({ system: IMAGE_NOV })));
    expect(error.code).toBe(OPERATION_NOT_ALLOWED);
    expect(error.message).toMatch(/^Operation is not allowed because there's an in progress upgrade operation \(op-a-1\) on managed cluster 'a'/);
    expect(sim.snapshot().clusters[0]?.operations).toHaveLength(1);

    await clock.sleepUntil(T0 + 10 * MINUTE);
    expect((await sim.getCluster({ name: "a" })).activeOperation).toBeUndefined();
    await expect(sim.startUpgrade({ name: "a" }, nodeImageOnly({ system: IMAGE_NOV }))).resolves.toEqual({ operationId: "op-a-2", checkAgainAt: T0 + 20 * MINUTE, startedAt: T0 + 10 * MINUTE });
  });

  it("shows an operation started elsewhere (busyUntil) and refuses starts until it has passed", async () => {
    const busyUntil = T0 + 30 * MINUTE;
    const { sim, clock } = setup(cluster("a", { simulation: { busyUntil: "2026-12-05T00:30:00Z" } }));
    expect((await sim.getCluster({ name: "a" })).activeOperation).toEqual({ expectedEndAt: busyUntil });
    const error = await expectRefused(sim, "a", controlPlaneOnly("1.32.0"), OPERATION_NOT_ALLOWED, "'a'", "outside the fleet", "2026-12-05T00:30:00Z");
    expect(error.message).toMatch(/^Operation is not allowed because there's an in progress operation/);

    await clock.sleepUntil(busyUntil - 1);
    expect((await sim.getCluster({ name: "a" })).activeOperation).toEqual({ expectedEndAt: busyUntil });
    await clock.sleepUntil(busyUntil);
    expect((await sim.getCluster({ name: "a" })).activeOperation).toBeUndefined();
    await expect(sim.startUpgrade({ name: "a" }, controlPlaneOnly("1.32.0"))).resolves.toEqual({ operationId: "op-a-1", checkAgainAt: busyUntil + 10 * MINUTE, startedAt: busyUntil });
  });
});

describe("operation lifecycle", () => {
  it("Full: in progress until its end, then control plane, every pool and the requested images move", async () => {
    const { sim, clock } = setup(cluster("a", { nodePools: twoPools }));
    const { operationId, checkAgainAt } = await sim.startUpgrade({ name: "a" }, full("1.32.0", { system: IMAGE_NOV }));
    const end = T0 + 10 * MINUTE;
    expect(checkAgainAt).toBe(end);

    await clock.sleepUntil(end - 1);
    expect(await sim.getOperation({ name: "a" }, operationId)).toEqual({ status: "InProgress", checkAgainAt: end });
    expect((await sim.getCluster({ name: "a" })).kubernetesVersion).toBe("1.31.2");

    await clock.sleepUntil(end);
    // Its own record's times (docs/rules.md §20).
    expect(await sim.getOperation({ name: "a" }, operationId)).toEqual({ status: "Succeeded", startedAt: T0, endedAt: end });
    expect(await sim.getCluster({ name: "a" })).toEqual({
      region: "westeurope",
      kubernetesVersion: "1.32.0",
      nodePools: [
        { name: "system", orchestratorVersion: "1.32.0", nodeImageVersion: IMAGE_NOV },
        { name: "user", orchestratorVersion: "1.32.0", nodeImageVersion: IMAGE_OCT },
      ],
      provisioningState: "Succeeded",
      powerState: "Running",
    });
  });

  it("ControlPlaneOnly moves the control plane and keeps the pools", async () => {
    const { sim, clock } = setup(cluster("a", { nodePools: twoPools }));
    await sim.startUpgrade({ name: "a" }, controlPlaneOnly("1.32.0"));
    await clock.sleepUntil(T0 + 10 * MINUTE);
    const after = await sim.getCluster({ name: "a" });
    expect(after.kubernetesVersion).toBe("1.32.0");
    expect(after.nodePools).toEqual(twoPools);
  });

  it("NodeImageOnly changes the requested images and keeps every version", async () => {
    const { sim, clock } = setup(cluster("a", { nodePools: twoPools }));
    await sim.startUpgrade({ name: "a" }, nodeImageOnly({ user: IMAGE_NOV }));
    await clock.sleepUntil(T0 + 10 * MINUTE);
    const after = await sim.getCluster({ name: "a" });
    expect(after.kubernetesVersion).toBe("1.31.2");
    expect(after.nodePools).toEqual([twoPools[0], { ...twoPools[1], nodeImageVersion: IMAGE_NOV }]);
  });

  it("takes simulation.upgradeMinutes of clock time", async () => {
    const { sim } = setup(cluster("a", { simulation: { upgradeMinutes: 25 } }));
    expect((await sim.startUpgrade({ name: "a" }, controlPlaneOnly("1.32.0"))).checkAgainAt).toBe(T0 + 25 * MINUTE);
  });

  it("settles an ended operation on whatever call comes first, with the end instant as its end time", async () => {
    const { sim, clock } = setup(cluster("a"));
    await sim.startUpgrade({ name: "a" }, controlPlaneOnly("1.32.0"));
    await clock.sleepUntil(T0 + 3 * 60 * MINUTE);
    await sim.getRegionOffer("westeurope");
    expect(sim.operationLog()).toEqual([
      { member: "a", operationId: "op-a-1", kind: "ControlPlaneOnly", startTime: "2026-12-05T00:00:00Z", endTime: "2026-12-05T00:10:00Z", result: "Succeeded" },
    ]);
  });

  it("keeps what the caller passed from changing the fleet afterwards", async () => {
    const { sim, clock } = setup(cluster("a"));
    const request = full("1.32.0", { system: IMAGE_NOV });
    await sim.startUpgrade({ name: "a" }, request);
    request.nodeImageVersions.system = IMAGE_OCT;
    const info = await sim.getCluster({ name: "a" });
    // A read is shared by every reader until the cluster changes, so it cannot be written to.
    expect(() => {
      info.nodePools[0]!.orchestratorVersion = "9.9.9";
    }).toThrow(TypeError);
    await clock.sleepUntil(T0 + 10 * MINUTE);
    expect((await sim.getCluster({ name: "a" })).nodePools).toEqual([{ name: "system", orchestratorVersion: "1.32.0", nodeImageVersion: IMAGE_NOV }]);
  });
});

describe("failing upgrades", () => {
  it("end Failed with the configured error and change nothing", async () => {
    const { sim, clock } = setup(cluster("a", { simulation: { upgradeMinutes: 20, fail: { code: "UpgradeFailed", message: "drain timed out" } } }));
    const before = await sim.getCluster({ name: "a" });
    const { operationId } = await sim.startUpgrade({ name: "a" }, full("1.32.0", { system: IMAGE_NOV }));
    await clock.sleepUntil(T0 + 20 * MINUTE - 1);
    expect((await sim.getOperation({ name: "a" }, operationId)).status).toBe("InProgress");
    await clock.sleepUntil(T0 + 20 * MINUTE);
    expect(await sim.getOperation({ name: "a" }, operationId)).toEqual({ status: "Failed", error: { code: "UpgradeFailed", message: "drain timed out" }, startedAt: T0, endedAt: T0 + 20 * MINUTE });
    expect(await sim.getCluster({ name: "a" })).toEqual(before);
    expect(sim.snapshot().clusters[0]?.operations).toEqual([
      { operationId: "op-a-1", kind: "Full", startTime: "2026-12-05T00:00:00Z", endTime: "2026-12-05T00:20:00Z", result: "Failed" },
    ]);
  });

  it("use the schema's default code and message when fail is empty", async () => {
    const { sim, clock } = setup(cluster("a", { simulation: { fail: {} } }));
    const { operationId } = await sim.startUpgrade({ name: "a" }, controlPlaneOnly("1.32.0"));
    await clock.sleepUntil(T0 + 10 * MINUTE);
    expect(await sim.getOperation({ name: "a" }, operationId)).toEqual({ status: "Failed", error: { code: "UpgradeFailed", message: "the upgrade failed" }, startedAt: T0, endedAt: T0 + 10 * MINUTE });
  });
});

describe("operation ids and logs", () => {
  async function scriptedRun(): Promise<string> {
    const clock = new VirtualClock(T0);
    const sim = new SimulatedFleet(makeFleet(cluster("a"), cluster("b")), clock);
    await sim.startUpgrade({ name: "b" }, controlPlaneOnly("1.32.0"));
    await sim.startUpgrade({ name: "a" }, nodeImageOnly({ system: IMAGE_NOV }));
    await clock.sleepUntil(T0 + 10 * MINUTE);
    await sim.startUpgrade({ name: "a" }, controlPlaneOnly("1.32.0"));
    await clock.sleepUntil(T0 + 20 * MINUTE);
    return JSON.stringify({ snapshot: sim.snapshot(), log: sim.operationLog() });
  }

  it("are deterministic: op-<member>-<n>, byte-identical across runs", async () => {
    const first = await scriptedRun();
    expect(await scriptedRun()).toBe(first);
    const ids = (JSON.parse(first) as { log: { operationId: string }[] }).log.map((entry) => entry.operationId);
    // By start time; b and a started at the same instant, so declaration order (a first) breaks the tie.
    expect(ids).toEqual(["op-a-1", "op-b-1", "op-a-2"]);
  });

  it("record every startUpgrade call, refused ones included", async () => {
    const { sim } = setup(cluster("a"));
    await sim.startUpgrade({ name: "a" }, controlPlaneOnly("1.32.0"));
    await backendError(sim.startUpgrade({ name: "a" }, controlPlaneOnly("1.32.0")));
    await backendError(sim.startUpgrade({ name: "ghost" }, controlPlaneOnly("1.32.0")));
    const calls = sim.startUpgradeCalls();
    expect(calls.map((call) => [call.member, call.at, call.outcome])).toEqual([
      ["a", T0, { operationId: "op-a-1" }],
      ["a", T0, { error: expect.objectContaining({ code: OPERATION_NOT_ALLOWED }) }],
      ["ghost", T0, { error: expect.objectContaining({ code: "NotFound" }) }],
    ]);
    expect(calls[0]?.request).toEqual(controlPlaneOnly("1.32.0"));
  });
});

describe("region offers", () => {
  it("give availableAt as epoch ms, and leave it out when the description does", async () => {
    const { sim } = setup(cluster("a"));
    const offer = await sim.getRegionOffer("westeurope");
    expect(offer.kubernetesVersions.map((v) => v.version)).toEqual(["1.30.5", "1.31.2", "1.32.0", "1.33.1"]);
    expect(offer.kubernetesVersions[0]).toStrictEqual({ version: "1.30.5" });
    expect(offer.kubernetesVersions[3]).toStrictEqual({ version: "1.33.1", availableAt: Date.parse("2026-12-06T00:00:00Z") });
    expect(offer.nodeImages[2]).toStrictEqual({ version: "AKSUbuntu-2204gen2containerd-202612.10.0", availableAt: Date.parse("2026-12-06T00:00:00Z") });
    expect(await sim.getRegionOffer("eastus")).toStrictEqual({ kubernetesVersions: [{ version: "1.32.0" }], nodeImages: [{ version: IMAGE_NOV }] });
  });

  it("read an availableAt with a zone offset as the instant it names", async () => {
    const fleet = makeFleet(cluster("a"));
    fleet.regions.westeurope!.kubernetesVersions.push({ version: "1.34.0", availableAt: "2026-12-06T02:00:00+02:00" });
    const sim = new SimulatedFleet(fleet, new VirtualClock(T0));
    expect((await sim.getRegionOffer("westeurope")).kubernetesVersions.at(-1)).toEqual({ version: "1.34.0", availableAt: Date.parse("2026-12-06T00:00:00Z") });
  });
});
