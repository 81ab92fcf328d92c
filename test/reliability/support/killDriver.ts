/**
 * Issue 19: run `fleet-update run …` (the built command) in a child process and SIGKILL it at a
 * seeded random point: right after (or a few ms after) a member's `→ Running` progress line — the
 * instant a reconcile pass has started an upgrade and is reporting and journaling it — or at a random
 * wall-clock delay after launch. Nothing here asserts time: the delays only choose where to kill.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { UpdateRunStatus } from "../../../src/model/status";

export const CLI = path.resolve(__dirname, "../../../dist/cli/main.js");

/** A fresh working directory for runs against the ARM emulator: its certificate as `ca.pem`, the run spec as `rollout.json`. */
export function armRunDirectory(prefix: string, certificatePem: string, spec: unknown): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.writeFileSync(path.join(dir, "ca.pem"), certificatePem);
  fs.writeFileSync(path.join(dir, "rollout.json"), JSON.stringify(spec));
  return dir;
}

export type KillPoint =
  /** After the `nth` member `→ Running` line of this process, `delayMs` later (0: in the same tick). */
  | { kind: "afterRunning"; nth: number; delayMs: number; fallbackMs: number }
  /** `delayMs` after launch (for a run to its end: a bound, so that a hung run fails the test instead of hanging it). */
  | { kind: "wallClock"; delayMs: number };

/** A seeded choice of kill point: most land inside a reconcile pass, the rest anywhere. */
export function chooseKillPoint(random: () => number, { wallClockMaxMs, fallbackMs }: { wallClockMaxMs: number; fallbackMs: number }): KillPoint {
  const r = random();
  if (r < 0.35) return { kind: "afterRunning", nth: 1 + Math.floor(random() * 2), delayMs: 0, fallbackMs };
  if (r < 0.65) return { kind: "afterRunning", nth: 1 + Math.floor(random() * 2), delayMs: 1 + Math.floor(random() * 25), fallbackMs };
  return { kind: "wallClock", delayMs: 100 + Math.floor(random() * wallClockMaxMs) };
}

export const describeKillPoint = (k: KillPoint) => (k.kind === "wallClock" ? `${k.delayMs}ms` : `run#${k.nth}+${k.delayMs}ms`);

export interface Attempt {
  /** `killed`: SIGKILLed at the point; `exited`: the command ended first (its exit code). */
  outcome: { killed: true; how: string } | { killed: false; code: number | null };
  stdout: string;
  stderr: string;
}

const MEMBER_RUNNING = /^\[[^\]]+\] \S+ member \S+ \S+ → Running/gm;

/** Launch the command in `cwd`; SIGKILL it at `point`. */
export function runAndKill(cwd: string, args: readonly string[], point: KillPoint): Promise<Attempt> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let killedHow: string | undefined;
  const timers: NodeJS.Timeout[] = [];
  const kill = (how: string) => {
    if (killedHow !== undefined || child.exitCode !== null || child.signalCode !== null) return;
    killedHow = how;
    child.kill("SIGKILL");
  };
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
    if (point.kind !== "afterRunning" || killedHow !== undefined) return;
    // Only this process's own starts: a resumed run first hands on the events its predecessor had
    // journaled but not delivered (progress lines included), before its note.
    const note = stderr.search(/^(Starting|Resuming) run /m);
    const seen = note < 0 ? 0 : (stderr.slice(note).match(MEMBER_RUNNING)?.length ?? 0);
    if (seen < point.nth) return;
    const how = `after ${point.nth === 1 ? "the first" : `the ${point.nth}th`} → Running line${point.delayMs === 0 ? "" : ` + ${point.delayMs} ms`}`;
    // Delay 0: in this very callback, as close behind the line as a signal can get.
    if (point.delayMs === 0) kill(how);
    else timers.push(setTimeout(() => kill(how), point.delayMs));
  });
  if (point.kind === "wallClock") timers.push(setTimeout(() => kill(`${point.delayMs} ms after launch`), point.delayMs));
  // No member started in this process for a while (every slot busy, or all started): kill anyway.
  if (point.kind === "afterRunning") timers.push(setTimeout(() => kill(`${point.fallbackMs} ms after launch (no → Running line before)`), point.fallbackMs));
  return new Promise((resolve) =>
    child.on("close", (code, signal) => {
      for (const t of timers) clearTimeout(t);
      // Killed only if the signal got there first: a command that had just ended is not a kill.
      resolve({ outcome: signal === "SIGKILL" ? { killed: true, how: killedHow ?? "SIGKILL" } : { killed: false, code }, stdout, stderr });
    }),
  );
}

