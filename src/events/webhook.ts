/**
 * POST each event as JSON to a URL, in order, without ever holding up the run: `write` queues and
 * returns; one delivery loop sends the queue head, retrying a failed attempt with exponential backoff
 * (bounded attempts), then moves on. `close()` waits for the queue to drain, but at most
 * `flushTimeoutMs`; whatever is left then is abandoned (the request in flight is aborted), so a dead
 * endpoint costs the caller that bound and no more. Messages name the endpoint by origin only: its
 * path and query may hold tokens.
 */
import type { RunEvent } from "../model/status";
import { describeFailure, redactUrl } from "../runtime/redact";
import { alreadyTaken, type RunEventSink, type SinkReport } from "./sink";
import { WebhookOutbox, webhookOutboxFile } from "./webhookOutbox";

export interface WebhookOptions {
  /** Attempts per event, the first included (default 5). */
  maxAttempts?: number;
  /** Wait before the second attempt; doubled for each further one (default 500 ms) ... */
  initialBackoffMs?: number;
  /** ... up to this (default 30 s). */
  maxBackoffMs?: number;
  /** One attempt's limit (default 10 s). */
  requestTimeoutMs?: number;
  /** How long `close()` waits for the queue to drain (default 10 s). */
  flushTimeoutMs?: number;
  /** Events held at most; later ones are dropped and counted (default 100,000). */
  maxQueue?: number;
}

/** A webhook as `UpdateRun`'s `webhook` input and a run spec give it (`WebhookSchema`, src/spec/runSpec.ts). */
export interface WebhookTarget {
  url: string;
  /** Sent as `Authorization: Bearer <token>` (instead of any `user:password@` in the URL). */
  token?: string | undefined;
}

/**
 * Where a webhook keeps what it took (`webhookOutbox.ts`): beside the run's journal, so a resumed run
 * sends first what the last process had not delivered. `append`: the run is taken up (else a new run:
 * the outbox starts afresh).
 */
export interface WebhookOutboxPlace {
  journalFile: string;
  append: boolean;
}

/** The header carrying an event's 1-based position in the run, so a receiver can drop a retried duplicate. */
export const SEQUENCE_HEADER = "x-fleet-update-sequence";

const DEFAULTS: Required<WebhookOptions> = {
  maxAttempts: 5,
  initialBackoffMs: 500,
  maxBackoffMs: 30_000,
  requestTimeoutMs: 10_000,
  flushTimeoutMs: 10_000,
  maxQueue: 100_000,
};

/** Statuses worth another attempt; any other non-2xx is the receiver's final answer. */
const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);

export class WebhookSink implements RunEventSink {
  readonly endpoint: string;
  private readonly url: URL;
  /** A bearer token given with the URL, else `user:password@` from the URL as Basic authorization (fetch refuses URLs with credentials). */
  private readonly authorization: string | undefined;
  private readonly options: Required<WebhookOptions>;
  private readonly queue: Array<{ sequence: number; body: string; label: string }> = [];
  private sequence = 0;
  private delivered = 0;
  private dropped = 0;
  private readonly problems: string[] = [];
  private worker: Promise<void> | undefined;
  private closing: Promise<SinkReport> | undefined;
  /** Aborts the attempt in flight and the backoff sleep when `close()` gives up. */
  private readonly abandon = new AbortController();
  /** Issue 30: what this webhook took and delivered, durable (none: events queued at a kill are lost). */
  private readonly outbox: WebhookOutbox | undefined;
  /** The events the outbox held when it was opened, as JSON lines (for `redeliver`). */
  private readonly taken: string[] = [];

