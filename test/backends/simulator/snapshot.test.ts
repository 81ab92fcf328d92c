/** docs/rules.md §7 `clusters`: the snapshot is plain JSON, in declaration order, with absent keys omitted. */
import { describe, expect, it } from "vitest";
import { IMAGE_NOV, IMAGE_OCT, MINUTE, T0, cluster, controlPlaneOnly, full, setup } from "./fixtures";

/** Paths of every `undefined` value under `value` (JSON would drop them silently). */
function undefinedPaths(value: unknown, path = "$"): string[] {
  if (value === undefined) return [path];
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, child]) => undefinedPaths(child, `${path}.${key}`));
}

describe("snapshot", () => {
  it("lists clusters in declaration order with versions, pools and operation log", async () => {
    const { sim, clock } = setup(cluster("zeta"), cluster("alpha", { simulation: { upgradeMinutes: 30 } }));
    await sim.startUpgrade({ name: "zeta" }, full("1.32.0", { system: IMAGE_NOV }));
    await sim.startUpgrade({ name: "alpha" }, controlPlaneOnly("1.32.0"));
    await clock.sleepUntil(T0 + 15 * MINUTE);

    expect(sim.snapshot()).toStrictEqual({
      clusters: [
        {
          name: "zeta",
          kubernetesVersion: "1.32.0",
          nodePools: [{ name: "system", orchestratorVersion: "1.32.0", nodeImageVersion: IMAGE_NOV }],
          operations: [{ operationId: "op-zeta-1", kind: "Full", startTime: "2026-12-05T00:00:00Z", endTime: "2026-12-05T00:10:00Z", result: "Succeeded" }],
        },
        {
          name: "alpha",
          kubernetesVersion: "1.31.2",
          nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE_OCT }],
          // Still running: no endTime or result keys at all.
          operations: [{ operationId: "op-alpha-1", kind: "ControlPlaneOnly", startTime: "2026-12-05T00:00:00Z" }],
        },
      ],
    });
  });

  it("has no undefined values and survives a JSON round trip unchanged", async () => {
    const { sim, clock } = setup(cluster("a"), cluster("b", { simulation: { fail: { code: "Boom", message: "no" } } }));
    await sim.startUpgrade({ name: "a" }, controlPlaneOnly("1.32.0"));
    await sim.startUpgrade({ name: "b" }, controlPlaneOnly("1.32.0"));
    for (const instant of [T0, T0 + 10 * MINUTE]) {
      await clock.sleepUntil(instant);
      const snapshot = sim.snapshot();
      expect(undefinedPaths(snapshot)).toEqual([]);
      expect(JSON.parse(JSON.stringify(snapshot))).toStrictEqual(snapshot);
    }
  });
});
