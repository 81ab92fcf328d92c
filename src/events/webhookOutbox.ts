/**
 * Issue 30: a webhook's outbox, so that a process killed while its webhook still had events queued (or
 * one in flight) does not lose them. Beside the run's journal, one file per webhook: each event as a
 * JSON line when the sink takes it (a synchronous append, like `--events`), and `{"done":N}` when the
 * event with sequence N was delivered or given up. A resumed run's sink sends the events after the
 * last `done` first (at least once: one in flight when the process died may arrive twice, with the
 * same `x-fleet-update-sequence`), so the webhook receives every event of the run, in order.
 *
 * The file holds events only: never the URL or the token (its name carries a hash of the URL, so two
 * webhooks of one run keep separate outboxes).
 */
import crypto from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, truncateSync, writeSync } from "node:fs";
import path from "node:path";
import type { RunEvent } from "../model/status";

/** An outbox that exists but cannot be read: its events are not taken as delivered. */
export class WebhookOutboxError extends Error {}

/** The outbox of the webhook at `url` for the run whose journal is `journalFile`. */
export function webhookOutboxFile(journalFile: string, url: string): string {
  const hash = crypto.createHash("sha256").update(url).digest("hex").slice(0, 12);
  return `${outboxPrefix(journalFile)}${hash}.jsonl`;
}

function outboxPrefix(journalFile: string): string {
  return `${journalFile.replace(/\.json$/, "")}.webhook-`;
}

/** Remove every webhook outbox of the run whose journal is `journalFile` (the run is forgotten). */
export function removeWebhookOutboxes(journalFile: string): void {
  const directory = path.dirname(journalFile);
  const prefix = path.basename(outboxPrefix(journalFile));
  for (const name of existsSync(directory) ? readdirSync(directory) : []) {
    if (name.startsWith(prefix) && name.endsWith(".jsonl")) rmSync(path.join(directory, name), { force: true });
  }
}

export interface OutboxContents {
  /** Every event taken, in order: the event with sequence N is `events[N - 1]`, as its JSON line. */
  events: string[];
  /** The highest sequence delivered or given up. */
  done: number;
}

export class WebhookOutbox {
  private fd: number | undefined;
  private failure: string | undefined;

  /**
   * Opens the file: `append` (a resumed run) reads what it holds and adds to it; otherwise it starts
   * afresh. A last line torn by a kill is dropped; any other line that does not parse refuses the
   * outbox (`WebhookOutboxError`), naming the file.
   */
  static open(file: string, append: boolean): { outbox: WebhookOutbox; contents: OutboxContents } {
    const contents = append ? readOutbox(file) : { events: [], done: 0, wholeBytes: undefined };
    let fd: number;
    try {
      // A torn last line is cut off, so the next append starts a line of its own.
      if (contents.wholeBytes !== undefined) truncateSync(file, contents.wholeBytes);
      mkdirSync(path.dirname(file), { recursive: true });
      fd = openSync(file, append ? "a" : "w");
    } catch (e) {
      throw new WebhookOutboxError(`webhook outbox ${file}: cannot be written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    return { outbox: new WebhookOutbox(file, fd), contents: { events: contents.events, done: contents.done } };
  }

  private constructor(
    readonly file: string,
    fd: number,
  ) {
    this.fd = fd;
  }

  /** The event's line, before it is queued. */
  took(line: string): void {
    this.append(line);
  }

  /** The event with this sequence was delivered or given up. */
  done(sequence: number): void {
    this.append(JSON.stringify({ done: sequence }));
  }

  /** Why the outbox stopped being written, if it did (a full disk): said at the end of the run. */
  get problem(): string | undefined {
    return this.failure;
  }

  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    closeSync(fd);
  }

  private append(line: string): void {
    if (this.fd === undefined) return;
    try {
      writeSync(this.fd, `${line}\n`);
    } catch (e) {
      // A full disk must not stop the rollout (nor the webhook): stop keeping the outbox and say so.
      this.failure = `webhook outbox ${this.file}: no longer written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); a process killed from now on may lose events not yet delivered`;
      this.close();
    }
  }
}

/** `wholeBytes`: set when the file ends in a torn line, the length of what comes before it. */
function readOutbox(file: string): OutboxContents & { wholeBytes: number | undefined } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { events: [], done: 0, wholeBytes: undefined };
    throw new WebhookOutboxError(`webhook outbox ${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const lines = text.split("\n");
  // The text after the last newline was never acknowledged: a kill tore it.
  const whole = lines.slice(0, -1);
  const wholeBytes = lines.at(-1) === "" ? undefined : Buffer.byteLength(text.slice(0, text.lastIndexOf("\n") + 1));
  const events: string[] = [];
  let done = 0;
  whole.forEach((line, i) => {
    if (line === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new WebhookOutboxError(`webhook outbox ${file}: line ${i + 1} is not valid JSON; nothing was sent. Remove the file to send only the events from now on`);
    }
    const record = parsed as Partial<RunEvent> & { done?: unknown };
    if (typeof record.done === "number") done = Math.max(done, record.done);
    else if (typeof record.scope === "string") events.push(line);
    else throw new WebhookOutboxError(`webhook outbox ${file}: line ${i + 1} is neither an event nor a delivery; nothing was sent`);
  });
  return { events, done: Math.min(done, events.length), wholeBytes };
}
