/**
 * Issue 5 health checks (docs/behaviour.md "Health checks"): after a member's upgrade reports success,
 * verify before it counts as Completed — first what the cluster reports (versions, images,
 * provisioning state), then the member's own probe, after a settle time, with retries.
 */
import { isPending, type ClusterInfo, type UpgradeRequest } from "./backend";
import type { EngineContext, MemberPlace } from "./context";
import { compareImageVersions, imageFamily } from "../model/nodeImage";
import { HEALTH_CHECK_TEMPLATE, shownProbeUrl } from "../model/analysis";
import { isoInstant as iso } from "../model/instants";
import { failureText, hasFailed, nextMeasurement, type AnalysisRunState } from "./analysis";
import { ANALYSIS_FAILED, measuredMember, memberTemplates, startAnalyses, stepAnalyses, templateNamed } from "./analysisSteps";
import type { MemberRunState } from "./runState";

export const HEALTH_CHECK_FAILED = "HealthCheckFailed";

// Probe URLs may carry secrets: shown by `shownProbeUrl` (model/analysis.ts), kept here for its callers.
export { shownProbeUrl };

/** What the cluster reports against what was asked: the first mismatch, or undefined when all match. */
export function clusterMismatch(cluster: ClusterInfo, request: UpgradeRequest): string | undefined {
  // A request names a version exactly when it moves one: ControlPlaneOnly and Full (model/update.ts
  // refuses one for NodeImageOnly; checks.ts leaves it out of a Full run's images-only request).
  const version = request.kubernetesVersion;
  if (version !== undefined && cluster.kubernetesVersion !== version) {
    return `the control plane reports Kubernetes ${cluster.kubernetesVersion}, expected ${version}`;
  }
  if (request.type === "Full") {
    const behind = cluster.nodePools.find((p) => p.orchestratorVersion !== version);
    if (behind !== undefined) return `node pool '${behind.name}' reports Kubernetes ${behind.orchestratorVersion}, expected ${version}`;
  }
  for (const [poolName, image] of Object.entries(request.nodeImageVersions)) {
    const pool = cluster.nodePools.find((p) => p.name === poolName);
    if (pool === undefined) return `node pool '${poolName}' is missing`;
    // At or past the image asked for (ARM only moves images forward, to the newest).
    if (imageFamily(pool.nodeImageVersion) !== imageFamily(image) || compareImageVersions(pool.nodeImageVersion, image) < 0) {
      return `node pool '${poolName}' reports image ${pool.nodeImageVersion}, expected ${image}`;
    }
  }
  if (cluster.provisioningState !== undefined && cluster.provisioningState !== "Succeeded") {
    return `the cluster's provisioning state is ${cluster.provisioningState}, expected Succeeded`;
  }
  return undefined;
}

export type Verdict = { kind: "healthy" } | { kind: "unhealthy"; code: string; message: string } | { kind: "later"; at: number; message: string };

/**
 * One step of verification at `now`. The first step checks the cluster (H2) and starts the member's
 * analyses (issue 31; its `healthCheck` is the short form of one, H3); later steps take their due
 * measurements. Healthy once every analysis is Successful; unhealthy at the first that fails.
 */
export async function verifyStep(ctx: EngineContext, place: MemberPlace, now: number): Promise<Verdict> {
  const { member, stage } = place;
  if (member.analysis === undefined) {
    const request = member.request;
    if (request !== undefined) {
      const answer = ctx.readCluster(member);
      const mismatch = clusterMismatch(isPending(answer) ? await answer : answer, request);
      if (mismatch !== undefined) return { kind: "unhealthy", code: HEALTH_CHECK_FAILED, message: `Health check failed (cluster): ${mismatch}.` };
    }
    const templates = memberTemplates(ctx, stage, member);
    if (templates.length === 0) return { kind: "healthy" };
    const check = member.healthCheck;
    if (check !== undefined && ctx.options.probe === undefined && ctx.backend.probe === undefined) {
      return { kind: "unhealthy", code: HEALTH_CHECK_FAILED, message: `Health check failed (probe): nothing can probe ${shownProbeUrl(check.url)} with this backend.` };
    }
    member.analysis = startAnalyses(ctx, member.name, templates, "afterMember", now);
    ctx.memberChanged(member);
    const at = nextMeasurement(member.analysis) as number;
    const message =
      check !== undefined && templates.length === 1
        ? `Upgrade done; probing ${shownProbeUrl(check.url)} after ${check.settleSeconds} s to settle.`
        : `Upgrade done; analysis ${templates.map((t) => `'${t.name}'`).join(", ")} from ${iso(at)}.`;
    return { kind: "later", at, message };
  }
  const analyses = member.analysis;
  const stepped = stepAnalyses(ctx, member.name, analyses, [measuredMember(ctx, member)], now, member);
  if (isPending(stepped)) await stepped;
  ctx.memberChanged(member);
  const failed = analyses.find(hasFailed);
  if (failed !== undefined) {
    if (failed.template === HEALTH_CHECK_TEMPLATE && member.healthCheck !== undefined) {
      const attempts = failed.failed + failed.error;
      return { kind: "unhealthy", code: HEALTH_CHECK_FAILED, message: `Health check failed (probe): ${failed.message ?? "no answer"}, ${attempts} attempt${attempts === 1 ? "" : "s"}.` };
    }
    return { kind: "unhealthy", code: ANALYSIS_FAILED, message: failureText(failed, templateNamed(ctx, failed.template, member)) };
  }
  const at = nextMeasurement(analyses);
  if (at === undefined) return { kind: "healthy" };
  return { kind: "later", at, message: laterText(member, analyses, at, now) };
}

/** What a member under analysis shows: the short form's H3 text, or the last measurement and the next instant. */
function laterText(member: MemberRunState, analyses: readonly AnalysisRunState[], at: number, now: number): string {
  const check = member.healthCheck;
  const probe = analyses.find((a) => a.template === HEALTH_CHECK_TEMPLATE);
  if (check !== undefined && probe !== undefined && analyses.length === 1) {
    const probes = probe.failed + probe.error;
    if (probes === 0) return `Upgrade done; probing ${shownProbeUrl(check.url)} after ${check.settleSeconds} s to settle.`;
    return `Probe ${probes} of ${check.retries + 1} failed (${probe.message ?? "no answer"}); trying again in ${Math.round((at - now) / 1000)} s.`;
  }
  const last = analyses.filter((a) => a.measurements.length > 0).sort((a, b) => (b.measurements.at(-1)?.at ?? 0) - (a.measurements.at(-1)?.at ?? 0))[0];
  const seen = last === undefined ? "" : ` Last: '${last.template}' ${last.measurements.at(-1)?.phase}: ${last.message ?? ""}.`;
  return `Upgrade done; analysing, next measurement at ${iso(at)}.${seen}`;
}
