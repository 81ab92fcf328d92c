/**
 * Per group, its candidates (NotStarted and Pending members) in docs/rules.md §3.3 order — priority class,
 * then declaration order — kept between passes, so picking the next member costs a heap pop, not a
 * scan and sort of the whole group.
 *
 * A member's class changes only when its window's interval is passed (the `WindowTracker` would look
 * again), when its next opening comes within `SOON_MS`, or when it opens; each ranked member is
 * queued with that instant and ranked again at the first pick at or after it. A member is also
 * ranked again when it becomes a candidate (a retry, a halt) and, after it was decided in a pass
 * (read fresh, left Pending), at its group's first pick of a later pass. Ranking reads the cached
 * cluster exactly when a full scan would have (candidates without a cached cluster, in declaration
 * order), and asks the tracker whenever a scan's answer could differ, so the order and every backend
 * call are the same as ranking all candidates at every pick.
 *
 * A member left Pending because its maintenance window is closed is parked until the window opens
 * (docs/behaviour.md, "A member waiting for its window"): it is not ranked or decided again before
 * that instant unless it becomes a candidate anew, so a group of thousands with windows costs each
 * pick what it starts, not every member waiting for its window.
 */
import type { MemberRunState } from "./runState";
import type { PriorityClass } from "./priority";
import { MinHeap } from "./minHeap";

/** A member's class at `now` and the first instant it may be different. */
export interface Rank {
  rank: PriorityClass;
  until: number;
}

interface Queued {
  member: MemberRunState;
  index: number;
  version: number;
}

interface Change {
  at: number;
  member: MemberRunState;
  version: number;
}

const byIndex = (a: Queued, b: Queued) => a.index - b.index;
const NONE: readonly MemberRunState[] = [];

export function isCandidate(member: MemberRunState): boolean {
  return member.state === "NotStarted" || member.state === "Pending";
}

export class GroupQueue {
  /** One heap per priority class (index 0 = class 1), each in declaration order. */
  private readonly classes = [new MinHeap<Queued>(byIndex), new MinHeap<Queued>(byIndex), new MinHeap<Queued>(byIndex), new MinHeap<Queued>(byIndex)];
  private readonly changes = new MinHeap<Change>((a, b) => a.at - b.at);
  /** The version a member is queued under; absent = not queued. */
  private readonly version = new Map<MemberRunState, number>();
  private nextVersion = 0;
  /** To rank at the next pick. */
  private readonly stale = new Set<MemberRunState>();
  /** Decided in the pass `deferredPass`: ranked again at the first pick of another pass. */
  private deferred = new Set<MemberRunState>();
  /** Pending until their window opens (`park`), by that instant: ranked again at the first pick at or after it. */
  private readonly parked = new MinHeap<Change>((a, b) => a.at - b.at);
  private deferredPass: object | undefined;

  constructor(private readonly indexOf: (member: MemberRunState) => number) {}

  /** Rank `member` again at the next pick (it became a candidate, or what its rank depends on changed). */
  invalidate(member: MemberRunState): void {
    this.stale.add(member);
  }

  /**
   * Before a pick at `now` in pass `pass` (members decided in it are not candidates again until
   * another pass): the members to rank now — the stale ones and those whose rank may have changed —
   * in declaration order, each to be given back to `ranked`. Usually none: a pick then allocates nothing.
   */
  toRank(now: number, pass: object): readonly MemberRunState[] {
    if (this.deferredPass !== pass) {
      for (const member of this.deferred) this.stale.add(member);
      this.deferred.clear();
    }
    this.deferredPass = pass;
    this.staleAt(this.changes, now);
    this.staleAt(this.parked, now);
    if (this.stale.size === 0) return NONE;
    const members = [...this.stale].filter(isCandidate);
    this.stale.clear();
    members.sort((a, b) => this.indexOf(a) - this.indexOf(b));
    return members;
  }

  /** `member` (from `toRank`) is of class `rank.rank` until `rank.until`. */
  ranked(member: MemberRunState, { rank, until }: Rank): void {
    const version = this.nextVersion++;
    this.version.set(member, version);
    (this.classes[rank - 1] as MinHeap<Queued>).push({ member, index: this.indexOf(member), version });
    if (until !== Number.POSITIVE_INFINITY) this.changes.push({ at: until, member, version });
  }

  /** Members whose queued instant in `heap` has come are stale (if still queued under that version). */
  private staleAt(heap: MinHeap<Change>, now: number): void {
    for (;;) {
      const top = heap.peek();
      if (top === undefined || top.at > now) return;
      heap.pop();
      if (this.version.get(top.member) === top.version) this.stale.add(top.member);
    }
  }

  /** Take the first candidate in order (it is decided now: not a candidate again in this pass). */
  next(): MemberRunState | undefined {
    for (const heap of this.classes) {
      for (;;) {
        const top = heap.peek();
        if (top === undefined) break;
        heap.pop();
        if (this.version.get(top.member) !== top.version) continue;
        this.version.delete(top.member);
        if (!isCandidate(top.member)) continue;
        this.deferred.add(top.member);
        return top.member;
      }
    }
    return undefined;
  }

  /**
   * `member`, just decided (by `next`), is Pending until its window opens at `opensAt`: not a
   * candidate again before then, unless `invalidate` makes it one.
   */
  park(member: MemberRunState, opensAt: number): void {
    this.deferred.delete(member);
    const version = this.nextVersion++;
    this.version.set(member, version);
    this.parked.push({ at: opensAt, member, version });
  }

  /**
   * The earliest `checkAgainAt` of the group's Pending members, once a pass found none of its
   * candidates could start: every one not parked was decided in this pass, so the parked ones and
   * this pass's decisions are all there is to look at (not the whole group).
   */
  pendingDueAt(): number {
    for (;;) {
      const top = this.parked.peek();
      if (top === undefined || (this.version.get(top.member) === top.version && top.member.state === "Pending")) break;
      this.parked.pop();
    }
    let due = this.parked.peek()?.at ?? Number.POSITIVE_INFINITY;
    for (const m of this.deferred) if (m.state === "Pending" && m.checkAgainAt !== undefined) due = Math.min(due, m.checkAgainAt);
    return due;
  }
}
