/**
 * Our features that Azure Kubernetes Fleet Manager does not have at the api-version a run speaks
 * (`backend.azureFleet.apiVersion`, `wire.ts`). The run is executed by Fleet, not by our engine, so a
 * feature that would change what happens on the clusters cannot be done on the client; those are
 * refused at Check, naming the field (docs/behaviour.md, "Fleet Manager backend" table) and, for a
 * feature a newer api-version has, that version:
 *
 * - `maxConcurrency` (stage, group): from 2026-06-01;
 * - `maxAllowedFailures` (stage, group): from 2026-06-02-preview;
 * - `memberSelector` (stage, group) and ScheduledStart gates (issue 22, docs/rules.md §16, §17): from
 *   2026-06-02-preview, sent to Fleet there with Fleet's own field names (`toFleet.ts`);
 * - a member's `labels` in the run (`members[].labels`): at no version — on Fleet the labels a selector
 *   reads are the fleet members' own (`fleets/{f}/members`, `properties.labels`), set on the member;
 * - a health probe (`members[].healthCheck`): at no version (Fleet cannot wait for a probe made from the client
 *   before a member counts as Completed; `analysis.afterMember` with a `web` template is measured at the
 *   member's group's gate instead, `analysisGates.ts`);
 * - `analysis` (issue 31) without a strategy (the client adds its gates to the strategy it sends), or
 *   with a place that has no room left for the client's gate (`analysisGateIssues`).
 * - `autoUpgradeProfile` (issue 22, docs/rules.md §18): a profile put disabled and `generateUpdateRun`,
 *   which 2025-04-01-preview lacks; the `TargetKubernetesVersion` channel from 2026-06-01.
 *
 * Features that only concern how the client follows the run (`timeoutMinutes`, `returnAfterMinutes`,
 * progress lines, events) are done on the client.
 */
import type { FieldIssue } from "../../model/issues";
import type { Member } from "../../model/member";
import { isImplicitGroup, type Gate, type UpdateRunStrategy } from "../../model/strategy";
import type { AutoUpgradeProfile } from "../../model/autoUpgrade";
import { API_VERSION_FIELD } from "../../spec/fleet";
import type { Analysis } from "../../model/analysis";
import { DEFAULT_FLEET_API_VERSION, FIRST_VERSION_WITH, FLEET_API_FEATURES, type ClientFleetApiVersion } from "../../backends/azureFleet/wire";
import { analysisGateIssues } from "./analysisGates";

/** A ScheduledStart gate's refusal at a version without them (`GateType.ScheduledStart`). */
function scheduledGates(gates: Gate[] | undefined, at: string, apiVersion: ClientFleetApiVersion, chosenBy: string): FieldIssue[] {
  if (FLEET_API_FEATURES[apiVersion].scheduledStartGates) return [];
  return (gates ?? []).flatMap((g, i) =>
    g.type === "ScheduledStart" ? [{ path: `${at}[${i}].type`, message: `Fleet Manager takes ScheduledStart gates from api-version ${FIRST_VERSION_WITH["GateType.ScheduledStart"]} (${chosenBy} is ${apiVersion})` }] : [],
  );
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
  const selector = (item: { memberSelector?: unknown }, at: string) => {
    if (item.memberSelector === undefined || features.memberSelector) return;
    issues.push({ path: `${at}.memberSelector`, message: `Fleet Manager takes memberSelector from api-version ${FIRST_VERSION_WITH.memberSelector} (${chosenBy} is ${apiVersion})` });
  };
  strategy?.stages.forEach((stage, s) => {
    const at = `${prefix}stages[${s}]`;
    check(stage, at);
    selector(stage, at);
    issues.push(...scheduledGates(stage.beforeGates, `${at}.beforeGates`, apiVersion, chosenBy));
    stage.groups.forEach((group, g) => {
      const gat = `${at}.groups[${g}]`;
      check(group, gat);
      // A stage's implicit group (a selector and no groups, docs/rules.md §16) is written out when the
      // strategy is read; the user wrote only the stage's selector, so only that one is named.
      if (!isImplicitGroup(stage, group)) selector(group, gat);
      issues.push(...scheduledGates(group.beforeGates, `${gat}.beforeGates`, apiVersion, chosenBy));
    });
  });
  return issues;
}

/**
 * Refusals for an `UpdateRun` on the azureFleet backend: its strategy and update at its api-version,
 * its members' labels and probes, and what its analysis needs of the strategy (issue 31).
 */
export function unsupportedInRun(input: { strategy?: UpdateRunStrategy; updateStrategyId?: string; members: readonly Member[]; apiVersion?: ClientFleetApiVersion; autoUpgradeProfile?: AutoUpgradeProfile; analysis?: Analysis }): FieldIssue[] {
  const issues = unsupportedInStrategy(input.strategy, "strategy.", input.apiVersion);
  if (input.autoUpgradeProfile !== undefined) issues.push(...unsupportedProfile(input.autoUpgradeProfile, input.apiVersion ?? DEFAULT_FLEET_API_VERSION));
  issues.push(...analysisGateIssues(input.strategy, input.analysis, "strategy."));
  if (input.analysis !== undefined && input.strategy === undefined && input.updateStrategyId === undefined) {
    issues.push({ path: "analysis", message: "on Fleet Manager the analysis is measured at approval gates the client adds to the run's strategy: give the run a strategy (or an updateStrategyId)" });
  }
  input.members.forEach((m, i) => {
    if (m.labels !== undefined) issues.push({ path: `members[${i}].labels`, message: "on Fleet Manager a member's labels are the fleet member's own: set them on the fleet member, not in the run" });
    if (m.healthCheck !== undefined) {
      issues.push({ path: `members[${i}].healthCheck`, message: "Fleet Manager runs the update server-side and cannot wait for a probe made from the client before a member counts as Completed: use analysis.afterMember with a web template (measured at the member's group's gate), or the azure backend" });
    }
  });
  return issues;
}

/**
 * docs/rules.md §18 on Fleet Manager: a profile is put and `generateUpdateRun` called (every client
 * api-version has both, 2025-04-01-preview included, as the live service answers); a channel the
 * api-version lacks (SecurityPatch before 2026-06-02-preview) is refused naming the version that has it.
 */
function unsupportedProfile(profile: AutoUpgradeProfile, apiVersion: ClientFleetApiVersion): FieldIssue[] {
  const features = FLEET_API_FEATURES[apiVersion];
  if (!features.generateUpdateRun) return [{ path: "autoUpgradeProfile", message: `Fleet Manager has no generateUpdateRun at api-version ${apiVersion}: use 2026-06-01 (the default) or later (${API_VERSION_FIELD})` }];
  if (!features.autoUpgradeChannels.includes(profile.channel)) {
    return [{ path: "autoUpgradeProfile.channel", message: `Fleet Manager takes channel ${profile.channel} from api-version ${FIRST_VERSION_WITH[`UpgradeChannel.${profile.channel}`] ?? "2026-06-01"} (${API_VERSION_FIELD} is ${apiVersion})` }];
  }
  return [];
}
