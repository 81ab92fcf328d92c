/**
 * The generated fleet the engine bench runs (`bench/engineRun.ts`): 5 stages × 40 groups × N members
 * per group, 3 regions, two node pools per member, upgrades of 5–44 minutes, and (optionally) half
 * the members with one of four kinds of maintenance window. Deterministic: the same size gives the
 * same fleet on every run.
 */
import type { Fleet, SimulatedCluster } from "../src/model/fleet";
import type { MaintenanceWindow } from "../src/model/maintenanceWindow";
import type { UpdateRunStrategy } from "../src/model/strategy";

export const STAGES = 5;
export const GROUPS_PER_STAGE = 40;
const REGIONS = ["westeurope", "eastus", "southeastasia"];
export const START = Date.parse("2026-12-05T00:00:00Z");
const OLD_IMAGE = "AKSUbuntu-2204gen2containerd-202610.01.0";
const NEW_IMAGE = "AKSUbuntu-2204gen2containerd-202611.24.0";

/** A small deterministic PRNG (mulberry32) so every run benchmarks the same fleet. */
export function prng(seed: number): () => number {
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

export interface GeneratedFleet {
  fleet: Fleet;
  strategy: UpdateRunStrategy;
  /**
   * The critical-path lower bound of the makespan (ms): Σ over stages of the longest group's summed
   * upgrade durations (groups run their members one at a time) plus the after-stage waits. Exact only
   * without windows, where nothing else can delay a member.
   */
  lowerBoundMs: number;
}

/** Members per group for about `total` members in all. */
export function membersPerGroup(total: number): number {
  return Math.max(1, Math.round(total / (STAGES * GROUPS_PER_STAGE)));
}

export function generateFleet(perGroup: number, withWindows: boolean): GeneratedFleet {
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
      for (let m = 0; m < perGroup; m++) {
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
