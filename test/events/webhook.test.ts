/** The webhook sink: in order, retried with growing pauses, bounded, never blocking, never leaking its URL's secrets. */
import { createServer, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebhookSink } from "../../src/events/webhook";
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
