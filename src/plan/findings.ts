/**
 * Pre-flight findings: what a platform engineer wants to know before starting the run. Each check is
 * one function with one stable code. The AKS rules are the ones the simulated fleet and the ARM emulator
 * enforce (`src/aks/upgradeRules.ts`), and timing-dependent checks read the predicted schedule.
 */
import { NODE_POOL_VERSION_ABOVE_CONTROL_PLANE, UPGRADE_DOWNGRADE_NOT_ALLOWED, UPGRADE_MINOR_VERSION_SKIP_NOT_ALLOWED } from "../aks/errorCodes";
import { checkUpgradeRequest } from "../aks/upgradeRules";
import { BackendError, type ClusterInfo, type OfferedVersion } from "../engine/backend";
import { availability } from "../engine/nodeImages";
import { isoInstant } from "../model/instants";
import { ownValue } from "../model/values";
import type { Region } from "../model/fleet";
import { compareDotted, compareImageVersions, imageDate, imageFamily } from "../model/nodeImage";
import type { Prediction } from "./predict";
import type { Schedule } from "./schedule";
import type { Finding, FindingSeverity, PlannedMember } from "./types";
import type { PlanWorld } from "./world";

/** AKS supports a node image for about three months: one older than this when its member is reached is stale. */
export const STALE_IMAGE_DAYS = 90;
const DAY_MS = 86_400_000;

interface FindingContext {
  world: PlanWorld;
  prediction: Prediction;
  schedule: Schedule;
  /** Planned members by name. */
  planned: Map<string, PlannedMember>;
}

const SEVERITY_ORDER: Record<FindingSeverity, number> = { error: 0, warning: 1, info: 2 };

/** Every finding, errors first, then warnings, then information; in check order within a severity. */
export function findings(world: PlanWorld, prediction: Prediction, schedule: Schedule): Finding[] {
  const ctx: FindingContext = { world, prediction, schedule, planned: new Map(schedule.members.map((m) => [m.name, m])) };
  const all = [
    ...noUpgradeVersionFindings(ctx),
    ...upgradePathFindings(ctx),
    ...versionNotInRegionFindings(ctx),
    ...nodeImageNotInRegionFindings(ctx),
    ...memberInNoStageFindings(ctx),
    ...emptyGroupFindings(ctx),
    ...clusterStoppedFindings(ctx),
    ...clusterAutoUpgradeFindings(ctx),
    ...operationInFlightFindings(ctx),
    ...staleNodeImageFindings(ctx),
    ...gateFindings(ctx),
    ...analysisFindings(ctx),
    ...horizonFindings(ctx),
    ...world.notes,
  ];
  return all.map((f, i) => ({ f, i })).sort((a, b) => SEVERITY_ORDER[a.f.severity] - SEVERITY_ORDER[b.f.severity] || a.i - b.i).map(({ f }) => f);
}

/** NO_UPGRADE_VERSION: the run's `autoUpgradeProfile` finds no version at the start (docs/rules.md §18): the run fails then. */
function noUpgradeVersionFindings(ctx: FindingContext): Finding[] {
  const error = ctx.prediction.updateError;
  return error === undefined ? [] : [{ severity: "error", code: "NO_UPGRADE_VERSION", message: `${error.message}. The run fails at its start; no member is touched.` }];
}

/** The planned members with the cluster each one is now. */
function* membersWithClusters(ctx: FindingContext): Generator<{ member: PlannedMember; cluster: ClusterInfo }> {
  for (const member of ctx.schedule.members) {
    const cluster = ctx.prediction.clustersAtStart.get(member.name);
    if (cluster !== undefined) yield { member, cluster };
  }
}

/** The control plane or (Full) a node pool is below the target version: the member needs a version change. */
function needsVersionChange(ctx: FindingContext, cluster: ClusterInfo): boolean {
  const update = ctx.prediction.managedClusterUpdate;
  if (update === undefined) return false;
  const { type, kubernetesVersion: target } = update.upgrade;
  if (type === "NodeImageOnly" || target === undefined) return false;
  if (compareDotted(cluster.kubernetesVersion, target) < 0) return true;
  return type === "Full" && cluster.nodePools.some((p) => compareDotted(p.orchestratorVersion, target) < 0);
}

