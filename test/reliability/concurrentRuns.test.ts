/**
 * Issue 7: two runs over overlapping members at the same time never upgrade one cluster twice. Where
 * the lease lives (docs/behaviour.md "Two runs at once"):
 * - simulated fleet: `<state file>.lock`, one process at a time — the second `fleet-update run` fails
 *   at once naming the holder and touches nothing; once the first is done it runs, finding the shared
 *   clusters at target;
 * - Azure: ARM's own (one operation per cluster, 409 otherwise) plus the engine's re-read before every
 *   step — two engines racing on one ARM endpoint upgrade each cluster once between them.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AzureBackend } from "../../src/backends/azure/azureBackend";
import { emulatorCredential } from "../../src/backends/azure/credentials";
import { startArmEmulator } from "../../src/emulator";
import { drive } from "../../src/engine/drive";
import { UpdateRunEngine } from "../../src/engine/engine";
import { parseOrThrow } from "../../src/model/issues";
import { FleetSchema } from "../../src/model/fleet";
import { readFleetState } from "../../src/backends/simulator/stateFile";

const CLI = path.resolve(__dirname, "../../dist/cli/main.js");
const IMAGE = "AKSUbuntu-2204gen2containerd-202610.01.0";
const NAMES = ["a", "b", "c", "d"];

function fleetYaml(): string {
  const member = (name: string) => `  - {name: ${name}, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: ${IMAGE}}]}`;
  return `regions:\n  westeurope:\n    kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}]\n    nodeImages: [{version: ${IMAGE}}]\nmembers:\n${NAMES.map(member).join("\n")}\n`;
}

const spec = (members: string[]) => `members: [${members.map((m) => `{name: ${m}}`).join(", ")}]\nmanagedClusterUpdate: {upgrade: {type: ControlPlaneOnly, kubernetesVersion: 1.32.0}}\n`;

function run(dir: string, specFile: string): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, "run", specFile, "--backend", "simulator:fleet.yaml", "--time-scale", "600", "--progress", "lines", "--json"], { cwd: dir });
    let stderr = "";
    let stdout = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.on("exit", (code) => resolve({ code, stderr, stdout }));
  });
}

function operations(dir: string): Record<string, Array<{ result?: string }>> {
  const state = readFleetState(path.join(dir, "fleet.yaml.state.json")) as { clusters: Record<string, { operations: Array<{ result?: string }> }> };
  return Object.fromEntries(Object.entries(state.clusters).map(([name, c]) => [name, c.operations]));
}

describe("simulated fleet: one process at a time", () => {
  it("two `fleet-update run`s at once: one runs, the other fails naming it and touches nothing; run again, it finishes; each cluster upgraded once", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "concurrent-"));
    fs.writeFileSync(path.join(dir, "fleet.yaml"), fleetYaml());
    fs.writeFileSync(path.join(dir, "first.yaml"), spec(["a", "b", "c"]));
    fs.writeFileSync(path.join(dir, "second.yaml"), spec(["b", "c", "d"]));

    const [first, second] = await Promise.all([run(dir, "first.yaml"), run(dir, "second.yaml")]);
    const refused = [first, second].filter((r) => r.code !== 0);
    const ran = [first, second].filter((r) => r.code === 0);
    expect(ran).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.code).toBe(2);
    expect(refused[0]!.stderr).toMatch(/the simulated fleet .*fleet\.yaml\.state\.json is in use by run '(first|second)' \(process \d+\) since /);
    const refusedName = first.code === 0 ? "second" : "first";
    // The refused run left no journal: nothing of it exists.
    expect(fs.existsSync(path.join(dir, "fleet.yaml.state.runs", `${refusedName}.json`))).toBe(false);
    // The lock is gone with its process.
    expect(fs.existsSync(path.join(dir, "fleet.yaml.state.json.lock"))).toBe(false);

    const again = await run(dir, `${refusedName}.yaml`);
    expect(again.code).toBe(0);
    const result = JSON.parse(again.stdout) as { status: { stages: Array<{ groups: Array<{ members: Array<{ name: string; status: { state: string } }> }> }> } };
    const states = Object.fromEntries(result.status.stages[0]!.groups[0]!.members.map((m) => [m.name, m.status.state]));
    // The clusters the first run upgraded are at target now: Skipped, not upgraded again.
    expect(states.b).toBe("Skipped");
    expect(states.c).toBe("Skipped");
    for (const [name, ops] of Object.entries(operations(dir))) expect(ops.map((o) => o.result), name).toEqual(["Succeeded"]);
  }, 120_000);

  it("a lock left by a process that is gone (SIGKILL) is taken over", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stale-lock-"));
    fs.writeFileSync(path.join(dir, "fleet.yaml"), fleetYaml());
    fs.writeFileSync(path.join(dir, "all.yaml"), spec(NAMES));
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    fs.writeFileSync(path.join(dir, "fleet.yaml.state.json.lock"), JSON.stringify({ pid: Number(gone.stdout), run: "ghost", since: "2026-12-01T00:00:00Z" }));
    const result = spawnSync(process.execPath, [CLI, "run", "all.yaml", "--backend", "simulator:fleet.yaml", "--time-scale", "600", "--progress", "lines"], { cwd: dir, encoding: "utf8" });
    expect(result.status).toBe(0);
    expect(fs.existsSync(path.join(dir, "fleet.yaml.state.json.lock"))).toBe(false);
  }, 60_000);
});

describe("Azure: ARM's own one-operation-per-cluster", () => {
  it("two engines racing over overlapping members on one ARM endpoint upgrade each cluster once between them", async () => {
    const SUB = "12345678-2222-3333-4444-555555555555";
    const fleet = parseOrThrow(FleetSchema, {
      regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: IMAGE }] } },
      members: NAMES.map((name) => ({ name, region: "westeurope", kubernetesVersion: "1.31.2", nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE }] })),
    });
    const emulator = await startArmEmulator({ fleet, msPerSimulatedMinute: 20, throttling: false, subscriptionId: SUB, resourceGroup: "rg" });
    try {
      const id = (name: string) => `/subscriptions/${SUB}/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/${name}`;
      const engineOver = (name: string, members: string[]) => {
        const backend = new AzureBackend({ credential: emulatorCredential, clock: emulator.clock, endpoint: emulator.url, trustedCaPem: emulator.certificatePem, initialPollMs: 10_000, steadyPollMs: 10_000 });
        // Both runs let every member go at once, so they really race for the shared clusters.
        const engine = UpdateRunEngine.create(
          {
            name,
            members: members.map((m) => ({ name: m, group: "all", clusterResourceId: id(m) })),
            strategy: { stages: [{ name: "all", groups: [{ name: "all", maxConcurrency: "100%" }] }] },
            managedClusterUpdate: { upgrade: { type: "ControlPlaneOnly", kubernetesVersion: "1.32.0" } },
          },
          backend,
          // As the real sessions do: ARM does not say when another's operation will end, so look again.
          { pollIntervalMs: 10_000, recheckUnknownAfterMs: 60_000 },
        );
        engine.start(emulator.clock.now());
        return engine;
      };
      const first = engineOver("first", ["a", "b", "c"]);
      const second = engineOver("second", ["b", "c", "d"]);
      await Promise.all([drive(first, emulator.clock), drive(second, emulator.clock)]);

      for (const engine of [first, second]) expect(["Completed"]).toContain(engine.state);
      for (const cluster of emulator.fleet.snapshot().clusters) {
        expect(cluster.operations.map((o) => o.result), cluster.name).toEqual(["Succeeded"]);
        expect(cluster.kubernetesVersion).toBe("1.32.0");
      }
      // Each shared cluster was upgraded by exactly one run; the other saw it busy or at target.
      const statesOf = (engine: UpdateRunEngine) => Object.fromEntries(engine.status().stages[0]!.groups[0]!.members.map((m) => [m.name, m.status.state]));
      // Each shared cluster: one run's upgrade (its operation id is the cluster's one operation); the
      // other run found it at target (Skipped) or found that very upgrade under way and followed it.
      for (const shared of ["b", "c"]) {
        const states = [statesOf(first)[shared], statesOf(second)[shared]];
        expect(states.every((s) => s === "Completed" || s === "Skipped"), `${shared}: ${states.join(", ")}`).toBe(true);
        const opIds = [first, second].map((e) => e.status().stages[0]!.groups[0]!.members.find((m) => m.name === shared)?.operationId);
        expect(opIds).toContain(emulator.fleet.snapshot().clusters.find((c) => c.name === shared)!.operations[0]!.operationId);
      }
    } finally {
      await emulator.close();
    }
  }, 120_000);
});