/**
 * Issue 30: launch the command in `cwd` and SIGKILL it at the first moment `when` says (checked on
 * every stderr chunk and every millisecond), or at `boundMs` after launch so a run that never gets
 * there fails its test instead of hanging it.
 */
export function runAndKillWhen(cwd: string, args: readonly string[], when: (stderr: string) => boolean, boundMs: number): Promise<Attempt> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let killedHow: string | undefined;
  const kill = (how: string) => {
    if (killedHow !== undefined || child.exitCode !== null || child.signalCode !== null) return;
    killedHow = how;
    child.kill("SIGKILL");
  };
  const look = () => {
    if (when(stderr)) kill("when asked");
  };
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
    look();
  });
  const poll = setInterval(look, 1);
  const bound = setTimeout(() => kill(`${boundMs} ms after launch (bound)`), boundMs);
  return new Promise((resolve) =>
    child.on("close", (code, signal) => {
      clearInterval(poll);
      clearTimeout(bound);
      resolve({ outcome: signal === "SIGKILL" ? { killed: true, how: killedHow ?? "SIGKILL" } : { killed: false, code }, stdout, stderr });
    }),
  );
}

/** What a series of kills left: the kills, the final run to the end, and its `--json` status. */
export interface KillSeries {
  /** How each kill landed (`Attempt.outcome.how`). */
  kills: string[];
  /** Upgrades the fleet had started at each kill. */
  startedAtKill: number[];
  /** A run that ended by itself before all the kills were made. */
  endedEarly?: Attempt;
  /** The run to the end, with `--json` (killed only if it hangs past `finalBoundMs`). */
  last: Attempt;
  /** Its `--json` status, if it printed one. */
  status?: UpdateRunStatus;
  seconds: number;
}

/**
 * `kills` times: run the command, SIGKILL it at a seeded point, note how many upgrades had started;
 * then run it to the end with `--json`. Stops early (and says so in `endedEarly`) if a run ends
 * before it is killed: the fleet was too small or too fast to interrupt that often.
 */
export async function killRepeatedly(
  dir: string,
  args: readonly string[],
  options: { random: () => number; kills: number; upgradesStarted: () => number; finalBoundMs: number },
): Promise<KillSeries> {
  const kills: string[] = [];
  const startedAtKill: number[] = [];
  let endedEarly: Attempt | undefined;
  const began = Date.now();
  while (kills.length < options.kills) {
    const attempt = await runAndKill(dir, args, chooseKillPoint(options.random, { wallClockMaxMs: 2500, fallbackMs: 4000 }));
    if (!attempt.outcome.killed) {
      endedEarly = attempt;
      break;
    }
    kills.push(attempt.outcome.how);
    startedAtKill.push(options.upgradesStarted());
  }
  const last = await runAndKill(dir, [...args, "--json"], { kind: "wallClock", delayMs: options.finalBoundMs });
  const seconds = Math.round((Date.now() - began) / 1000);
  let status: UpdateRunStatus | undefined;
  try {
    status = (JSON.parse(last.stdout) as { status: UpdateRunStatus }).status;
  } catch {
    status = undefined;
  }
  return { kills, startedAtKill, ...(endedEarly === undefined ? {} : { endedEarly }), last, ...(status === undefined ? {} : { status }), seconds };
}

/** The problems a series' final status shows (`check`), or why there is none to check. */
export function finalStatusProblems(series: KillSeries, check: (status: UpdateRunStatus) => string[]): string[] {
  const { status, last } = series;
  return status === undefined ? [`no --json result (exit ${last.outcome.killed ? "killed" : last.outcome.code}): ${last.stderr.slice(-1000)}`] : check(status);
}

/** The test's first assertion: every kill found a run to interrupt. */
export function endedEarlyMessage(series: KillSeries): string {
  const early = series.endedEarly;
  return early === undefined ? "" : `the run ended (exit ${early.outcome.killed ? "?" : early.outcome.code}) after ${series.kills.length} kills`;
}
