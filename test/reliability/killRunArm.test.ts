/**
 * Issue 19: `fleet-update run --backend azure` against the ARM emulator (in this process), SIGKILLed
 * at 12 seeded random points — most right after a member's `→ Running` line, inside a reconcile pass —
 * and run again after each (it resumes from its journal, `.fleet-update/runs` in its working
 * directory), then run to the end. 20 members: a canary stage, then two groups of 9 with
 * `maxConcurrency: "2"` under a stage limit of 3.
 *
 * Judged from the emulator's operation log (what ARM's clusters went through), not from the run's
 * output: no group or stage over its limit at any instant, each cluster upgraded exactly once, never
 * two operations at once on a cluster; the final `--json` status has every member Completed with the
 * operation id ARM gave its cluster; the `--events` journal tells each member's story once, never
 * backwards. Needs `npm run build`.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startArmEmulator, type ArmEmulator } from "../../src/emulator";
import { seededRandom } from "../../src/emulator/core/faults";
import { parseOrThrow } from "../../src/model/issues";
import { FleetSchema } from "../../src/model/fleet";
import { armRunDirectory, CLI, endedEarlyMessage, finalStatusProblems, killRepeatedly } from "./support/killDriver";
import { layoutStrategy, layoutMembers, armFleetDoc, checkEventJournal, checkFinalStatus, checkFleet, operationsFromSnapshot, readEventLines, type LayoutStage, NO_BROKEN_PROMISE } from "./support/killInvariants";

const SEED = 19_0319;
/** The last run, to the end, is killed if it has not ended by then (it takes seconds). */
const FINAL_RUN_BOUND_MS = 60_000;
const KILLS = 12;
const SUBSCRIPTION = "99999999-2222-3333-4444-191919191919";
const idOf = (name: string) => `/subscriptions/${SUBSCRIPTION}/resourceGroups/fleet-rg/providers/Microsoft.ContainerService/managedClusters/${name}`;

const STAGES: LayoutStage[] = [
  { name: "canary", groups: [{ name: "canary", maxConcurrency: 1, members: ["canary-1", "canary-2"] }] },
  {
    name: "prod",
    maxConcurrency: 3,
    groups: [
      { name: "eu", maxConcurrency: 2, members: Array.from({ length: 9 }, (_, i) => `eu-${i + 1}`) },
      { name: "us", maxConcurrency: 2, members: Array.from({ length: 9 }, (_, i) => `us-${i + 1}`) },
    ],
  },
];
const MEMBERS = layoutMembers(STAGES);

let emulator: ArmEmulator;
let dir = "";

beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error("dist/ has no CLI: run `npm run build` first");
  const random = seededRandom(SEED ^ 0x5eed);
  // 8–16-minute upgrades: 3.6–7.2 real seconds each.
  const fleet = parseOrThrow(FleetSchema, armFleetDoc(MEMBERS.map((m) => m.name), () => 8 + Math.floor(random() * 9)));
  emulator = await startArmEmulator({ fleet, msPerSimulatedMinute: 450, throttling: false, subscriptionId: SUBSCRIPTION, resourceGroup: "fleet-rg" });
  dir = armRunDirectory("kill-run-arm-", emulator.certificatePem, {
    members: MEMBERS.map(({ name, group }) => ({ name, group, clusterResourceId: idOf(name) })),
    strategy: layoutStrategy(STAGES),
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
  });
}, 60_000);

afterAll(async () => {
  await emulator?.close();
});

it(`fleet-update run --backend azure SIGKILLed at ${KILLS} seeded points against the ARM emulator, resumed each time: no overrun, each cluster upgraded once, every member Completed with ARM's operation id`, async ({ annotate }) => {
  const random = seededRandom(SEED);
  const args = ["run", "rollout.json", "--backend", "azure", "--endpoint", emulator.url, "--ca-file", "ca.pem", "--credential", "emulator", "--poll-seconds", "0.05", "--events", "events.jsonl", "--progress", "lines"];
  const upgradesStarted = () => operationsFromSnapshot(emulator.fleet.snapshot().clusters).length;
  const series = await killRepeatedly(dir, args, { random, kills: KILLS, upgradesStarted, finalBoundMs: FINAL_RUN_BOUND_MS });
  const { kills, startedAtKill, endedEarly, last, seconds } = series;

  const ops = operationsFromSnapshot(emulator.fleet.snapshot().clusters);
  const fleet = checkFleet(ops, STAGES);
  const { events, torn } = readEventLines(fs.readFileSync(path.join(dir, "events.jsonl"), "utf8"));
  const journal = checkEventJournal(events);
  const statusProblems = finalStatusProblems(series, (status) => checkFinalStatus(status, ops));
  // ARM's write log: one successful cluster PUT per cluster, whatever the kills.
  const puts = new Map<string, number>();
  for (const r of emulator.requests) {
    if (r.method !== "PUT" || !/managedClusters\/[^/]+$/.test(r.path) || r.status < 200 || r.status >= 300) continue;
    const name = r.path.split("/").pop()!;
    puts.set(name, (puts.get(name) ?? 0) + 1);
  }
  const putProblems = MEMBERS.filter(({ name }) => puts.get(name) !== 1).map(({ name }) => `${name}: ${puts.get(name) ?? 0} cluster PUTs`);

  const numbers =
    `${kills.length} kills (${kills.filter((k) => k.startsWith("after")).length} right after a → Running line), ${kills.length + (endedEarly === undefined ? 1 : 2)} runs, ${seconds} s; ` +
    `upgrades started at each kill: ${startedAtKill.join(",")}; ` +
    `overrun instants ${fleet.overruns.length} (worst: ${fleet.worstOverruns.join("; ") || "none"}), double upgrades ${fleet.doubleUpgrades.length}, ` +
    `overlaps on a cluster ${fleet.overlapsOnCluster.length}, final status problems ${statusProblems.length}, ` +
    `event problems ${journal.problems.length} (backwards ${journal.backwards}, repeated ${journal.repeated})`;
  console.info(`[kill-run-arm] ${numbers}`);
  if (last.outcome.killed || last.outcome.code !== 0) console.info(`[kill-run-arm] the last run: ${last.stderr.slice(-3000)}`);
  await annotate(numbers);

  expect(endedEarlyMessage(series)).toBe("");
  expect(last.outcome).toEqual({ killed: false, code: 0 });
  expect({ ...fleet, worstOverruns: undefined, putProblems, statusProblems, tornEventLines: torn, eventProblems: journal.problems }).toEqual({
    ...NO_BROKEN_PROMISE,
    putProblems: [],
    statusProblems: [],
    tornEventLines: [],
    eventProblems: [],
  });
}, 240_000);
