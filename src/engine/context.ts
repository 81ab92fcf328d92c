/**
 * What every phase of the engine shares for one run: its state, the backend, the clock-free
 * transition recorder, and the in-memory caches (never persisted; rebuilt after a resume).
 */
import { isPending, type Answer, type ClusterBackend, type ClusterInfo, type MemberRef, type MetricAnswer, type MetricQuery, type ProbeOptions, type ProbeResult, type RegionOffer } from "./backend";
import { WindowTracker } from "./priority";
import { memberRef, type GroupRunState, type MemberPlace, type MemberRunState, type RunState } from "./runState";
import { Transitions, type EventSink } from "./transitions";
import { InFlight } from "./inFlight";
import { GroupQueue, isCandidate } from "./readyQueue";
import { RunTally } from "./tally";
import { RequestDescriber } from "./describeRequest";

export interface EngineOptions {
  /** Receives every state change. */
  onEvent?: EventSink;
  /** How often to poll an upgrade whose backend gave no hint (default 60 s). */
  pollIntervalMs?: number;
  /**
   * When a Pending member waits for something whose time is unknown (a version with no announced
   * date, a busy cluster with no expected end), look again after this long. Undefined = never: the
   * world is fully known in advance, as in the simulator.
   */
  recheckUnknownAfterMs?: number;
  /**
   * Persist the state here (synchronously). Called just before the engine asks the backend to start
   * an upgrade, with the intent already in the state, so an interruption at any point leaves evidence
   * of what may have been started; and at the end of every pass, before the pass's events go to
   * `onEvent`, so no event describes a change that was not persisted (docs/behaviour.md, "Crashes:
   * what the journal and the events promise"). `UpdateRunEngine.undeliveredEvents()` lists the
   * events of the changes the state holds that have not gone out yet.
   *
   * Before a start it is given the member (`intent`): what must be durable before the backend is
   * asked is that member's `startRequestedAt` and `request` (issue 23: a journal records just that).
   */
  checkpoint?: (intent?: MemberPlace) => void;
  /**
   * Keep the set of members changed since the last `UpdateRunEngine.takeChanges()` (issue 23: a
   * journal writes what changed, not the whole run). Off by default: `simulate` and `plan` need none.
   */
  trackChanges?: boolean;
  /** Issue 5: answers members' health probes (over HTTP at run time); default the backend's own `probe`. */
  probe?: (member: MemberRef, url: string, options?: ProbeOptions) => Promise<ProbeResult>;
  /** Issue 31: answers Prometheus queries (over HTTP at run time); default the backend's own `queryMetric`. */
  queryMetric?: (query: MetricQuery) => Answer<MetricAnswer>;
}

export const DEFAULT_POLL_INTERVAL_MS = 60_000;

export type { MemberPlace } from "./runState";

export class EngineContext {
  readonly transitions: Transitions;
  readonly windows = new WindowTracker();
  /** Last cluster read per member, for ordering candidates (docs/rules.md §3.3). */
  readonly clusters = new Map<string, ClusterInfo>();
  /** Region offers read in the current reconcile pass. */
  readonly offers = new Map<string, RegionOffer>();
  /** Per group: earliest instant it may have something to start (0 = look now). */
  readonly groupDueAt = new Map<GroupRunState, number>();
  /** Members whose upgrade is in flight. */
  readonly inFlight = new InFlight();
  /** Counts by state per group and stage, and the groups to aggregate again (rebuilt here on resume). */
  readonly tally: RunTally;
  /**
   * Members whose start was asked for (`startRequestedAt`) but whose answer was never recorded: a
   * process died in between (found on resume), or the backend call threw. Adopted or released at the
   * start of the next pass (`interrupted.ts`), before anything else can take their slot.
   */
  readonly interrupted = new Set<MemberPlace>();
  /** The text of a Running member's message, made once per distinct request. */
  readonly describe = new RequestDescriber();
  /** Per group: its candidates in docs/rules.md §3.3 order (rebuilt here on resume). */
  private readonly queues = new Map<GroupRunState, GroupQueue>();
  /** Members changed since the last `takeChanges` (only with `EngineOptions.trackChanges`). */
  readonly changedMembers: Set<MemberRunState> | undefined;

  constructor(
    readonly run: RunState,
    readonly backend: ClusterBackend,
    readonly options: EngineOptions,
  ) {
    this.transitions = new Transitions(options.onEvent);
    this.tally = new RunTally(run);
    this.transitions.onChange = (node, from, to) => this.tally.changed(node, from, to);
    this.tally.onCandidate = (member, group) => this.queue(group).invalidate(member);
    if (options.trackChanges === true) {
      const changed = new Set<MemberRunState>();
      this.changedMembers = changed;
      this.transitions.onTouch = (node, scope) => {
        if (scope === "member") changed.add(node as MemberRunState);
      };
    }
    for (const stage of run.stages) {
      for (const group of stage.groups) {
        const queue = this.queue(group);
        for (const member of group.members) {
          if (member.state === "Running") this.inFlight.add({ stage, group, member });
          else if (member.startRequestedAt !== undefined) this.interrupted.add({ stage, group, member });
          if (isCandidate(member)) queue.invalidate(member);
        }
      }
    }
  }

  queue(group: GroupRunState): GroupQueue {
    let queue = this.queues.get(group);
    if (queue === undefined) {
      queue = new GroupQueue((member) => this.tally.memberIndex.get(member) as number);
      this.queues.set(group, queue);
    }
    return queue;
  }

  ref(member: MemberRunState): MemberRef {
    return memberRef(member);
  }

  // `cluster` and `offer` answer as the backend does (`Answer`): a cached read, or the simulated
  // fleet's, is the value itself, which callers take without an await (issue 13).
  cluster(member: MemberRunState, fresh: boolean): Answer<ClusterInfo> {
    const cached = fresh ? undefined : this.clusters.get(member.name);
    if (cached !== undefined) return cached;
    const answer = this.backend.getCluster(this.ref(member));
    if (isPending(answer)) return answer.then((info) => this.keepCluster(member, info));
    return this.keepCluster(member, answer);
  }

  offer(region: string): Answer<RegionOffer> {
    const cached = this.offers.get(region);
    if (cached !== undefined) return cached;
    const answer = this.backend.getRegionOffer(region);
    if (isPending(answer)) return answer.then((offer) => this.keepOffer(region, offer));
    return this.keepOffer(region, answer);
  }

  /**
   * A fresh read that is not kept: the member's health check after its upgrade. A Running member is
   * never ranked, and its cached read is dropped when it leaves Running (`endFollowing`).
   */
  readCluster(member: MemberRunState): Answer<ClusterInfo> {
    return this.backend.getCluster(this.ref(member));
  }

  private keepCluster(member: MemberRunState, info: ClusterInfo): ClusterInfo {
    this.clusters.set(member.name, info);
    return info;
  }

  private keepOffer(region: string, offer: RegionOffer): RegionOffer {
    this.offers.set(region, offer);
    return offer;
  }

  /** The member's fields changed outside a transition (the journal writes it again: issue 23). */
  memberChanged(member: MemberRunState): void {
    this.changedMembers?.add(member);
  }

  /** Mark a group as having something new to look at. */
  touch(group: GroupRunState): void {
    this.groupDueAt.set(group, 0);
    this.tally.markGroupDirty(group);
  }

  pollInterval(): number {
    return this.options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  }
}