/**
 * UPGRADE_PATH_MINOR_SKIPPED, DOWNGRADE, POOL_ABOVE_CONTROL_PLANE: the request the engine would make,
 * against AKS's rules as the simulated fleet enforces them. Offers are left to the region checks. A cluster already past the target that the engine
 * skips rather than moves back is a warning; one whose upgrade AKS would refuse is an error.
 */
function upgradePathFindings(ctx: FindingContext): Finding[] {
  const update = ctx.prediction.managedClusterUpdate;
  if (update === undefined) return [];
  const { type, kubernetesVersion: target } = update.upgrade;
  if (type === "NodeImageOnly" || target === undefined) return [];
  const out: Finding[] = [];
  for (const { member, cluster } of membersWithClusters(ctx)) {
    // The target counts as offered here, so that an offer (the region checks' concern) never hides a path rule.
    const offered = ownValue(ctx.world.fleet.regions, cluster.region) ?? { kubernetesVersions: [], nodeImages: [] };
    const region = { ...offered, kubernetesVersions: [...offered.kubernetesVersions, { version: target }] };
    const refusal = refusalOf(member.name, cluster, region, type, target);
    if (refusal === undefined) continue;
    if (refusal.code === UPGRADE_MINOR_VERSION_SKIP_NOT_ALLOWED) {
      out.push({ severity: "error", code: "UPGRADE_PATH_MINOR_SKIPPED", member: member.name, message: `${refusal.message} The member will fail and halt the run.` });
    } else if (refusal.code === UPGRADE_DOWNGRADE_NOT_ALLOWED) {
      const skipped = member.predictedState === "Skipped" || (member.predictedStart === undefined && member.predictedEnd === undefined && !needsVersionChange(ctx, cluster));
      out.push(
        skipped
          ? { severity: "warning", code: "DOWNGRADE", member: member.name, message: `The cluster runs Kubernetes ${cluster.kubernetesVersion}, newer than the target ${target}: it is skipped, never moved back.` }
          : { severity: "error", code: "DOWNGRADE", member: member.name, message: `${refusal.message} The member will fail and halt the run.` },
      );
    } else if (refusal.code === NODE_POOL_VERSION_ABOVE_CONTROL_PLANE) {
      out.push({ severity: "error", code: "POOL_ABOVE_CONTROL_PLANE", member: member.name, message: `${refusal.message} The member will fail and halt the run.` });
    }
  }
  return out;
}

/** The first AKS rule the engine's version request for this cluster breaks, or undefined. */
function refusalOf(name: string, cluster: ClusterInfo, region: Region, type: "Full" | "ControlPlaneOnly", target: string): BackendError | undefined {
  try {
    checkUpgradeRequest(
      { name, regionName: cluster.region, region, kubernetesVersion: cluster.kubernetesVersion, nodePools: cluster.nodePools },
      { type, kubernetesVersion: target, nodeImageVersions: {} },
      Number.POSITIVE_INFINITY,
    );
    return undefined;
  } catch (e) {
    if (e instanceof BackendError) return e;
    throw e;
  }
}

/** VERSION_NOT_IN_REGION: per region, the members that need the target version while the region does not offer it yet. */
function versionNotInRegionFindings(ctx: FindingContext): Finding[] {
  const target = ctx.prediction.managedClusterUpdate?.upgrade.kubernetesVersion;
  if (target === undefined) return [];
  const waiting = membersByRegion(ctx, (cluster) => needsVersionChange(ctx, cluster));
  return notOfferedFindings(ctx, waiting, `Kubernetes ${target}`, (offer) => offer.kubernetesVersions, target, "VERSION_NOT_IN_REGION");
}

