/**
 * Interrupting `pulumi up` mid-run with the real CLI: Ctrl-C twice, and SIGKILL of the whole process
 * tree. Afterwards no provider process is left driving the run, and the documented recovery continues
 * the same run with no cluster upgraded twice.
 */
import * as fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { seededRandom } from "../../src/emulator/core/faults";
import type { UpdateRunStatus } from "../../src/model/status";
import { checkFinalStatus, checkFleet, operationsFromStateFile, type LayoutStage, NO_BROKEN_PROMISE } from "../reliability/support/killInvariants";
import { E2eProject, descendants, processesMentioning, type RunningOperation } from "./support/project";
import { realCliAvailable } from "./support/pulumiCli";
import { readFleetState } from "../../src/backends/simulator/stateFile";
import { RunJournal } from "../../src/drivers/engine/journal";

const PROGRAM_DIR = "test/e2e/programs/controlled";
/** 120 simulated seconds per real second: the run takes about 25 s, so there is time to interrupt it. */
const SLOW = { timeScale: "120" };

interface Summary { state: string; outcome: string; members: Record<string, number> }

function newProject(): E2eProject {
  return new E2eProject({
    files: [PROGRAM_DIR, ["examples/quickstart/fleet.yaml", `${PROGRAM_DIR}/fleet.yaml`]],
    projectDir: PROGRAM_DIR,
    program: `${PROGRAM_DIR}/index.ts`,
    main: PROGRAM_DIR,
    projectName: "fleet-update-e2e-controlled",
  });
}

function operationsPerCluster(project: E2eProject): Record<string, number> {
  const state = readFleetState(project.path(PROGRAM_DIR, "fleet.yaml.state.json")) as { clusters: Record<string, { operations: unknown[] }> };
  return Object.fromEntries(Object.entries(state.clusters).map(([name, c]) => [name, c.operations.length]));
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
  return true;
}

/** The controlled program's strategy (test/e2e/programs/controlled/index.ts), for the fleet checks. */
const CONTROLLED_LAYOUT: LayoutStage[] = [
  { name: "canary", afterStageWaitInSeconds: 600, groups: [{ name: "canary", maxConcurrency: 1, members: ["canary-1"] }] },
  {
    name: "prod",
    groups: [
      { name: "prod-eu", maxConcurrency: 1, members: ["eu-1", "eu-2"] },
      { name: "prod-us", maxConcurrency: 2, members: ["us-1", "us-2", "us-3"] },
      { name: "prod-asia", maxConcurrency: 1, members: ["asia-1", "asia-2"] },
    ],
  },
];

/** SIGKILL an operation's whole process tree (the driver, pulumi, the program, the provider hosts). */
async function killTree(op: RunningOperation): Promise<void> {
  for (const pid of [op.child.pid!, ...descendants(op.child.pid!)]) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone already
    }
  }
  await op.exited();
}

/** Waits until production has started (canary done, members of prod upgrading). */
async function midRun(op: RunningOperation): Promise<void> {
  await op.waitFor(/member eu-1 NotStarted → Running/, 180_000);
}

