/**
 * What `fleet-update run` shows while the run goes (on stderr, so stdout keeps the result): on a
 * terminal a compact tree redrawn in place, at most five times a second whatever the rate of
 * changes; otherwise one line per transition, the Pulumi provider's format, for logs and CI.
 */
import type { RunEvent, UpdateRunStatus } from "../model/status";
import { ProgressPrinter, type ProgressMode } from "../drivers/progressSummary";
import { treeFrame, type FrameSize } from "./liveTree";
import type { CommandIO } from "./commandIO";
import type { EventSinkFlags } from "./eventSinks";
import type { BackendFlags } from "./runSpec";
import { printable } from "../runtime/printable";

export interface RunProgress {
  onEvent(event: RunEvent): void;
  /** A message for the user, kept clear of the tree. */
  note(text: string): void;
  /** Show the final state and stop redrawing. */
  finish(): void;
}

export interface ProgressOutput {
  write(text: string): void;
  /** The terminal's size, when it is one. */
  size(): FrameSize | undefined;
}

/**
 * Lines for logs and CI: one per transition (`lines`), a summary at most once a second (`summary`),
 * or lines until the run is known to be large, summaries from then on (`auto`, the default without a
 * terminal): `src/drivers/progressSummary.ts`.
 */
export class LineProgress implements RunProgress {
  private readonly printer: ProgressPrinter;

  constructor(
    runName: string,
    private readonly out: ProgressOutput,
    mode: ProgressMode = "lines",
    status?: UpdateRunStatus,
  ) {
    this.printer = new ProgressPrinter(runName, (line) => this.out.write(`${line}\n`), mode, status);
  }

  onEvent(event: RunEvent): void {
    this.printer.onEvent(event);
  }

  note(text: string): void {
    this.out.write(`${printable(text)}\n`);
  }

  finish(): void {
    this.printer.finish();
  }
}

/** Fastest redraw: a tree flickering faster than this is unreadable and costs a busy terminal. */
export const MIN_REDRAW_INTERVAL_MS = 200;

/** The terminal size assumed when the output is not a terminal (`--progress tree` into a file). */
const DEFAULT_SIZE: FrameSize = { columns: 120, rows: 40 };

export class TreeProgress implements RunProgress {
  private drawnLines = 0;
  private lastDrawAt = 0;
  private timer: NodeJS.Timeout | undefined;

  /** `status` reads the run as it is now (undefined before the run is open). */
  constructor(
    private readonly runName: string,
    private readonly out: ProgressOutput,
    private readonly status: () => UpdateRunStatus | undefined,
  ) {}

  onEvent(): void {
    if (this.timer !== undefined) return;
    const wait = Math.max(0, this.lastDrawAt + MIN_REDRAW_INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.draw();
    }, wait);
    // The final frame is drawn by finish(); a pending redraw must not hold the process open.
    this.timer.unref();
  }

  note(text: string): void {
    this.out.write(`${this.erase()}${printable(text)}\n`);
    this.drawnLines = 0;
    this.draw();
  }

  finish(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.draw();
  }

  private draw(): void {
    const status = this.status();
    if (status === undefined) return;
    const frame = treeFrame(status, this.runName, this.out.size() ?? DEFAULT_SIZE);
    this.out.write(`${this.erase()}${frame.join("\n")}\n`);
    this.drawnLines = frame.length;
    this.lastDrawAt = Date.now();
  }

  /** Cursor up to the first line of the last frame, then clear to the end of the screen. */
  private erase(): string {
    return this.drawnLines === 0 ? "" : `\r\x1b[${this.drawnLines}A\x1b[J`;
  }
}

/** `fleet-update run`'s options (its flags). */
export interface RunOptions extends BackendFlags, EventSinkFlags {
  json?: boolean;
  /** Start a new run even though the journal holds an unfinished run of another spec. */
  new?: boolean;
  /**
   * "tree" (redrawn; default on a terminal), "lines" (one per transition), "summary" (counts per
   * state and an ETA, at most once a second) or "auto" (lines, then summaries once the run has more
   * than 200 members; the default otherwise).
   */
  progress?: string;
}

export const PROGRESS_MODES = ["tree", "lines", "summary", "auto"] as const;

/** The progress output `--progress` asks for (a terminal's default: the tree). */
export function openProgress(mode: (typeof PROGRESS_MODES)[number], runName: string, io: CommandIO, status: () => UpdateRunStatus | undefined): RunProgress {
  const out: ProgressOutput = {
    write: io.stderr,
    // A pseudo-terminal may report no size (0 × 0): then the default size is assumed.
    size: () => (process.stderr.isTTY && process.stderr.columns > 0 && process.stderr.rows > 0 ? { columns: process.stderr.columns, rows: process.stderr.rows } : undefined),
  };
  return mode === "tree" ? new TreeProgress(runName, out, status) : new LineProgress(runName, out, mode, status());
}
