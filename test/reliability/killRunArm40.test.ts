/**
 * Issue 30 ("must show"): `fleet-update run --backend azure` against the ARM emulator on a 40-member
 * fleet — 3 stages, 6 groups with `maxConcurrency`, stage limits, after-stage waits — SIGKILLed at 15
 * seeded points and run again after each (it resumes from its journal), then run to the end. Many
 * kills land between a start's write-ahead intent and the record of ARM's answer (a few ms after the
 * journal's last record is an intent, while the PUT is on its way: requests take 20–60 ms), so starts
 * whose answer was lost are adopted; the rest right after a `→ Running` line or at random.
 *
 * Judged from the emulator's own record (its clusters' operations, on ARM's clock), not from what the
 * run says about itself:
 * - no cluster upgraded twice, never two operations at once on a cluster, no group or stage over its limit;
 * - every member's start and end are its operation's at ARM, and never before its group's start; a
 *   member adopted after a lost answer (its operation id the step's name: docs/behaviour.md, "Operation
 *   ids and times on ARM") starts at its intent, before ARM's operation began, and ends when the run saw
 *   its operation end (within the second of ARM's `Date`);
 * - every after-stage wait at least its configured length, from the stage's last upgrade's end to the
 *   next stage's first upgrade's start, on ARM's clock;
 * - the operation ids as documented: ARM's id when the run heard ARM's answer, else the step's name.
 * Needs `npm run build`.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startArmEmulator, type ArmEmulator } from "../../src/emulator";
import { seededRandom } from "../../src/emulator/core/faults";
import { parseOrThrow } from "../../src/model/issues";
import { FleetSchema } from "../../src/model/fleet";
import type { UpdateRunStatus } from "../../src/model/status";
import { armRunDirectory, CLI, describeKillPoint, chooseKillPoint, runAndKill, runAndKillWhen, type Attempt } from "./support/killDriver";
import { armFleetDoc, checkFleet, layoutMembers, layoutStrategy, operationsFromSnapshot, readEventLines, checkEventJournal, type LayoutStage, type LoggedOperation, NO_BROKEN_PROMISE } from "./support/killInvariants";

const SEED = 30_4015;
const KILLS = 15;
/** Each run is killed by then if nothing else killed it (the final one takes about a minute). */
const RUN_BOUND_MS = 120_000;
const SUBSCRIPTION = "99999999-3030-4040-1515-303040401515";
const idOf = (name: string) => `/subscriptions/${SUBSCRIPTION}/resourceGroups/fleet-rg/providers/Microsoft.ContainerService/managedClusters/${name}`;
/** A simulated minute every 300 ms: the 6–12-minute upgrades take 1.8–3.6 real seconds. */
const MS_PER_SIMULATED_MINUTE = 300;

const STAGES: LayoutStage[] = [
  { name: "canary", maxConcurrency: 2, afterStageWaitInSeconds: 4, groups: [{ name: "canary-a", maxConcurrency: 1, members: [] }, { name: "canary-b", maxConcurrency: 1, members: [] }] },
  { name: "early", maxConcurrency: 3, afterStageWaitInSeconds: 3, groups: [{ name: "eu", maxConcurrency: 2, members: [] }, { name: "us", maxConcurrency: 2, members: [] }] },
  { name: "late", maxConcurrency: 4, groups: [{ name: "asia", maxConcurrency: 3, members: [] }, { name: "au", maxConcurrency: 2, members: [] }] },
];
const GROUP_SIZES: Record<string, number> = { "canary-a": 3, "canary-b": 3, eu: 8, us: 8, asia: 9, au: 9 };
for (const stage of STAGES) for (const group of stage.groups) for (let i = 1; i <= GROUP_SIZES[group.name]!; i++) group.members.push(`${group.name}-${i}`);
const MEMBERS = layoutMembers(STAGES);

let emulator: ArmEmulator;
let dir = "";

beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error("dist/ has no CLI: run `npm run build` first");
  const random = seededRandom(SEED ^ 0x5eed);
  const fleet = parseOrThrow(FleetSchema, armFleetDoc(MEMBERS.map((m) => m.name), () => 6 + Math.floor(random() * 7)));
  emulator = await startArmEmulator({ fleet, msPerSimulatedMinute: MS_PER_SIMULATED_MINUTE, throttling: false, subscriptionId: SUBSCRIPTION, resourceGroup: "fleet-rg", faults: { latencyMs: { min: 20, max: 60 } }, seed: SEED });
  dir = armRunDirectory("kill-run-arm40-", emulator.certificatePem, {
    members: MEMBERS.map(({ name, group }) => ({ name, group, clusterResourceId: idOf(name) })),
    strategy: layoutStrategy(STAGES),
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
  });
}, 60_000);

afterAll(async () => {
  await emulator?.close();
});

const JOURNAL = () => path.join(dir, ".fleet-update", "runs", "rollout.json");

/** The journal's last record is a write-ahead intent: a start is between its intent and ARM's answer being recorded. */
function lastRecordIsIntent(): boolean {
  let text: string;
  try {
    text = fs.readFileSync(JOURNAL(), "utf8");
  } catch {
    return false;
  }
  const lines = text.split("\n").filter((l) => l !== "");
  return lines.at(-1)?.includes('"t":"intent"') === true;
}

/** Kill when a start's intent is the journal's last record, `delayMs` later; or at a point of `chooseKillPoint`. */
async function killOnce(args: readonly string[], random: () => number): Promise<Attempt & { point: string }> {
  if (random() < 0.6) {
    const delayMs = Math.floor(random() * 40);
    let seenAt: number | undefined;
    const attempt = await runAndKillWhen(
      dir,
      args,
      () => {
        if (seenAt === undefined && lastRecordIsIntent()) seenAt = Date.now();
        return seenAt !== undefined && Date.now() - seenAt >= delayMs;
      },
      RUN_BOUND_MS,
    );
    return { ...attempt, point: `intent+${delayMs}ms` };
  }
  const point = chooseKillPoint(random, { wallClockMaxMs: 2500, fallbackMs: 4000 });
  return { ...(await runAndKill(dir, args, point)), point: describeKillPoint(point) };
}

type Member = UpdateRunStatus["stages"][number]["groups"][number]["members"][number];
const ms = (iso: string | undefined) => (iso === undefined ? Number.NaN : Date.parse(iso));

/** Issue 30's time and id promises, from the final status against ARM's own record. */
function timeAndIdProblems(status: UpdateRunStatus, ops: readonly LoggedOperation[]): { problems: string[]; recorded: number; adopted: number } {
  const problems: string[] = [];
  let recorded = 0;
  let adopted = 0;
  for (const stage of status.stages) {
    for (const group of stage.groups) {
      const groupStart = ms(group.status.startTime);
      if (ms(stage.status.startTime) > groupStart) problems.push(`group ${group.name} starts ${group.status.startTime} before its stage (${stage.status.startTime})`);
      for (const member of group.members as Member[]) {
        const op = ops.find((o) => o.cluster === member.name);
        const start = ms(member.status.startTime);
        const end = ms(member.status.completedTime);
        if (op === undefined) {
          problems.push(`${member.name}: no operation at ARM`);
          continue;
        }
        if (start < groupStart) problems.push(`${member.name} starts ${member.status.startTime} before its group ${group.name} (${group.status.startTime})`);
        if (member.operationId === op.operationId) {
          // ARM's answer was heard: the member's times are its operation's, as ARM recorded them.
          recorded += 1;
          if (start !== op.start || end !== op.end) problems.push(`${member.name}: ${member.status.startTime}–${member.status.completedTime}, its operation ${op.operationId} ran ${new Date(op.start).toISOString()}–${new Date(op.end).toISOString()}`);
        } else if (member.operationId === member.name) {
          // Adopted after a lost answer: the step's name (no record of it can be read at 2026-06-01).
          adopted += 1;
          if (!(start <= op.start)) problems.push(`${member.name} (adopted): starts ${member.status.startTime}, after its operation began at ${new Date(op.start).toISOString()}`);
          if (!(end >= op.end - 1000 && end >= start)) problems.push(`${member.name} (adopted): ends ${member.status.completedTime}, before its operation ended at ${new Date(op.end).toISOString()}`);
        } else {
          problems.push(`${member.name}: operation id ${member.operationId ?? "(none)"} is neither ARM's (${op.operationId}) nor its step's name`);
        }
        if (member.status.state !== "Completed") problems.push(`${member.name}: ${member.status.state}`);
        if (ms(group.status.completedTime) < end) problems.push(`${member.name} ends ${member.status.completedTime} after its group ${group.name} (${group.status.completedTime})`);
      }
    }
  }
  return { problems, recorded, adopted };
}

