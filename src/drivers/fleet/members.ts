/**
 * Issue 12: on Fleet Manager the members are the fleet's (`fleets/{f}/members`, each with its group).
 * A program's `members` is a check, not a selection: Fleet updates every member of the fleet whose
 * group is in the strategy (every member without one) or that a `memberSelector` selects by the fleet
 * member's `labels` (2026-06-02-preview), so a listed member must be in the fleet with that group, and
 * a program that lists members must list every member the run will update. A program that lists none
 * uses the fleet's. Labels are the fleet member's own: they are read from the fleet, never from the
 * program (whose `members[].labels` is refused on this backend, `unsupported.ts`).
 */
import type { FieldIssue } from "../../model/issues";
import type { Member } from "../../model/member";
import { crossValidateRun, type ExcludedMember } from "../../model/run";
import type { UpdateRunStrategy } from "../../model/strategy";
import type { FleetMemberInfo } from "../../backends/azureFleet/fleetClient";

export interface FleetMembersCheck {
  issues: FieldIssue[];
  /** The run's members: the fleet's. */
  members: Member[];
  /** Fleet members the run leaves out (group in no stage, or selected by no group). */
  excluded: ExcludedMember[];
}

export function checkMembersAgainstFleet(program: readonly Member[], fleet: readonly FleetMemberInfo[], fleetName: string, strategy?: UpdateRunStrategy): FleetMembersCheck {
  const issues: FieldIssue[] = [];
  const byName = new Map(fleet.map((m) => [m.name, m]));
  program.forEach((m, i) => {
    const found = byName.get(m.name);
    if (found === undefined) {
      issues.push({ path: `members[${i}].name`, message: `member '${m.name}' is not a member of fleet '${fleetName}' (its members: ${fleet.map((f) => f.name).join(", ") || "none"})` });
      return;
    }
    if ((found.group ?? undefined) !== m.group) {
      const theirs = found.group === undefined ? "no group" : `group '${found.group}'`;
      issues.push({ path: `members[${i}].group`, message: `member '${m.name}' is in ${theirs} in fleet '${fleetName}', not ${m.group === undefined ? "without a group" : `'${m.group}'`}` });
    }
    if (m.clusterResourceId !== undefined && m.clusterResourceId.toLowerCase() !== found.clusterResourceId.toLowerCase()) {
      issues.push({ path: `members[${i}].clusterResourceId`, message: `member '${m.name}' of fleet '${fleetName}' is cluster ${found.clusterResourceId}` });
    }
  });
  const members: Member[] = fleet.map((m) => ({
    name: m.name,
    clusterResourceId: m.clusterResourceId,
    ...(m.group === undefined ? {} : { group: m.group }),
    ...(m.labels === undefined ? {} : { labels: m.labels }),
  }));
  const cross = crossValidateRun({ members, ...(strategy === undefined ? {} : { strategy }) });
  issues.push(...cross.issues.filter((i) => !i.path.startsWith("members")));
  if (program.length > 0) {
    const listed = new Set(program.map((m) => m.name));
    const excluded = new Set(cross.excluded.map((m) => m.name));
    const unlisted = members.filter((m) => !listed.has(m.name) && !excluded.has(m.name)).map((m) => m.name);
    if (unlisted.length > 0) {
      issues.push({
        path: "members",
        message: `Fleet Manager updates every member of fleet '${fleetName}' in the strategy's groups, also ${unlisted.map((n) => `'${n}'`).join(", ")}, which are not listed: list them too, or list no members (a run over some members only, such as a retry of failedMembers, needs the azure backend)`,
      });
    }
  }
  return { issues, members, excluded: cross.excluded };
}
