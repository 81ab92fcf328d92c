/**
 * docs/rules.md §6 `maxConcurrency`: "N" or "P%" of the members it governs, percent rounded down, at least 1.
 */
export function resolveConcurrency(value: string | undefined, memberCount: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (value.endsWith("%")) {
    const percent = Number(value.slice(0, -1));
    return Math.max(1, Math.floor((memberCount * percent) / 100));
  }
  return Math.max(1, Number(value));
}
