/**
 * docs/rules.md §3.3 candidate order inside a group, by the member's relevant maintenance window:
 * (1) open now; (2) opens within the next 4 hours; (3) no window; (4) closed, opening later.
 * Ties keep declaration order.
 */
import type { MaintenanceConfigurations, MaintenanceWindow } from "../model/maintenanceWindow";
import type { UpgradeType } from "../model/update";
import { nextOpenInterval, type WindowInterval } from "./maintenanceWindow";

export const SOON_MS = 4 * 3_600_000;

export type PriorityClass = 1 | 2 | 3 | 4;

/** Full and ControlPlaneOnly follow the auto-upgrade schedule; NodeImageOnly the node OS schedule. */
export function relevantWindow(configs: MaintenanceConfigurations | undefined, type: UpgradeType): MaintenanceWindow | undefined {
  return type === "NodeImageOnly" ? configs?.aksManagedNodeOSUpgradeSchedule?.maintenanceWindow : configs?.aksManagedAutoUpgradeSchedule?.maintenanceWindow;
}

/**
 * Remembers each window's current-or-next open interval so that ordering 10,000 members costs a
 * comparison each, not a calendar computation each. The first interval ending after t stays the
 * answer for every later t before its end.
 */
export class WindowTracker {
  private readonly cache = new Map<string, { window: MaintenanceWindow; interval: WindowInterval | undefined; from: number; validUntil: number }>();

  /** The open interval of `member`'s window containing `now`, or the next one; undefined = never opens again. */
  interval(member: string, window: MaintenanceWindow, now: number): WindowInterval | undefined {
    const hit = this.cache.get(member);
    if (hit !== undefined && hit.window === window && now >= hit.from && now < hit.validUntil) return hit.interval;
    const interval = nextOpenInterval(window, now);
    this.cache.set(member, { window, interval, from: now, validUntil: interval?.end ?? Number.POSITIVE_INFINITY });
    return interval;
  }

  priorityClass(member: string, window: MaintenanceWindow | undefined, now: number): PriorityClass {
    return this.rank(member, window, now).rank;
  }

  /**
   * The class at `now`, and the first instant it may differ: when the interval is passed (and this
   * tracker would compute another), when the next opening comes within `SOON_MS`, or when it opens.
   */
  rank(member: string, window: MaintenanceWindow | undefined, now: number): { rank: PriorityClass; until: number } {
    if (window === undefined) return { rank: 3, until: Number.POSITIVE_INFINITY };
    const interval = this.interval(member, window, now);
    if (interval === undefined) return { rank: 4, until: Number.POSITIVE_INFINITY };
    if (interval.start <= now) return { rank: 1, until: interval.end };
    return interval.start - now <= SOON_MS ? { rank: 2, until: interval.start } : { rank: 4, until: interval.start - SOON_MS };
  }
}
