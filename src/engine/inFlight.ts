/**
 * The members whose upgrade is in flight, with what every pass asks of them answered without a scan
 * of them all: which are due (`checkAgainAt` passed), the earliest `checkAgainAt`, and how many run
 * per group and per stage. `due` keeps the order members were added in (a Map's order), so a pass
 * follows them in the same order as a scan would.
 */
import type { GroupRunState, MemberPlace, StageRunState } from "./runState";
import { MinHeap } from "./minHeap";

interface Entry {
  at: number;
  seq: number;
  place: MemberPlace;
}

export class InFlight {
  private readonly places = new Map<MemberPlace, number>();
  /** By `at` only: `due` puts what it takes back in the order the places were added. */
  private readonly heap = new MinHeap<Entry>((a, b) => a.at - b.at);
  /** The `at` each place is queued under now; heap entries under another `at` are stale. */
  private readonly queuedAt = new Map<MemberPlace, number>();
  private readonly perGroup = new Map<GroupRunState, number>();
  private readonly perStage = new Map<StageRunState, number>();
  private nextSeq = 0;

  get size(): number {
    return this.places.size;
  }

  add(place: MemberPlace): void {
    if (this.places.has(place)) return;
    this.places.set(place, this.nextSeq++);
    this.perGroup.set(place.group, (this.perGroup.get(place.group) ?? 0) + 1);
    this.perStage.set(place.stage, (this.perStage.get(place.stage) ?? 0) + 1);
    this.reschedule(place);
  }

  delete(place: MemberPlace): void {
    if (!this.places.delete(place)) return;
    this.queuedAt.delete(place);
    this.perGroup.set(place.group, (this.perGroup.get(place.group) as number) - 1);
    this.perStage.set(place.stage, (this.perStage.get(place.stage) as number) - 1);
  }

  /** The member's `checkAgainAt` changed: queue it under the new one (undefined = due at once). */
  reschedule(place: MemberPlace): void {
    const seq = this.places.get(place);
    if (seq === undefined) return;
    const at = place.member.checkAgainAt ?? Number.NEGATIVE_INFINITY;
    if (this.queuedAt.get(place) === at) return;
    this.queuedAt.set(place, at);
    this.heap.push({ at, seq, place });
  }

  /** The places whose `checkAgainAt` is at or before `now` (or unset), in the order they were added. */
  due(now: number): MemberPlace[] {
    const out: Array<{ seq: number; place: MemberPlace }> = [];
    const seen = new Set<MemberPlace>();
    for (;;) {
      const top = this.heap.peek();
      if (top === undefined || top.at > now) break;
      this.heap.pop();
      if (this.queuedAt.get(top.place) !== top.at || seen.has(top.place)) continue;
      seen.add(top.place);
      out.push(top);
    }
    // Taken out of the queue; whoever follows them reschedules them (or they leave the set).
    for (const { place } of out) this.queuedAt.delete(place);
    return out.sort((a, b) => a.seq - b.seq).map((e) => e.place);
  }

  /** The earliest `checkAgainAt` queued; `Infinity` when none. Places taken by `due` and not rescheduled are not counted. */
  earliest(): number {
    for (;;) {
      const top = this.heap.peek();
      if (top === undefined) return Number.POSITIVE_INFINITY;
      if (this.queuedAt.get(top.place) === top.at) return top.at;
      this.heap.pop();
    }
  }

  runningIn(group: GroupRunState): number {
    return this.perGroup.get(group) ?? 0;
  }

  runningInStage(stage: StageRunState): number {
    return this.perStage.get(stage) ?? 0;
  }
}