describe.skipIf(!realCliAvailable())("interrupting pulumi up with the real CLI", () => {
  let project: E2eProject | undefined;
  afterEach(() => {
    for (const pid of project === undefined ? [] : processesMentioning(project.dir)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone already
      }
    }
    project?.cleanup();
  });

  it("Ctrl-C twice: the CLI exits, no provider process is left, the next up continues the same run", async () => {
    project = newProject();
    const up = project.start("up", { config: SLOW });
    await midRun(up);
    const pulumiPid = up.pulumiPid();
    expect(pulumiPid).toBeDefined();
    process.kill(pulumiPid!, "SIGINT");
    await new Promise((r) => setTimeout(r, 1500));
    if (descendants(up.child.pid!).includes(pulumiPid!)) process.kill(pulumiPid!, "SIGINT");
    const interrupted = await up.result();
    expect(interrupted.ok).toBe(false);

    // The provider host notices its engine is gone, records the run and leaves.
    expect(await until(() => processesMentioning(project!.dir).length === 0, 30_000), "a process of the project is still running").toBe(true);
    const journal = new RunJournal(project.path(PROGRAM_DIR, "fleet.yaml.state.runs", "k8s-1-32.json")).read() as { engineState: { stages: Array<{ groups: Array<{ members: Array<{ state: string }> }> }> } };
    const journaled = journal.engineState.stages.flatMap((s) => s.groups.flatMap((g) => g.members.map((m) => m.state)));
    expect(journaled.filter((s) => s === "Completed").length).toBeGreaterThanOrEqual(1);

    const again = await project.run("up", { config: SLOW });
    expect(again.ok, `${again.message}\n${again.output.slice(-3000)}`).toBe(true);
    expect(again.outputs!.summary as Summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 8, Completed: 8 } });
    expect(Object.values(operationsPerCluster(project))).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  }, 600_000);

  it("SIGKILL of pulumi alone (a CI timeout): the orphaned provider host journals the run and leaves; up continues it", async () => {
    project = newProject();
    const up = project.start("up", { config: SLOW });
    await midRun(up);
    const pulumiPid = up.pulumiPid()!;
    const providerHosts = descendants(pulumiPid).filter((pid) => /dynamic-provider/.test(fs.readFileSync(`/proc/${pid}/cmdline`, "utf8")));
    expect(providerHosts.length).toBeGreaterThan(0);
    process.kill(pulumiPid, "SIGKILL");
    await up.result();
    // Nothing tells the host its engine died but the engine's own address going dark.
    expect(await until(() => providerHosts.every((pid) => !fs.existsSync(`/proc/${pid}`)), 30_000), "the provider host is still running").toBe(true);
    const journalFile = project.path(PROGRAM_DIR, "fleet.yaml.state.runs", "k8s-1-32.json");
    expect(fs.existsSync(journalFile)).toBe(true);

    expect((await project.run("cancel")).ok).toBe(true);
    expect((await project.run("refresh", { config: SLOW, args: { clearPendingCreates: true } })).ok).toBe(true);
    const again = await project.run("up", { config: SLOW });
    expect(again.ok, `${again.message}\n${again.output.slice(-3000)}`).toBe(true);
    expect(again.outputs!.summary as Summary).toMatchObject({ state: "Completed", members: { total: 8, Completed: 8 } });
    expect(Object.values(operationsPerCluster(project))).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  }, 600_000);

  it("SIGKILL of the whole tree: the state keeps a pending create; the documented recovery continues the run", async () => {
    project = newProject();
    const up = project.start("up", { config: SLOW });
    await midRun(up);
    const tree = [up.child.pid!, ...descendants(up.child.pid!)];
    for (const pid of tree) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone already
      }
    }
    await up.exited();
    expect(await until(() => processesMentioning(project!.dir).length === 0, 10_000)).toBe(true);
    const pending = project.state().checkpoint.latest?.pending_operations ?? [];
    expect(pending).toEqual([expect.objectContaining({ type: "creating" })]);

    // The recovery the README gives for the file backend: the killed CLI left its lock, and a create
    // the engine never saw end.
    const cancel = await project.run("cancel");
    expect(cancel.ok, `${cancel.message}\n${cancel.output.slice(-3000)}`).toBe(true);
    const refresh = await project.run("refresh", { config: SLOW, args: { clearPendingCreates: true } });
    expect(refresh.ok, `${refresh.message}\n${refresh.output.slice(-3000)}`).toBe(true);
    expect(project.state().checkpoint.latest?.pending_operations ?? []).toEqual([]);

    const again = await project.run("up", { config: SLOW });
    expect(again.ok, `${again.message}\n${again.output.slice(-3000)}`).toBe(true);
    expect(again.outputs!.summary as Summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 8, Completed: 8 } });
    expect(Object.values(operationsPerCluster(project))).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  }, 600_000);

  it("issue 19: SIGKILL of the whole tree at 4 seeded points as upgrades start, each followed by the documented recovery: no group over its limit, no cluster upgraded twice, every member Completed with its operation id", async () => {
    project = newProject();
    const random = seededRandom(190_503);
    const stateFile = project.path(PROGRAM_DIR, "fleet.yaml.state.json");
    const started = () => (fs.existsSync(stateFile) ? Object.values(operationsPerCluster(project!)).reduce((a, b) => a + b, 0) : 0);
    const kills: string[] = [];
    // Kill points: the instant the fleet's state file shows the n-th upgrade started (the provider is
    // then inside a reconcile pass, between the backend's answer and its journal; n grows from kill to
    // kill so that the run moves on), or a seeded delay after this up's first → Running line.
    for (const [i, n] of [1, 3, 5, 7].entries()) {
      const up = project.start("up", { config: SLOW });
      if (i !== 1) {
        const dir = project.path(PROGRAM_DIR);
        // The tree is known before the instant comes, so the kill follows the state file's write at once.
        let tree: number[] = [];
        const refresh = setInterval(() => (tree = [up.child.pid!, ...descendants(up.child.pid!)]), 100);
        await new Promise<void>((resolve, reject) => {
          const watcher = fs.watch(dir, () => {
            if (started() < n) return;
            for (const pid of tree) {
              try {
                process.kill(pid, "SIGKILL");
              } catch {
                // gone already
              }
            }
            watcher.close();
            resolve();
          });
          void up.exited().then(() => {
            watcher.close();
            reject(new Error(`up ended before the ${n}th upgrade started:\n${up.printed.slice(-3000)}`));
          });
        }).finally(() => clearInterval(refresh));
        await killTree(up);
        kills.push(`at upgrade ${n} (${started()} started)`);
      } else {
        await up.waitFor(/member \S+ \S+ → Running/, 180_000);
        const delayMs = Math.floor(random() * 1500);
        await new Promise((r) => setTimeout(r, delayMs));
        await killTree(up);
        kills.push(`${delayMs} ms after a → Running line (${started()} started)`);
      }
      expect(await until(() => processesMentioning(project!.dir).length === 0, 30_000), `kill ${i + 1}: a process of the project is still running`).toBe(true);
      const cancel = await project.run("cancel");
      expect(cancel.ok, `${cancel.message}\n${cancel.output.slice(-3000)}`).toBe(true);
      const refresh = await project.run("refresh", { config: SLOW, args: { clearPendingCreates: true } });
      expect(refresh.ok, `${refresh.message}\n${refresh.output.slice(-3000)}`).toBe(true);
    }
    const again = await project.run("up", { config: SLOW });
    expect(again.ok, `${again.message}\n${again.output.slice(-3000)}`).toBe(true);

    const ops = operationsFromStateFile(readFleetState(project.path(PROGRAM_DIR, "fleet.yaml.state.json"))!);
    const fleet = checkFleet(ops, CONTROLLED_LAYOUT);
    const statusProblems = checkFinalStatus(again.outputs!.status as UpdateRunStatus, ops);
    console.info(`[kill-pulumi] kills: ${kills.join(", ")}; overrun instants ${fleet.overruns.length}, double upgrades ${fleet.doubleUpgrades.length}, status problems ${statusProblems.length}`);
    expect(again.outputs!.summary as Summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 8, Completed: 8 } });
    expect({ ...fleet, worstOverruns: undefined, statusProblems }).toEqual({
      ...NO_BROKEN_PROMISE,
      statusProblems: [],
    });
  }, 600_000);
});
