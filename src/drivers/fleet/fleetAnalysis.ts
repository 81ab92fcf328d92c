/**
 * Issue 31 on Fleet Manager (docs/health-analysis.md "On Fleet Manager", docs/behaviour.md FM16). Fleet
 * runs the rollout server-side; the client measures the run's analyses and holds Fleet for them at the
 * Approval gates it added (`drivers/fleet/analysisGates.ts`). At each read of the run, for each
 * of its gates Fleet shows Pending, the `FleetAnalyst`:
 *
 * - starts the gate's analyses at the instant **Fleet reached the gate** (the gate's `startTime` in the
 *   run's status), so their schedule is Azure's, not this process's: a gate reached again (a start after
 *   a stop) is measured again from its new instant;
 * - takes the measurements due, with `engine/analysis.ts`'s pure decisions (the same as in process) and
 *   its events through the engine's `Transitions`. A Prometheus measurement that fell due before this
 *   call began following is taken at **its own instant** (`MetricQuery.at`): a killed client's successor
 *   takes again, from the samples Prometheus kept, exactly what the killed one measured, and goes on where
 *   it was. A web probe has no past: a missed one is taken now;
 * - says which gates to approve — every analysis Successful, and for a soak, the after-stage wait over
 *   too (no earlier) — and which failure halts the run.
 *
 * The session (`fleetSession.ts`) does Fleet's side: it approves each gate once, when Fleet shows it
 * Pending (so a gate Fleet shows Completed — approved by a client since killed — is never approved
 * again), and stops the run on a failure, leaving the gate Pending. Nothing here reads a clock.
 */
import type { Analysis, AnalysisTemplate } from "../../model/analysis";
import type { Labels } from "../../model/member";
import { isoInstant } from "../../model/instants";
import type { ErrorDetail, GateStatus, MemberUpdateStatus, RunEvent, UpdateGroupStatus, UpdateRunStatus, UpdateStageStatus, UpdateStatus } from "../../model/status";
import type { AnalysisGate } from "./analysisGates";
import { isPending } from "../../engine/backend";
import { failureText, hasFailed, nextMeasurement, recordMeasurement, renderAnalysis, shownQuery, startAnalysis, takeMeasurement, undeclaredText, type AnalysisRunState, type MeasurePorts, type MeasuredMember, type MeasurementState } from "../../engine/analysis";
import { ANALYSIS_FAILED, PRE_CHECK_FAILED, analysisId } from "../../engine/analysisSteps";
import { Transitions } from "../../engine/transitions";
import type { FleetAnalysisHalt, FleetGateAnalysis } from "../runDriver";

/** What one step decided: the gates to approve now, and the failure that halts the run (first only). */
export interface AnalystDecision {
  approve: string[];
  halt?: FleetAnalysisHalt;
}

interface Place {
  gate: GateStatus;
  stage: UpdateStageStatus;
  group?: UpdateGroupStatus;
}

/** A gate of the status by our id, with the stage (and group) it stands in. */
function placeOf(status: UpdateRunStatus, gateId: string): Place | undefined {
  for (const stage of status.stages) {
    const own = [...(stage.beforeGates ?? []), ...(stage.afterGates ?? [])].find((g) => g.gateId === gateId);
    if (own !== undefined) return { gate: own, stage };
    for (const group of stage.groups) {
      const found = [...(group.beforeGates ?? []), ...(group.afterGates ?? [])].find((g) => g.gateId === gateId);
      if (found !== undefined) return { gate: found, stage, group };
    }
  }
  return undefined;
}

const ms = (iso: string | undefined): number | undefined => {
  if (iso === undefined) return undefined;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : t;
};

const FINISHED_MEMBER = new Set(["Completed", "Skipped"]);

export class FleetAnalyst {
  private readonly records = new Map<string, FleetGateAnalysis>();
  private readonly transitions: Transitions;
  private halt: FleetAnalysisHalt | undefined;
  /** Measurements due before this instant fell due while no client of this call followed: taken at their own. */
  private since: number | undefined;

