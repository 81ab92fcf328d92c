/**
 * Issue 30 ("must show"): the reproduction of events lost across two kills, as a test, through the
 * ARM emulator and on the simulated fleet. A 4-member fleet — `s1: g1 = {a}`, then `s2: g2 = {b1, b2,
 * b3}` at maxConcurrency 3, 1-minute upgrades — and `fleet-update run … --events events.jsonl
 * --webhook <a receiver on 127.0.0.1>`:
 *
 * 1. run 1 is SIGKILLed once `member a NotStarted → Running` is printed;
 * 2. once `a`'s upgrade has ended (at ARM, on the fleet's clock),
 * 3. run 2 is started, and SIGKILLed the moment the run's journal holds its first `"t":"intent"`
 *    record (its first pass: `a` done, s1 completed, s2's three starts);
 * 4. run 3 runs to the end and exits 0.
 *
 * Then every transition is in `--events` exactly once, in order — per item one unbroken chain from
 * NotStarted to its final state — and the webhook received the same events, in the same order, under
 * the same sequence numbers (a retried or resent one, the same number: dropped here as a receiver
 * would). On the simulated fleet a run's intents are written just before its pass's commit, so the
 * second kill lands at or after it; the promise is checked all the same.
 *
 * And on Fleet Manager (the emulator's, which runs the update server-side): the client, killed once
 * `a` is told Running and again once it tells `a` Completed, is taken up by the next one, which tells
 * each change once (`src/drivers/fleet/fleetSeen.ts`). Needs `npm run build`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startArmEmulator, type ArmEmulator } from "../../src/emulator";
import { parseOrThrow } from "../../src/model/issues";
import { FleetSchema } from "../../src/model/fleet";
import type { RunEvent } from "../../src/model/status";
import { readFleetState } from "../../src/backends/simulator/stateFile";
import { startWebhookServer, type WebhookServer } from "../events/webhookServer";
import { CLI, runAndKillWhen, type Attempt } from "./support/killDriver";
import { checkEventJournal, readEventLines } from "./support/killInvariants";

const SUBSCRIPTION = "99999999-3030-3030-3030-303030303030";
const POOL = { name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: "AKSUbuntu-2204gen2containerd-202610.01.0" };
const MEMBERS = [
  { name: "a", group: "g1" },
  { name: "b1", group: "g2" },
  { name: "b2", group: "g2" },
  { name: "b3", group: "g2" },
];
const idOf = (name: string) => `/subscriptions/${SUBSCRIPTION}/resourceGroups/fleet-rg/providers/Microsoft.ContainerService/managedClusters/${name}`;
/** Each step is bounded, so a run that never gets where it is killed fails the test instead of hanging it. */
const STEP_BOUND_MS = 90_000;

const fleetDoc = {
  regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: "AKSUbuntu-2204gen2containerd-202611.24.0" }] } },
  members: MEMBERS.map(({ name, group }) => ({ name, group, region: "westeurope", kubernetesVersion: "1.31.2", nodePools: [POOL], simulation: { upgradeMinutes: 1 } })),
};
const spec = (withIds: boolean) => ({
  members: MEMBERS.map(({ name, group }) => ({ name, group, ...(withIds ? { clusterResourceId: idOf(name) } : {}) })),
  strategy: { stages: [{ name: "s1", groups: [{ name: "g1" }] }, { name: "s2", groups: [{ name: "g2", maxConcurrency: "3" }] }] },
  managedClusterUpdate: { upgrade: { type: "ControlPlaneOnly", kubernetesVersion: "1.32.0" } },
});

