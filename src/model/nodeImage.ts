/**
 * docs/rules.md §3.6: a node image version is `<family>-<date>`; the family is the version without its last
 * `-`-separated part. `AKSUbuntu-2204gen2containerd-202611.24.0` → family `AKSUbuntu-2204gen2containerd`,
 * date `202611.24.0`.
 */
export function imageFamily(version: string): string {
  return parsedImage(version).family;
}

export function imageDate(version: string): string {
  return parsedImage(version).date;
}

/** Compare two dotted numeric strings (`202611.24.0`, `1.32.0`) component by component. */
export function compareDotted(a: string, b: string): number {
  return compareParts(dottedParts(a), dottedParts(b));
}

function compareParts(pa: readonly number[], pb: readonly number[]): number {
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? 0;
    const y = pb[i] ?? 0;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * A run reads the same few versions for every member, many times each (issue 13: each check and
 * each health check of 100,000 members): what they are made of is kept, not cut out again each
 * time. Bounded, so odd inputs cannot grow it without end.
 */
const PARTS = new Map<string, number[]>();
const IMAGES = new Map<string, { family: string; date: string; dateParts: readonly number[] }>();
const MAX_KEPT = 10_000;

/** The numbers of a dotted version (`1.32.0` → [1, 32, 0]). */
export function dottedParts(version: string): readonly number[] {
  let parts = PARTS.get(version);
  if (parts === undefined) {
    parts = version.split(".").map(Number);
    if (PARTS.size >= MAX_KEPT) PARTS.clear();
    PARTS.set(version, parts);
  }
  return parts;
}

function parsedImage(version: string): { family: string; date: string; dateParts: readonly number[] } {
  let image = IMAGES.get(version);
  if (image === undefined) {
    const cut = version.lastIndexOf("-");
    const date = cut < 0 ? "" : version.slice(cut + 1);
    image = { family: cut < 0 ? version : version.slice(0, cut), date, dateParts: dottedParts(date) };
    if (IMAGES.size >= MAX_KEPT) IMAGES.clear();
    IMAGES.set(version, image);
  }
  return image;
}

/** Newer image of the same family compares greater. */
export function compareImageVersions(a: string, b: string): number {
  return compareParts(parsedImage(a).dateParts, parsedImage(b).dateParts);
}

/**
 * An image a region offers, from `availableAt` on (absent: already offered). A fleet file writes the
 * instant as ISO 8601 text, the engine's region offers as epoch milliseconds; both are read here.
 */
export interface OfferedImage {
  readonly version: string;
  readonly availableAt?: string | number;
}

/** Whether a region offers `offered` (an image, a Kubernetes version) at `at`: from its `availableAt` on. */
export function isOfferedAt(offered: { readonly availableAt?: string | number }, at: number): boolean {
  const from = offered.availableAt;
  return from === undefined || (typeof from === "number" ? from : Date.parse(from)) <= at;
}

/**
 * docs/rules.md §3.6 "Latest": the newest image of `family` that `offers` (one region's) holds at
 * `at` (of two with the same date, the first offered), or undefined when none of that family is offered
 * then. The one rule behind every "latest" — the engine's pick at a member's start, the simulated
 * fleet's and the ARM emulator's image for a pool when its re-imaging begins (`aks/latestImages.ts`),
 * the emulator's `latestNodeImageVersion` and node image list — so the backends cannot disagree on it.
 */
export function newestImageAt(offers: Iterable<OfferedImage>, family: string, at: number): string | undefined {
  let best: string | undefined;
  for (const offered of offers) {
    if (!isOfferedAt(offered, at) || imageFamily(offered.version) !== family) continue;
    if (best === undefined || compareImageVersions(offered.version, best) > 0) best = offered.version;
  }
  return best;
}
