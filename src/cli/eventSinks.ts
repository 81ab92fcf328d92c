/** `--events FILE` and `--webhook URL`: the sinks a command feeds with the run's events as they happen. */
import { JsonlJournal } from "../events/jsonlJournal";
import type { RunEventSink } from "../events/sink";
import { WebhookSink, type WebhookOptions, type WebhookTarget } from "../events/webhook";
import { WebhookOutboxError } from "../events/webhookOutbox";
import { InputError } from "./input";
import type { CommandIO } from "./commandIO";
import { printable } from "../runtime/printable";

export interface EventSinkFlags {
  /** Write every event as a JSON line to this file. */
  events?: string;
  /** POST every event as JSON to this URL. */
  webhook?: string;
  /** The run spec's own `webhook` (URL and bearer token), delivered besides `--webhook`. */
  runWebhook?: WebhookTarget;
  /** Delivery settings (tests shorten the flush bound). */
  webhookOptions?: WebhookOptions;
}

/**
 * Opens the sinks now, so a bad path or URL fails before the run: `InputError` with a one-line message.
 * `append`: a resumed run adds to its event file (and its webhooks' outboxes) instead of starting it
 * afresh. `journalFile`: the run's journal, beside which each webhook keeps its outbox (issue 30).
 */
export function openEventSinks(flags: EventSinkFlags, { append = false, journalFile }: { append?: boolean; journalFile?: string | undefined } = {}): RunEventSink[] {
  const outbox = journalFile === undefined ? undefined : { journalFile, append };
  const sinks: RunEventSink[] = [];
  if (flags.events !== undefined) {
    try {
      sinks.push(new JsonlJournal(flags.events, { append }));
    } catch (e) {
      throw new InputError(`--events: ${flags.events}: cannot write (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  }
  if (flags.webhook !== undefined) {
    try {
      sinks.push(new WebhookSink(flags.webhook, flags.webhookOptions, undefined, outbox));
    } catch (e) {
      // The sink's message never repeats the URL, which may hold a token.
      throw new InputError(e instanceof WebhookOutboxError ? `--webhook: ${e.message}` : `--${(e as Error).message}`);
    }
  }
  if (flags.runWebhook !== undefined) {
    try {
      sinks.push(WebhookSink.to(flags.runWebhook, flags.webhookOptions, outbox));
    } catch (e) {
      throw new InputError(e instanceof WebhookOutboxError ? `webhook: ${e.message}` : `webhook.url: ${(e as Error).message.replace(/^webhook: /, "")}`);
    }
  }
  return sinks;
}

/** Close every sink (a webhook waits for its queue, within its bound) and warn about what was lost. */
export async function closeEventSinks(sinks: readonly RunEventSink[], io: CommandIO): Promise<void> {
  const reports = await Promise.all(sinks.map((sink) => sink.close()));
  for (const report of reports) for (const problem of report.problems) io.stderr(`warning: ${printable(problem)}\n`);
}
