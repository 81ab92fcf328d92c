/** The webhook sink: in order, retried with growing pauses, bounded, never blocking, never leaking its URL's secrets. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createServer, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebhookSink } from "../../src/events/webhook";
import { WebhookOutboxError, webhookOutboxFile } from "../../src/events/webhookOutbox";
import type { RunEvent } from "../../src/model/status";
import { failFirst, startWebhookServer, type WebhookServer } from "./webhookServer";

const event = (i: number): RunEvent => ({ time: `2026-12-05T00:${String(i).padStart(2, "0")}:00Z`, scope: "member", name: `m-${i}`, from: "NotStarted", to: "Running" });
const FAST = { initialBackoffMs: 20, maxBackoffMs: 200, flushTimeoutMs: 5_000 };

/** A loopback port nothing listens on (just released). */
async function unusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

let server: WebhookServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("WebhookSink", () => {
  it("retries a failed attempt and delivers every event once, in order, as JSON with its sequence number", async () => {
    server = await startWebhookServer(failFirst(2));
    const sink = new WebhookSink(`${server.url}/hook`, FAST);
    const events = [1, 2, 3].map(event);
    for (const e of events) sink.write(e);
    expect(await sink.close()).toEqual({ written: 3, problems: [] });
    expect(server.delivered()).toEqual(events);
    expect(server.attempts.map((a) => `${a.sequence}:${a.status}`)).toEqual(["1:503", "1:503", "1:200", "2:503", "2:503", "2:200", "3:503", "3:503", "3:200"]);
    expect(server.attempts.every((a) => a.contentType === "application/json" && a.path === "/hook")).toBe(true);
  });

  it("waits longer before each further attempt", async () => {
    server = await startWebhookServer(failFirst(3, 500));
    const sink = new WebhookSink(server.url, { ...FAST, initialBackoffMs: 100, maxBackoffMs: 1_000 });
    sink.write(event(1));
    await sink.close();
    const gaps = server.attempts.slice(1).map((a, i) => a.at - server!.attempts[i]!.at);
    expect(gaps).toHaveLength(3);
    expect(gaps[0]).toBeGreaterThanOrEqual(95);
    expect(gaps[1]).toBeGreaterThanOrEqual(195);
    expect(gaps[2]).toBeGreaterThanOrEqual(395);
  });

  it("gives up an event after the last attempt, says so, and goes on with the next", async () => {
    server = await startWebhookServer((body) => (body.includes('"m-1"') ? 500 : 200));
    const sink = new WebhookSink(server.url, { ...FAST, maxAttempts: 3 });
    sink.write(event(1));
    sink.write(event(2));
    const report = await sink.close();
    expect(server.attempts.map((a) => `${a.sequence}:${a.status}`)).toEqual(["1:500", "1:500", "1:500", "2:200"]);
    expect(report.written).toBe(1);
    expect(report.problems).toEqual([`webhook ${server.url}/: event 1 (member m-1 NotStarted→Running at 2026-12-05T00:01:00Z) not delivered: HTTP 500 after 3 attempt(s)`]);
  });

  it("does not retry an answer that will not change (400)", async () => {
    server = await startWebhookServer(() => 400);
    const sink = new WebhookSink(server.url, FAST);
    sink.write(event(1));
    const report = await sink.close();
    expect(server.attempts).toHaveLength(1);
    expect(report.problems[0]).toMatch(/not delivered: HTTP 400 after 1 attempt\(s\)$/);
  });

  it("takes events without waiting, even when the endpoint never answers, and close() waits only its bound", async () => {
    server = await startWebhookServer(() => "hang");
    const sink = new WebhookSink(server.url, { ...FAST, flushTimeoutMs: 500 });
    const began = performance.now();
    for (let i = 0; i < 2_000; i++) sink.write(event(i % 60));
    expect(performance.now() - began).toBeLessThan(100);
    const closing = performance.now();
    const report = await sink.close();
    const waited = performance.now() - closing;
    expect(waited).toBeGreaterThanOrEqual(490);
    expect(waited).toBeLessThan(1_500);
    expect(report.written).toBe(0);
    expect(report.problems).toEqual([`webhook ${server.url}/: 2000 event(s) not delivered: gave up after waiting 0.5 s at the end of the run`]);
    expect(server.attempts).toHaveLength(1);
  });

  it("never repeats the URL's path, query or credentials in what it reports", async () => {
    server = await startWebhookServer(() => 401);
    const secretUrl = `${server.url.replace("http://", "http://user:pa55word@")}/services/T0/B0/s3cr3tpath?token=s3cr3t-token&x=1`;
    const sink = new WebhookSink(secretUrl, FAST);
    sink.write(event(1));
    const report = await sink.close();
    expect(server.attempts[0]!.path).toBe("/services/T0/B0/s3cr3tpath?token=s3cr3t-token&x=1");
    expect(server.attempts[0]!.authorization).toBe(`Basic ${Buffer.from("user:pa55word").toString("base64")}`);
    const said = JSON.stringify(report) + sink.endpoint;
    for (const secret of ["s3cr3t", "pa55word", "user", "services", "token"]) expect(said).not.toContain(secret);
    expect(report.problems[0]).toContain(`webhook ${server.url}/…: event 1`);

    // A refused connection is described by its code, not by an error text that could quote the URL.
    const closedPort = await unusedPort();
    const refused = new WebhookSink(`http://127.0.0.1:${closedPort}/hook?token=s3cr3t`, { ...FAST, maxAttempts: 2 });
    refused.write(event(1));
    const refusedReport = await refused.close();
    expect(refusedReport.problems).toEqual([`webhook http://127.0.0.1:${closedPort}/…: event 1 (member m-1 NotStarted→Running at 2026-12-05T00:01:00Z) not delivered: ECONNREFUSED after 2 attempt(s)`]);
  });

  it("refuses a URL that is not http(s) without repeating it", () => {
    expect(() => new WebhookSink("ftp://host/s3cr3t")).toThrow(/^webhook: must be an http:\/\/ or https:\/\/ URL$/);
    expect(() => new WebhookSink("not a url s3cr3t")).toThrow(/^webhook: not a valid URL$/);
  });
});

