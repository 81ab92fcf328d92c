/**
 * Our features that Azure Kubernetes Fleet Manager does not have at the api-version a run speaks
 * (`backend.azureFleet.apiVersion`, `wire.ts`). The run is executed by Fleet, not by our engine, so a
 * feature that would change what happens on the clusters cannot be done on the client; those are
 * refused at Check, naming the field (docs/behaviour.md, "Fleet Manager backend" table) and, for a
 * limit a newer api-version has, that version:
 *
 * - `maxConcurrency` (stage, group): from 2026-06-01;
 * - `maxAllowedFailures` (stage, group): from 2026-06-02-preview;
 * - a health probe (`members[].healthCheck`): at no version (Fleet cannot wait for a probe made from the client).
 *
 * Fleet's `memberSelector` and ScheduledStart gates (2026-06-02-preview) run in our engine
 * (docs/rules.md §16, §17) but are not sent to Fleet yet: refused at every version. Features that only concern how the client follows the run
 * (`timeoutMinutes`, `returnAfterMinutes`, progress lines, events) are done on the client.
 */
import type { FieldIssue } from "../../model/common";
import type { Member } from "../../model/member";
import type { Gate, UpdateRunStrategy } from "../../model/strategy";
import { DEFAULT_FLEET_API_VERSION, FIRST_VERSION_WITH, FLEET_API_FEATURES, type ClientFleetApiVersion } from "./wire";

/** Where the api-version in use was chosen, as the refusals name it. */
export const API_VERSION_FIELD = "backend.azureFleet.apiVersion";

/**
 * Issue 22: our engine runs label selection and ScheduledStart gates (docs/rules.md §16, §17); Fleet has
 * them from 2026-06-02-preview, but this client does not send them yet, at any version.
 */
const SELECTOR = "is not sent to Fleet Manager yet (Fleet has label selection from api-version 2026-06-02-preview; this client does not send it yet): choose the group's members by name, or use the simulator or azure backend";

function scheduledGates(gates: Gate[] | undefined, at: string): FieldIssue[] {
  return (gates ?? []).flatMap((g, i) => (g.type === "ScheduledStart" ? [{ path: `${at}[${i}].type`, message: "ScheduledStart gates are not sent to Fleet Manager yet (Fleet has them from api-version 2026-06-02-preview; this client does not send them yet): use the simulator or azure backend" }] : []));
}

type Limit = "maxConcurrency" | "maxAllowedFailures";
const LIMITS: readonly Limit[] = ["maxConcurrency", "maxAllowedFailures"];

/**
 * Refusals for a strategy run by Fleet Manager at `apiVersion`, with paths under `prefix`
 * (`strategy.` or ``); `chosenBy` names where the version was set (a field, or a flag).
 */
export function unsupportedInStrategy(strategy: UpdateRunStrategy | undefined, prefix: string, apiVersion: ClientFleetApiVersion = DEFAULT_FLEET_API_VERSION, chosenBy: string = API_VERSION_FIELD): FieldIssue[] {
  const features = FLEET_API_FEATURES[apiVersion];
  const issues: FieldIssue[] = [];
  const check = (item: Partial<Record<Limit, string>>, at: string) => {
    for (const limit of LIMITS) {
      if (item[limit] === undefined || features[limit]) continue;
      issues.push({ path: `${at}.${limit}`, message: `Fleet Manager takes ${limit} from api-version ${FIRST_VERSION_WITH[limit]} (${chosenBy} is ${apiVersion})` });
    }
  };
  strategy?.stages.forEach((stage, s) => {
    const at = `${prefix}stages[${s}]`;
    check(stage, at);
    if (stage.memberSelector !== undefined) issues.push({ path: `${at}.memberSelector`, message: SELECTOR });
    issues.push(...scheduledGates(stage.beforeGates, `${at}.beforeGates`));
    stage.groups.forEach((group, g) => {
      const gat = `${at}.groups[${g}]`;
      check(group, gat);
      if (group.memberSelector !== undefined) issues.push({ path: `${gat}.memberSelector`, message: SELECTOR });
      issues.push(...scheduledGates(group.beforeGates, `${gat}.beforeGates`));
    });
  });
  return issues;
}

/** Refusals for an `UpdateRun` on the azureFleet backend: its strategy at its api-version, its members' probes. */
export function unsupportedInRun(input: { strategy?: UpdateRunStrategy; members: readonly Member[]; apiVersion?: ClientFleetApiVersion; autoUpgradeProfile?: unknown }): FieldIssue[] {
  const issues = unsupportedInStrategy(input.strategy, "strategy.", input.apiVersion);
  if (input.autoUpgradeProfile !== undefined) issues.push({ path: "autoUpgradeProfile", message: "is not sent to Fleet Manager yet (Fleet generates runs from auto-upgrade profiles; this client does not create them yet): give a managedClusterUpdate, or use the simulator or azure backend" });
  input.members.forEach((m, i) => {
    if (m.labels !== undefined) issues.push({ path: `members[${i}].labels`, message: "on Fleet Manager a member's labels are the fleet member's own: set them on the fleet member, not in the run" });
    if (m.healthCheck !== undefined) {
      issues.push({ path: `members[${i}].healthCheck`, message: "Fleet Manager runs the update server-side and cannot wait for a probe made from the client before a member counts as Completed: remove it or use the azure backend" });
    }
  });
  return issues;
}
