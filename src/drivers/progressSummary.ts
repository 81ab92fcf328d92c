/**
 * Progress of a large run in aggregate (issue 23): at most one line a second — the run's state, the
 * stage under way, members per state, and an ETA — instead of a line per transition, which at
 * thousands of members is more than anyone reads and costs the run real time. The Pulumi provider and
 * `fleet-update run` without a terminal print this way once a run has more than
 * `SUMMARY_THRESHOLD` members; below it, and with `--progress lines`, one line per transition
 * (`progressLine.ts`). docs/behaviour.md "Progress output".
 */
import type { RunEvent, UpdateRunStatus, UpdateState } from "../model/status";
import { printable } from "../runtime/printable";
import { formatProgressLine } from "./progressLine";

/** Members above which progress is printed in aggregate by default. */
export const SUMMARY_THRESHOLD = 200;
/** Real milliseconds between two summary lines at most once a second. */
export const SUMMARY_INTERVAL_MS = 1000;

const COUNTED: readonly UpdateState[] = ["Completed", "Skipped", "Failed", "Running", "Pending", "NotStarted"];

/** Members per state and the run's shape, kept from the run's events. */
export class ProgressTally {
  private readonly members = new Map<string, UpdateState>();
  private runState: UpdateState | undefined;
  private stage: string | undefined;
  /** Simulated instant (ms) of the first member that ended, and how many had ended before it. */
  private firstEnd: { at: number; done: number } | undefined;
  private lastAt: number | undefined;

  constructor(
    private readonly runName: string,
    status?: UpdateRunStatus,
  ) {
    if (status === undefined) return;
    this.runState = status.status.state;
    for (const stage of status.stages) {
      if (stage.status.state === "Running") this.stage = stage.name;
      for (const group of stage.groups) for (const m of group.members) this.members.set(m.name, m.status.state);
    }
  }

  get size(): number {
    return this.members.size;
  }

  onEvent(event: RunEvent): void {
    const at = Date.parse(event.time);
    this.lastAt = at;
    if (event.scope === "run") this.runState = event.to;
    else if (event.scope === "stage") {
      if (event.to === "Running" || event.to === "Pending") this.stage = event.name;
      else if (this.stage === event.name) this.stage = undefined;
    }
    else if (event.scope === "member") {
      this.members.set(event.name, event.to);
      if (this.firstEnd === undefined && (event.to === "Completed" || event.to === "Failed")) this.firstEnd = { at, done: this.done() - 1 };
    }
  }

  /** `[run] <time> Running (stage prod): 120 of 1000 members done — 100 Completed, 20 Skipped; 40 Running, 840 NotStarted; ETA ~<time>` */
  line(): string {
    const counts = new Map<UpdateState, number>();
    for (const state of this.members.values()) counts.set(state, (counts.get(state) ?? 0) + 1);
    const part = (states: readonly UpdateState[]) =>
      states
        .filter((s) => (counts.get(s) ?? 0) > 0)
        .map((s) => `${counts.get(s)} ${s}`)
        .join(", ");
    const ended = part(COUNTED.slice(0, 3));
    const open = part([...COUNTED.slice(3), ...[...counts.keys()].filter((s) => !COUNTED.includes(s))]);
    const time = this.lastAt === undefined ? "" : ` ${new Date(this.lastAt).toISOString().replace(".000Z", "Z")}`;
    const where = this.stage === undefined ? "" : ` (stage ${this.stage})`;
    const eta = this.eta();
    return printable(
      `[${this.runName}]${time} ${this.runState ?? "NotStarted"}${where}: ${this.done()} of ${this.members.size} members done${ended === "" ? "" : ` — ${ended}`}${open === "" ? "" : `; ${open}`}${eta === undefined ? "" : `; ETA ~${new Date(eta).toISOString().replace(/\.\d{3}Z$/, "Z")}`}`,
    );
  }

  private done(): number {
    let n = 0;
    for (const state of this.members.values()) if (state === "Completed" || state === "Skipped" || state === "Failed") n++;
    return n;
  }

  /** The rate members have ended at since the first one did, carried over the rest (simulated time). */
  private eta(): number | undefined {
    if (this.firstEnd === undefined || this.lastAt === undefined) return undefined;
    const done = this.done();
    const remaining = this.members.size - done;
    const endedSince = done - this.firstEnd.done;
    const elapsed = this.lastAt - this.firstEnd.at;
    if (remaining === 0 || endedSince <= 1 || elapsed <= 0) return undefined;
    return this.lastAt + (remaining * elapsed) / (endedSince - 1);
  }
}

export type ProgressMode = "lines" | "summary" | "auto";

/**
 * Prints a run's progress: a line per transition (`lines`), a summary at most once a second
 * (`summary`), or (`auto`) lines until the run is known to have more than `SUMMARY_THRESHOLD`
 * members, summaries from then on. `finish` prints the last summary.
 */
export class ProgressPrinter {
  private readonly tally: ProgressTally;
  private lastPrintAt = Number.NEGATIVE_INFINITY;
  private unprinted = false;
  private summarizing: boolean;

  constructor(
    private readonly runName: string,
    private readonly write: (line: string) => void,
    private readonly mode: ProgressMode,
    status?: UpdateRunStatus,
    private readonly intervalMs = SUMMARY_INTERVAL_MS,
  ) {
    this.tally = new ProgressTally(runName, status);
    this.summarizing = mode === "summary" || (mode === "auto" && this.tally.size > SUMMARY_THRESHOLD);
  }

  onEvent(event: RunEvent): void {
    this.tally.onEvent(event);
    if (!this.summarizing && this.mode === "auto" && this.tally.size > SUMMARY_THRESHOLD) this.summarizing = true;
    if (!this.summarizing) {
      this.write(formatProgressLine(this.runName, event));
      return;
    }
    this.unprinted = true;
    const now = Date.now();
    if (now - this.lastPrintAt < this.intervalMs) return;
    this.print(now);
  }

  finish(): void {
    if (this.summarizing && this.unprinted) this.print(Date.now());
  }

  private print(now: number): void {
    this.write(this.tally.line());
    this.lastPrintAt = now;
    this.unprinted = false;
  }
}
