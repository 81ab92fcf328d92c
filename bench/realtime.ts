/**
 * `npm run bench:realtime [-- --sizes 1000,5000,10000] [-- --time-scale 6000] [-- --baseline OTHER/dist]
 * [-- --timeout-seconds 900] [-- --json]` (issue 23): `fleet-update run` on the simulated fleet, the
 * path a user takes, at fleet scale. The shape is the issue's: one stage of 40 groups at
 * `maxConcurrency: "5"`, 5-minute upgrades (ControlPlaneOnly), `--time-scale` high enough to finish
 * fast. For each size, in its own folder and its own Node process:
 *
 * - `fleet-update plan` of the fresh fleet: the makespan it predicts (first predicted start to last
 *   predicted end);
 * - `fleet-update run ... --json`: wall time, peak RSS, the bytes the process wrote to files (the run
 *   journal and the fleet's state file; its `/proc/self/io` `wchar` less what it wrote to stdout and
 *   stderr), and the run's simulated makespan (its `startTime` to its `completedTime`) against the plan's.
 *
 * With `--baseline DIST` (another build's `dist/`, e.g. a worktree of the commit before, built), each
 * size runs with it too, first, then with this build, so both meet the same phases of the machine.
 * A run that does not end within `--timeout-seconds` is killed and reported as such.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { round } from "./round";

const DEFAULT_SIZES = [1_000, 5_000, 10_000];
const GROUPS = 40;
const UPGRADE_MINUTES = 5;
const IMAGE = "AKSUbuntu-2204gen2containerd-202610.01.0";

/** The CLI as the bench build compiled it (`.build/src/cli/main.js`). */
const CLI = path.join(__dirname, "..", "src", "cli", "main.js");

/**
 * Runs the CLI at `cli` as its `main` does, and as it exits prints on stderr's last line its peak RSS
 * (KiB) and the bytes it had written (`wchar`: files, stdout and stderr alike).
 */
const wrapper = (cli: string) => `
process.on("exit", () => {
  let wchar = -1;
  try { wchar = Number(/wchar: (\\d+)/.exec(require("fs").readFileSync("/proc/self/io", "utf8"))[1]); } catch {}
  process.stderr.write("\\nbench-io " + JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, wchar }) + "\\n");
});
require(${JSON.stringify(cli)}).buildProgram().parseAsync([process.argv[0], ${JSON.stringify(cli)}, ...process.argv.slice(1)]).catch((e) => {
  process.stderr.write(String(e && e.stack));
  process.exitCode = 1;
});
`;

interface Ran {
  code: number | null;
  timedOut: boolean;
  wallMs: number;
  stdout: string;
  maxRssKb?: number;
  /** Bytes written to files: `wchar` less stdout and stderr. */
  fileBytes?: number;
}

function runCli(cli: string, cwd: string, args: readonly string[], timeoutMs: number): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const child = spawn(process.execPath, ["-e", wrapper(cli), ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      const wallMs = performance.now() - began;
      const stdout = Buffer.concat(out);
      const stderr = Buffer.concat(err).toString("utf8");
      const io = /\nbench-io (\{.*\})\n$/.exec(stderr);
      const ran: Ran = { code, timedOut, wallMs, stdout: stdout.toString("utf8") };
      if (io !== null) {
        const { maxRssKb, wchar } = JSON.parse(io[1] as string) as { maxRssKb: number; wchar: number };
        const stderrBytes = Buffer.byteLength(stderr) - Buffer.byteLength(io[0]) + 1;
        ran.maxRssKb = maxRssKb;
        if (wchar >= 0) ran.fileBytes = wchar - stdout.length - stderrBytes;
      }
      if (!timedOut && code !== 0) {
        reject(new Error(`${args.join(" ")} exited ${code}: ${stderr.slice(-2000)}`));
        return;
      }
      resolve(ran);
    });
  });
}

/** The issue's fleet: `members` clusters, one stage of 40 groups at maxConcurrency 5, 5-minute upgrades. */
export function writeWorkspace(dir: string, members: number): void {
  const names = Array.from({ length: members }, (_, i) => `m-${i + 1}`);
  const fleet = {
    regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: IMAGE }] } },
    members: names.map((name) => ({ name, region: "westeurope", kubernetesVersion: "1.31.2", nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE }], simulation: { upgradeMinutes: UPGRADE_MINUTES } })),
  };
  fs.writeFileSync(path.join(dir, "fleet.json"), JSON.stringify(fleet));
  const spec = {
    members: names.map((name, i) => ({ name, group: `g-${i % GROUPS}` })),
    strategy: { stages: [{ name: "all", groups: Array.from({ length: GROUPS }, (_, g) => ({ name: `g-${g}`, maxConcurrency: "5" })) }] },
    managedClusterUpdate: { upgrade: { type: "ControlPlaneOnly", kubernetesVersion: "1.32.0" } },
    timeoutMinutes: 600,
  };
  fs.writeFileSync(path.join(dir, "rollout.json"), JSON.stringify(spec));
}

export interface RealtimeRow {
  members: number;
  wallSeconds: number;
  timedOut: boolean;
  peakRssMb?: number;
  /** MB written to files (journal + fleet state, and the lease's heartbeats). */
  writtenMb?: number;
  /** Simulated minutes, the run's and the plan's. */
  runMakespanMinutes?: number;
  planMakespanMinutes: number;
  /** The run's makespan over the plan's, less 1, in percent (target: within 1). */
  offPercent?: number;
}

