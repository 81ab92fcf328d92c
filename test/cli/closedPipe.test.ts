/** `fleet-update simulate x.yaml --json | head`: a reader that stops early ends the command quietly. */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { generateScenario } from "../../bench/scenarioShapes";

const MAIN = resolve(__dirname, "../../dist/cli/main.js");
// Megabytes of output, far more than a pipe holds, so the command is still writing when the pipe closes.
const SCENARIO = join(mkdtempSync(join(tmpdir(), "closed-pipe-")), "scenario.json");
writeFileSync(SCENARIO, JSON.stringify(generateScenario("grow", 2_000)));

describe("a closed standard output", () => {
  it("ends the command with exit 0 and nothing on stderr, not a stack trace", async () => {
    const child = spawn(process.execPath, [MAIN, "simulate", SCENARIO, "--json"], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    // Read the first piece, then close the pipe, as `head -1` does.
    const first = await new Promise<string>((done) => child.stdout.once("data", (chunk: Buffer) => done(chunk.toString())));
    child.stdout.destroy();
    const code = await new Promise<number | null>((done) => child.on("close", (exitCode) => done(exitCode)));
    expect(first.startsWith("{")).toBe(true);
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});