  constructor(
    private readonly analysis: Analysis,
    private readonly gates: readonly AnalysisGate[],
    /** Each fleet member's labels, which a query may name (`{{member.labels.<key>}}`). */
    private readonly labels: ReadonlyMap<string, Labels>,
    private readonly ports: MeasurePorts,
    previous: { analysis?: readonly FleetGateAnalysis[]; halt?: FleetAnalysisHalt },
    onEvent: (event: RunEvent) => void,
  ) {
    for (const record of previous.analysis ?? []) this.records.set(record.gateId, structuredClone(record));
    this.halt = previous.halt === undefined ? undefined : { ...previous.halt };
    this.transitions = new Transitions(onEvent);
  }

  /** What the caller keeps (`FleetRunRecord.analysis`, `.halt`). */
  record(): { analysis?: FleetGateAnalysis[]; halt?: FleetAnalysisHalt } {
    const analysis = [...this.records.values()].map((r) => structuredClone(r));
    return { ...(analysis.length === 0 ? {} : { analysis }), ...(this.halt === undefined ? {} : { halt: { ...this.halt } }) };
  }

  /** The run was started again: the halt is over, and a gate reached again is measured again. */
  restarted(): void {
    this.halt = undefined;
  }

  /** The approval of `gateId` landed at `now`. */
  approved(gateId: string, now: number): void {
    const record = this.records.get(gateId);
    if (record !== undefined) record.approvedAt = now;
  }

  /** Whether one of the client's gates waits for its analysis (then following goes on, whatever else waits). */
  measuring(status: UpdateRunStatus): boolean {
    if (this.halt !== undefined) return false;
    return this.gates.some((gate) => placeOf(status, gate.gateId)?.gate.status.state === "Pending" && this.records.get(gate.gateId)?.approvedAt === undefined);
  }

  /**
   * The earliest instant after `now` a step has something to do: a measurement due, or a soak's end.
   * (What was due by `now` the last step took; nothing is measured while a halt stands.)
   */
  nextAt(status: UpdateRunStatus, now: number): number | undefined {
    if (this.halt !== undefined) return undefined;
    let next: number | undefined;
    const earliest = (t: number | undefined) => {
      if (t !== undefined && t > now && (next === undefined || t < next)) next = t;
    };
    for (const gate of this.gates) {
      const record = this.records.get(gate.gateId);
      const place = placeOf(status, gate.gateId);
      if (record === undefined || place?.gate.status.state !== "Pending" || record.approvedAt !== undefined) continue;
      earliest(nextMeasurement(record.analyses.map((a) => a.analysis)));
      if (gate.kind === "soak") earliest(soakEndsAt(place, record.reachedAt));
    }
    return next;
  }

  /**
   * One step at `now` over Fleet's status: start the analyses of gates reached, take what is due,
   * decide. The first step of a call fixes `since`.
   */
  async step(status: UpdateRunStatus, now: number): Promise<AnalystDecision> {
    this.since ??= now;
    const decision: AnalystDecision = { approve: [] };
    // Fleet runs again past a halt (started outside this client): the halt is over once its gate is
    // no longer the one that failed, waiting as it was (a gate reached again has a new instant).
    if (this.halt !== undefined) {
      const halted = placeOf(status, this.halt.gateId)?.gate.status;
      if (halted?.state !== "Pending" || ms(halted.startTime) !== this.records.get(this.halt.gateId)?.reachedAt) this.halt = undefined;
    }
    for (const gate of this.gates) {
      const place = placeOf(status, gate.gateId);
      if (place === undefined || place.gate.status.state !== "Pending") continue;
      const reachedAt = ms(place.gate.status.startTime) ?? now;
      let record = this.records.get(gate.gateId);
      if (record === undefined || record.reachedAt !== reachedAt) record = this.begin(gate, place, reachedAt);
      if (record.approvedAt !== undefined || this.halt !== undefined) continue;
      await this.measure(gate, place, record, now);
      const analyses = record.analyses.map((a) => a.analysis);
      const failed = record.analyses.filter((a) => hasFailed(a.analysis));
      if (failed.length > 0) {
        this.halt = this.haltOf(gate, failed, now);
        decision.halt = this.halt;
        break;
      }
      const passed = analyses.every((a) => a.phase === "Successful");
      const soakOver = gate.kind !== "soak" || now >= (soakEndsAt(place, reachedAt) ?? reachedAt);
      if (passed && soakOver) decision.approve.push(gate.gateId);
    }
    this.transitions.flush();
    return decision;
  }