/** NODE_IMAGE_NOT_IN_REGION: a Custom image not offered (yet) where members with a pool of its family and older are. */
function nodeImageNotInRegionFindings(ctx: FindingContext): Finding[] {
  const update = ctx.prediction.managedClusterUpdate;
  if (update === undefined || update.upgrade.type === "ControlPlaneOnly" || update.nodeImageSelection?.type !== "Custom") return [];
  const out: Finding[] = [];
  for (const { version } of update.nodeImageSelection.customNodeImageVersions ?? []) {
    const family = imageFamily(version);
    const waiting = membersByRegion(ctx, (cluster) => cluster.nodePools.some((p) => imageFamily(p.nodeImageVersion) === family && compareImageVersions(p.nodeImageVersion, version) < 0));
    out.push(...notOfferedFindings(ctx, waiting, `Node image ${version}`, (offer) => offer.nodeImages, version, "NODE_IMAGE_NOT_IN_REGION"));
  }
  return out;
}

function membersByRegion(ctx: FindingContext, wanted: (cluster: ClusterInfo) => boolean): Map<string, string[]> {
  const byRegion = new Map<string, string[]>();
  for (const { member, cluster } of membersWithClusters(ctx)) {
    if (!wanted(cluster)) continue;
    const names = byRegion.get(cluster.region) ?? [];
    names.push(member.name);
    byRegion.set(cluster.region, names);
  }
  return byRegion;
}

function notOfferedFindings(
  ctx: FindingContext,
  waiting: Map<string, string[]>,
  what: string,
  listOf: (offer: { kubernetesVersions: OfferedVersion[]; nodeImages: OfferedVersion[] }) => OfferedVersion[],
  version: string,
  code: "VERSION_NOT_IN_REGION" | "NODE_IMAGE_NOT_IN_REGION",
): Finding[] {
  const out: Finding[] = [];
  for (const [region, names] of waiting) {
    const offer = ctx.prediction.offers.get(region);
    const when = availability(offer === undefined ? [] : listOf(offer), version, ctx.world.start);
    if (when.now) continue;
    const who = `${names.length} member${names.length === 1 ? "" : "s"} (${listNames(names)})`;
    out.push(
      when.at === undefined
        ? { severity: "error", code, region, message: `${what} is not offered in region ${region} and no date is announced: ${who} stay Pending until it is.` }
        : { severity: "warning", code, region, message: `${what} reaches region ${region} at ${isoInstant(when.at)}: ${who} wait until then.` },
    );
  }
  return out;
}

function listNames(names: readonly string[]): string {
  const shown = names.slice(0, 5).join(", ");
  return names.length <= 5 ? shown : `${shown} and ${names.length - 5} more`;
}

/** MEMBER_IN_NO_STAGE: docs/rules.md §2's warning, as a finding. */
function memberInNoStageFindings(ctx: FindingContext): Finding[] {
  return ctx.prediction.excludedMembers.map((m) => ({ severity: "warning", code: "MEMBER_IN_NO_STAGE", member: m.name, message: `Left out of the run: ${m.reason}.` }));
}

/**
 * EMPTY_GROUP: a group of the strategy no member belongs to — by name, or its label selector matches
 * nobody (docs/rules.md §2). Accepted, as Fleet Manager accepts it (strategies are reused across
 * fleets): it ends Skipped. Named here since a typo would silently leave clusters out.
 */
function emptyGroupFindings(ctx: FindingContext): Finding[] {
  const run = ctx.prediction.engineState();
  return run.stages.flatMap((stage, s) =>
    stage.groups.flatMap((group, g): Finding[] => {
      if (group.members.length > 0) return [];
      const declared = run.strategy.stages[s]?.groups[g];
      const how = declared?.memberSelector === undefined ? `no member belongs to group '${group.name}'` : `group '${group.name}' selects no member (memberSelector '${declared.memberSelector.byLabel}')`;
      const leftOut = ctx.prediction.excludedMembers.length === 0 ? "" : ` Members left out of the run: ${listNames(ctx.prediction.excludedMembers.map((m) => m.name))} (MEMBER_IN_NO_STAGE).`;
      return [{ severity: "warning", code: "EMPTY_GROUP", group: group.name, message: `In stage '${stage.name}' (strategy.stages[${s}].groups[${g}]), ${how}: the group ends Skipped. A typo would leave clusters out of the run.${leftOut}` }];
    }),
  );
}

