/**
 * SPEC §3.6: a node image version is `<family>-<date>`; the family is the version without its last
 * `-`-separated part. `AKSUbuntu-2204gen2containerd-202611.24.0` → family `AKSUbuntu-2204gen2containerd`,
 * date `202611.24.0`.
 */
export function imageFamily(version: string): string {
  const cut = version.lastIndexOf("-");
  return cut < 0 ? version : version.slice(0, cut);
}

export function imageDate(version: string): string {
  const cut = version.lastIndexOf("-");
  return cut < 0 ? "" : version.slice(cut + 1);
}

/** Compare two dotted numeric strings (`202611.24.0`, `1.32.0`) component by component. */
export function compareDotted(a: string, b: string): number {
  const pa = dottedParts(a);
  const pb = dottedParts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? 0;
    const y = pb[i] ?? 0;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * A run compares the same few versions for every member, many times each: their parts are kept
 * (issue 13). Bounded, so odd inputs cannot grow it without end.
 */
const PARTS = new Map<string, number[]>();
const MAX_PARTS = 10_000;

function dottedParts(version: string): number[] {
  let parts = PARTS.get(version);
  if (parts === undefined) {
    parts = version.split(".").map(Number);
    if (PARTS.size >= MAX_PARTS) PARTS.clear();
    PARTS.set(version, parts);
  }
  return parts;
}

/** Newer image of the same family compares greater. */
export function compareImageVersions(a: string, b: string): number {
  return compareDotted(imageDate(a), imageDate(b));
}
