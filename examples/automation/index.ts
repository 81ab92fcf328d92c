/**
 * The Automation API: a rollout run from a script instead of `pulumi up` — what release tooling or a
 * scheduled job does. The script declares the quickstart's strategy and run as an inline program, runs
 * `up` on a stack in a local file backend, then reads the stack's outputs and prints a report: the
 * outcome, each stage with its groups and members and their times, and the failed members. It also
 * writes the outputs to `outputs.json`, which `fleet-update report outputs.json` turns into an HTML page.
 *
 * From the repository's root, with the Pulumi CLI on PATH:
 *
 *   npx tsc -p examples/automation && node .build/automation/index.js [--kubernetes-version 1.32.0]
 *     [--work-dir .fleet-update/automation] [--fleet-file examples/quickstart/fleet.yaml] [--stack dev]
 *
 * The work folder holds the stack's state (unless PULUMI_BACKEND_URL names another backend), the
 * simulated fleet's state and the run's journal; run the script again and the stack is up to date.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, type OutputMap } from "@pulumi/pulumi/automation";
import { UpdateRun, UpdateStrategy } from "pulumi-fleet-update";

export interface RolloutOptions {
  /** The folder of the stack: its state, the fleet's state, the run's journal. */
  workDir: string;
  /** The simulated fleet's description. */
  fleetFile: string;
  kubernetesVersion: string;
  stackName: string;
  /** Where the CLI's output goes (default: this process's stdout). */
  onOutput?: (text: string) => void;
}

/** The rollout: the quickstart's strategy and run, upgrading to `kubernetesVersion`. */
function program(options: RolloutOptions) {
  return async () => {
    const strategy = new UpdateStrategy("rollout", {
      stages: [
        { name: "canary", groups: [{ name: "canary" }], afterStageWaitInSeconds: 600 },
        { name: "prod", groups: [{ name: "prod-eu" }, { name: "prod-us", maxConcurrency: "2" }, { name: "prod-asia" }] },
      ],
    });
    const groups: Record<string, string[]> = { canary: ["canary-1"], "prod-eu": ["eu-1", "eu-2"], "prod-us": ["us-1", "us-2", "us-3"], "prod-asia": ["asia-1", "asia-2"] };
    const run = new UpdateRun(`k8s-${options.kubernetesVersion.split(".").slice(0, 2).join("-")}`, {
      // An inline program has no Pulumi.yaml folder of its own: relative paths start at the work folder.
      projectDir: options.workDir,
      backend: { simulator: { fleetFile: options.fleetFile, stateFile: "fleet.state.json", timeScale: 600 } },
      members: Object.entries(groups).flatMap(([group, names]) => names.map((name) => ({ name, group }))),
      strategy: strategy.strategy,
      managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: options.kubernetesVersion }, nodeImageSelection: { type: "Consistent" } },
    });
    return { status: run.status, summary: run.summary, failedMembers: run.failedMembers };
  };
}

/** Runs the rollout to its end (`up`) and returns the stack's outputs. */
export async function rollout(options: RolloutOptions): Promise<OutputMap> {
  const backend = process.env.PULUMI_BACKEND_URL ?? `file://${path.join(options.workDir, "state")}`;
  if (backend.startsWith("file://")) fs.mkdirSync(backend.slice("file://".length), { recursive: true });
  const stack = await LocalWorkspace.createOrSelectStack(
    { projectName: "fleet-update-automation", stackName: options.stackName, program: program(options) },
    {
      workDir: options.workDir,
      envVars: {
        // A local file backend and an empty passphrase, unless the environment says otherwise.
        PULUMI_BACKEND_URL: backend,
        PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? "",
      },
    },
  );
  const result = await stack.up({ onOutput: options.onOutput ?? ((text) => process.stdout.write(text)) });
  fs.writeFileSync(path.join(options.workDir, "outputs.json"), `${JSON.stringify(Object.fromEntries(Object.entries(result.outputs).map(([k, v]) => [k, v.value])), null, 2)}\n`);
  return result.outputs;
}

interface Status {
  status: { state: string; startTime?: string; completedTime?: string };
  stages: Array<{ name: string; status: Status["status"]; groups: Array<{ name: string; status: Status["status"]; members: Array<{ name: string; status: Status["status"]; message?: string }> }> }>;
}
interface Summary {
  state: string;
  outcome: string;
  durationSeconds?: number;
  members: Record<string, number>;
}

/** The report, as plain text, from the stack's outputs (`status`, `summary`, `failedMembers`). */
export function report(outputs: OutputMap): string {
  const status = outputs.status!.value as Status;
  const summary = outputs.summary!.value as Summary;
  const failed = (outputs.failedMembers?.value ?? []) as Array<{ name: string }>;
  const time = (t?: string) => (t === undefined ? "—" : t.replace("T", " ").replace(/\.\d+Z$|Z$/, ""));
  const span = (s: Status["status"]) => `${s.state.padEnd(10)} ${time(s.startTime)} → ${time(s.completedTime)}`;
  const counts = Object.entries(summary.members).filter(([state, n]) => state !== "total" && n > 0).map(([state, n]) => `${n} ${state}`);
  const lines = [
    `Outcome: ${summary.outcome} (${summary.state}), ${summary.members.total} members: ${counts.join(", ")}` + (summary.durationSeconds === undefined ? "" : `, ${Math.round(summary.durationSeconds / 60)} min (fleet time)`),
  ];
  for (const stage of status.stages) {
    lines.push(`stage ${stage.name.padEnd(12)} ${span(stage.status)}`);
    for (const group of stage.groups) {
      lines.push(`  group ${group.name.padEnd(10)} ${span(group.status)}`);
      for (const member of group.members) lines.push(`    ${member.name.padEnd(14)} ${span(member.status)}${member.message === undefined ? "" : `  ${member.message}`}`);
    }
  }
  lines.push(failed.length === 0 ? "No member failed." : `Failed: ${failed.map((m) => m.name).join(", ")}`);
  return `${lines.join("\n")}\n`;
}

async function main(argv: string[]): Promise<void> {
  const option = (name: string, fallback: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
  };
  const outputs = await rollout({
    workDir: path.resolve(option("work-dir", path.join(".fleet-update", "automation"))),
    fleetFile: path.resolve(option("fleet-file", path.join("examples", "quickstart", "fleet.yaml"))),
    kubernetesVersion: option("kubernetes-version", "1.32.0"),
    stackName: option("stack", "dev"),
  });
  process.stdout.write(`\n${report(outputs)}`);
  if ((outputs.summary?.value as Summary | undefined)?.outcome !== "Succeeded") process.exitCode = 1;
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
