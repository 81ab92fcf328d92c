/**
 * `npm run bench`: the engine on a generated fleet of 10,000 members (5 stages × 40 groups × 50
 * members, 3 regions) on the virtual clock. Prints wall time, peak RSS, and, for the same fleet
 * without maintenance windows, the makespan divided by the critical-path lower bound
 * (Σ over stages of the longest group's summed upgrade durations, plus the waits).
 * Then the provider figures (`bench/provider.ts`) and the ARM figures (`bench/arm.ts`: a 200-member
 * run through the Azure backend against the throttling ARM emulator).
 * `--json` prints the figures as JSON; `--members N` scales the stage/group shape down or up.
 */
import { SimulatedFleet } from "../src/backends/simulator";
import { armFigures } from "./arm";
import { providerFigures } from "./provider";
import { VirtualClock } from "../src/engine/clock";
import { drive } from "../src/engine/drive";
import { UpdateRunEngine } from "../src/engine/engine";
import type { MaintenanceWindow } from "../src/model/maintenanceWindow";
import type { Fleet, SimulatedCluster } from "../src/model/fleet";
import type { UpdateRunStrategy } from "../src/model/strategy";

const STAGES = 5;
const GROUPS_PER_STAGE = 40;
const REGIONS = ["westeurope", "eastus", "southeastasia"];
const START = Date.parse("2026-12-05T00:00:00Z");
const OLD_IMAGE = "AKSUbuntu-2204gen2containerd-202610.01.0";
const NEW_IMAGE = "AKSUbuntu-2204gen2containerd-202611.24.0";

/** A small deterministic PRNG (mulberry32) so every run benchmarks the same fleet. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WINDOWS: MaintenanceWindow[] = [
  { schedule: { daily: { intervalDays: 1 } }, startTime: "22:00", durationHours: 8, utcOffset: "+00:00" },
  { schedule: { weekly: { intervalWeeks: 1, dayOfWeek: "Saturday" } }, startTime: "00:00", durationHours: 24, utcOffset: "+01:00" },
  { schedule: { daily: { intervalDays: 1 } }, startTime: "02:00", durationHours: 4, utcOffset: "-05:00" },
  { schedule: { relativeMonthly: { intervalMonths: 1, weekIndex: "First", dayOfWeek: "Sunday" } }, startTime: "00:00", durationHours: 12, utcOffset: "+00:00" },
];

interface Generated {
  fleet: Fleet;
  strategy: UpdateRunStrategy;
  /** Σ over stages of the longest group's summed durations + waits (ms). */
  lowerBoundMs: number;
}

function generate(membersPerGroup: number, withWindows: boolean): Generated {
  const random = prng(42);
  const members: SimulatedCluster[] = [];
  const stages: UpdateRunStrategy["stages"] = [];
  let lowerBoundMs = 0;
  for (let s = 0; s < STAGES; s++) {
    const waitSeconds = s < STAGES - 1 ? 1800 : 0;
    const groups = [];
    let longestGroupMs = 0;
    for (let g = 0; g < GROUPS_PER_STAGE; g++) {
      const group = `s${s}-g${g}`;
      groups.push({ name: group });
      let groupMs = 0;
      for (let m = 0; m < membersPerGroup; m++) {
        const upgradeMinutes = 5 + Math.floor(random() * 40);
        groupMs += upgradeMinutes * 60_000;
        const window = withWindows && random() < 0.5 ? WINDOWS[Math.floor(random() * WINDOWS.length)] : undefined;
        members.push({
          name: `${group}-m${m}`,
          group,
          region: REGIONS[(s + g + m) % REGIONS.length] as string,
          kubernetesVersion: "1.31.2",
          nodePools: [
            { name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: OLD_IMAGE },
            { name: "user", orchestratorVersion: "1.31.2", nodeImageVersion: OLD_IMAGE },
          ],
          ...(window === undefined ? {} : { maintenanceConfigurations: { aksManagedAutoUpgradeSchedule: { maintenanceWindow: window } } }),
          simulation: { upgradeMinutes },
        });
      }
      longestGroupMs = Math.max(longestGroupMs, groupMs);
    }
    stages.push({ name: `stage-${s}`, groups, afterStageWaitInSeconds: waitSeconds });
    lowerBoundMs += longestGroupMs + waitSeconds * 1000;
  }
  const offer = { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: OLD_IMAGE }, { version: NEW_IMAGE }] };
  const regions = Object.fromEntries(REGIONS.map((r) => [r, offer]));
  return { fleet: { regions, members }, strategy: { stages }, lowerBoundMs };
}

