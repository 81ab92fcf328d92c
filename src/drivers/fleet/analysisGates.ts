/**
 * Issue 31 on Fleet Manager (docs/health-analysis.md "On Fleet Manager", docs/behaviour.md FM16):
 * Fleet runs the rollout server-side, so a run's analysis is measured by our client, and Fleet is held
 * for it at Approval gates the client adds to the strategy it sends. Each place an analysis is used
 * maps to the nearest gate Fleet has (Fleet has no gate per member):
 *
 * - `stages[].preCheck` → a **before-gate of the stage**, measured over the stage's members once it is
 *   reached (before any of them starts);
 * - `stages[].soak` → an **after-gate of the stage**, reached with its after-stage wait (Fleet runs the
 *   two side by side), measured through the wait and approved no earlier than its end;
 * - `afterMember` (the run's, and the stage's own) → an **after-gate of each group** of the stage,
 *   measured over the group's upgraded members once the group is done.
 *
 * Our gates go after the user's own at each place, so the user's keep their ids (`canary/after/0`),
 * and are told apart by their `displayName`, which starts with `ANALYSIS_GATE_PREFIX` (`../waiting.ts`, where a status is read; a user's gate
 * may not, on any backend: `reservedGateNames`). Only the client approves them, and only when their analysis passes.
 */
import type { Analysis, StageAnalysis } from "../../model/analysis";
import type { FieldIssue } from "../../model/issues";
import { gateId, MAX_GATES, type Gate, type UpdateRunStrategy } from "../../model/strategy";
import { ANALYSIS_GATE_PREFIX, isAnalysisGate } from "../waiting";

/** Fleet's longest gate display name. */
const MAX_DISPLAY_NAME = 100;

export type GateAnalysisKind = "preCheck" | "soak" | "afterMember";

/** One gate the client adds, and the analysis it holds the run for. */
export interface AnalysisGate {
  /** Our id for the gate (`canary/before/1`, `canary/eu/after/0`): after the user's gates at its place. */
  gateId: string;
  kind: GateAnalysisKind;
  stage: string;
  /** The group, for an `afterMember` gate. */
  group?: string;
  /** The templates measured, by name, each once, in the order declared. */
  templates: string[];
  displayName: string;
}

function displayNameOf(kind: GateAnalysisKind, templates: readonly string[]): string {
  const full = `${ANALYSIS_GATE_PREFIX}: ${kind} ${templates.join(", ")}`;
  return full.length <= MAX_DISPLAY_NAME ? full : `${full.slice(0, MAX_DISPLAY_NAME - 1)}…`;
}

const unique = (names: ReadonlyArray<string | undefined>): string[] => [...new Set(names.filter((n): n is string => n !== undefined))];

/** The gates `analysis` needs in `strategy` (the user's, without ours), in the order Fleet reaches them. */
export function analysisGates(strategy: UpdateRunStrategy, analysis: Analysis | undefined): AnalysisGate[] {
  if (analysis === undefined) return [];
  const byStage = new Map<string, StageAnalysis>((analysis.stages ?? []).map((s) => [s.name, s]));
  const out: AnalysisGate[] = [];
  for (const stage of strategy.stages) {
    const uses = byStage.get(stage.name);
    const preCheck = unique(uses?.preCheck ?? []);
    if (preCheck.length > 0) {
      out.push({ gateId: gateId(stage.name, undefined, "before", stage.beforeGates?.length ?? 0), kind: "preCheck", stage: stage.name, templates: preCheck, displayName: displayNameOf("preCheck", preCheck) });
    }
    const afterMember = unique([...(analysis.afterMember ?? []), ...(uses?.afterMember ?? [])]);
    if (afterMember.length > 0) {
      for (const group of stage.groups) {
        out.push({ gateId: gateId(stage.name, group.name, "after", group.afterGates?.length ?? 0), kind: "afterMember", stage: stage.name, group: group.name, templates: afterMember, displayName: displayNameOf("afterMember", afterMember) });
      }
    }
    const soak = unique(uses?.soak ?? []);
    if (soak.length > 0) {
      out.push({ gateId: gateId(stage.name, undefined, "after", stage.afterGates?.length ?? 0), kind: "soak", stage: stage.name, templates: soak, displayName: displayNameOf("soak", soak) });
    }
  }
  return out;
}

