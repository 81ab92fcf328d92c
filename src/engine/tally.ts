/**
 * Counts of states kept up to date as states change, so that aggregating a group or a stage costs
 * the same whatever its size, and the list of groups whose inputs changed since they were last
 * aggregated (docs/rules.md §4 is a pure function of the children: a group nothing touched keeps its state).
 * Derived from the run state and rebuilt from it on every resume; never stored.
 *
 * `Transitions` is the one place states change; it calls `changed` for every change, and this class
 * finds the item's parents.
 */
import type { UpdateState } from "../model/status";
import type { GroupRunState, MemberRunState, RunState, StageRunState, Timed } from "./runState";

/** How many children are in each state, and how many there are. */
export type StateCounts = Record<UpdateState, number> & { total: number };

export function emptyCounts(): StateCounts {
  return { total: 0, NotStarted: 0, Running: 0, Pending: 0, Stopping: 0, Stopped: 0, Skipped: 0, Failed: 0, Completed: 0 };
}

export function countStates(states: Iterable<UpdateState>): StateCounts {
  const counts = emptyCounts();
  for (const state of states) {
    counts[state]++;
    counts.total++;
  }
  return counts;
}

type Parent =
  | { kind: "member"; group: GroupRunState; stage: StageRunState }
  | { kind: "group"; stage: StageRunState }
  | { kind: "groupGate"; group: GroupRunState; stage: StageRunState };

export class RunTally {
  /** Per group: its members' states. */
  readonly members = new Map<GroupRunState, StateCounts>();
  /** Per stage: its groups' states, and the Failed members of all its groups. */
  readonly groups = new Map<StageRunState, StateCounts>();
  readonly stageFailed = new Map<StageRunState, number>();
  /** Each group's place in its stage (refreshes go in that order, so events keep their order). */
  readonly groupIndex = new Map<GroupRunState, number>();
  /** Each member's place in its group (the docs/rules.md §3.3 tie-break). */
  readonly memberIndex = new Map<MemberRunState, number>();
  private readonly parents = new Map<Timed, Parent>();
  /** Groups whose members, gates, start or halt phase changed since their last aggregation. */
  private readonly dirty = new Map<StageRunState, Set<GroupRunState>>();
  /** Called when a member enters NotStarted (a retry, a halt): it is a candidate again. */
  onCandidate: ((member: MemberRunState, group: GroupRunState) => void) | undefined;

  constructor(run: RunState) {
    for (const stage of run.stages) {
      this.groups.set(stage, countStates(stage.groups.map((g) => g.state)));
      this.dirty.set(stage, new Set(stage.groups));
      let failed = 0;
      stage.groups.forEach((group, gi) => {
        this.groupIndex.set(group, gi);
        this.parents.set(group, { kind: "group", stage });
        const counts = emptyCounts();
        group.members.forEach((member, mi) => {
          this.memberIndex.set(member, mi);
          this.parents.set(member, { kind: "member", group, stage });
          counts[member.state]++;
          counts.total++;
        });
        failed += counts.Failed;
        this.members.set(group, counts);
        for (const gate of [...(group.beforeGates ?? []), ...(group.afterGates ?? [])]) this.parents.set(gate, { kind: "groupGate", group, stage });
      });
      this.stageFailed.set(stage, failed);
    }
  }

  /** `node` went from `from` to `to`. */
  changed(node: Timed, from: UpdateState, to: UpdateState): void {
    // A stage's gates and wait, the run and the stage itself have no parent counted here.
    const parent = this.parents.get(node);
    if (parent === undefined) return;
    switch (parent.kind) {
      case "member": {
        const counts = this.members.get(parent.group) as StateCounts;
        counts[from]--;
        counts[to]++;
        if (from === "Failed") this.stageFailed.set(parent.stage, (this.stageFailed.get(parent.stage) as number) - 1);
        if (to === "Failed") this.stageFailed.set(parent.stage, (this.stageFailed.get(parent.stage) as number) + 1);
        this.markDirty(parent.stage, parent.group);
        // Any move to NotStarted counts, a halt's Pending → NotStarted too: a member parked until its
        // window opens (readyQueue.ts) is decided again after a start. (A member becomes Pending only
        // from NotStarted, while the group decides it.)
        if (to === "NotStarted") this.onCandidate?.(node as MemberRunState, parent.group);
        return;
      }
      case "group": {
        const counts = this.groups.get(parent.stage) as StateCounts;
        counts[from]--;
        counts[to]++;
        return;
      }
      case "groupGate":
        this.markDirty(parent.stage, parent.group);
        return;
    }
  }

  markDirty(stage: StageRunState, group: GroupRunState): void {
    (this.dirty.get(stage) as Set<GroupRunState>).add(group);
  }

  markGroupDirty(group: GroupRunState): void {
    const parent = this.parents.get(group) as Extract<Parent, { kind: "group" }>;
    this.markDirty(parent.stage, group);
  }

  /** Every group needs aggregating again (the run's halt phase changed). */
  markAllDirty(run: RunState): void {
    for (const stage of run.stages) for (const group of stage.groups) this.markDirty(stage, group);
  }

  /** The stage's groups that need aggregating, in stage order; they count as clean from now on. */
  takeDirty(stage: StageRunState): GroupRunState[] {
    const set = this.dirty.get(stage) as Set<GroupRunState>;
    if (set.size === 0) return [];
    const groups = [...set].sort((a, b) => (this.groupIndex.get(a) as number) - (this.groupIndex.get(b) as number));
    set.clear();
    return groups;
  }

  memberCounts(group: GroupRunState): StateCounts {
    return this.members.get(group) as StateCounts;
  }

  groupCounts(stage: StageRunState): StateCounts {
    return this.groups.get(stage) as StateCounts;
  }

  stageFailures(stage: StageRunState): number {
    return this.stageFailed.get(stage) as number;
  }
}