interface Measured {
  members: number;
  wallMs: number;
  makespanMs: number;
  state: string;
}

async function runOnce(generated: Generated): Promise<Measured> {
  const clock = new VirtualClock(START);
  const backend = new SimulatedFleet(generated.fleet, clock);
  const engine = UpdateRunEngine.create(
    { name: "bench", members: generated.fleet.members, strategy: generated.strategy, managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Consistent" } } },
    backend,
  );
  const began = performance.now();
  engine.start(START);
  await drive(engine, clock, { until: START + 365 * 86_400_000 });
  const wallMs = performance.now() - began;
  const status = engine.status();
  const end = Date.parse(status.status.completedTime ?? new Date(clock.now()).toISOString());
  return { members: generated.fleet.members.length, wallMs, makespanMs: end - START, state: status.status.state };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes("--json");
  const sizeArg = args.indexOf("--members");
  const total = sizeArg >= 0 ? Number(args[sizeArg + 1]) : 10_000;
  const perGroup = Math.max(1, Math.round(total / (STAGES * GROUPS_PER_STAGE)));

  const windowed = await runOnce(generate(perGroup, true));
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const plainFleet = generate(perGroup, false);
  const plain = await runOnce(plainFleet);
  const ratio = plain.makespanMs / plainFleet.lowerBoundMs;

  const provider = await providerFigures();
  const arm = await armFigures();
  const figures = {
    members: windowed.members,
    shape: `${STAGES} stages × ${GROUPS_PER_STAGE} groups × ${perGroup} members`,
    withWindows: { wallMs: round(windowed.wallMs), state: windowed.state, makespanHours: round(windowed.makespanMs / 3_600_000) },
    peakRssMb: round(peakRssMb),
    withoutWindows: { wallMs: round(plain.wallMs), state: plain.state, makespanHours: round(plain.makespanMs / 3_600_000), lowerBoundHours: round(plainFleet.lowerBoundMs / 3_600_000), makespanOverLowerBound: Number(ratio.toFixed(5)) },
    provider,
    arm,
    targets: { wallMs: 5000, peakRssMb: 400, makespanOverLowerBound: 1.001, providerBytes: 2048 },
  };
  if (json) {
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    return;
  }
  const rows: Array<[string, string, string]> = [
    ["members", `${figures.members} (${figures.shape})`, ""],
    ["wall time, with windows", `${figures.withWindows.wallMs} ms`, "< 5000 ms"],
    ["wall time, without windows", `${figures.withoutWindows.wallMs} ms`, ""],
    ["peak RSS", `${figures.peakRssMb} MB`, "< 400 MB"],
    ["makespan ÷ lower bound", `${figures.withoutWindows.makespanOverLowerBound} (${figures.withoutWindows.makespanHours} h / ${figures.withoutWindows.lowerBoundHours} h)`, "≤ 1.001"],
    ["final state", `${figures.withWindows.state} / ${figures.withoutWindows.state}`, "Completed"],
    ["__provider size (UpdateRun / UpdateStrategy)", `${provider.updateRunProviderBytes} / ${provider.updateStrategyProviderBytes} bytes`, "≤ 2048 bytes"],
    ["Check, 1,000-member run", `${provider.check1000MembersMs} ms`, ""],
    ["ARM run (emulator, throttled)", `${arm.upgraded}/${arm.members} upgraded, ${arm.state}, ${arm.makespanMinutes} simulated min at ${arm.msPerSimulatedMinute} ms/min`, "Completed"],
    ["ARM requests per upgraded member", `${arm.requestsPerUpgradedMember} (GET ${arm.requests.GET} / PUT ${arm.requests.PUT} / POST ${arm.requests.POST})`, ""],
    ["ARM 429s seen (all retried)", `${arm.throttled}`, ""],
    ["ARM run wall time", `${arm.wallMs} ms`, "< 60000 ms"],
  ];
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  process.stdout.write(`${"figure".padEnd(w0)}  ${"measured".padEnd(w1)}  target\n`);
  for (const [a, b, c] of rows) process.stdout.write(`${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}\n`);
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

void main();