/** The strategy as sent to Fleet: the user's, with our gates after theirs at each place. */
export function withAnalysisGates(strategy: UpdateRunStrategy, gates: readonly AnalysisGate[]): UpdateRunStrategy {
  if (gates.length === 0) return strategy;
  const approval = (g: AnalysisGate): Gate => ({ type: "Approval", displayName: g.displayName });
  const at = (stage: string, group: string | undefined, kind: GateAnalysisKind) => gates.filter((g) => g.stage === stage && g.group === group && g.kind === kind).map(approval);
  const append = (own: Gate[] | undefined, ours: Gate[]): { value?: Gate[] } => (ours.length === 0 ? (own === undefined ? {} : { value: own }) : { value: [...(own ?? []), ...ours] });
  return {
    ...strategy,
    stages: strategy.stages.map((stage) => {
      const before = append(stage.beforeGates, at(stage.name, undefined, "preCheck"));
      const after = append(stage.afterGates, at(stage.name, undefined, "soak"));
      return {
        ...stage,
        ...(before.value === undefined ? {} : { beforeGates: before.value }),
        ...(after.value === undefined ? {} : { afterGates: after.value }),
        groups: stage.groups.map((group) => {
          const groupAfter = append(group.afterGates, at(stage.name, group.name, "afterMember"));
          return { ...group, ...(groupAfter.value === undefined ? {} : { afterGates: groupAfter.value }) };
        }),
      };
    }),
  };
}

/**
 * What a strategy must leave room for on Fleet when the run declares an analysis (paths under
 * `prefix`): a place already holding `MAX_GATES` gates has no room for ours.
 */
export function analysisGateIssues(strategy: UpdateRunStrategy | undefined, analysis: Analysis | undefined, prefix: string): FieldIssue[] {
  if (strategy === undefined || analysis === undefined) return [];
  const issues: FieldIssue[] = [];
  for (const gate of analysisGates(strategy, analysis)) {
    const s = strategy.stages.findIndex((st) => st.name === gate.stage);
    const stage = strategy.stages[s];
    if (stage === undefined) continue;
    const g = gate.group === undefined ? -1 : stage.groups.findIndex((gr) => gr.name === gate.group);
    const own = gate.kind === "preCheck" ? stage.beforeGates : gate.kind === "soak" ? stage.afterGates : stage.groups[g]?.afterGates;
    if ((own?.length ?? 0) < MAX_GATES) continue;
    const field = gate.kind === "preCheck" ? "beforeGates" : "afterGates";
    const at = gate.group === undefined ? `${prefix}stages[${s}].${field}` : `${prefix}stages[${s}].groups[${g}].${field}`;
    issues.push({ path: at, message: `holds ${MAX_GATES} gates: on Fleet Manager the ${gate.kind} analysis needs one more here (the client's gate); remove one` });
  }
  return issues;
}

/**
 * A user's gate named like the client's would be taken for one (never listed as waiting for a person,
 * never approved on request): such a display name is refused on every backend, so a strategy means
 * the same wherever it runs.
 */
export function reservedGateNames(strategy: UpdateRunStrategy | undefined, prefix: string): FieldIssue[] {
  if (strategy === undefined) return [];
  const issues: FieldIssue[] = [];
  const named = (gates: Gate[] | undefined, at: string) =>
    gates?.forEach((g, i) => {
      if (isAnalysisGate(g.displayName)) issues.push({ path: `${at}[${i}].displayName`, message: `a display name starting '${ANALYSIS_GATE_PREFIX}' is kept for the gates the client adds for analysis on Fleet Manager: name the gate otherwise` });
    });
  strategy.stages.forEach((stage, s) => {
    const at = `${prefix}stages[${s}]`;
    named(stage.beforeGates, `${at}.beforeGates`);
    named(stage.afterGates, `${at}.afterGates`);
    stage.groups.forEach((group, g) => {
      named(group.beforeGates, `${at}.groups[${g}].beforeGates`);
      named(group.afterGates, `${at}.groups[${g}].afterGates`);
    });
  });
  return issues;
}
