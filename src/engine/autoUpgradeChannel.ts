/**
 * Issue 22: the update an auto-upgrade channel generates, as Fleet Manager's `generateUpdateRun` makes
 * it when a run starts. Pure (no I/O, no clock): the caller hands in what AKS offers in each region at
 * that instant (ARM's `locations/{region}/kubernetesVersions`) and the regions of the run's members.
 * The Fleet emulator (`src/emulator/fleet/autoUpgradeRoutes.ts`) and our engine use this one rule.
 *
 * The channels, from the descriptions of `UpgradeChannel` and `AutoUpgradeProfileProperties` in Fleet's
 * `fleets.json` (2026-06-01):
 * - `Rapid`: the latest patch of the newest minor N;
 * - `Stable`: the latest patch of minor N-1 ("if ... 1.17.9, 1.18.4, 1.18.6, and 1.19.1 are available,
 *   the cluster upgrades to 1.18.6");
 * - `TargetKubernetesVersion`: the latest patch of the `major.minor` given in `targetKubernetesVersion`;
 *   a minor older than N-2 only with `longTermSupport: true` and an AKS LTS minor ("continue generate
 *   update runs for patches of minor versions earlier than N-2 ... if those minor versions support LTS");
 * - `NodeImage`: a NodeImageOnly update taking the latest images;
 * - `SecurityPatch` (2026-06-02-preview: "applies security patches to the nodes of the target
 *   clusters"): the same node-only update to the newest images — AKS ships its security patches in
 *   node images, and the simulated regions offer no patch-only kind of image (docs/fleet-api-versions.md).
 *
 * "Offered" is the union over the given regions: the newest minor any of them offers is N (a member
 * whose region does not offer the version yet waits Pending, as any run's member does). Versions are
 * compared numerically (1.30.10 is newer than 1.30.9); preview versions are never chosen.
 */
import { compareDotted } from "../model/nodeImage";

export type UpgradeChannel = "Stable" | "Rapid" | "NodeImage" | "TargetKubernetesVersion" | "SecurityPatch";

/** The channels that touch only the nodes (a NodeImageOnly update, no Kubernetes version to choose). */
export function isNodeChannel(channel: UpgradeChannel): boolean {
  return channel === "NodeImage" || channel === "SecurityPatch";
}

/** The profile fields the rule reads (Fleet's `AutoUpgradeProfileProperties` names). */
export interface AutoUpgradeChannelProfile {
  channel: UpgradeChannel;
  /** `major.minor`, required for (and only for) `TargetKubernetesVersion`. */
  targetKubernetesVersion?: string;
  /** Only with `TargetKubernetesVersion`: allow a minor older than N-2 that AKS supports long-term. */
  longTermSupport?: boolean;
  /** Fleet's `AutoUpgradeNodeImageSelection` (Latest or Consistent); default Latest. */
  nodeImageSelection?: { type: "Latest" | "Consistent" };
}

/**
 * One patch version a region offers, as ARM's kubernetesVersions listing describes its minor:
 * `isPreview` (absent: GA) and `capabilities.supportPlan` (`AKSLongTermSupport` marks an LTS minor).
 * A bare string is a GA version with the community support plan only.
 */
export type OfferedKubernetesVersion = string | { version: string; isPreview?: boolean; supportPlan?: readonly string[] };

/** ARM's support plan of a minor AKS supports long-term. */
export const LONG_TERM_SUPPORT_PLAN = "AKSLongTermSupport";

/** What the channel generates: a `managedClusterUpdate` (our model's and Fleet's shape). */
export interface GeneratedUpdate {
  upgrade: { type: "Full" | "NodeImageOnly"; kubernetesVersion?: string };
  nodeImageSelection?: { type: "Latest" | "Consistent" };
}

/**
 * The result: the generated update, or why no version qualifies, naming the profile field at fault
 * (relative: the caller prefixes its own path, `properties.` on Fleet, `autoUpgradeProfile.` in a run).
 */
export type ChannelGeneration =
  | { ok: true; update: GeneratedUpdate }
  | { ok: false; field: "channel" | "targetKubernetesVersion" | "longTermSupport"; message: string };

interface Offer {
  version: string;
  major: number;
  minor: number;
  lts: boolean;
}

const MAJOR_MINOR = /^(\d+)\.(\d+)$/;
const MAJOR_MINOR_PATCH = /^(\d+)\.(\d+)\.(\d+)$/;