interface Setup {
  dir: string;
  args: string[];
  /** The run's journal (its write-ahead intents land here). */
  journal: string;
  /** Resolves once `a`'s upgrade has ended on the fleet's own clock. */
  aEnded: () => Promise<void>;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const began = Date.now();
  while (!condition()) {
    if (Date.now() - began > STEP_BOUND_MS) throw new Error(`gave up waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The four steps; returns the three attempts. */
async function reproduce(setup: Setup, secondKill?: (stderr: string) => boolean): Promise<Attempt[]> {
  const { dir, args, journal } = setup;
  const first = await runAndKillWhen(dir, args, (stderr) => /member a NotStarted → Running/.test(stderr), STEP_BOUND_MS);
  await setup.aEnded();
  const second = await runAndKillWhen(dir, args, secondKill ?? (() => fs.existsSync(journal) && fs.readFileSync(journal, "utf8").includes('"t":"intent"')), STEP_BOUND_MS);
  const third = await runAndKillWhen(dir, args, () => false, STEP_BOUND_MS);
  return [first, second, third];
}

/** What the three runs left: the `--events` file and the webhook's deliveries, checked. */
function verdict(dir: string, webhook: WebhookServer, attempts: Attempt[]) {
  const { events, torn } = readEventLines(fs.readFileSync(path.join(dir, "events.jsonl"), "utf8"));
  const chains = checkEventJournal(events, ["run", "stage", "group", "member", "wait"]);
  const last = (scope: string, name: string) => events.filter((e) => e.scope === scope && e.name === name).at(-1)?.to;
  const ends = ["run/rollout", "stage/s1", "stage/s2", "group/g1", "group/g2", ...MEMBERS.map((m) => `member/${m.name}`)].map((key) => `${key} ${last(key.split("/")[0]!, key.split("/")[1]!) ?? "(no event)"}`);
  // The webhook, as a receiver that drops a sequence number it already has would see it.
  const bySequence = new Map<number, RunEvent>();
  for (const attempt of webhook.attempts) {
    if (attempt.status !== 200) continue;
    const sequence = Number(attempt.sequence);
    if (!bySequence.has(sequence)) bySequence.set(sequence, JSON.parse(attempt.body) as RunEvent);
  }
  const sequences = [...bySequence.keys()].sort((x, y) => x - y);
  return {
    outcomes: attempts.map((a) => a.outcome),
    torn,
    chainProblems: chains.problems,
    ends,
    webhookSequences: sequences.join(","),
    webhookEvents: sequences.map((n) => bySequence.get(n)),
    events,
  };
}

function expectKept(v: ReturnType<typeof verdict>): void {
  expect(v.outcomes).toEqual([{ killed: true, how: "when asked" }, { killed: true, how: "when asked" }, { killed: false, code: 0 }]);
  expect(v.torn).toEqual([]);
  // Every transition exactly once, in order, per item; every item at its end.
  expect(v.chainProblems).toEqual([]);
  expect(v.ends).toEqual(["run/rollout Completed", "stage/s1 Completed", "stage/s2 Completed", "group/g1 Completed", "group/g2 Completed", ...MEMBERS.map((m) => `member/${m.name} Completed`)]);
  // The webhook received the same, in the same order, numbered 1..N.
  expect(v.webhookSequences).toBe(v.events.map((_, i) => i + 1).join(","));
  expect(v.webhookEvents).toEqual(v.events);
}

beforeAll(() => {
  if (!fs.existsSync(CLI)) throw new Error("dist/ has no CLI: run `npm run build` first");
});

describe("issue 30: no event lost across a kill after a start and a kill after the resumed run's first intent", () => {
  let webhook: WebhookServer;
  beforeAll(async () => {
    webhook = await startWebhookServer(() => 200);
  });
  afterAll(async () => {
    await webhook?.close();
  });

  it("through the ARM emulator (a simulated minute per 3 s, 300 ms per request): every transition once in --events, in order, and the webhook received the same", async () => {
    webhook.attempts.length = 0;
    const fleet = parseOrThrow(FleetSchema, fleetDoc);
    const emulator: ArmEmulator = await startArmEmulator({ fleet, msPerSimulatedMinute: 3000, throttling: false, subscriptionId: SUBSCRIPTION, resourceGroup: "fleet-rg", faults: { latencyMs: { min: 300, max: 300 } } });
    try {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "events-kills-arm-"));
      fs.writeFileSync(path.join(dir, "ca.pem"), emulator.certificatePem);
      fs.writeFileSync(path.join(dir, "rollout.json"), JSON.stringify(spec(true)));
      const args = ["run", "rollout.json", "--backend", "azure", "--endpoint", emulator.url, "--ca-file", "ca.pem", "--credential", "emulator", "--poll-seconds", "0.5", "--events", "events.jsonl", "--webhook", `${webhook.url}/hook`, "--progress", "lines"];
      const aEnded = () => until(() => emulator.fleet.operationLog().some((op) => op.member === "a" && op.result === "Succeeded"), "a's upgrade ended at ARM");
      const attempts = await reproduce({ dir, args, journal: path.join(dir, ".fleet-update", "runs", "rollout.json"), aEnded });
      expectKept(verdict(dir, webhook, attempts));
    } finally {
      await emulator.close();
    }
  }, 300_000);

  it("on the simulated fleet (time scale 20): every transition once in --events, in order, and the webhook received the same", async () => {
    webhook.attempts.length = 0;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "events-kills-sim-"));
    fs.writeFileSync(path.join(dir, "fleet.json"), JSON.stringify(fleetDoc));
    fs.writeFileSync(path.join(dir, "rollout.json"), JSON.stringify(spec(false)));
    const stateFile = path.join(dir, "fleet.json.state.json");
    const args = ["run", "rollout.json", "--backend", "simulator:fleet.json", "--time-scale", "20", "--events", "events.jsonl", "--webhook", `${webhook.url}/hook`, "--progress", "lines"];
    // The fleet's clock, from the anchor in its state file (docs/behaviour.md "Simulated time").
    const aEnded = () =>
      until(() => {
        const state = readFleetState(stateFile);
        const end = state?.clusters.a?.operations[0]?.endAt;
        const clock = state?.clock;
        return end !== undefined && clock !== undefined && clock.simulatedOrigin + (Date.now() - clock.realOrigin) * clock.timeScale > end;
      }, "a's upgrade ended on the simulated fleet's clock");
    const attempts = await reproduce({ dir, args, journal: path.join(dir, "fleet.json.state.runs", "rollout.json"), aEnded });
    expectKept(verdict(dir, webhook, attempts));
  }, 300_000);

  it("on Fleet Manager (the ARM emulator's, run server-side): each client taken up by the next tells every change once, and the webhook received the same", async () => {
    webhook.attempts.length = 0;
    const fleet = parseOrThrow(FleetSchema, fleetDoc);
    const emulator: ArmEmulator = await startArmEmulator({ fleet, msPerSimulatedMinute: 3000, throttling: false, subscriptionId: SUBSCRIPTION, resourceGroup: "fleet-rg" });
    try {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "events-kills-fleet-"));
      fs.writeFileSync(path.join(dir, "ca.pem"), emulator.certificatePem);
      fs.writeFileSync(path.join(dir, "rollout.json"), JSON.stringify({ ...spec(false), members: [] }));
      const fleetId = `/subscriptions/${SUBSCRIPTION}/resourceGroups/fleet-rg/providers/Microsoft.ContainerService/fleets/fleet`;
      const args = ["run", "rollout.json", "--backend", `azure-fleet:${fleetId}`, "--endpoint", emulator.url, "--ca-file", "ca.pem", "--credential", "emulator", "--poll-seconds", "0.2", "--events", "events.jsonl", "--webhook", `${webhook.url}/hook`, "--progress", "lines"];
      const aEnded = () => until(() => emulator.fleet.operationLog().some((op) => op.member === "a" && op.result === "Succeeded"), "a's upgrade ended");
      // The second client is killed once it told what the first one missed: `a` Completed.
      const attempts = await reproduce({ dir, args, journal: "", aEnded }, (stderr) => /member a Running → Completed/.test(stderr));
      expectKept(verdict(dir, webhook, attempts));
    } finally {
      await emulator.close();
    }
  }, 300_000);
});
