/**
 * Pending periods from the engine's events: each move of a member into Pending opens one with the
 * engine's message, the next move out of Pending closes it. The engine emits no event when a Pending
 * member's reason changes (Pending → Pending): `reasonChanged` splits the period there, so a member
 * first waiting for a version and then for its window shows both.
 */
import { isoInstant } from "../model/instants";
import type { RunEvent } from "../model/status";
import type { PendingPeriod } from "./types";

export class PendingPeriods {
  private readonly periods = new Map<string, PendingPeriod[]>();
  private readonly open = new Map<string, PendingPeriod>();

  onEvent(event: RunEvent): void {
    if (event.scope !== "member") return;
    if (event.from === "Pending") this.close(event.name, event.time);
    if (event.to === "Pending") this.start(event.name, event.time, event.message ?? "Pending.");
  }

  isPending(member: string): boolean {
    return this.open.has(member);
  }

  /** The member is still Pending at `now`, for another reason: end one period and begin the next. */
  reasonChanged(member: string, now: number, reason: string): void {
    const current = this.open.get(member);
    if (current === undefined || current.reason === reason) return;
    const time = isoInstant(now);
    this.close(member, time);
    this.start(member, time, reason);
  }

  /** The member's periods in time order; one still open has no `until`. */
  of(member: string): PendingPeriod[] {
    return (this.periods.get(member) ?? []).map(({ from, until, reason }) => ({ from, ...(until === undefined ? {} : { until }), reason }));
  }

  private start(member: string, time: string, reason: string): void {
    const period: PendingPeriod = { from: time, reason };
    this.open.set(member, period);
    const list = this.periods.get(member) ?? [];
    list.push(period);
    this.periods.set(member, list);
  }

  private close(member: string, time: string): void {
    const period = this.open.get(member);
    if (period === undefined) return;
    this.open.delete(member);
    // A reason that held for no time at all (changed again at the same instant) is not a period.
    if (period.from === time) {
      const list = this.periods.get(member) as PendingPeriod[];
      list.splice(list.indexOf(period), 1);
      return;
    }
    period.until = time;
  }
}
