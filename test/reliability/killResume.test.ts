/**
 * Issue 7: a 50-member run through `@pulumi/pulumi`'s dynamic-provider host with the Azure backend
 * against the ARM emulator, the host SIGKILLed at 20 seeded random points mid-create. After each kill
 * the next `pulumi up` creates again (Pulumi never saw the result) and resumes from the run journal.
 * At the end: every cluster upgraded exactly once (the emulator's operation log), never two operations
 * on one cluster at once, and every member reported Completed — those an interrupted attempt upgraded
 * too, since the journal's write-ahead intent is the evidence (docs/behaviour.md "Evidence after an
 * interruption").
 */
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
import { ProviderCallError, startProviderHost, type PropertyMap } from "../pulumi/support/providerHost";

const SEED = 20261202;
const KILLS = 20;
const SUBSCRIPTION = "99999999-2222-3333-4444-555555555555";
const POOL = { name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: "AKSUbuntu-2204gen2containerd-202610.01.0" };
const NAMES = Array.from({ length: 50 }, (_, i) => `aks-${String(i).padStart(2, "0")}`);
const RUN_NAME = `kill-resume-${process.pid}`;
const idOf = (name: string) => `/subscriptions/${SUBSCRIPTION}/resourceGroups/fleet-rg/providers/Microsoft.ContainerService/managedClusters/${name}`;

let emulator: ArmEmulator;
let provider = "";
let caFile = "";
let workDir = "";
/** The current attempt's kill trigger, told of each request the emulator answers. */
let onRequest: (() => void) | undefined;
const started = () => emulator.fleet.snapshot().clusters.filter((c) => c.operations.length > 0).length;


function inputs(): PropertyMap {
  // Two canaries, then 48 members in four groups of 12, two at a time per group.
  const prodGroups = ["eu", "us", "asia", "au"];
  return {
    __provider: provider,
    runName: RUN_NAME,
    backend: { azure: { endpoint: emulator.url, trustedCaFile: caFile, credential: "emulator", pollIntervalSeconds: { initial: 0.05, steady: 0.05 } } },
    members: NAMES.map((name, i) => ({ name, group: i < 2 ? "canary" : prodGroups[(i - 2) % 4], clusterResourceId: idOf(name) })),
    strategy: {
      stages: [
        { name: "canary", groups: [{ name: "canary" }] },
        { name: "prod", groups: prodGroups.map((name) => ({ name, maxConcurrency: "2" })) },
      ],
    },
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
    timeoutMinutes: 5,
  } as PropertyMap;
}

beforeAll(async () => {
  const fleet = parseOrThrow(FleetSchema, {
    regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: "AKSUbuntu-2204gen2containerd-202611.24.0" }] } },
    members: NAMES.map((name) => ({ name, region: "westeurope", kubernetesVersion: "1.31.2", nodePools: [POOL] })),
  });
  // 10-minute upgrades take 300 ms: the whole run is several seconds of real work to interrupt.
  emulator = await startArmEmulator({ fleet, msPerSimulatedMinute: 30, throttling: false, onRequest: () => onRequest?.(), subscriptionId: SUBSCRIPTION, resourceGroup: "fleet-rg" });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "kill-resume-"));
  caFile = path.join(workDir, "ca.pem");
  fs.writeFileSync(caFile, emulator.certificatePem);
  const [captured] = await captureDynamicInputs(() => {
    new UpdateRun("run", {
      backend: { azure: { endpoint: "https://127.0.0.1:1", credential: "emulator" } },
      members: [{ name: NAMES[0]!, clusterResourceId: idOf(NAMES[0]!) }],
      managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
    });
  });
  provider = captured!.provider;
}, 60_000);

afterAll(async () => {
  await emulator?.close();
  fs.rmSync(path.join(__dirname, "..", "..", ".fleet-update", "runs", `${RUN_NAME}.json`), { force: true });
});

