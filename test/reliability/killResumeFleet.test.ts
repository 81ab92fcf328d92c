/**
 * Issue 12: a 30-member run on Fleet Manager (the ARM emulator's, which runs it server-side) driven
 * through `@pulumi/pulumi`'s dynamic-provider host and through `fleet-update run`, the client SIGKILLed
 * at seeded random points. The run goes on server-side meanwhile; every next create (Pulumi never saw
 * the result) or command attaches to the same fleet run — never a second one — and the last one reports
 * the run truthfully: every member Completed, each cluster upgraded exactly once.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startArmEmulator, type ArmEmulator } from "../../src/emulator";
import { seededRandom } from "../../src/emulator/core/faults";
import { parseOrThrow } from "../../src/model/issues";
import { FleetSchema } from "../../src/model/fleet";
import type { UpdateRunStatus } from "../../src/model/status";
import type { RunSummary } from "../../src/engine/summary";
import { UpdateRun } from "../../src/pulumi";
import { captureDynamicInputs } from "../pulumi/support/captureInputs";
import { ProviderCallError, PROJECT_ROOT, startProviderHost, type PropertyMap } from "../pulumi/support/providerHost";

const SEED = 20261203;
const HOST_KILLS = 6;
const CLI_KILLS = 3;
const SUBSCRIPTION = "99999999-2222-3333-4444-666666666666";
const POOL = { name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: "AKSUbuntu-2204gen2containerd-202610.01.0" };
const NAMES = Array.from({ length: 30 }, (_, i) => `aks-${String(i).padStart(2, "0")}`);
const GROUPS = ["eu", "us", "asia"];
const RUN_NAME = "kill-fleet";
const FLEET_ID = `/subscriptions/${SUBSCRIPTION}/resourceGroups/fleet-rg/providers/Microsoft.ContainerService/fleets/fleet`;

let emulator: ArmEmulator;
let provider = "";
let caFile = "";
let specFile = "";

function backend(): PropertyMap {
  return { azureFleet: { fleetId: FLEET_ID, endpoint: emulator.url, trustedCaFile: caFile, credential: "emulator", pollIntervalSeconds: 0.05 } };
}

const STRATEGY = { stages: [{ name: "canary", groups: [{ name: "canary" }] }, { name: "prod", groups: GROUPS.map((name) => ({ name })) }] };
const UPDATE = { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } };

function inputs(): PropertyMap {
  return { __provider: provider, runName: RUN_NAME, backend: backend(), members: [], strategy: STRATEGY, managedClusterUpdate: UPDATE, timeoutMinutes: 5 } as PropertyMap;
}

const started = () => emulator.fleet.snapshot().clusters.filter((c) => c.operations.length > 0).length;
const runsInFleet = () => emulator.requests.filter((r) => r.method === "PUT" && r.path.endsWith(`/updateRuns/${RUN_NAME}`) && r.status >= 200 && r.status < 300).length;

async function untilStarted(target: number, extraMs: number): Promise<"timer"> {
  while (started() < target) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, extraMs));
  return "timer";
}

beforeAll(async () => {
  const fleet = parseOrThrow(FleetSchema, {
    regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: "AKSUbuntu-2204gen2containerd-202611.24.0" }] } },
    members: NAMES.map((name, i) => ({ name, group: i < 2 ? "canary" : GROUPS[(i - 2) % GROUPS.length], region: "westeurope", kubernetesVersion: "1.31.2", nodePools: [POOL] })),
  });
  // 10-minute upgrades take 2 s: 2 canaries, then about 10 upgrades one after another per group (~25 s).
  emulator = await startArmEmulator({ fleet, msPerSimulatedMinute: 200, throttling: false, subscriptionId: SUBSCRIPTION, resourceGroup: "fleet-rg" });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kill-fleet-"));
  caFile = path.join(dir, "ca.pem");
  fs.writeFileSync(caFile, emulator.certificatePem);
  specFile = path.join(dir, `${RUN_NAME}.yaml`);
  fs.writeFileSync(specFile, JSON.stringify({ members: [], strategy: STRATEGY, managedClusterUpdate: UPDATE }));
  const [captured] = await captureDynamicInputs(() => {
    new UpdateRun("run", { backend: { azureFleet: { fleetId: FLEET_ID } }, members: [], managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } } });
  });
  provider = captured!.provider;
}, 60_000);

afterAll(async () => {
  await emulator?.close();
});

it(`SIGKILL the provider host ${HOST_KILLS} times and fleet-update run ${CLI_KILLS} times: one fleet run, each cluster upgraded once, all Completed`, async () => {
  const random = seededRandom(SEED);
  const kills: string[] = [];
  let step = 0;
  const total = HOST_KILLS + CLI_KILLS;
  const nextTarget = () => {
    step += 1;
    return Math.max(1, Math.min(24, Math.round((step * 24) / total) + Math.floor(random() * 3) - 1));
  };

  const cli = path.join(PROJECT_ROOT, "dist", "cli", "main.js");
  // Every third kill is of `fleet-update run`, the others of the provider host, interleaved.
  for (let i = 0; i < total; i++) {
    if (i % 3 === 2) {
      const child = spawn(process.execPath, [cli, "run", specFile, "--backend", `azure-fleet:${FLEET_ID}`, "--endpoint", emulator.url, "--ca-file", caFile, "--credential", "emulator", "--poll-seconds", "0.05", "--progress", "lines"], { stdio: "ignore" });
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      const outcome = await Promise.race([exited.then(() => "completed" as const), untilStarted(nextTarget(), Math.floor(random() * 200))]);
      if (outcome !== "completed") {
        child.kill("SIGKILL");
        await exited;
        kills.push(`cli@${started()}`);
      }
    } else {
      const doomed = await startProviderHost();
      await doomed.configure();
      const attempt = doomed.create(RUN_NAME, inputs()).then(() => "completed" as const, (e: unknown) => e);
      const outcome = await Promise.race([attempt, untilStarted(nextTarget(), Math.floor(random() * 200))]);
      if (outcome !== "completed") {
        await doomed.kill("SIGKILL");
        expect(await attempt).toBeInstanceOf(ProviderCallError);
        kills.push(`host@${started()}`);
      }
      await doomed.stop().catch(() => undefined);
    }
    expect(runsInFleet()).toBe(1);
  }
  expect(kills.length).toBeGreaterThan(total / 2);

  const host = await startProviderHost();
  await host.configure();
  const { properties } = await host.create(RUN_NAME, inputs());
  await host.stop();

  const summary = properties.summary as unknown as RunSummary;
  const status = properties.status as unknown as UpdateRunStatus;
  expect(summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 30, Completed: 30 } });
  expect(status.stages.flatMap((s) => s.groups.flatMap((g) => g.members)).filter((m) => m.status.state !== "Completed")).toEqual([]);
  expect(runsInFleet()).toBe(1);
  for (const cluster of emulator.fleet.snapshot().clusters) {
    expect(cluster.operations.map((o) => `${o.kind} ${o.result}`), cluster.name).toEqual(["Full Succeeded"]);
    expect(cluster.kubernetesVersion).toBe("1.32.0");
  }
  console.info(`[kill-resume fleet] killed at ${kills.join(", ")} (clusters started)`);
}, 240_000);