/** The GA patch versions offered in `regions` (a region not in the map offers nothing). */
function offersIn(offeredVersionsByRegion: Readonly<Record<string, readonly OfferedKubernetesVersion[]>>, regions: readonly string[]): Offer[] {
  const byVersion = new Map<string, Offer>();
  for (const region of new Set(regions)) {
    for (const offered of offeredVersionsByRegion[region] ?? []) {
      const entry = typeof offered === "string" ? { version: offered } : offered;
      if (entry.isPreview === true) continue;
      const parts = MAJOR_MINOR_PATCH.exec(entry.version);
      if (parts === null) continue;
      const lts = (entry.supportPlan ?? []).includes(LONG_TERM_SUPPORT_PLAN);
      const known = byVersion.get(entry.version);
      // One region calling the minor LTS is enough: the plan is AKS's, per minor, not per region.
      if (known !== undefined) known.lts ||= lts;
      else byVersion.set(entry.version, { version: entry.version, major: Number(parts[1]), minor: Number(parts[2]), lts });
    }
  }
  return [...byVersion.values()].sort((a, b) => compareDotted(a.version, b.version));
}

function latestPatchOf(offers: readonly Offer[], major: number, minor: number): Offer | undefined {
  return offers.filter((o) => o.major === major && o.minor === minor).at(-1);
}

/**
 * The update `profile`'s channel generates over what `offeredVersionsByRegion` offers in `regions`
 * (the run's members' regions) at the run's start, or why none qualifies.
 */
export function generateUpdateForChannel(
  profile: AutoUpgradeChannelProfile,
  offeredVersionsByRegion: Readonly<Record<string, readonly OfferedKubernetesVersion[]>>,
  regions: readonly string[],
): ChannelGeneration {
  const images = profile.nodeImageSelection ?? { type: "Latest" as const };
  if (profile.channel !== "TargetKubernetesVersion") {
    if (profile.targetKubernetesVersion !== undefined && profile.targetKubernetesVersion !== "") {
      return { ok: false, field: "targetKubernetesVersion", message: `must be empty unless channel is TargetKubernetesVersion (channel is ${profile.channel})` };
    }
    if (profile.longTermSupport === true) {
      return { ok: false, field: "longTermSupport", message: `must be false unless channel is TargetKubernetesVersion (channel is ${profile.channel})` };
    }
  }
  // Fleet's NodeImage (and SecurityPatch) channel re-images with the newest images; no Kubernetes version.
  if (isNodeChannel(profile.channel)) return { ok: true, update: { upgrade: { type: "NodeImageOnly" }, nodeImageSelection: { type: "Latest" } } };

  const offers = offersIn(offeredVersionsByRegion, regions);
  const where = `in ${regions.length === 1 ? "region" : "regions"} ${[...new Set(regions)].join(", ") || "(none)"}`;
  const newest = offers.at(-1);
  if (newest === undefined) return { ok: false, field: "channel", message: `no generally available Kubernetes version is offered ${where}` };
  const full = (offer: Offer): ChannelGeneration => ({ ok: true, update: { upgrade: { type: "Full", kubernetesVersion: offer.version }, nodeImageSelection: { type: images.type } } });

  if (profile.channel === "Rapid") return full(latestPatchOf(offers, newest.major, newest.minor) as Offer);

  if (profile.channel === "Stable") {
    const stable = latestPatchOf(offers, newest.major, newest.minor - 1);
    if (stable === undefined) {
      return { ok: false, field: "channel", message: `Stable needs minor ${newest.major}.${newest.minor - 1} (the one before the newest, ${newest.major}.${newest.minor}), which is not offered ${where}` };
    }
    return full(stable);
  }

  const target = profile.targetKubernetesVersion ?? "";
  const parts = MAJOR_MINOR.exec(target);
  if (parts === null) {
    return { ok: false, field: "targetKubernetesVersion", message: target === "" ? "is required when channel is TargetKubernetesVersion" : `must be major.minor, such as 1.30 (got ${JSON.stringify(target)})` };
  }
  const [major, minor] = [Number(parts[1]), Number(parts[2])];
  const chosen = latestPatchOf(offers, major, minor);
  if (chosen === undefined) return { ok: false, field: "targetKubernetesVersion", message: `no generally available patch of ${target} is offered ${where}` };
  // N-2 and newer are in community support; older minors only through AKS's long-term support.
  const outOfCommunitySupport = major < newest.major || (major === newest.major && minor < newest.minor - 2);
  if (outOfCommunitySupport) {
    if (profile.longTermSupport !== true) {
      return { ok: false, field: "longTermSupport", message: `${target} is older than N-2 (N is ${newest.major}.${newest.minor}): set longTermSupport to true to take an LTS minor` };
    }
    if (!chosen.lts) return { ok: false, field: "targetKubernetesVersion", message: `${target} is older than N-2 (N is ${newest.major}.${newest.minor}) and is not a long-term support minor ${where}` };
  }
  return full(chosen);
}