async function measure(cli: string, members: number, timeScale: number, timeoutMs: number): Promise<RealtimeRow> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-realtime-${members}-`));
  try {
    writeWorkspace(dir, members);
    const backend = ["--backend", "simulator:fleet.json"];
    const plan = await runCli(cli, dir, ["plan", "rollout.json", ...backend, "--json"], timeoutMs);
    const planned = JSON.parse(plan.stdout) as { members: Array<{ predictedStart?: string; predictedEnd?: string }> };
    const starts = planned.members.flatMap((m) => (m.predictedStart === undefined ? [] : [Date.parse(m.predictedStart)]));
    const ends = planned.members.flatMap((m) => (m.predictedEnd === undefined ? [] : [Date.parse(m.predictedEnd)]));
    const planMakespanMinutes = (Math.max(...ends) - Math.min(...starts)) / 60_000;
    const ran = await runCli(cli, dir, ["run", "rollout.json", ...backend, "--time-scale", String(timeScale), "--progress", "lines", "--json"], timeoutMs);
    const row: RealtimeRow = { members, wallSeconds: round(ran.wallMs / 1000, 2), timedOut: ran.timedOut, planMakespanMinutes: round(planMakespanMinutes, 2) };
    if (ran.maxRssKb !== undefined) row.peakRssMb = round(ran.maxRssKb / 1024, 0);
    if (ran.fileBytes !== undefined) row.writtenMb = round(ran.fileBytes / 1e6, 1);
    if (!ran.timedOut) {
      const { status } = JSON.parse(ran.stdout) as { status: { status: { state: string; startTime?: string; completedTime?: string } } };
      if (status.status.state !== "Completed") throw new Error(`the ${members}-member run ended ${status.status.state}`);
      row.runMakespanMinutes = round((Date.parse(status.status.completedTime as string) - Date.parse(status.status.startTime as string)) / 60_000, 2);
      row.offPercent = round((row.runMakespanMinutes / planMakespanMinutes - 1) * 100, 2);
    }
    return row;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function argValue(args: readonly string[], flag: string): string | undefined {
  const at = args.indexOf(flag);
  return at < 0 ? undefined : args[at + 1];
}

function format(row: RealtimeRow | undefined): string {
  if (row === undefined) return "";
  const wall = row.timedOut ? `> ${row.wallSeconds} s (killed)` : `${row.wallSeconds} s`;
  const makespan = row.runMakespanMinutes === undefined ? "—" : `${row.runMakespanMinutes} min (${row.offPercent! >= 0 ? "+" : ""}${row.offPercent}%)`;
  return `${wall}, ${row.peakRssMb ?? "?"} MB, ${row.writtenMb ?? "?"} MB written, makespan ${makespan}`;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const sizes = (argValue(args, "--sizes") ?? DEFAULT_SIZES.join(",")).split(",").map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < GROUPS)) throw new Error(`--sizes takes member counts of at least ${GROUPS}, e.g. --sizes 1000,5000`);
  const timeScale = Number(argValue(args, "--time-scale") ?? 6000);
  const timeoutMs = Number(argValue(args, "--timeout-seconds") ?? 900) * 1000;
  const baselineDist = argValue(args, "--baseline");
  const baselineCli = baselineDist === undefined ? undefined : path.resolve(baselineDist, "cli", "main.js");
  const rows: Array<{ members: number; current: RealtimeRow; baseline?: RealtimeRow }> = [];
  for (const members of sizes) {
    const baseline = baselineCli === undefined ? undefined : await measure(baselineCli, members, timeScale, timeoutMs);
    const current = await measure(CLI, members, timeScale, timeoutMs);
    rows.push({ members, current, ...(baseline === undefined ? {} : { baseline }) });
    process.stderr.write(`${members}: ${format(current)}${baseline === undefined ? "" : ` | baseline ${format(baseline)}`}\n`);
  }
  if (args.includes("--json")) {
    process.stdout.write(`${JSON.stringify({ timeScale, groups: GROUPS, upgradeMinutes: UPGRADE_MINUTES, rows }, null, 2)}\n`);
    return;
  }
  const lines = [
    `fleet-update run on the simulated fleet: one stage of ${GROUPS} groups at maxConcurrency 5, ${UPGRADE_MINUTES}-minute upgrades, --time-scale ${timeScale}`,
    `| members | plan's makespan | this build: wall, peak RSS, written, run's makespan (vs plan) |${baselineCli === undefined ? "" : " baseline |"}`,
    `|---|---|---|${baselineCli === undefined ? "" : "---|"}`,
    ...rows.map((r) => `| ${r.members.toLocaleString("en-US")} | ${r.current.planMakespanMinutes} min | ${format(r.current)} |${r.baseline === undefined ? "" : ` ${format(r.baseline)} |`}`),
  ];
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1] as (typeof rows)[number];
    const b = rows[i] as (typeof rows)[number];
    if (!a.current.timedOut && !b.current.timedOut) lines.push(`wall ${a.members} → ${b.members} members (×${round(b.members / a.members, 2)}): ×${round(b.current.wallSeconds / a.current.wallSeconds, 2)}`);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

// Run as `npm run bench:realtime`; imported by `pulumiUp.ts` for its workspace.
if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exitCode = 1;
  });
}