it(`SIGKILL at ${KILLS} seeded points mid-create, then create again: each cluster upgraded once, all Completed`, async ({ annotate }) => {
  // The emulator's seeded generator: the kill points are the same on every run of this test.
  const random = seededRandom(SEED);
  const killed: number[] = [];
  let completedEarly = false;
  for (let i = 0; i < KILLS && !completedEarly; i++) {
    const doomed = await startProviderHost();
    await doomed.configure();
    // Kill points spread over the run: the k-th lands once about 44·k/20 clusters have an upgrade
    // started (± a few), then 0–4 requests later — before, during or right after an upgrade's start,
    // or amid the reads of a resume when the target was passed already. Counted in requests, not
    // milliseconds, and the SIGKILL sent as the emulator logs the request: where a kill lands does not
    // depend on the machine's load, so each attempt moves the run on by a few requests at most and
    // work is left for all twenty (a timer kill let an attempt start a whole round, and the run
    // finished before its 20th kill).
    const target = Math.max(1, Math.min(45, Math.round(((i + 1) * 44) / KILLS) + Math.floor(random() * 5) - 2));
    let requestsLeft = Math.floor(random() * 5);
    const landed = new Promise<"killed">((resolve) => {
      onRequest = () => {
        if (started() < target) return;
        if (requestsLeft-- > 0) return;
        onRequest = undefined;
        process.kill(doomed.pid, "SIGKILL");
        resolve("killed");
      };
    });
    const attempt = doomed.create(RUN_NAME, inputs()).then(
      () => "completed" as const,
      (e: unknown) => e,
    );
    const outcome = await Promise.race([attempt, landed]);
    onRequest = undefined;
    if (outcome === "completed") completedEarly = true;
    else {
      expect(await attempt).toBeInstanceOf(ProviderCallError);
      killed.push(started());
    }
    await doomed.stop().catch(() => undefined);
  }
  // Enough work was left to interrupt every time.
  expect(killed).toHaveLength(KILLS);
  const upgradedWhileKilling = started();
  expect(upgradedWhileKilling).toBeGreaterThan(0);

  const host = await startProviderHost();
  await host.configure();
  const { properties } = await host.create(RUN_NAME, inputs());
  await host.stop();

  const summary = properties.summary as unknown as RunSummary;
  const status = properties.status as unknown as UpdateRunStatus;
  expect(summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 50, Completed: 50 } });
  const members = status.stages.flatMap((s) => s.groups.flatMap((g) => g.members));
  // Truthful: upgraded by whichever attempt, every member is Completed (none Skipped as "already there").
  expect(members.filter((m) => m.status.state !== "Completed").map((m) => `${m.name} ${m.status.state}: ${m.message}`)).toEqual([]);

  for (const cluster of emulator.fleet.snapshot().clusters) {
    // Exactly one upgrade per cluster, and it succeeded...
    expect(cluster.operations.map((o) => `${o.kind} ${o.result}`), cluster.name).toEqual(["Full Succeeded"]);
    expect(cluster.kubernetesVersion).toBe("1.32.0");
  }
  // ...so no two operations ever ran on one cluster at once; and the emulator's write log agrees:
  // one cluster PUT per cluster, whatever the kills.
  const puts = emulator.requests.filter((r) => r.method === "PUT" && /managedClusters\/[^/]+$/.test(r.path));
  const putsPerCluster = new Map<string, number>();
  for (const r of puts) {
    const name = r.path.split("/").pop()!;
    if (r.status >= 200 && r.status < 300) putsPerCluster.set(name, (putsPerCluster.get(name) ?? 0) + 1);
  }
  expect([...putsPerCluster.values()].filter((n) => n !== 1)).toEqual([]);
  expect(putsPerCluster.size).toBe(50);
  console.info(`[kill-resume] killed with ${killed.join(", ")} clusters upgraded or upgrading`);
  await annotate(`killed with ${killed.join(", ")} clusters upgraded or upgrading`);
}, 240_000);
