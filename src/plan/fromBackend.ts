/**
 * A run spec on a real backend as a plan's world: each member's cluster and each region's offer read
 * once through the backend (reads only: nothing is started), turned into a simulated fleet
 * description. What a real backend cannot say is assumed and said: how long an upgrade takes
 * (`upgradeMinutes`), and when an operation already running ends when ARM gives no hint.
 */
import { BackendError, type ClusterBackend, type ClusterInfo, type OfferedVersion } from "../engine/backend";
import type { Analysis } from "../model/analysis";
import { isoInstant } from "../model/instants";
import { ValidationError, type FieldIssue } from "../model/issues";
import { ClusterAutoUpgradeProfileSchema, type Fleet, type Region, type SimulatedCluster } from "../model/fleet";
import type { UpdateRunInputs } from "../spec/runSpec";
import { DEFAULT_PLAN_HORIZON_DAYS } from "./fromFleetFile";
import { runSpecNotes, runSpecPart } from "./runSpec";
import type { Finding } from "./types";
import { DAY_MS, type PlanWorld } from "./world";

export interface BackendSnapshotOptions {
  /** The backend clock's now (epoch ms). */
  now: number;
  horizonDays?: number;
  /** Assumed duration of one upgrade (real AKS upgrades take tens of minutes; default 30). */
  upgradeMinutes?: number;
}

export const DEFAULT_REAL_UPGRADE_MINUTES = 30;
/** An operation in flight with no known end is assumed to end this long after the snapshot (the Azure runs' re-check period). */
export const UNKNOWN_OPERATION_END_MS = 15 * 60_000;

export async function worldFromBackend(backend: ClusterBackend, inputs: UpdateRunInputs, options: BackendSnapshotOptions): Promise<PlanWorld> {
  const start = Math.ceil(options.now / 1000) * 1000;
  const upgradeMinutes = options.upgradeMinutes ?? DEFAULT_REAL_UPGRADE_MINUTES;
  const clusters: Array<{ member: UpdateRunInputs["members"][number]; info: ClusterInfo }> = [];
  const issues: FieldIssue[] = [];
  for (const [i, member] of inputs.members.entries()) {
    try {
      clusters.push({ member, info: await backend.getCluster({ name: member.name, ...(member.clusterResourceId === undefined ? {} : { clusterResourceId: member.clusterResourceId }) }) });
    } catch (e) {
      if (!(e instanceof BackendError)) throw e;
      issues.push({ path: `members[${i}].clusterResourceId`, message: `cannot read the cluster: ${e.message} (${e.code})` });
    }
  }
  if (issues.length > 0) throw new ValidationError(issues);

  const regions: Record<string, Region> = {};
  for (const region of new Set(clusters.map((c) => c.info.region))) {
    const offer = await backend.getRegionOffer(region);
    regions[region] = { kubernetesVersions: offer.kubernetesVersions.map(offered), nodeImages: offer.nodeImages.map(offered) };
  }
  const notes: Finding[] = [{ severity: "info", code: "PLAN_ASSUMPTION", message: `The plan assumes each upgrade takes ${upgradeMinutes} minutes and none fails.` }];
  for (const { member, info } of clusters) {
    if (info.activeOperation === undefined || info.activeOperation.expectedEndAt !== undefined) continue;
    notes.push({ severity: "info", code: "PLAN_ASSUMPTION", member: member.name, message: `The backend does not say when the operation in progress on the cluster ends: the plan assumes ${isoInstant(start + UNKNOWN_OPERATION_END_MS)}.` });
  }
  const fleet: Fleet = { regions, members: clusters.map(({ member, info }) => simulatedCluster(member, info, start, upgradeMinutes)) };
  const part = runSpecPart(inputs);
  // Issue 31: a real backend's metrics are not known ahead: every measurement is assumed to pass, on
  // the analyses' own schedule (their soaks and pre-checks keep their durations in the plan).
  if (part.run.analysis !== undefined) {
    part.run = { ...part.run, analysis: analysisAssumedToPass(part.run.analysis) };
    notes.push({ severity: "info", code: "PLAN_ASSUMPTION", message: "The plan assumes every analysis measurement passes (metrics are not known ahead); the analyses keep their timing." });
  }
  return {
    fleet,
    start,
    horizon: start + (options.horizonDays ?? DEFAULT_PLAN_HORIZON_DAYS) * DAY_MS,
    ...part,
    // A stopped cluster refuses its upgrade when the run reaches it: a finding now.
    stopped: new Set(clusters.filter(({ info }) => info.powerState === "Stopped").map(({ member }) => member.name)),
    notes: [...runSpecNotes(inputs), ...notes],
  };
}

/** The analysis with every query's no data counted as Successful: over a world without metrics, each measurement passes. */
function analysisAssumedToPass(analysis: Analysis): Analysis {
  return { ...analysis, templates: analysis.templates.map((t) => (t.provider.prometheus === undefined ? t : { ...t, noData: "Successful" as const, failureCondition: undefined })) };
}

function offered(v: OfferedVersion): { version: string; availableAt?: string; isPreview?: boolean } {
  return { version: v.version, ...(v.availableAt === undefined ? {} : { availableAt: isoInstant(v.availableAt) }), ...(v.isPreview === true ? { isPreview: true } : {}) };
}

function simulatedCluster(member: UpdateRunInputs["members"][number], info: ClusterInfo, start: number, upgradeMinutes: number): SimulatedCluster {
  const busyUntil = info.activeOperation === undefined ? undefined : (info.activeOperation.expectedEndAt ?? start + UNKNOWN_OPERATION_END_MS);
  return {
    name: member.name,
    ...(member.clusterResourceId === undefined ? {} : { clusterResourceId: member.clusterResourceId }),
    ...(member.group === undefined ? {} : { group: member.group }),
    region: info.region,
    kubernetesVersion: info.kubernetesVersion,
    nodePools: info.nodePools.map((p) => ({ ...p })),
    ...(info.maintenanceConfigurations === undefined ? {} : { maintenanceConfigurations: info.maintenanceConfigurations }),
    ...(autoUpgradeProfileOf(info) ?? {}),
    simulation: { upgradeMinutes, ...(busyUntil === undefined ? {} : { busyUntil: isoInstant(busyUntil) }) },
  };
}

/** The cluster's own upgrade channels as the fleet file holds them (values AKS does not list are left out). */
function autoUpgradeProfileOf(info: ClusterInfo): Pick<SimulatedCluster, "autoUpgradeProfile"> | undefined {
  const parsed = ClusterAutoUpgradeProfileSchema.safeParse({
    ...(info.autoUpgrade?.upgradeChannel === undefined ? {} : { upgradeChannel: info.autoUpgrade.upgradeChannel }),
    ...(info.autoUpgrade?.nodeOSUpgradeChannel === undefined ? {} : { nodeOSUpgradeChannel: info.autoUpgrade.nodeOSUpgradeChannel }),
  });
  return info.autoUpgrade === undefined || !parsed.success ? undefined : { autoUpgradeProfile: parsed.data };
}
