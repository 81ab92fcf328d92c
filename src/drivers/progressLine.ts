/** One line per state change: the Pulumi provider's progress output and `fleet-update run`'s without a terminal. */
import type { RunEvent } from "../model/status";
import { printable } from "../runtime/printable";

/** `[k8s-1-32] 2026-12-05T00:10:00Z member eu-1 Running → Completed: <message>` */
export function formatProgressLine(runName: string, event: RunEvent): string {
  const message = event.message === undefined ? "" : `: ${event.message}`;
  return printable(`[${runName}] ${event.time} ${event.scope} ${event.name} ${event.from} → ${event.to}${message}`);
}
