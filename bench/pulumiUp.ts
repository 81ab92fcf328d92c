/**
 * `npm run bench:pulumi-up [-- --members 2000] [-- --time-scale 6000]` (issue 23): `pulumi up` with
 * the real Pulumi CLI (built by `scripts/pulumi-cli.sh`) of an `UpdateRun` on the simulated fleet, the
 * shape of `bench:realtime` (one stage of 40 groups at `maxConcurrency: "5"`, 5-minute upgrades). It
 * reports the wall time of the `up`, and the run's simulated makespan (the `status` output's
 * `startTime` to `completedTime`) against `fleet-update plan`'s for the same fresh fleet (target:
 * within 1%).
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { writeWorkspace } from "./realtime";
import { round } from "./round";

const REPO = path.resolve(__dirname, "..", "..");
const CLI = path.join(__dirname, "..", "src", "cli", "main.js");

function argValue(args: readonly string[], flag: string): string | undefined {
  const at = args.indexOf(flag);
  return at < 0 ? undefined : args[at + 1];
}

function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string; wallMs: number }> {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, wallMs: performance.now() - began }));
  });
}

const PROGRAM = `
const fs = require("node:fs");
const path = require("node:path");
const { UpdateRun } = require("pulumi-fleet-update");
const spec = JSON.parse(fs.readFileSync(path.join(__dirname, "rollout.json"), "utf8"));
const run = new UpdateRun("rollout", {
  ...spec,
  backend: { simulator: { fleetFile: path.join(__dirname, "fleet.json"), timeScale: Number(process.env.BENCH_TIME_SCALE) } },
});
exports.status = run.status;
exports.summary = run.summary;
`;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const members = Number(argValue(args, "--members") ?? 2000);
  const timeScale = Number(argValue(args, "--time-scale") ?? 6000);
  const built = spawnSync("bash", [path.join(REPO, "scripts", "pulumi-cli.sh")], { cwd: REPO, encoding: "utf8" });
  if (built.status !== 0) throw new Error(`the Pulumi CLI could not be built: ${built.stderr.trim().split("\n").slice(-3).join(" ")}`);
  const root = built.stdout.trim();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-pulumi-up-${members}-`));
  const backend = fs.mkdtempSync(path.join(os.tmpdir(), "bench-pulumi-backend-"));
  try {
    writeWorkspace(dir, members);
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: bench-pulumi-up\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\n");
    fs.writeFileSync(path.join(dir, "index.js"), PROGRAM);
    fs.symlinkSync(path.join(REPO, "node_modules"), path.join(dir, "node_modules"), "junction");
    const pluginDir = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [REPO] }));
    const env = {
      ...process.env,
      PATH: [path.join(root, "bin"), pluginDir, process.env.PATH ?? ""].join(path.delimiter),
      PULUMI_HOME: path.join(backend, "home"),
      PULUMI_BACKEND_URL: `file://${backend}`,
      PULUMI_CONFIG_PASSPHRASE: "",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      BENCH_TIME_SCALE: String(timeScale),
    };
    const pulumi = path.join(root, "bin", "pulumi");
    const plan = await run(process.execPath, [CLI, "plan", "rollout.json", "--backend", "simulator:fleet.json", "--json"], dir, env);
    if (plan.code !== 0) throw new Error(`plan failed: ${plan.stderr}`);
    const planned = JSON.parse(plan.stdout) as { members: Array<{ predictedStart?: string; predictedEnd?: string }> };
    const planMakespan = (Math.max(...planned.members.map((m) => Date.parse(m.predictedEnd ?? ""))) - Math.min(...planned.members.map((m) => Date.parse(m.predictedStart ?? "")))) / 60_000;
    const init = await run(pulumi, ["stack", "init", "dev", "--non-interactive"], dir, env);
    if (init.code !== 0) throw new Error(`stack init failed: ${init.stderr}`);
    const up = await run(pulumi, ["up", "--yes", "--skip-preview", "--non-interactive"], dir, env);
    if (up.code !== 0) throw new Error(`pulumi up failed:\n${(up.stdout + up.stderr).slice(-3000)}`);
    const out = await run(pulumi, ["stack", "output", "--json", "--show-secrets"], dir, env);
    const { status } = JSON.parse(out.stdout) as { status: { status: { state: string; startTime: string; completedTime: string } } };
    const runMakespan = (Date.parse(status.status.completedTime) - Date.parse(status.status.startTime)) / 60_000;
    const row = {
      members,
      timeScale,
      state: status.status.state,
      upWallSeconds: round(up.wallMs / 1000, 2),
      runMakespanMinutes: round(runMakespan, 2),
      planMakespanMinutes: round(planMakespan, 2),
      offPercent: round((runMakespan / planMakespan - 1) * 100, 2),
      progressLines: up.stdout.split("\n").filter((l) => l.includes("[rollout]")).length,
    };
    process.stdout.write(args.includes("--json") ? `${JSON.stringify(row, null, 2)}\n` : `pulumi up of ${members} members (time scale ${timeScale}): ${row.state}, wall ${row.upWallSeconds} s; makespan ${row.runMakespanMinutes} min against the plan's ${row.planMakespanMinutes} min (${row.offPercent >= 0 ? "+" : ""}${row.offPercent}%, target within 1%); ${row.progressLines} progress lines\n`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(backend, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