describe("WebhookSink with an outbox beside the run's journal (issue 30)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "webhook-outbox-"));
  let n = 0;
  const journalFile = () => path.join(dir, `run-${++n}.json`);

  it("what a killed process had not delivered is sent first by the next one, with the same sequence numbers; events it had taken are not taken twice", async () => {
    const journal = journalFile();
    // The first process: the endpoint does not answer it, and it dies (stands still here: its first
    // attempt never ends, and it is abandoned only at the end of the test).
    let answer: number | "hang" = "hang";
    server = await startWebhookServer(() => answer);
    const first = new WebhookSink(server.url, { ...FAST, requestTimeoutMs: 120_000, flushTimeoutMs: 1 }, undefined, { journalFile: journal, append: false });
    for (const e of [1, 2, 3].map(event)) first.write(e);
    while (server.attempts.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));

    answer = 200;
    const second = new WebhookSink(server.url, FAST, undefined, { journalFile: journal, append: true });
    // The run journal's undelivered events: the last process had taken 2 and 3 already.
    second.redeliver([event(2), event(3), event(4)]);
    second.write(event(5));
    expect(await second.close()).toEqual({ written: 5, problems: [] });
    expect(server.delivered()).toEqual([1, 2, 3, 4, 5].map(event));
    expect(server.attempts.slice(1).map((a) => a.sequence)).toEqual(["1", "2", "3", "4", "5"]);

    // A third process has nothing left to send: every event is done.
    const third = new WebhookSink(server.url, FAST, undefined, { journalFile: journal, append: true });
    third.write(event(6));
    await third.close();
    expect(server.attempts.slice(1).map((a) => a.sequence)).toEqual(["1", "2", "3", "4", "5", "6"]);
    await first.close();
  });

  it("a line torn by a kill is dropped; a new run starts its outbox afresh", async () => {
    const journal = journalFile();
    server = await startWebhookServer(() => 200);
    const file = webhookOutboxFile(journal, server.url);
    fs.writeFileSync(file, `${JSON.stringify(event(1))}\n${JSON.stringify(event(2)).slice(0, 20)}`);
    const resumed = new WebhookSink(server.url, FAST, undefined, { journalFile: journal, append: true });
    resumed.write(event(3));
    await resumed.close();
    expect(server.delivered()).toEqual([event(1), event(3)]);
    expect(fs.readFileSync(file, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as unknown)).toEqual([event(1), event(3), { done: 1 }, { done: 2 }]);

    const fresh = new WebhookSink(server.url, FAST, undefined, { journalFile: journal, append: false });
    fresh.write(event(9));
    await fresh.close();
    expect(server.attempts.map((a) => a.sequence)).toEqual(["1", "2", "1"]);
  });

  it("an outbox with a line that cannot be read is refused, naming the file, and nothing is sent", async () => {
    const journal = journalFile();
    server = await startWebhookServer(() => 200);
    fs.writeFileSync(webhookOutboxFile(journal, server.url), `not json\n${JSON.stringify(event(1))}\n`);
    expect(() => new WebhookSink(server!.url, FAST, undefined, { journalFile: journal, append: true })).toThrow(WebhookOutboxError);
    expect(() => new WebhookSink(server!.url, FAST, undefined, { journalFile: journal, append: true })).toThrow(/webhook outbox .*webhook-[0-9a-f]{12}\.jsonl: line 1 is not valid JSON/);
    expect(server.attempts).toHaveLength(0);
  });

  it("the outbox's name carries a hash of the URL, never the URL or its token", () => {
    const file = webhookOutboxFile("/runs/r.json", "https://hooks.example/services/s3cr3t?token=t0ken");
    expect(file).toMatch(/^\/runs\/r\.webhook-[0-9a-f]{12}\.jsonl$/);
  });
});
