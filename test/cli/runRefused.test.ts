/**
 * Issue 19: a `fleet-update run` that is refused (exit 2) leaves every file byte-identical — the
 * simulated fleet's state file (whose clock a new `--time-scale` would re-anchor), the run's journal
 * and its folder, the lease files. In process, as the command functions are called by `main.ts`.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCommand, type RunOptions } from "../../src/cli/run";

const OLD = "AKSUbuntu-2204gen2containerd-202610.01.0";
const NEW = "AKSUbuntu-2204gen2containerd-202611.24.0";
const FLEET = `regions:
  westeurope:
    kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}, {version: 1.33.0}]
    nodeImages: [{version: ${NEW}}]
members:
${["a", "b"].map((n) => `  - {name: ${n}, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: ${OLD}}]}`).join("\n")}
`;
const SPEC = `members: [{name: a, group: one}, {name: b, group: two}]
strategy: {stages: [{name: first, groups: [{name: one}]}, {name: second, groups: [{name: two}]}]}
managedClusterUpdate: {upgrade: {type: Full, kubernetesVersion: 1.32.0}}
`;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every file under `dir` (lease files included) with a hash of its bytes. */
export function snapshotFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const rel = path.relative(dir, full);
    out[rel] = entry.isFile() ? createHash("sha256").update(fs.readFileSync(full)).digest("hex") : "(directory)";
  }
  return out;
}

async function run(dir: string, spec: string, options: Partial<RunOptions> = {}) {
  const file = path.join(dir, "spec.yaml");
  fs.writeFileSync(file, spec);
  let stdout = "";
  let stderr = "";
  const code = await runCommand(file, { backend: `simulator:${path.join(dir, "fleet.yaml")}`, timeScale: "1000000", progress: "lines", ...options }, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr, file };
}

/**
 * A fleet that has been through a run (its state file and journal exist), its lease files removed:
 * the leases stay this process's until it exits, and their heartbeat would rewrite them meanwhile.
 */
async function usedFleet(spec = SPEC): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "run-refused-"));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, "fleet.yaml"), FLEET);
  const first = await run(dir, spec);
  expect([0, 4], first.stderr).toContain(first.code);
  dropLeaseFiles(dir);
  return dir;
}

function dropLeaseFiles(dir: string): void {
  for (const rel of Object.keys(snapshotFiles(dir))) if (/\.(lock|lease)$/.test(rel)) fs.rmSync(path.join(dir, rel));
}

describe("a refused fleet-update run touches no file (issue 19)", () => {
  it("a skip naming an unknown member, at a new --time-scale: exit 2 naming the field, the state file not rewritten", async () => {
    const dir = await usedFleet();
    const before = snapshotFiles(dir);
    expect(Object.keys(before)).toContain("fleet.yaml.state.json");
    const { code, stdout, stderr, file } = await run(dir, `${SPEC}skip: [{type: Member, name: ghost}]\n`, { timeScale: "999" });
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe(`${file}: skip[0].name: no member named 'ghost' in this run\n`);
    expect(snapshotFiles(dir)).toEqual({ ...before, "spec.yaml": snapshotFiles(dir)["spec.yaml"] });
  });

  it("unknown groups, stages and waits in skip are each named; a fresh fleet gets no state file, journal or lease", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "run-refused-"));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, "fleet.yaml"), FLEET);
    const skip = "skip: [{type: Group, name: three}, {type: Stage, name: third}, {type: AfterStageWait, name: zeroth}, {type: Member, name: a}]\n";
    const { code, stderr, file } = await run(dir, `${SPEC}${skip}`);
    expect(code).toBe(2);
    expect(stderr.split("\n").filter((l) => l !== "")).toEqual([
      `${file}: skip[0].name: no group named 'three' in this run`,
      `${file}: skip[1].name: no stage named 'third' in this run`,
      `${file}: skip[2].name: no stage named 'zeroth' in this run`,
    ]);
    expect(Object.keys(snapshotFiles(dir)).sort()).toEqual(["fleet.yaml", "spec.yaml"]);
  });

  it("a journal holding an unfinished run of another spec: refused before the backend is opened", async () => {
    const dir = await usedFleet(`${SPEC}state: NotStarted\n`);
    const before = snapshotFiles(dir);
    const { code, stderr } = await run(dir, SPEC.replace("1.32.0", "1.33.0"), { timeScale: "999" });
    expect(code).toBe(2);
    expect(stderr).toContain("started from a different spec");
    expect(snapshotFiles(dir)).toEqual({ ...before, "spec.yaml": snapshotFiles(dir)["spec.yaml"] });
  });

  it("a skip of a member whose upgrade runs, refused by the engine, at a new --time-scale: the state file not rewritten", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "run-refused-"));
    dirs.push(dir);
    // a's upgrade takes a week of simulated time (10 real minutes at 1000×): still running later.
    fs.writeFileSync(path.join(dir, "fleet.yaml"), FLEET.replace(`nodeImageVersion: ${OLD}}]}`, `nodeImageVersion: ${OLD}}], simulation: {upgradeMinutes: 10080}}`));
    const first = await run(dir, `${SPEC}timeoutMinutes: 0.01\n`, { timeScale: "1000" });
    expect(first.code, first.stderr).toBe(3);
    dropLeaseFiles(dir);
    const before = snapshotFiles(dir);
    const { code, stderr } = await run(dir, `${SPEC}timeoutMinutes: 0.01\nskip: [{type: Member, name: a}]\n`, { timeScale: "999" });
    expect(code).toBe(2);
    expect(stderr).toContain("skip refused, nothing was skipped: Member 'a' is running");
    dropLeaseFiles(dir);
    expect(snapshotFiles(dir)).toEqual({ ...before, "spec.yaml": snapshotFiles(dir)["spec.yaml"] });
  });

  it("a broken fleet file leaves no lease file behind", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "run-refused-"));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, "fleet.yaml"), FLEET.replace("region: westeurope", "region: nowhere"));
    const { code, stderr } = await run(dir, SPEC);
    expect(code).toBe(2);
    expect(stderr).toContain("region 'nowhere' is not declared under regions");
    expect(Object.keys(snapshotFiles(dir)).sort()).toEqual(["fleet.yaml", "spec.yaml"]);
  });
});