it(`fleet-update run --backend azure on 40 members SIGKILLed at ${KILLS} seeded points, resumed each time: no double upgrade, no overlap, no overrun; member times ARM's, never before their group; after-stage waits whole on ARM's clock; operation ids as documented`, async ({ annotate }) => {
  const random = seededRandom(SEED);
  const args = ["run", "rollout.json", "--backend", "azure", "--endpoint", emulator.url, "--ca-file", "ca.pem", "--credential", "emulator", "--poll-seconds", "0.1", "--events", "events.jsonl", "--progress", "lines"];
  const began = Date.now();
  const kills: string[] = [];
  for (let k = 0; k < KILLS; k++) {
    const attempt = await killOnce(args, random);
    if (!attempt.outcome.killed) throw new Error(`run ${k + 1} ended by itself (exit ${attempt.outcome.code}) before kill ${k + 1}: the fleet is too small or too fast for ${KILLS} kills\n${attempt.stderr.slice(-2000)}`);
    kills.push(attempt.point);
  }
  const last = await runAndKillWhen(dir, [...args, "--json"], () => false, RUN_BOUND_MS);
  const seconds = Math.round((Date.now() - began) / 1000);
  if (last.outcome.killed || last.outcome.code !== 0) console.info(`[kill-run-arm40] the last run: ${last.stderr.slice(-3000)}`);
  expect(last.outcome).toEqual({ killed: false, code: 0 });

  const ops = operationsFromSnapshot(emulator.fleet.snapshot().clusters);
  const fleet = checkFleet(ops, STAGES);
  const status = (JSON.parse(last.stdout) as { status: UpdateRunStatus }).status;
  const times = timeAndIdProblems(status, ops);
  const { events, torn } = readEventLines(fs.readFileSync(path.join(dir, "events.jsonl"), "utf8"));
  const journal = checkEventJournal(events, ["run", "stage", "group", "member", "wait"]);

  const numbers =
    `${kills.length} kills (${kills.filter((k) => k.startsWith("intent")).length} after an intent), ${kills.length + 1} runs, ${seconds} s; ` +
    `members with ARM's operation id ${times.recorded}, adopted under the step's name ${times.adopted}; ` +
    `overrun instants ${fleet.overruns.length}, double upgrades ${fleet.doubleUpgrades.length}, overlaps ${fleet.overlapsOnCluster.length}, ` +
    `stage order and waits ${fleet.stageOrder.length}; time and id problems ${times.problems.length}; event problems ${journal.problems.length}`;
  console.info(`[kill-run-arm40] ${numbers}`);
  await annotate(numbers);

  expect({ ...fleet, worstOverruns: undefined, timeAndIdProblems: times.problems, tornEventLines: torn, eventProblems: journal.problems }).toEqual({
    ...NO_BROKEN_PROMISE,
    timeAndIdProblems: [],
    tornEventLines: [],
    eventProblems: [],
  });
  expect(times.recorded + times.adopted).toBe(MEMBERS.length);
}, 600_000);
