/**
 * Issue 11: one driver per run, and no driver outliving its `pulumi`.
 * - The journal's lease (`<journal>.lease`): a live holder makes a second driver fail at once naming
 *   it; a holder whose process is gone, or whose heartbeat is stale, is taken over.
 * - The provider host exits when its engine goes away (here: the harness's fake engine shut down, as
 *   when `pulumi` is SIGKILLed), journaling the run and releasing the lease; the next create resumes.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startArmEmulator, type ArmEmulator } from "../../../src/emulator";
import type { RunSummary } from "../../../src/engine/summary";
import { parseOrThrow } from "../../../src/model/issues";
import { FleetSchema } from "../../../src/model/fleet";
import { UpdateRun } from "../../../src/pulumi";
import { RunJournal } from "../../../src/drivers/engine/journal";
import { readHolder, STALE_AFTER_MS, type LeaseHolder } from "../../../src/runtime/fileLease";
import { acquireJournalLease, leaseFileOf, RunInUseError } from "../../../src/drivers/engine/journalLease";
import { captureDynamicInputs } from "../support/captureInputs";
import { ProviderCallError, startProviderHost, type PropertyMap, type ProviderHost } from "../support/providerHost";
import { fleetYaml } from "../support/fleetYaml";
import { readFleetState } from "../../../src/backends/simulator/stateFile";

let provider = "";
const hosts: ProviderHost[] = [];

async function newHost(): Promise<ProviderHost> {
  const host = await startProviderHost();
  hosts.push(host);
  await host.configure();
  return host;
}

beforeAll(async () => {
  const [captured] = await captureDynamicInputs(() => {
    new UpdateRun("r", { backend: { simulator: { fleetFile: "fleet.yaml" } }, members: [{ name: "a" }], managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } } });
  });
  provider = captured!.provider;
}, 60_000);

afterAll(async () => {
  await Promise.all(hosts.map((h) => h.stop()));
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(20);
  }
}

describe("the journal lease", () => {
  const journal = () => new RunJournal(path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lease-")), "runs", "r.json"));
  const write = (j: RunJournal, holder: LeaseHolder) => {
    fs.mkdirSync(path.dirname(j.file), { recursive: true });
    fs.writeFileSync(leaseFileOf(j.file), JSON.stringify(holder));
  };
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
  // A live process that is not this one, and one that is gone.
  const livePid = process.ppid;
  const deadPid = spawnSync(process.execPath, ["-e", ""]).pid!;

  it("a live holder refuses a second driver at once, naming it", () => {
    const j = journal();
    write(j, { pid: livePid, host: os.hostname(), run: "r", since: ago(5_000), heartbeat: ago(1_000) });
    expect(() => acquireJournalLease(j, "r")).toThrow(RunInUseError);
    expect(() => acquireJournalLease(j, "r")).toThrow(new RegExp(`run 'r' is being driven by process ${livePid} on host ${os.hostname()} since `));
    // Another host sharing the folder, beating: refused too.
    write(j, { pid: 1, host: "other-host", run: "r", since: ago(5_000), heartbeat: ago(1_000) });
    expect(() => acquireJournalLease(j, "r")).toThrow(/process 1 on host other-host/);
  });

  it("a dead holder is taken over: process gone, or heartbeat stale (here or on another host)", () => {
    for (const holder of [
      { pid: deadPid, host: os.hostname(), run: "r", since: ago(5_000), heartbeat: ago(1_000) },
      { pid: deadPid, run: "r", since: ago(5_000) }, // a lock from before hosts and heartbeats
      { pid: livePid, host: os.hostname(), run: "r", since: ago(600_000), heartbeat: ago(STALE_AFTER_MS + 1_000) },
      { pid: 1, host: "other-host", run: "r", since: ago(600_000), heartbeat: ago(STALE_AFTER_MS + 1_000) },
    ]) {
      const j = journal();
      write(j, holder);
      const release = acquireJournalLease(j, "r");
      expect(readHolder(leaseFileOf(j.file))).toMatchObject({ pid: process.pid, host: os.hostname(), run: "r" });
      release();
      expect(fs.existsSync(leaseFileOf(j.file))).toBe(false);
    }
  });
});

describe("two drivers of one run (Azure backend, ARM emulator)", () => {
  const SUBSCRIPTION = "11111111-2222-3333-4444-555555555555";
  const NAMES = ["aks-a", "aks-b"];
  const idOf = (name: string) => `/subscriptions/${SUBSCRIPTION}/resourceGroups/fleet-rg/providers/Microsoft.ContainerService/managedClusters/${name}`;
  let emulator: ArmEmulator;
  let project = "";

  beforeAll(async () => {
    const pool = { name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: "AKSUbuntu-2204gen2containerd-202610.01.0" };
    const fleet = parseOrThrow(FleetSchema, {
      regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: "AKSUbuntu-2204gen2containerd-202611.24.0" }] } },
      members: NAMES.map((name) => ({ name, region: "westeurope", kubernetesVersion: "1.31.2", nodePools: [pool], simulation: { upgradeMinutes: 10 } })),
    });
    // 10 simulated minutes per upgrade = 3 s real.
    emulator = await startArmEmulator({ fleet, msPerSimulatedMinute: 300, subscriptionId: SUBSCRIPTION, resourceGroup: "fleet-rg" });
    project = fs.mkdtempSync(path.join(os.tmpdir(), "two-drivers-"));
    fs.writeFileSync(path.join(project, "ca.pem"), emulator.certificatePem);
  }, 60_000);

  afterAll(async () => {
    await emulator?.close();
  });

  const inputs = (): PropertyMap =>
    ({
      __provider: provider,
      runName: "two-drivers",
      projectDir: project,
      backend: { azure: { endpoint: emulator.url, trustedCaFile: "ca.pem", credential: "emulator", pollIntervalSeconds: { initial: 0.05, steady: 0.05 } } },
      members: NAMES.map((name) => ({ name, clusterResourceId: idOf(name) })),
      managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
      timeoutMinutes: 2,
    }) as PropertyMap;

  it("a second driver is refused while the first lives, and takes over once it died; each cluster upgraded once", async () => {
    // Both hosts are up before the first drives: a host's start-up (seconds on a loaded machine) is
    // not spent inside the first run's few seconds.
    const first = await newHost();
    const second = await newHost();
    const driving = first.create("two-drivers", inputs()).catch((e: unknown) => e);
    const lease = path.join(project, ".fleet-update", "runs", "two-drivers.json.lease");
    await until(() => emulator.fleet.operationLog().length >= 1);
    expect(readHolder(lease)).toMatchObject({ pid: first.pid, host: os.hostname(), run: "two-drivers" });

    const refused = (await second.create("two-drivers", inputs()).catch((e: unknown) => e)) as ProviderCallError;
    expect(refused).toBeInstanceOf(ProviderCallError);
    expect(refused.message).toMatch(new RegExp(`run 'two-drivers' is being driven by process ${first.pid} on host `));
    // Fails fast, not after waiting the holder out: the first driver still holds the lease.
    expect(readHolder(lease)).toMatchObject({ pid: first.pid });

    // The first driver is gone hard (its lease stays behind, naming a dead process).
    await first.kill("SIGKILL");
    expect(readHolder(lease)?.pid).toBe(first.pid);
    expect(await driving).toBeInstanceOf(ProviderCallError);
    const { properties } = await second.create("two-drivers", inputs());
    expect(properties.summary as unknown as RunSummary).toMatchObject({ state: "Completed", members: { Completed: 2 } });
    expect(emulator.fleet.operationLog().map((op) => op.member).sort()).toEqual(NAMES);
    // Released when the call returns, though the host lives on (the engine kills it without an exit hook).
    expect(fs.existsSync(lease)).toBe(false);
  }, 120_000);
});

describe("the host exits when its engine goes away", () => {
  const FLEET = fleetYaml(["a", "b", "c"], "{upgradeMinutes: 60}");

  it("mid-run: it stops, journals the run, releases the lease and exits; the next create resumes it, each cluster upgraded once", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engine-gone-"));
    fs.writeFileSync(path.join(dir, "fleet.yaml"), FLEET);
    // One by one, 60 simulated minutes each at 1200× = 3 s per member.
    const runInputs = { __provider: provider, runName: "orphan", projectDir: dir, backend: { simulator: { fleetFile: "fleet.yaml", timeScale: 1200 } }, members: [{ name: "a" }, { name: "b" }, { name: "c" }], managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } } };
    const operations = () => {
      const state = readFleetState(path.join(dir, "fleet.yaml.state.json")) as { clusters: Record<string, { operations: Array<{ result?: string }> }> };
      return Object.fromEntries(Object.entries(state.clusters).map(([name, c]) => [name, c.operations.map((o) => o.result)]));
    };
    const journal = path.join(dir, "fleet.yaml.state.runs", "orphan.json");

    const host = await newHost();
    const driving = host.create("orphan", runInputs).catch((e: unknown) => e);
    await until(() => fs.existsSync(journal) && fs.existsSync(path.join(dir, "fleet.yaml.state.json")) && Object.values(operations()).flat().length >= 1);
    host.closeEngine();
    const goneAt = Date.now();
    const exit = await Promise.race([host.exited, sleep(20_000).then(() => "still running" as const)]);
    expect(exit).not.toBe("still running");
    const exitedAfterMs = Date.now() - goneAt;
    expect(await driving).toBeInstanceOf(ProviderCallError);
    await host.waitForLog(/\[orphan\] the Pulumi engine at .* is gone/);
    // The journal is whole, the leases are released, and nothing was started after the engine went.
    const entry = new RunJournal(journal).read() as { runId: string; engineState: { state: string } };
    expect(entry.runId).toMatch(/^orphan-/);
    expect(fs.existsSync(`${journal}.lease`)).toBe(false);
    expect(fs.existsSync(path.join(dir, "fleet.yaml.state.json.lock"))).toBe(false);
    const startedBeforeExit = Object.values(operations()).flat().length;
    await sleep(3_500); // an orphan would have started the next member by now
    expect(Object.values(operations()).flat().length).toBe(startedBeforeExit);

    const next = await newHost();
    const { id, properties } = await next.create("orphan", runInputs);
    expect(id).toBe(entry.runId);
    expect(fs.existsSync(`${journal}.lease`)).toBe(false);
    expect(properties.summary as unknown as RunSummary).toMatchObject({ state: "Completed", members: { total: 3, Completed: 3 } });
    for (const [name, results] of Object.entries(operations())) expect(results, `${name} (host exited ${exitedAfterMs} ms after its engine)`).toEqual(["Succeeded"]);
  }, 120_000);
});
