/** `fleet-update simulate --events FILE --webhook URL`: every transition, in order, to a file and to an endpoint. */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { simulateCommand, type SimulateOptions } from "../../src/cli/simulate";
import { failFirst, startWebhookServer, type WebhookServer } from "./webhookServer";

const DEMO = resolve(__dirname, "../../examples/demo/scenario.yaml");
const STAGED = resolve(__dirname, "../../examples/scenarios/02-staged-parallel.yaml");
const scratch = mkdtempSync(join(tmpdir(), "fleet-update-sinks-"));

/** `afterOutputMs`: how long the command took to return once its result was printed. */
async function simulate(file: string, options: SimulateOptions): Promise<{ code: number; stdout: string; stderr: string; afterOutputMs: number }> {
  let stdout = "";
  let stderr = "";
  let printedAt = Number.NaN;
  const code = await simulateCommand(file, { json: true, ...options }, {
    stdout: (t) => {
      stdout += t;
      printedAt = performance.now();
    },
    stderr: (t) => (stderr += t),
  });
  return { code, stdout, stderr, afterOutputMs: performance.now() - printedAt };
}

let server: WebhookServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("simulate --events and --webhook", () => {
  it("--events writes each event of the run as one JSON line, the same list as the result's events", async () => {
    const file = join(scratch, "demo.jsonl");
    const { code, stdout, stderr } = await simulate(DEMO, { events: file });
    expect([code, stderr]).toEqual([0, ""]);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    const { events } = JSON.parse(stdout) as { events: unknown[] };
    expect(events.length).toBeGreaterThan(50);
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(events);
  });

  it("--webhook POSTs every event in order, through an endpoint that fails the first attempts", async () => {
    server = await startWebhookServer(failFirst(1));
    const { code, stdout, stderr } = await simulate(STAGED, { webhook: `${server.url}/events?token=abc`, webhookOptions: { initialBackoffMs: 10 } });
    expect([code, stderr]).toEqual([0, ""]);
    const { events } = JSON.parse(stdout) as { events: unknown[] };
    expect(server.delivered()).toEqual(events);
    expect(server.attempts).toHaveLength(2 * events.length);
    expect(server.attempts.map((a) => Number(a.sequence))).toEqual(events.flatMap((_, i) => [i + 1, i + 1]));
  });

  it("a dead webhook costs the flush bound and no more, and the warning keeps the URL's token to itself", async () => {
    server = await startWebhookServer(() => "hang");
    const file = join(scratch, "dead.jsonl");
    const { code, stdout, stderr, afterOutputMs } = await simulate(DEMO, { events: file, webhook: `${server.url}/hook?token=s3cr3t`, webhookOptions: { flushTimeoutMs: 1_000 } });
    expect(code).toBe(0);
    expect(JSON.parse(stdout).status.status.state).toBe("Completed");
    expect(afterOutputMs).toBeGreaterThanOrEqual(990);
    expect(afterOutputMs).toBeLessThan(2_500);
    expect(stderr).toMatch(new RegExp(`^warning: webhook ${server.url.replace(/\./g, "\\.")}/…: \\d+ event\\(s\\) not delivered: gave up after waiting 1 s at the end of the run\\n$`));
    expect(stderr).not.toContain("s3cr3t");
    expect(readFileSync(file, "utf8").trimEnd().split("\n")).toHaveLength(JSON.parse(stdout).events.length);
  });

  it("exits 2 before running when the journal cannot be opened or the webhook is no URL", async () => {
    const missing = join(scratch, "no-such-dir", "events.jsonl");
    expect(await simulate(STAGED, { events: missing })).toMatchObject({ code: 2, stdout: "", stderr: `--events: ${missing}: cannot write (ENOENT)\n` });
    expect(await simulate(STAGED, { webhook: "hooks.example/s3cr3t" })).toMatchObject({ code: 2, stdout: "", stderr: "--webhook: not a valid URL\n" });
  });
});