/** CLUSTER_STOPPED: a stopped cluster refuses its upgrade (ClusterStopped), which fails the member. */
function clusterStoppedFindings(ctx: FindingContext): Finding[] {
  const out: Finding[] = [];
  for (const member of ctx.schedule.members) {
    if (!ctx.world.stopped.has(member.name)) continue;
    out.push(
      member.predictedState === "Skipped"
        ? { severity: "warning", code: "CLUSTER_STOPPED", member: member.name, message: "The cluster is stopped (powerState Stopped); it is already at target, so the run skips it." }
        : { severity: "error", code: "CLUSTER_STOPPED", member: member.name, message: "The cluster is stopped (powerState Stopped): its upgrade will be refused (ClusterStopped), failing the member and the run. Start it (az aks start) before the run reaches it." },
    );
  }
  return out;
}

/** AKS node OS channels that re-image the nodes by themselves (None and Unmanaged do not). */
const RE_IMAGING_NODE_OS_CHANNELS = new Set(["NodeImage", "SecurityPatch"]);

/**
 * CLUSTER_AUTO_UPGRADES: a cluster that upgrades itself (AKS's `upgradeChannel` other than none, or a
 * `nodeOSUpgradeChannel` that re-images) conflicts with a staged run: AKS may move it before its stage,
 * or while the run upgrades it (docs/behaviour.md, "Clusters that upgrade themselves").
 */
function clusterAutoUpgradeFindings(ctx: FindingContext): Finding[] {
  const out: Finding[] = [];
  for (const { member, cluster } of membersWithClusters(ctx)) {
    const channel = cluster.autoUpgrade?.upgradeChannel;
    const nodeOS = cluster.autoUpgrade?.nodeOSUpgradeChannel;
    const own = [
      ...(channel !== undefined && channel.toLowerCase() !== "none" ? [`upgradeChannel ${channel} (its Kubernetes version)`] : []),
      ...(nodeOS !== undefined && RE_IMAGING_NODE_OS_CHANNELS.has(nodeOS) ? [`nodeOSUpgradeChannel ${nodeOS} (its node images)`] : []),
    ];
    if (own.length === 0) continue;
    out.push({
      severity: "warning",
      code: "CLUSTER_AUTO_UPGRADES",
      member: member.name,
      message: `The cluster upgrades itself: ${own.join(" and ")}. AKS may move it before its stage or while the run upgrades it (then the member waits). Set the channel to none (az aks update --auto-upgrade-channel none / --node-os-upgrade-channel None) for clusters this run stages, or leave them out of it.`,
    });
  }
  return out;
}

/** OPERATION_IN_FLIGHT: the engine never races another operation; the member waits for it to end. */
function operationInFlightFindings(ctx: FindingContext): Finding[] {
  const out: Finding[] = [];
  for (const { member, cluster } of membersWithClusters(ctx)) {
    const op = cluster.activeOperation;
    if (op === undefined) continue;
    const which = op.operationId === undefined ? "An operation" : `An operation (${op.operationId})`;
    const until = op.expectedEndAt === undefined ? "with no known end" : `expected to end at ${isoInstant(op.expectedEndAt)}`;
    out.push({ severity: "warning", code: "OPERATION_IN_FLIGHT", member: member.name, message: `${which} is in progress on the cluster, ${until}: the member cannot start before it ends.` });
  }
  return out;
}

/**
 * NODE_IMAGE_STALE: a pool whose image (after the member's upgrade, as predicted) was built more than
 * 90 days before the member is reached (its predicted start, or when it is skipped).
 */
