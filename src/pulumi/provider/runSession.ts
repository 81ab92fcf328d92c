/**
 * One provider call's work on a run, whichever driver runs it (`src/drivers/runDriver.ts`): open the
 * run (create, resume, or attach), drive or follow it until it settles, waits, or meets the deadline,
 * and turn the report into the resource's outputs — or into `RunNotFinishedError`, which fails
 * `pulumi up` loudly while Pulumi keeps the run's state. The provider methods in `runProvider.ts` are
 * thin shells around this.
 */
import { driverFor } from "../../drivers/driverFor";
import { WebhookSink, type WebhookOptions } from "../../events/webhook";
import { ProgressPrinter } from "../../drivers/progressSummary";
import type { RunCall, RunReport, StoredRun } from "../../drivers/runDriver";
import type { StopRequest } from "../../drivers/stopRequest";
import { waitingLine } from "../../drivers/waiting";
import { planAtRunStart } from "../../plan/forRun";
import type { Plan } from "../../plan/types";
import type { UpdateRunInputs } from "../../spec/runSpec";
import { hostEngineAddress, watchEngine } from "./engineWatch";
import { RunNotFinishedError, outputsOf, type SessionResult, type UpdateRunOutputs } from "./runOutputs";

export { runIdentity } from "../../spec/identity";
export { RunNotFinishedError, type SessionResult, type UpdateRunOutputs } from "./runOutputs";
export { JOURNAL_DIRECTORY } from "../../drivers/runRecords";

/**
 * The provider's progress on stderr (the Pulumi CLI shows it): a line per transition, or once the run
 * is known to have more than 200 members, a summary at most once a second (`progressSummary.ts`).
 */
function progressPrinter(runName: string, call: RunCall, tell: Tell): ProgressPrinter {
  return new ProgressPrinter(runName, tell, "auto", call.latestStatus());
}

/**
 * A line for the user (no newline). The dynamic-provider host's stderr is shown by the Pulumi CLI; a
 * provider plugin's is not (the engine keeps a real plugin's output for its debug log), so the plugin
 * sends its lines through the engine's Log service instead (`plugin/engineLog.ts`).
 */
export type Tell = (line: string) => void;

export const tellOnStderr: Tell = (line) => {
  process.stderr.write(`${line}\n`);
};

/** What the caller of a session may add: the dynamic provider passes nothing, the provider plugin both. */
export interface SessionOptions {
  /**
   * Issue 24: the provider plugin's Cancel (the first Ctrl-C of `pulumi up`). The engine driver stops
   * the run at the next checkpoint and follows the upgrades in flight to their end; the Fleet Manager
   * driver stops following (the run goes on server-side). The call then fails with the run's partial
   * status (`RunNotFinishedError`), so the next `pulumi up` updates the resource and continues the run.
   */
  stop?: StopRequest;
  /** The Pulumi engine's address to watch (`exitWhenEngineGone`); default: this process's, when it is the dynamic-provider host. */
  engineAddress?: string;
  /** Where progress and notes go (default stderr). */
  tell?: Tell;
  /** Delivery settings of the run's `webhook` (tests shorten the bounds). */
  webhookOptions?: WebhookOptions;
}

/**
 * Create (no `previous`) or continue (`previous` = what the stack stored) a run, then drive it.
 * Relative paths are resolved against `projectDir` (the Pulumi project's folder, `projectDir.ts`).
 * Throws `RunNotFinishedError` when it failed, did not settle before the deadline, or was cancelled.
 */
export async function runSession(inputs: UpdateRunInputs, projectDir: string, previous?: StoredRun & { plan?: Plan }, options: SessionOptions = {}): Promise<SessionResult> {
  const driver = await driverFor(inputs.backend, { baseDir: projectDir });
  const call = await driver.open(inputs, { by: "stack", ...(previous === undefined ? {} : { stored: previous }) });
  const tell = options.tell ?? tellOnStderr;
  const stopWatching = exitWhenEngineGone(inputs.runName, call, options.engineAddress ?? hostEngineAddress(), tell);
  // Issue 24: the run's `webhook`, delivered as `fleet-update run --webhook` delivers (src/events/webhook.ts).
  // Issue 30: with its outbox beside the run's journal, a resumed run sends first what a killed one had not delivered.
  let webhook: WebhookSink | undefined;
  try {
    webhook = inputs.webhook === undefined ? undefined : WebhookSink.to(inputs.webhook, options.webhookOptions, call.journalFile === undefined ? undefined : { journalFile: call.journalFile, append: call.resumed !== false });
  } catch (e) {
    stopWatching();
    call.release();
    throw e;
  }
  let report: RunReport;
  let plan: Plan | undefined;
  try {
    // Issue 6: predicted from the run's state before this call drives it; kept as it was at creation.
    const engineState = call.engineState();
    plan = previous?.plan ?? (engineState === undefined ? undefined : await planAtRunStart(driver, inputs, engineState));
    const progress = progressPrinter(inputs.runName, call, tell);
    try {
      report = await call.drive(inputs, {
        onEvent: (event) => {
          progress.onEvent(event);
          webhook?.write(event);
        },
        onRedelivered: (events) => {
          for (const event of events) progress.onEvent(event);
          webhook?.redeliver(events);
        },
        ...(options.stop === undefined ? {} : { stop: options.stop }),
      });
    } finally {
      progress.finish();
    }
  } finally {
    stopWatching();
    // What could not be delivered is said, within the sink's flush bound; its words never hold the URL's path or the token.
    for (const problem of (await webhook?.close())?.problems ?? []) tell(`[${inputs.runName}] warning: ${problem}`);
  }
  const outputs = outputsOf({ ...report, ...(plan === undefined ? {} : { plan }) });
  // A failure is said as a failure, cancelled or not.
  const cancelled = options.stop?.wasRequested === true && report.summary.state !== "Failed";
  const problem = cancelled ? cancelledReason(report) : unfinishedReason(report);
  if (problem !== undefined) throw new RunNotFinishedError(`update run ${inputs.runName}: ${problem}`, report.id, outputs, [problem]);
  const next = waitingNote(report);
  if (next !== undefined) tell(`[${inputs.runName}] ${waitingLine(report.status)} ${next}`);
  return { id: report.id, outputs };
}

