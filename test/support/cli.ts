/** Run the built CLI (`dist/cli/main.js`, built by `pretest`) as a user does: a child process, its output collected. */
import { spawn } from "node:child_process";
import path from "node:path";

export const CLI = path.resolve(__dirname, "../../dist/cli/main.js");

export function runCli(args: readonly string[], cwd = process.cwd()): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
