/**
 * Issue 5 health checks (docs/behaviour.md "Health checks"): after a member's upgrade reports success,
 * verify before it counts as Completed — first what the cluster reports (versions, images,
 * provisioning state), then the member's own probe, after a settle time, with retries.
 */
import { isPending, type ClusterInfo, type UpgradeRequest } from "./backend";
import type { EngineContext, MemberPlace } from "./context";
import { compareImageVersions, imageFamily } from "../model/nodeImage";

export const HEALTH_CHECK_FAILED = "HealthCheckFailed";

/**
 * Probe URLs may carry secrets — a token in the query, credentials before the host (issue 11):
 * statuses, events and logs show the URL without either (`https://…@host/healthz?…`), nor a fragment.
 */
export function shownProbeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "(an invalid URL)";
  }
  const credentials = parsed.username !== "" || parsed.password !== "" ? "…@" : "";
  return `${parsed.protocol}//${credentials}${parsed.host}${parsed.pathname}${parsed.search !== "" ? "?…" : ""}`;
}

/** What the cluster reports against what was asked: the first mismatch, or undefined when all match. */
export function clusterMismatch(cluster: ClusterInfo, request: UpgradeRequest): string | undefined {
  const version = request.kubernetesVersion;
  if (version !== undefined && request.type !== "NodeImageOnly" && cluster.kubernetesVersion !== version) {
    return `the control plane reports Kubernetes ${cluster.kubernetesVersion}, expected ${version}`;
  }
  if (request.type === "Full" && version !== undefined) {
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

export type Verdict = { kind: "healthy" } | { kind: "unhealthy"; message: string } | { kind: "later"; at: number; message: string };

/**
 * One step of verification at `now`. The first step (no probes yet) checks the cluster and, when the
 * member has a probe, schedules it after the settle time; later steps probe.
 */
export async function verifyStep(ctx: EngineContext, place: MemberPlace, now: number): Promise<Verdict> {
  const { member } = place;
  const check = member.healthCheck;
  const verification = member.verification;
  if (verification === undefined) {
    const request = member.request;
    if (request !== undefined) {
      const answer = ctx.readCluster(member);
      const mismatch = clusterMismatch(isPending(answer) ? await answer : answer, request);
      if (mismatch !== undefined) return { kind: "unhealthy", message: `Health check failed (cluster): ${mismatch}.` };
    }
    if (check === undefined) return { kind: "healthy" };
    member.verification = { probes: 0 };
    return { kind: "later", at: now + check.settleSeconds * 1000, message: `Upgrade done; probing ${shownProbeUrl(check.url)} after ${check.settleSeconds} s to settle.` };
  }
  if (check === undefined) return { kind: "healthy" };
  const probe = ctx.options.probe ?? ctx.backend.probe?.bind(ctx.backend);
  if (probe === undefined) return { kind: "unhealthy", message: `Health check failed (probe): nothing can probe ${shownProbeUrl(check.url)} with this backend.` };
  const probed = probe(ctx.ref(member), check.url);
  const answer = isPending(probed) ? await probed : probed;
  verification.probes += 1;
  if (answer.ok) return { kind: "healthy" };
  if (verification.probes > check.retries) {
    return { kind: "unhealthy", message: `Health check failed (probe): ${answer.detail}, ${verification.probes} attempt${verification.probes === 1 ? "" : "s"}.` };
  }
  return { kind: "later", at: now + check.intervalSeconds * 1000, message: `Probe ${verification.probes} of ${check.retries + 1} failed (${answer.detail}); trying again in ${check.intervalSeconds} s.` };
}
