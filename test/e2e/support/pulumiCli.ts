/**
 * The real Pulumi CLI for the end-to-end tests: built from its Go module by `scripts/pulumi-cli.sh`
 * (cached per version outside the repo), never downloaded.
 *
 * - On a machine with Go, the first use builds it (minutes, once).
 * - Without Go, the real-CLI suites are skipped with one line saying why, unless CI=true: then a
 *   missing CLI fails the run, so CI can never go green without them.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";

export const REPO_ROOT = path.resolve(__dirname, "../../..");
export const PULUMI_CLI_VERSION = "v3.248.0";

export interface PulumiCli {
  /** The folder holding `bin/pulumi` (what `PulumiCommand.get({ root })` takes). */
  root: string;
  /** PATH for the CLI's plugins: its own bin, then `pulumi-resource-pulumi-nodejs` from @pulumi/pulumi. */
  path: string;
}

let cached: { cli?: PulumiCli; reason?: string } | undefined;

/** The CLI, building it on first use; or why it cannot be had here. */
export function pulumiCli(): { cli?: PulumiCli; reason?: string } {
  if (cached !== undefined) return cached;
  const result = spawnSync("bash", [path.join(REPO_ROOT, "scripts", "pulumi-cli.sh")], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 25 * 60_000,
  });
  if (result.status === 0) {
    const root = result.stdout.trim();
    const pluginDir = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [REPO_ROOT] }));
    cached = { cli: { root, path: [path.join(root, "bin"), pluginDir, process.env.PATH ?? ""].join(path.delimiter) } };
  } else {
    const why = (result.stderr || result.error?.message || `exit ${result.status}`).trim().split("\n").slice(-3).join(" ");
    cached = { reason: why };
  }
  return cached;
}

/**
 * Whether the real-CLI suites run. Under CI a missing CLI throws (a red run), elsewhere the suite is
 * skipped with one line on stderr.
 */
export function realCliAvailable(): boolean {
  const { cli, reason } = pulumiCli();
  if (cli !== undefined) return true;
  if (process.env.CI === "true") throw new Error(`the real Pulumi CLI is required under CI: ${reason}`);
  process.stderr.write(`skipping the real-CLI tests: ${reason}\n`);
  return false;
}

let yamlHost: { ready: boolean; reason?: string } | undefined;

/**
 * Issue 24: Pulumi's YAML language host, built beside the CLI by `scripts/pulumi-yaml.sh` (once per
 * version, about a minute); the CLI's PATH (`PulumiCli.path`) then finds it. Skipped like the CLI
 * without Go, and a failure under CI=true.
 */
export function yamlHostAvailable(): boolean {
  if (!realCliAvailable()) return false;
  if (yamlHost === undefined) {
    const result = spawnSync("bash", [path.join(REPO_ROOT, "scripts", "pulumi-yaml.sh")], { cwd: REPO_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 15 * 60_000 });
    yamlHost = result.status === 0 ? { ready: true } : { ready: false, reason: (result.stderr || result.error?.message || `exit ${result.status}`).trim().split("\n").slice(-3).join(" ") };
  }
  if (yamlHost.ready) return true;
  if (process.env.CI === "true") throw new Error(`Pulumi's YAML language host is required under CI: ${yamlHost.reason}`);
  process.stderr.write(`skipping the Pulumi YAML tests: ${yamlHost.reason}\n`);
  return false;
}
