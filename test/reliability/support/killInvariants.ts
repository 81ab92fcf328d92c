/**
 * Issue 19: the promises a killed and resumed run must keep, checked from what the clusters went
 * through (the fleet's own operation log: the simulated fleet's state file, the ARM emulator's
 * snapshot), not from what the run says about itself; and from the `--events` journal.
 *
 * Every check returns the violations it found, one readable line each, so a failing test says what
 * went wrong and how often (the counts are the numbers the issue asks for).
 */
import type { RunEvent, UpdateRunStatus } from "../../../src/model/status";

/** One upgrade a cluster went through; instants in epoch ms (end = Infinity while in flight). */
export interface LoggedOperation {
  cluster: string;
  operationId: string;
  start: number;
  end: number;
  result?: string;
}

/** The run's strategy as far as the checks need it: which member is where, and the limits. */
export interface LayoutStage {
  name: string;
  /** The stage's cap on the sum over its groups; absent = no cap of its own. */
  maxConcurrency?: number;
  afterStageWaitInSeconds?: number;
  groups: Array<{ name: string; maxConcurrency: number; members: string[] }>;
}

/** The members of a layout, each with its group. */
export function layoutMembers(stages: readonly LayoutStage[]): Array<{ name: string; group: string }> {
  return stages.flatMap((s) => s.groups.flatMap((g) => g.members.map((name) => ({ name, group: g.name }))));
}

/** A layout's strategy as a run spec writes it. */
export function layoutStrategy(stages: readonly LayoutStage[]) {
  return {
    stages: stages.map((s) => ({
      name: s.name,
      ...(s.maxConcurrency === undefined ? {} : { maxConcurrency: String(s.maxConcurrency) }),
      ...(s.afterStageWaitInSeconds === undefined ? {} : { afterStageWaitInSeconds: s.afterStageWaitInSeconds }),
      groups: s.groups.map((g) => ({ name: g.name, maxConcurrency: String(g.maxConcurrency) })),
    })),
  };
}

/** A one-region fleet of clusters at 1.31.2, one pool each, each upgrade `minutes()` simulated minutes long. */
export function armFleetDoc(names: readonly string[], minutes: () => number) {
  const pool = { name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: "AKSUbuntu-2204gen2containerd-202610.01.0" };
  return {
    regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: "AKSUbuntu-2204gen2containerd-202611.24.0" }] } },
    members: names.map((name) => ({ name, region: "westeurope", kubernetesVersion: "1.31.2", nodePools: [pool], simulation: { upgradeMinutes: minutes() } })),
  };
}

/** The simulated fleet's state file (`<fleet file>.state.json`) as a flat operation log. */
export function operationsFromStateFile(state: {
  clusters: Record<string, { operations: Array<{ operationId: string; startAt: number; endAt: number; result?: string }> }>;
}): LoggedOperation[] {
  return Object.entries(state.clusters).flatMap(([cluster, c]) =>
    c.operations.map((o) => ({ cluster, operationId: o.operationId, start: o.startAt, end: o.endAt, ...(o.result === undefined ? {} : { result: o.result }) })),
  );
}

/** A fleet snapshot (the ARM emulator's, `simulate --json`'s `clusters`) as a flat operation log. */
export function operationsFromSnapshot(clusters: ReadonlyArray<{ name: string; operations: ReadonlyArray<{ operationId: string; startTime: string; endTime?: string; result?: string }> }>): LoggedOperation[] {
  return clusters.flatMap((c) =>
    c.operations.map((o) => ({
      cluster: c.name,
      operationId: o.operationId,
      start: Date.parse(o.startTime),
      end: o.endTime === undefined ? Number.POSITIVE_INFINITY : Date.parse(o.endTime),
      ...(o.result === undefined ? {} : { result: o.result }),
    })),
  );
}

const iso = (t: number) => (Number.isFinite(t) ? new Date(t).toISOString() : "(in flight)");

/** The most operations running at once among `ops` (intervals [start, end)), and when. */
function peaks(ops: readonly LoggedOperation[]): Array<{ at: number; running: LoggedOperation[] }> {
  // The count only rises at a start, so the starts are the instants to look at.
  return ops.map((o) => ({ at: o.start, running: ops.filter((p) => p.start <= o.start && o.start < p.end) }));
}

export interface FleetVerdict {
  /** Instants when a group or stage ran more upgrades than its limit (one line per group/stage and instant). */
  overruns: string[];
  /** The highest count over the limit seen, per group or stage that overran (`eu: 3 > 2`). */
  worstOverruns: string[];
  /** Clusters with more than one upgrade. */
  doubleUpgrades: string[];
  /** Clusters with no upgrade, or whose upgrade did not succeed. */
  notUpgraded: string[];
  /** Two operations at once on one cluster. */
  overlapsOnCluster: string[];
  /** A stage's first upgrade before the previous stage's last one ended plus its wait. */
  stageOrder: string[];
}

/**
 * A fleet verdict with no broken promise, to compare `{ ...verdict, worstOverruns: undefined }` with
 * (one assertion shows every broken promise at once; the worst overruns only explain them).
 */
export const NO_BROKEN_PROMISE = { overruns: [], worstOverruns: undefined, doubleUpgrades: [], notUpgraded: [], overlapsOnCluster: [], stageOrder: [] } as const;