  /** The analyses of a gate just reached (or reached again), started at Fleet's instant. */
  private begin(gate: AnalysisGate, place: Place, reachedAt: number): FleetGateAnalysis {
    const templates = gate.templates.map((name) => this.template(name)).filter((t): t is AnalysisTemplate => t !== undefined);
    const soakEnd = gate.kind === "soak" ? soakEndsAt(place, reachedAt) : undefined;
    // A stage's gate measures its members together; one with no member to measure has nothing to hold.
    const members = membersIn(place, gate).map((m) => m.name);
    const owners = gate.kind === "afterMember" ? members : members.length === 0 ? [] : [undefined];
    const analyses = owners.flatMap((member) =>
      templates.map((template) => {
        const analysis = startAnalysis(template, gate.kind, reachedAt, { query: shownQuery(template) }, soakEnd);
        const first = isoInstant(analysis.nextMeasurementAt as number);
        this.transitions.analysisStarted(analysis, this.idOf(gate, analysis, member), reachedAt, `Measuring ${analysis.query} from ${first}, ${analysis.count} measurement${analysis.count === 1 ? "" : "s"} (gate '${gate.gateId}').`);
        return { ...(member === undefined ? {} : { member }), analysis };
      }),
    );
    const record: FleetGateAnalysis = { gateId: gate.gateId, reachedAt, analyses };
    this.records.set(gate.gateId, record);
    return record;
  }

  /** Take every measurement due: missed ones (before `since`) at their own instant, then one now. */
  private async measure(gate: AnalysisGate, place: Place, record: FleetGateAnalysis, now: number): Promise<void> {
    for (const { member, analysis } of record.analyses) {
      const template = this.template(analysis.template);
      const id = this.idOf(gate, analysis, member);
      if (template === undefined) {
        if (analysis.phase === "Running") this.transitions.analysisEnded(analysis, id, "Error", now, undeclaredText(analysis));
        continue;
      }
      const measured = member === undefined ? membersIn(place, gate) : membersIn(place, gate).filter((m) => m.name === member);
      const targets = measured.map((m) => this.measuredMember(m));
      while (analysis.phase === "Running" && (analysis.nextMeasurementAt ?? now) <= now) {
        const due = analysis.nextMeasurementAt ?? now;
        // Only a Prometheus query can be asked about the past; a probe missed is made now.
        const missed = due < (this.since ?? now) && template.provider.prometheus !== undefined;
        const at = missed ? due : now;
        const ports: MeasurePorts = missed ? { probe: this.ports.probe, queryMetric: (q) => this.ports.queryMetric({ ...q, at: due }) } : this.ports;
        const answer = takeMeasurement(template, targets, ports, at);
        const measurement: MeasurementState = isPending(answer) ? await answer : answer;
        const ended = recordMeasurement(analysis, template, measurement, at);
        this.transitions.measured(analysis, id, measurement, at, ended);
        if (!missed) break;
      }
    }
  }

  private haltOf(gate: AnalysisGate, failed: ReadonlyArray<{ member?: string; analysis: AnalysisRunState }>, now: number): FleetAnalysisHalt {
    const first = failed[0] as { member?: string; analysis: AnalysisRunState };
    const text = failureText(first.analysis, this.template(first.analysis.template));
    const members = [...new Set(failed.flatMap((f) => (f.member === undefined ? [] : [f.member])))];
    const message =
      gate.kind === "afterMember"
        ? `Member '${first.member}' of group '${gate.group}': ${text}${members.length > 1 ? ` (and ${members.length - 1} more member${members.length > 2 ? "s" : ""})` : ""}`
        : `${gate.kind === "preCheck" ? "Pre-check" : "Soak"} of stage '${gate.stage}': ${text}`;
    return { gateId: gate.gateId, at: now, code: gate.kind === "preCheck" ? PRE_CHECK_FAILED : ANALYSIS_FAILED, message, members };
  }

