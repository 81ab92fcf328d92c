/** Persisting the simulated fleet between runs: round trips, reset, and crash-safe writes. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  OPERATION_NOT_ALLOWED,
  StateFileError,
  loadSimulatedFleet,
  readFleetState,
  resetFleetState,
  saveSimulatedFleet,
} from "../../../src/backends/simulator";
import { VirtualClock } from "../../../src/engine/clock";
import { IMAGE_NOV, IMAGE_OCT, MINUTE, T0, backendError, cluster, controlPlaneOnly, full, makeFleet } from "./fixtures";

let dir: string;
let stateFile: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "simulated-fleet-"));
  stateFile = path.join(dir, "fleet-state.json");
});

afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A first run: start a Full upgrade of `a` at T0 (ends at T0 + 10 min) and leave. */
async function firstRun(fleet = makeFleet(cluster("a"))): Promise<void> {
  const sim = loadSimulatedFleet(fleet, new VirtualClock(T0), stateFile);
  await sim.startUpgrade({ name: "a" }, full("1.32.0", { system: IMAGE_NOV }));
}

describe("state file round trip", () => {
  it("applies and logs once an upgrade that ended between runs", async () => {
    await firstRun();
    const sim = loadSimulatedFleet(makeFleet(cluster("a")), new VirtualClock(T0 + 60 * MINUTE), stateFile);
    expect(await sim.getCluster({ name: "a" })).toMatchObject({ kubernetesVersion: "1.32.0", nodePools: [{ orchestratorVersion: "1.32.0", nodeImageVersion: IMAGE_NOV }] });
    expect(await sim.getOperation({ name: "a" }, "op-a-1")).toEqual({ status: "Succeeded", startedAt: T0, endedAt: T0 + 10 * MINUTE });
    const expectedLog = [{ operationId: "op-a-1", kind: "Full", startTime: "2026-12-05T00:00:00Z", endTime: "2026-12-05T00:10:00Z", result: "Succeeded" }];
    expect(sim.snapshot().clusters[0]?.operations).toEqual(expectedLog);

    // Settling was saved: a third run sees the same single, finished operation.
    const third = loadSimulatedFleet(makeFleet(cluster("a")), new VirtualClock(T0 + 120 * MINUTE), stateFile);
    expect(third.snapshot().clusters[0]?.operations).toEqual(expectedLog);
    expect(readFleetState(stateFile)?.clusters.a?.operations[0]?.result).toBe("Succeeded");
  });

  it("keeps an upgrade in flight when the next run starts before its end, refusing a second start", async () => {
    await firstRun();
    const clock = new VirtualClock(T0 + 5 * MINUTE);
    const sim = loadSimulatedFleet(makeFleet(cluster("a")), clock, stateFile);
    expect(await sim.getOperation({ name: "a" }, "op-a-1")).toEqual({ status: "InProgress", checkAgainAt: T0 + 10 * MINUTE });
    expect((await sim.getCluster({ name: "a" })).activeOperation).toEqual({ operationId: "op-a-1", expectedEndAt: T0 + 10 * MINUTE });
    expect((await backendError(sim.startUpgrade({ name: "a" }, controlPlaneOnly("1.32.0")))).code).toBe(OPERATION_NOT_ALLOWED);

    await clock.sleepUntil(T0 + 10 * MINUTE);
    expect((await sim.getCluster({ name: "a" })).kubernetesVersion).toBe("1.32.0");
  });

  it("continues operation numbers across runs", async () => {
    await firstRun();
    const sim = loadSimulatedFleet(makeFleet(cluster("a")), new VirtualClock(T0 + 10 * MINUTE), stateFile);
    expect((await sim.startUpgrade({ name: "a" }, full("1.32.0"))).operationId).toBe("op-a-2");
  });

  it("ends a restored upgrade the way it was set to end when it started", async () => {
    await firstRun(makeFleet(cluster("a", { simulation: { fail: { code: "Boom", message: "drain timed out" } } })));
    const sim = loadSimulatedFleet(makeFleet(cluster("a")), new VirtualClock(T0 + 10 * MINUTE), stateFile);
    expect(await sim.getOperation({ name: "a" }, "op-a-1")).toEqual({ status: "Failed", error: { code: "Boom", message: "drain timed out" }, startedAt: T0, endedAt: T0 + 10 * MINUTE });
    expect((await sim.getCluster({ name: "a" })).kubernetesVersion).toBe("1.31.2");
  });

  it("starts clusters the file does not know from the description, and takes region offers from the description", async () => {
    await firstRun();
    const fleet = makeFleet(cluster("a"), cluster("b"));
    fleet.regions.westeurope!.kubernetesVersions = [{ version: "1.32.0" }];
    const sim = loadSimulatedFleet(fleet, new VirtualClock(T0 + 60 * MINUTE), stateFile);
    expect(sim.snapshot().clusters.map((c) => [c.name, c.kubernetesVersion, c.operations.length])).toEqual([
      ["a", "1.32.0", 1],
      ["b", "1.31.2", 0],
    ]);
    expect((await sim.getRegionOffer("westeurope")).kubernetesVersions).toEqual([{ version: "1.32.0" }]);
  });

  it("drops clusters the description no longer has at the next save", async () => {
    await firstRun(makeFleet(cluster("a"), cluster("gone")));
    const sim = loadSimulatedFleet(makeFleet(cluster("a")), new VirtualClock(T0), stateFile, { autoSave: false });
    saveSimulatedFleet(sim, stateFile);
    expect(Object.keys(readFleetState(stateFile)?.clusters ?? {})).toEqual(["a"]);
  });

  it("writes only when asked when autoSave is off", async () => {
    const sim = loadSimulatedFleet(makeFleet(cluster("a")), new VirtualClock(T0), stateFile, { autoSave: false });
    await sim.startUpgrade({ name: "a" }, controlPlaneOnly("1.32.0"));
    expect(fs.existsSync(stateFile)).toBe(false);
    saveSimulatedFleet(sim, stateFile);
    expect(readFleetState(stateFile)?.clusters.a?.operations).toHaveLength(1);
  });

  it("does not write on calls that change nothing", async () => {
    const sim = loadSimulatedFleet(makeFleet(cluster("a")), new VirtualClock(T0), stateFile);
    await sim.getCluster({ name: "a" });
    await sim.getRegionOffer("westeurope");
    expect(fs.existsSync(stateFile)).toBe(false);
  });
});

