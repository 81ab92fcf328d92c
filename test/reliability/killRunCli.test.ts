/**
 * Issue 19 ("must show"): `fleet-update run` on a 40-member simulated fleet — 3 stages, 6 groups with
 * `maxConcurrency`, stage limits, after-stage waits, some maintenance windows — SIGKILLed at 50 seeded
 * random points and run again after each (it resumes from its journal), then run to the end.
 *
 * Judged from the fleet's own operation log (the state file records every upgrade with its start and
 * end), not from the run's output: never more upgrades at once than a group's or a stage's limit,
 * each cluster upgraded exactly once, never two operations at once on a cluster, no stage before the
 * previous one ended plus its wait; the final `--json` status has every member Completed carrying its
 * cluster's operation id; and the `--events` journal tells each member's story once, never backwards.
 *
 * Most kill points land inside a reconcile pass: right after a member's `→ Running` line (in the
 * same tick, or 1–25 ms later), when the pass has started an upgrade and is reporting and journaling
 * it; the rest at random wall-clock delays. Needs `npm run build`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { seededRandom } from "../../src/emulator/core/faults";
import { CLI, endedEarlyMessage, finalStatusProblems, killRepeatedly } from "./support/killDriver";
import { layoutStrategy, checkEventJournal, checkFinalStatus, checkFleet, operationsFromStateFile, readEventLines, type LayoutStage, NO_BROKEN_PROMISE } from "./support/killInvariants";
import { readFleetState } from "../../src/backends/simulator/stateFile";

const SEED = 19_2026_12;
/** The last run, to the end, is killed if it has not ended by then (it takes seconds). */
const FINAL_RUN_BOUND_MS = 90_000;
const KILLS = 50;
/** Simulated time per real time: the ~3.5 simulated hours of this run take about 2 real minutes. */
const TIME_SCALE = 110;
const IMAGE_BEFORE = "AKSUbuntu-2204gen2containerd-202610.01.0";
const IMAGE_AFTER = "AKSUbuntu-2204gen2containerd-202611.24.0";
/** The simulated clock starts here (a Saturday), so the windows below are where the test expects them. */
const ORIGIN = Date.parse("2026-12-05T00:00:00Z");

const STAGES: LayoutStage[] = [
  { name: "canary", maxConcurrency: 2, afterStageWaitInSeconds: 600, groups: [{ name: "canary-a", maxConcurrency: 1, members: [] }, { name: "canary-b", maxConcurrency: 1, members: [] }] },
  { name: "early", maxConcurrency: 3, afterStageWaitInSeconds: 300, groups: [{ name: "eu", maxConcurrency: 2, members: [] }, { name: "us", maxConcurrency: 2, members: [] }] },
  { name: "late", maxConcurrency: 4, groups: [{ name: "asia", maxConcurrency: 3, members: [] }, { name: "au", maxConcurrency: 2, members: [] }] },
];
const GROUP_SIZES: Record<string, number> = { "canary-a": 3, "canary-b": 3, eu: 8, us: 8, asia: 9, au: 9 };

interface MemberDoc {
  name: string;
  group: string;
  upgradeMinutes: number;
  window?: { startTime: string; durationHours: number };
}

function layout(random: () => number): MemberDoc[] {
  const members: MemberDoc[] = [];
  for (const stage of STAGES) {
    for (const group of stage.groups) {
      for (let i = 0; i < GROUP_SIZES[group.name]!; i++) {
        const name = `${group.name}-${i + 1}`;
        group.members.push(name);
        const member: MemberDoc = { name, group: group.name, upgradeMinutes: 8 + Math.floor(random() * 13) };
        // Late-stage windows: some open when the stage starts (02:00–08:00), some open later
        // (03:00–07:00; "opens within 4 hours", so ranked first and Pending until then).
        if (stage.name === "late" && i % 3 === 0) member.window = { startTime: "02:00", durationHours: 6 };
        if (stage.name === "late" && i % 3 === 1 && i > 3) member.window = { startTime: "03:00", durationHours: 4 };
        members.push(member);
      }
    }
  }
  return members;
}