  /**
   * Throws (without echoing the URL) unless `url` is http(s); `WebhookOutboxError` when `outbox` is
   * given and holds a line that cannot be read. Events the outbox holds and never delivered are sent
   * first, with their sequence numbers.
   */
  constructor(url: string, options: WebhookOptions = {}, bearerToken?: string, outbox?: WebhookOutboxPlace) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error("webhook: not a valid URL");
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("webhook: must be an http:// or https:// URL");
    this.endpoint = redactUrl(parsed);
    if (parsed.username !== "" || parsed.password !== "") {
      const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
      this.authorization = `Basic ${Buffer.from(credentials, "utf8").toString("base64")}`;
      parsed.username = "";
      parsed.password = "";
    }
    if (bearerToken !== undefined) this.authorization = `Bearer ${bearerToken}`;
    this.url = parsed;
    this.options = { ...DEFAULTS, ...options };
    if (outbox !== undefined) {
      const opened = WebhookOutbox.open(webhookOutboxFile(outbox.journalFile, url), outbox.append);
      this.outbox = opened.outbox;
      this.taken = opened.contents.events;
      this.sequence = this.taken.length;
      this.taken.forEach((body, i) => {
        if (i >= opened.contents.done) this.enqueue(i + 1, body, JSON.parse(body) as RunEvent);
      });
    }
  }

  /** The sink for a run's `webhook` input (Pulumi) or spec field (`fleet-update run`). */
  static to(target: WebhookTarget, options: WebhookOptions = {}, outbox?: WebhookOutboxPlace): WebhookSink {
    return new WebhookSink(target.url, options, target.token, outbox);
  }

  write(event: RunEvent): void {
    this.sequence += 1;
    if (this.closing !== undefined) return;
    const body = JSON.stringify(event);
    this.outbox?.took(body);
    if (this.queue.length >= this.options.maxQueue) {
      this.dropped += 1;
      return;
    }
    this.enqueue(this.sequence, body, event);
  }

  /** With an outbox: only the events the last process had not taken (as `JsonlJournal.redeliver`); else all. */
  redeliver(events: readonly RunEvent[]): void {
    const have = alreadyTaken(this.taken, events.map((event) => JSON.stringify(event)));
    for (const event of events.slice(have)) this.write(event);
  }

  private enqueue(sequence: number, body: string, event: RunEvent): void {
    this.queue.push({ sequence, body, label: `${event.scope} ${event.name} ${event.from}→${event.to} at ${event.time}` });
    this.worker ??= this.drain().finally(() => {
      this.worker = undefined;
    });
  }

  close(): Promise<SinkReport> {
    this.closing ??= this.finish();
    return this.closing;
  }

  private async finish(): Promise<SinkReport> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), this.options.flushTimeoutMs);
    });
    const outcome = this.worker === undefined ? "drained" : await Promise.race([this.worker.then(() => "drained" as const), timedOut]);
    clearTimeout(timer);
    if (outcome === "timeout") {
      const left = this.queue.length;
      this.abandon.abort();
      this.queue.length = 0;
      await this.worker;
      this.problems.push(`webhook ${this.endpoint}: ${left} event(s) not delivered: gave up after waiting ${this.options.flushTimeoutMs / 1000} s at the end of the run`);
    }
    if (this.dropped > 0) this.problems.push(`webhook ${this.endpoint}: ${this.dropped} event(s) dropped: more than ${this.options.maxQueue} waiting`);
    this.outbox?.close();
    if (this.outbox?.problem !== undefined) this.problems.push(this.outbox.problem);
    return { written: this.delivered, problems: this.problems };
  }

  /** Send the queue head until the queue is empty (events arriving meanwhile join it). */
  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.abandon.signal.aborted) {
      const item = this.queue[0]!;
      const failure = await this.deliver(item.sequence, item.body);
      if (this.abandon.signal.aborted) return;
      this.queue.shift();
      this.outbox?.done(item.sequence);
      if (failure === undefined) this.delivered += 1;
      else this.problems.push(`webhook ${this.endpoint}: event ${item.sequence} (${item.label}) not delivered: ${failure}`);
    }
  }

  /** Undefined when delivered; otherwise why the last attempt failed. */
  private async deliver(sequence: number, body: string): Promise<string | undefined> {
    let failure = "not attempted";
    for (let attempt = 1; attempt <= this.options.maxAttempts; attempt++) {
      if (attempt > 1) await this.sleep(Math.min(this.options.maxBackoffMs, this.options.initialBackoffMs * 2 ** (attempt - 2)));
      if (this.abandon.signal.aborted) return "abandoned";
      try {
        const response = await fetch(this.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "user-agent": "fleet-update",
            [SEQUENCE_HEADER]: String(sequence),
            ...(this.authorization === undefined ? {} : { authorization: this.authorization }),
          },
          body,
          signal: AbortSignal.any([this.abandon.signal, AbortSignal.timeout(this.options.requestTimeoutMs)]),
          redirect: "error",
        });
        await response.arrayBuffer().catch(() => undefined);
        if (response.ok) return undefined;
        failure = `HTTP ${response.status} after ${attempt} attempt(s)`;
        if (!RETRYABLE_STATUS.has(response.status)) return failure;
      } catch (e) {
        failure = `${describeFailure(e)} after ${attempt} attempt(s)`;
      }
    }
    return failure;
  }

  /** A backoff pause that `close()` can cut short; it does not keep the process alive on its own. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      const signal = this.abandon.signal;
      signal.addEventListener("abort", done, { once: true });
      function done() {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      }
    });
  }
}