  private template(name: string): AnalysisTemplate | undefined {
    return this.analysis.templates.find((t) => t.name === name);
  }

  private idOf(gate: AnalysisGate, analysis: AnalysisRunState, member: string | undefined): string {
    return analysisId(member ?? gate.stage, analysis);
  }

  private measuredMember(member: MemberUpdateStatus): MeasuredMember {
    const labels = this.labels.get(member.name);
    return { ref: { name: member.name, ...(member.clusterResourceId === undefined ? {} : { clusterResourceId: member.clusterResourceId }) }, ...(labels === undefined ? {} : { labels }) };
  }

  /**
   * Fleet's status with what the client measured (`analysisRuns` on stages and members) and, once an
   * analysis halted the run, the failure: the run Failed, and the stage — or the members, their group
   * and stage — Failed with the analysis's error naming its query, value and threshold.
   */
  overlay(status: UpdateRunStatus): UpdateRunStatus {
    if (this.records.size === 0 && this.halt === undefined) return status;
    const out = structuredClone(status);
    for (const gate of this.gates) {
      const record = this.records.get(gate.gateId);
      const place = placeOf(out, gate.gateId);
      if (record === undefined || place === undefined) continue;
      for (const { member, analysis } of record.analyses) {
        const rendered = renderAnalysis(analysis);
        if (member === undefined) place.stage.analysisRuns = [...(place.stage.analysisRuns ?? []), rendered];
        else {
          const owner = place.group?.members.find((m) => m.name === member);
          if (owner !== undefined) owner.analysisRuns = [...(owner.analysisRuns ?? []), rendered];
        }
      }
    }
    const halt = this.halt;
    if (halt === undefined) return out;
    const place = placeOf(out, halt.gateId);
    const error: ErrorDetail = { code: halt.code, message: halt.message };
    const at = isoInstant(halt.at);
    if (place !== undefined) {
      for (const member of place.group?.members ?? []) {
        if (halt.members.includes(member.name)) {
          member.status = failed(member.status, error, at);
          member.message = halt.message;
        }
      }
      if (place.group !== undefined) place.group.status = failed(place.group.status, error, at);
      place.stage.status = failed(place.stage.status, error, at);
    }
    const stageName = place?.stage.name ?? halt.gateId.split("/")[0];
    out.status = failed(out.status, { code: halt.code, message: `Stage '${stageName}' failed: ${halt.message}` }, at);
    return out;
  }
}

function failed(status: UpdateStatus, error: ErrorDetail, at: string): UpdateStatus {
  return { ...status, state: "Failed", completedTime: status.completedTime ?? at, error };
}

/** The members a gate's analyses measure: a pre-check, those about to be upgraded; else those upgraded. */
function membersIn(place: Place, gate: AnalysisGate): MemberUpdateStatus[] {
  const groups = gate.kind === "afterMember" ? (place.group === undefined ? [] : [place.group]) : place.stage.groups;
  const members = groups.flatMap((g) => g.members);
  return gate.kind === "preCheck" ? members.filter((m) => !FINISHED_MEMBER.has(m.status.state)) : members.filter((m) => m.status.state === "Completed");
}

/** A soak's end: the stage's after-stage wait, which Fleet starts when it reaches the stage's after-gates. */
function soakEndsAt(place: Place, reachedAt: number): number | undefined {
  const wait = place.stage.afterStageWaitStatus;
  if (wait === undefined) return undefined;
  const started = ms(wait.status.startTime) ?? reachedAt;
  return started + wait.waitDurationInSeconds * 1000;
}
