/** How the report writes instants and durations: UTC, to the second, the same on every machine. */
import { isoInstant } from "../model/instants";

/** An epoch-ms instant as ISO 8601 UTC (`2026-12-05T03:20:00Z`). */
export function formatInstant(instant: number): string {
  return isoInstant(instant);
}

/** A status time as written in the input, normalized to UTC `Z` (inputs may carry `+01:00`). */
export function formatTime(time: string): string {
  return isoInstant(Date.parse(time));
}

/** `1d 18h 30m`, `20m`, `45s`: the two or three largest units, never fractional. */
export function formatDuration(seconds: number): string {
  let rest = Math.max(0, Math.round(seconds));
  if (rest === 0) return "0s";
  const parts: string[] = [];
  for (const [unit, size] of [["d", 86_400], ["h", 3_600], ["m", 60], ["s", 1]] as const) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0) parts.push(`${count}${unit}`);
  }
  return parts.slice(0, 3).join(" ");
}

/** The label of an axis tick: `12-05 03:00`, or `12-05` when ticks are whole days. */
export function formatTick(instant: number, wholeDays: boolean): string {
  const iso = new Date(instant).toISOString();
  return wholeDays ? iso.slice(5, 10) : `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
}