/**
 * Issue 11: in the dynamic-provider host, a run is driven only while the Pulumi engine that asked for
 * it is there. When it is gone (`pulumi` SIGKILLed: nothing else tells the host), nothing more is
 * started: what the run needs to resume is kept and the process exits, which releases the run's lease;
 * the next `pulumi up` resumes. Elsewhere (tests calling the provider in-process) a no-op.
 */
function exitWhenEngineGone(runName: string, call: RunCall, address: string | undefined, tell: Tell): () => void {
  if (address === undefined) return () => {};
  return watchEngine(address, () => {
    tell(`[${runName}] the Pulumi engine at ${address} is gone (was \`pulumi\` killed?): journaling the run and exiting; the next \`pulumi up\` resumes it.`);
    try {
      call.leaveNow();
    } finally {
      process.exit(1);
    }
  });
}

/** `pulumi refresh`: the run's statuses read again, starting nothing. */
export async function observeRun(inputs: UpdateRunInputs, projectDir: string, stored: StoredRun, tell: Tell = tellOnStderr): Promise<UpdateRunOutputs> {
  const view = await (await driverFor(inputs.backend, { baseDir: projectDir })).observe(inputs, stored);
  for (const d of view.drift) tell(`[${inputs.runName}] drift: ${d.member}: ${d.message}`);
  return outputsOf(view);
}

/** `pulumi destroy`: forget the run (its journal, or the fleet's run record). Clusters are never touched. */
export async function forgetRun(inputs: UpdateRunInputs, stored: StoredRun, projectDir: string): Promise<void> {
  await (await driverFor(inputs.backend, { baseDir: projectDir })).forget(inputs, stored);
}

/**
 * Why `pulumi up` should fail loudly, or undefined when the run is where the user asked it to be:
 * finished, stopped, or (issue 5) waiting with nothing in flight — a gate waiting for approval, a
 * wait, a closed window — which the next `pulumi up` continues.
 */
function unfinishedReason(report: RunReport): string | undefined {
  const { summary } = report;
  const onFleet = report.executes === "server";
  if (summary.state === "Failed") {
    const again = onFleet ? "start it again (Fleet Manager retries the failed members)" : "retry the failed members";
    return `the run failed: ${report.status.status.error?.message ?? "a member failed"}. Run \`pulumi up\` again to ${again}.`;
  }
  if (report.end !== "deadline" && report.end !== "interrupted") return undefined;
  const done = `${summary.members.Completed + summary.members.Skipped} of ${summary.members.total} members done`;
  return onFleet
    ? `the run is ${summary.state} on Fleet Manager (${done}) and did not finish before timeoutMinutes; it goes on server-side. Run \`pulumi up\` again to follow it.`
    : `the run is ${summary.state} (${done}) and did not finish before its deadline. Run \`pulumi up\` again to continue it.`;
}

/**
 * Issue 24: the call ended because the Pulumi engine cancelled it (the first Ctrl-C). Unless the run
 * completed meanwhile, the resource is kept with its partial status as a failed initialization, which
 * makes the next `pulumi up` update it (the engine updates a resource with init errors even without a
 * diff) and so continue the run.
 */
function cancelledReason(report: RunReport): string | undefined {
  const { summary } = report;
  if (summary.state === "Completed") return undefined;
  const done = `${summary.members.Completed + summary.members.Skipped} of ${summary.members.total} members done`;
  return report.executes === "server"
    ? `cancelled (Ctrl-C): no longer following the run, which goes on in Fleet Manager (${done}). Run \`pulumi up\` again to follow it.`
    : `cancelled (Ctrl-C): the run is ${summary.state} (${done}); upgrades that had started were followed to their end. Run \`pulumi up\` again to continue it.`;
}

/** What the next `pulumi up` does for a run that returned waiting. */
function waitingNote(report: RunReport): string | undefined {
  if (report.end !== "gate" && report.end !== "returned") return undefined;
  if (report.executes === "here") return "Run `pulumi up` again to continue.";
  return report.end === "gate" ? "The run waits in Fleet Manager; run `pulumi up` again with the approval." : "The run goes on in Fleet Manager; run `pulumi up` again to follow it.";
}