function staleNodeImageFindings(ctx: FindingContext): Finding[] {
  const out: Finding[] = [];
  const after = new Map(ctx.prediction.clustersAtEnd.map((c) => [c.name, c]));
  for (const member of ctx.schedule.members) {
    const reachedAt = member.predictedStart ?? member.predictedEnd;
    const cluster = after.get(member.name);
    if (reachedAt === undefined || cluster === undefined) continue;
    for (const pool of cluster.nodePools) {
      const built = imageBuildDate(pool.nodeImageVersion);
      if (built === undefined) continue;
      const ageDays = Math.floor((Date.parse(reachedAt) - built) / DAY_MS);
      if (ageDays <= STALE_IMAGE_DAYS) continue;
      out.push({
        severity: "warning",
        code: "NODE_IMAGE_STALE",
        member: member.name,
        message: `Node pool '${pool.name}' will run node image ${pool.nodeImageVersion}, built ${isoInstant(built).slice(0, 10)}: ${ageDays} days old when the member is reached at ${reachedAt} (more than ${STALE_IMAGE_DAYS}).`,
      });
    }
  }
  return out;
}

/** When a node image was built, from its date part (`202611.24.0` = 2026-11-24); undefined when unreadable. */
export function imageBuildDate(version: string): number | undefined {
  const match = /^(\d{4})(\d{2})\.(\d{2})(\.|$)/.exec(imageDate(version));
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const instant = Date.UTC(year, month - 1, day);
  return new Date(instant).getUTCMonth() === month - 1 && new Date(instant).getUTCDate() === day ? instant : undefined;
}

/** GATE_AWAITS_APPROVAL: the plan reached a gate nobody approved; everything behind it waits. */
function gateFindings(ctx: FindingContext): Finding[] {
  const out: Finding[] = [];
  for (const stage of ctx.prediction.status.stages) {
    const gates = [...(stage.beforeGates ?? []), ...(stage.afterGates ?? []), ...stage.groups.flatMap((g) => [...(g.beforeGates ?? []), ...(g.afterGates ?? [])])];
    for (const gate of gates) {
      if (gate.status.state !== "Pending") continue;
      const since = gate.status.startTime === undefined ? "" : ` from ${gate.status.startTime}`;
      out.push({ severity: "warning", code: "GATE_AWAITS_APPROVAL", message: `The run waits at gate '${gate.gateId}' (${gate.displayName})${since} until it is approved; nothing behind it is predicted.` });
    }
  }
  return out;
}

/**
 * ANALYSIS_FAILS (issue 31): an analysis the plan predicts to fail, over the simulated fleet's declared
 * metrics (or with no data for them): the run halts there, as `simulate` shows.
 */
function analysisFindings(ctx: FindingContext): Finding[] {
  const out: Finding[] = [];
  for (const stage of ctx.prediction.status.stages) {
    const failed = [
      ...(stage.analysisRuns ?? []).map((a) => ({ a, where: `the ${a.kind === "preCheck" ? "pre-check" : "soak"} of stage '${stage.name}'` })),
      ...stage.groups.flatMap((g) => g.members.flatMap((m) => (m.analysisRuns ?? []).map((a) => ({ a, where: `member '${m.name}' after its upgrade`, member: m.name })))),
    ].filter(({ a }) => a.phase === "Failed" || a.phase === "Inconclusive" || a.phase === "Error");
    for (const { a, where, ...rest } of failed) {
      const member = (rest as { member?: string }).member;
      out.push({ severity: "warning", code: "ANALYSIS_FAILS", ...(member === undefined ? {} : { member }), message: `Analysis '${a.template}' is predicted to end ${a.phase} at ${where} (${a.finishedAt ?? "?"}): ${a.message ?? ""}` });
    }
  }
  return out;
}

/** NOT_FINISHED_BY_HORIZON: members still unfinished when the plan stops looking. */
function horizonFindings(ctx: FindingContext): Finding[] {
  // A failed run halts: its unfinished members are explained by the failure, not by the horizon.
  if (ctx.prediction.status.status.state === "Failed") return [];
  const open = ctx.schedule.members.filter((m) => m.predictedEnd === undefined);
  if (open.length === 0) return [];
  return [
    {
      severity: "warning",
      code: "NOT_FINISHED_BY_HORIZON",
      message: `${open.length} of ${ctx.schedule.members.length} members are not finished by ${isoInstant(ctx.world.horizon)} (${listNames(open.map((m) => m.name))}).`,
    },
  ];
}