function fleetDoc(members: readonly MemberDoc[]) {
  return {
    regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: IMAGE_AFTER }] } },
    members: members.map((m) => ({
      name: m.name,
      region: "westeurope",
      kubernetesVersion: "1.31.2",
      nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE_BEFORE }],
      simulation: { upgradeMinutes: m.upgradeMinutes },
      ...(m.window === undefined
        ? {}
        : { maintenanceConfigurations: { aksManagedAutoUpgradeSchedule: { maintenanceWindow: { schedule: { daily: { intervalDays: 1 } }, startTime: m.window.startTime, durationHours: m.window.durationHours, utcOffset: "+00:00" } } } }),
    })),
  };
}

function specDoc(members: readonly MemberDoc[]) {
  return {
    members: members.map((m) => ({ name: m.name, group: m.group })),
    strategy: layoutStrategy(STAGES),
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
  };
}

beforeAll(() => {
  if (!fs.existsSync(CLI)) throw new Error("dist/ has no CLI: run `npm run build` first");
});

it(`fleet-update run SIGKILLed at ${KILLS} seeded points on a 40-member fleet with group and stage limits, resumed each time: no overrun, no cluster upgraded twice, every member Completed with its operation id`, async ({ annotate }) => {
  const random = seededRandom(SEED);
  const members = layout(random);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kill-run-cli-"));
  fs.writeFileSync(path.join(dir, "fleet.json"), JSON.stringify(fleetDoc(members), null, 2));
  fs.writeFileSync(path.join(dir, "rollout.json"), JSON.stringify(specDoc(members), null, 2));
  // The state file's clock anchor (docs/behaviour.md "Simulated time"): simulated time starts at ORIGIN.
  const stateFile = path.join(dir, "fleet.json.state.json");
  fs.writeFileSync(stateFile, JSON.stringify({ format: 1, clock: { realOrigin: Date.now(), simulatedOrigin: ORIGIN, timeScale: TIME_SCALE }, clusters: {} }));
  const args = ["run", "rollout.json", "--backend", "simulator:fleet.json", "--time-scale", String(TIME_SCALE), "--events", "events.jsonl", "--progress", "lines"];

  const upgradesStarted = () => operationsFromStateFile(readFleetState(stateFile)!).length;
  const series = await killRepeatedly(dir, args, { random, kills: KILLS, upgradesStarted, finalBoundMs: FINAL_RUN_BOUND_MS });
  const { kills, startedAtKill, seconds } = series;

  const ops = operationsFromStateFile(readFleetState(stateFile)!);
  const fleet = checkFleet(ops, STAGES);
  const { events, torn } = readEventLines(fs.readFileSync(path.join(dir, "events.jsonl"), "utf8"));
  const journal = checkEventJournal(events);
  const statusProblems = finalStatusProblems(series, (status) => checkFinalStatus(status, ops));

  const numbers =
    `${kills.length} kills (${kills.filter((k) => k.startsWith("after")).length} right after a → Running line), ${kills.length + 2} runs, ${seconds} s; ` +
    `upgrades started at each kill: ${startedAtKill.join(",")}; ` +
    `overrun instants ${fleet.overruns.length} (worst: ${fleet.worstOverruns.join("; ") || "none"}), double upgrades ${fleet.doubleUpgrades.length}, ` +
    `overlaps on a cluster ${fleet.overlapsOnCluster.length}, stage order ${fleet.stageOrder.length}, final status problems ${statusProblems.length}, ` +
    `event problems ${journal.problems.length} (backwards ${journal.backwards}, repeated ${journal.repeated}), torn event lines ${torn.length}`;
  console.info(`[kill-run-cli] ${numbers}`);
  await annotate(numbers);

  // The fleet is big enough and slow enough that every kill found work left to interrupt.
  expect(endedEarlyMessage(series)).toBe("");
  expect(series.last.outcome).toEqual({ killed: false, code: 0 });
  // One assertion, so a failure shows every broken promise at once.
  expect({ ...fleet, worstOverruns: undefined, statusProblems, tornEventLines: torn, eventProblems: journal.problems }).toEqual({
    ...NO_BROKEN_PROMISE,
    statusProblems: [],
    tornEventLines: [],
    eventProblems: [],
  });
}, 420_000);