describe("reset", () => {
  it("deletes the state file so the next run starts from the description", async () => {
    await firstRun();
    resetFleetState(stateFile);
    expect(fs.existsSync(stateFile)).toBe(false);
    const sim = loadSimulatedFleet(makeFleet(cluster("a")), new VirtualClock(T0 + 60 * MINUTE), stateFile);
    expect(sim.snapshot().clusters).toEqual([
      { name: "a", kubernetesVersion: "1.31.2", nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE_OCT }], operations: [] },
    ]);
  });

  it("is harmless when there is no state file", () => {
    expect(() => resetFleetState(stateFile)).not.toThrow();
  });
});

describe("crash safety", () => {
  it("writes through a temporary file and a rename, leaving no temporary file behind", async () => {
    const rename = vi.spyOn(fs, "renameSync");
    await firstRun();
    expect(rename).toHaveBeenCalledTimes(1);
    const [from, to] = rename.mock.calls[0] as [string, string];
    expect(to).toBe(stateFile);
    expect(path.dirname(from)).toBe(dir); // same directory, hence same file system: rename is atomic
    expect(fs.readdirSync(dir)).toEqual(["fleet-state.json"]);
  });

  it("keeps the previous file whole when a compaction dies before its rename", async () => {
    await firstRun();
    // A format-1 file (one JSON object): the first write replaces it with a snapshot (a compaction).
    fs.writeFileSync(stateFile, JSON.stringify(readFleetState(stateFile)));
    const before = fs.readFileSync(stateFile, "utf8");
    vi.spyOn(fs, "renameSync").mockImplementation(() => {
      throw new Error("power cut");
    });
    const sim = loadSimulatedFleet(makeFleet(cluster("a")), new VirtualClock(T0 + 60 * MINUTE), stateFile);
    await expect(sim.getCluster({ name: "a" })).rejects.toThrow("power cut");
    expect(fs.readFileSync(stateFile, "utf8")).toBe(before);
    expect(fs.readdirSync(dir)).toEqual(["fleet-state.json"]);
  });

  it("ignores a temporary file a crashed writer left", async () => {
    await firstRun();
    fs.writeFileSync(path.join(dir, ".fleet-state.json.999.tmp"), '{"format": 1, "clus');
    const sim = loadSimulatedFleet(makeFleet(cluster("a")), new VirtualClock(T0 + 5 * MINUTE), stateFile);
    expect((await sim.getCluster({ name: "a" })).activeOperation?.operationId).toBe("op-a-1");
  });

  it("refuses a torn or foreign state file with an error naming it", () => {
    const fleet = makeFleet(cluster("a"));
    fs.writeFileSync(stateFile, '{"format": 1, "clus');
    expect(() => loadSimulatedFleet(fleet, new VirtualClock(T0), stateFile)).toThrow(StateFileError);
    expect(() => loadSimulatedFleet(fleet, new VirtualClock(T0), stateFile)).toThrow(stateFile);
    fs.writeFileSync(stateFile, JSON.stringify({ format: 2, clusters: {} }));
    expect(() => loadSimulatedFleet(fleet, new VirtualClock(T0), stateFile)).toThrow(/format/);
  });
});
