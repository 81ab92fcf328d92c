/**
 * Issue 11: a member's health-check URL may hold a secret (a token, credentials), and the engine's
 * state is stored where secrets must not go — the run journal on disk, the `engineState` output in the
 * Pulumi stack. So the state is stored without the members' health checks, and a resumed run takes
 * them from its inputs again: the inputs define the run (a change of `members`, health checks
 * included, is a new run), so they are the same health checks.
 */
import type { RunState } from "../../engine/runState";
import type { HealthCheck } from "../../model/healthCheck";
import type { Analysis } from "../../model/analysis";
import { runAnalysis } from "../../engine/plan";

/** The state as it may be stored: no member carries its health check, the run no declared analysis (issue 31). */
export function withoutHealthChecks(state: RunState): RunState {
  const { declaredAnalysis: _declared, ...run } = mapMembers(state, ({ healthCheck: _stored, ...member }) => member);
  return run;
}

/**
 * A stored state made whole again: each member gets the health check the run's inputs give it, and
 * the run its declared analysis (issue 31), with the labels its queries may name.
 */
export function withHealthChecks(
  state: RunState,
  members: ReadonlyArray<{ name: string; healthCheck?: HealthCheck | undefined; labels?: Readonly<Record<string, string>> | undefined }>,
  analysis?: Analysis,
): RunState {
  const checks = new Map(members.flatMap((m) => (m.healthCheck === undefined ? [] : [[m.name, m.healthCheck] as const])));
  const whole = mapMembers(state, ({ healthCheck: _stored, ...member }) => {
    const check = checks.get(member.name);
    return check === undefined ? member : { ...member, healthCheck: structuredClone(check) };
  });
  const declared = runAnalysis(analysis, members.map((m) => ({ name: m.name, ...(m.labels === undefined ? {} : { labels: m.labels }) })));
  return declared === undefined ? whole : { ...whole, declaredAnalysis: declared };
}

type Member = RunState["stages"][number]["groups"][number]["members"][number];

function mapMembers(state: RunState, f: (member: Member) => Member): RunState {
  return { ...state, stages: state.stages.map((stage) => ({ ...stage, groups: stage.groups.map((group) => ({ ...group, members: group.members.map(f) })) })) };
}