export function checkFleet(ops: readonly LoggedOperation[], stages: readonly LayoutStage[]): FleetVerdict {
  const verdict: FleetVerdict = { overruns: [], worstOverruns: [], doubleUpgrades: [], notUpgraded: [], overlapsOnCluster: [], stageOrder: [] };
  const of = (members: readonly string[]) => ops.filter((o) => members.includes(o.cluster));
  const checkLimit = (label: string, members: readonly string[], limit: number) => {
    let worst = 0;
    const seen = new Set<number>();
    for (const { at, running } of peaks(of(members))) {
      if (running.length <= limit || seen.has(at)) continue;
      seen.add(at);
      worst = Math.max(worst, running.length);
      verdict.overruns.push(`${label}: ${running.length} upgrades at once at ${iso(at)}, limit ${limit} (${running.map((o) => o.operationId).join(", ")})`);
    }
    if (worst > 0) verdict.worstOverruns.push(`${label}: ${worst} > ${limit}`);
  };
  let previousEnd: { stage: string; at: number } | undefined;
  for (const stage of stages) {
    for (const group of stage.groups) checkLimit(`group ${group.name}`, group.members, group.maxConcurrency);
    const stageMembers = stage.groups.flatMap((g) => g.members);
    if (stage.maxConcurrency !== undefined) checkLimit(`stage ${stage.name}`, stageMembers, stage.maxConcurrency);
    const stageOps = of(stageMembers);
    if (stageOps.length === 0) continue;
    const firstStart = Math.min(...stageOps.map((o) => o.start));
    if (previousEnd !== undefined && firstStart < previousEnd.at) {
      verdict.stageOrder.push(`stage ${stage.name} started an upgrade at ${iso(firstStart)}, before ${iso(previousEnd.at)} (stage ${previousEnd.stage}'s last upgrade's end plus its wait)`);
    }
    previousEnd = { stage: stage.name, at: Math.max(...stageOps.map((o) => o.end)) + (stage.afterStageWaitInSeconds ?? 0) * 1000 };
  }
  const clusters = stages.flatMap((s) => s.groups.flatMap((g) => g.members));
  for (const cluster of clusters) {
    const mine = ops.filter((o) => o.cluster === cluster).sort((a, b) => a.start - b.start);
    if (mine.length > 1) verdict.doubleUpgrades.push(`${cluster}: ${mine.length} upgrades (${mine.map((o) => `${o.operationId} ${iso(o.start)}–${iso(o.end)}`).join(", ")})`);
    if (mine.length === 0 || mine.every((o) => o.result !== "Succeeded")) verdict.notUpgraded.push(`${cluster}: ${mine.map((o) => `${o.operationId} ${o.result ?? "in flight"}`).join(", ") || "never upgraded"}`);
    for (let i = 1; i < mine.length; i++) {
      const [a, b] = [mine[i - 1]!, mine[i]!];
      if (b.start < a.end) verdict.overlapsOnCluster.push(`${cluster}: ${b.operationId} started at ${iso(b.start)} while ${a.operationId} ran until ${iso(a.end)}`);
    }
  }
  return verdict;
}

/**
 * The final status against the fleet: every member Completed, carrying the operation id of the
 * one upgrade its cluster went through.
 */
export function checkFinalStatus(status: UpdateRunStatus, ops: readonly LoggedOperation[]): string[] {
  const problems: string[] = [];
  for (const member of status.stages.flatMap((s) => s.groups.flatMap((g) => g.members))) {
    if (member.status.state !== "Completed") {
      problems.push(`${member.name}: ${member.status.state} (${member.message ?? ""})`);
      continue;
    }
    const fleetIds = ops.filter((o) => o.cluster === member.name).map((o) => o.operationId);
    if (member.operationId === undefined || !fleetIds.includes(member.operationId)) {
      problems.push(`${member.name}: Completed with operationId ${member.operationId ?? "(none)"}, the fleet's is ${fleetIds.join(", ") || "(none)"} (${member.message ?? ""})`);
    }
  }
  return problems;
}

/**
 * The event journal as each item's story: every item's events, in order, must chain (each `from`
 * is the previous `to`, the first from NotStarted), so no event goes backwards, none is repeated
 * and none is missing; every member's story ends Completed.
 */
export function checkEventJournal(events: readonly RunEvent[], scopes: ReadonlyArray<RunEvent["scope"]> = ["member"]): { problems: string[]; repeated: number; backwards: number } {
  const problems: string[] = [];
  let repeated = 0;
  let backwards = 0;
  const stories = new Map<string, RunEvent[]>();
  for (const e of events) {
    if (!scopes.includes(e.scope)) continue;
    const key = `${e.scope} ${e.name}`;
    stories.set(key, [...(stories.get(key) ?? []), e]);
  }
  for (const [key, story] of stories) {
    let state = "NotStarted";
    const seen = new Set<string>();
    for (const e of story) {
      const transition = `${e.from} → ${e.to}`;
      if (seen.has(transition)) {
        repeated += 1;
        problems.push(`${key}: ${transition} again at ${e.time}`);
      } else if (e.from !== state) {
        backwards += 1;
        problems.push(`${key}: ${transition} at ${e.time} after it was ${state} (${story.map((s) => `${s.from}→${s.to}`).join(", ")})`);
      }
      seen.add(transition);
      state = e.to;
    }
    if (key.startsWith("member ") && state !== "Completed") problems.push(`${key}: its events end in ${state}, not Completed`);
  }
  return { problems, repeated, backwards };
}

/** Parse an `--events` JSON-lines file; a torn line is a problem of its own. */
export function readEventLines(text: string): { events: RunEvent[]; torn: string[] } {
  const events: RunEvent[] = [];
  const torn: string[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      events.push(JSON.parse(line) as RunEvent);
    } catch {
      torn.push(line);
    }
  }
  return { events, torn };
}
