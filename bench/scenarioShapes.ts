/**
 * Scenario files of a given size and shape, for timing `fleet-update simulate FILE --json` as a whole
 * process (`bench/simulateRun.ts`, `bench/writeScenario.ts`). Three shapes, each showing one kind of
 * growth:
 * - `grow`: 5 stages × 40 groups, so groups grow with the fleet (1 member at a time per group);
 * - `fixed`: groups of 100 members, 50 groups to a stage (as many stages as it takes: 20 at 100,000),
 *   maintenance windows on half the members;
 * - `wide`: one group of every member at `maxConcurrency: "5%"`.
 * `grow` and `wide` have no windows unless asked (`generateScenario(shape, n, true)`). A member
 * waiting for its window is checked again only when it opens (docs/behaviour.md), so a wide group
 * with windows no longer pays for every waiting member at every pick.
 * Deterministic: the same shape and size give the same file on every run.
 */
import type { MaintenanceWindow } from "../src/model/maintenanceWindow";
import { prng } from "./engineFleet"; // the same generator, so every run times the same scenario

export const SHAPES = ["grow", "fixed", "wide"] as const;
export type Shape = (typeof SHAPES)[number];

const STAGES = 5;
const REGIONS = ["westeurope", "eastus", "southeastasia"];
const START = "2026-12-05T00:00:00Z";
const UNTIL = "2027-12-05T00:00:00Z";
const OLD_IMAGE = "AKSUbuntu-2204gen2containerd-202610.01.0";
const NEW_IMAGE = "AKSUbuntu-2204gen2containerd-202611.24.0";

const WINDOWS: MaintenanceWindow[] = [
  { schedule: { daily: { intervalDays: 1 } }, startTime: "22:00", durationHours: 8, utcOffset: "+00:00" },
  { schedule: { weekly: { intervalWeeks: 1, dayOfWeek: "Saturday" } }, startTime: "00:00", durationHours: 24, utcOffset: "+01:00" },
  { schedule: { daily: { intervalDays: 1 } }, startTime: "02:00", durationHours: 4, utcOffset: "-05:00" },
  { schedule: { relativeMonthly: { intervalMonths: 1, weekIndex: "First", dayOfWeek: "Sunday" } }, startTime: "00:00", durationHours: 12, utcOffset: "+00:00" },
];

interface GroupSpec {
  name: string;
  maxConcurrency?: string;
}

/** Groups per stage at most (the strategy's limit, as Azure's). */
const MAX_GROUPS_PER_STAGE = 50;

/** Stages of groups, with how many members each group holds, for `total` members of `shape`. */
function layout(shape: Shape, total: number): Array<{ name: string; groups: Array<GroupSpec & { size: number }> }> {
  if (shape === "wide") return [{ name: "stage-0", groups: [{ name: "all", maxConcurrency: "5%", size: total }] }];
  // grow: 5 stages × 40 groups; fixed: groups of 100, 50 to a stage (5 × 200 × 100 is not a valid strategy).
  const groupsTotal = shape === "grow" ? STAGES * 40 : Math.max(1, Math.round(total / 100));
  const groupsPerStage = shape === "grow" ? 40 : Math.min(MAX_GROUPS_PER_STAGE, groupsTotal);
  const stages = Math.ceil(groupsTotal / groupsPerStage);
  const perGroup = Math.max(1, Math.round(total / groupsTotal));
  return Array.from({ length: stages }, (_, s) => ({
    name: `stage-${s}`,
    groups: Array.from({ length: Math.min(groupsPerStage, groupsTotal - s * groupsPerStage) }, (_, g) => ({ name: `s${s}-g${g}`, size: perGroup })),
  }));
}

/** The scenario as a plain object (what `JSON.stringify` writes to the file). */
export function generateScenario(shape: Shape, total: number, windows = shape === "fixed", byLabel = false): Record<string, unknown> {
  const random = prng(42);
  const members: unknown[] = [];
  const stages = layout(shape, total);
  stages.forEach((stage, s) => {
    stage.groups.forEach((group, g) => {
      for (let m = 0; m < group.size; m++) {
        const window = windows && random() < 0.5 ? WINDOWS[Math.floor(random() * WINDOWS.length)] : undefined;
        members.push({
          name: `${group.name}-m${m}`,
          // Issue 22: the same groups chosen by label (`team=<group>`) instead of by name.
          ...(byLabel ? { labels: { team: group.name, ring: String(s) } } : { group: group.name }),
          region: REGIONS[(s + g + m) % REGIONS.length],
          kubernetesVersion: "1.31.2",
          nodePools: [
            { name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: OLD_IMAGE },
            { name: "user", orchestratorVersion: "1.31.2", nodeImageVersion: OLD_IMAGE },
          ],
          ...(window === undefined ? {} : { maintenanceConfigurations: { aksManagedAutoUpgradeSchedule: { maintenanceWindow: window } } }),
          simulation: { upgradeMinutes: 5 + Math.floor(random() * 40) },
        });
      }
    });
  });
  const offer = { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: OLD_IMAGE }, { version: NEW_IMAGE }] };
  return {
    start: START,
    until: UNTIL,
    regions: Object.fromEntries(REGIONS.map((r) => [r, offer])),
    members,
    strategy: {
      stages: stages.map((stage, s) => ({
        name: stage.name,
        groups: stage.groups.map(({ name, maxConcurrency }) => ({
          name,
          ...(maxConcurrency === undefined ? {} : { maxConcurrency }),
          ...(byLabel ? { memberSelector: { byLabel: name === "all" ? `ring=${s}` : `team=${name}` } } : {}),
        })),
        ...(s < stages.length - 1 ? { afterStageWaitInSeconds: 1800 } : {}),
      })),
    },
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Consistent" } },
  };
}
