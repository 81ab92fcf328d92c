/**
 * Our features that Azure Kubernetes Fleet Manager (api-version 2025-04-01-preview, `wire.ts`) does
 * not have. The run is executed by Fleet, not by
 * our engine, so a feature that would change what happens on the clusters cannot be done on the client;
 * those are refused at Check, naming the field (docs/behaviour.md, "Fleet Manager backend" table).
 * Features that only concern how the client follows the run (`timeoutMinutes`, `returnAfterMinutes`,
 * progress lines, events) are done on the client.
 */
import type { FieldIssue } from "../../model/common";
import type { Member } from "../../model/member";
import type { Gate, UpdateRunStrategy } from "../../model/strategy";

const WHY = "Fleet Manager has no";
const SELECTOR = "is not sent to Fleet Manager yet (label selection on Fleet comes with api-version 2026-06-02-preview): choose the group's members by name, or use the simulator or azure backend";

/** Issue 22: ScheduledStart gates are not sent to Fleet yet (it has them from 2026-06-02-preview). */
function scheduledGates(gates: Gate[] | undefined, at: string): FieldIssue[] {
  return (gates ?? []).flatMap((g, i) => (g.type === "ScheduledStart" ? [{ path: `${at}[${i}].type`, message: "ScheduledStart gates are not sent to Fleet Manager yet (Fleet has them from api-version 2026-06-02-preview): use the simulator or azure backend" }] : []));
}

/** Refusals for a strategy run by Fleet Manager, with paths under `prefix` (`strategy.` or ``). */
export function unsupportedInStrategy(strategy: UpdateRunStrategy | undefined, prefix: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  strategy?.stages.forEach((stage, s) => {
    const at = `${prefix}stages[${s}]`;
    if (stage.maxConcurrency !== undefined) issues.push({ path: `${at}.maxConcurrency`, message: `${WHY} maxConcurrency: remove it (Fleet sets a stage's pace itself) or use the azure backend` });
    if (stage.maxAllowedFailures !== undefined) issues.push({ path: `${at}.maxAllowedFailures`, message: `${WHY} failure tolerance: a failed member fails the run; remove it or use the azure backend` });
    // Issue 22: Fleet has label selection from 2026-06-02-preview; this client does not send it yet.
    if (stage.memberSelector !== undefined) issues.push({ path: `${at}.memberSelector`, message: SELECTOR });
    issues.push(...scheduledGates(stage.beforeGates, `${at}.beforeGates`));
    stage.groups.forEach((group, g) => {
      const gat = `${at}.groups[${g}]`;
      if (group.maxConcurrency !== undefined) issues.push({ path: `${gat}.maxConcurrency`, message: `${WHY} maxConcurrency: remove it or use the azure backend` });
      if (group.maxAllowedFailures !== undefined) issues.push({ path: `${gat}.maxAllowedFailures`, message: `${WHY} failure tolerance: a failed member fails the run; remove it or use the azure backend` });
      if (group.memberSelector !== undefined) issues.push({ path: `${gat}.memberSelector`, message: SELECTOR });
      issues.push(...scheduledGates(group.beforeGates, `${gat}.beforeGates`));
    });
  });
  return issues;
}

/** Refusals for an `UpdateRun` on the azureFleet backend: its strategy, its members' probes. */
export function unsupportedInRun(input: { strategy?: UpdateRunStrategy; members: readonly Member[] }): FieldIssue[] {
  const issues = unsupportedInStrategy(input.strategy, "strategy.");
  input.members.forEach((m, i) => {
    if (m.labels !== undefined) issues.push({ path: `members[${i}].labels`, message: "on Fleet Manager a member's labels are the fleet member's own: set them on the fleet member, not in the run" });
    if (m.healthCheck !== undefined) {
      issues.push({ path: `members[${i}].healthCheck`, message: "Fleet Manager runs the update server-side and cannot wait for a probe made from the client before a member counts as Completed: remove it or use the azure backend" });
    }
  });
  return issues;
}
