/**
 * Differences the caller expects (`KnownDifference`: which interactions, what, and why — fixed in the
 * emulator is the goal; the ones left carry their reason into docs/emulator-conformance.md), what a
 * replay found that no expectation explains, and expectations nothing matched any more (a fixed
 * difference whose expectation should go). `formatReport` writes the per-interaction report.
 */
import type { Difference, DifferenceKind, InteractionReport } from "./replay";

export interface KnownDifference {
  /** The interactions it is expected at (cassette positions). */
  interactions: readonly number[];
  kind: DifferenceKind;
  /** The path, header or `operation` / `operation result`; a RegExp matches several. */
  at: string | RegExp;
  /** Why the emulator answers so: what it cannot have, or what is not the emulator's to fix. */
  reason: string;
}

function matches(known: KnownDifference, d: Difference): boolean {
  return known.kind === d.kind && known.interactions.includes(d.interaction) && (typeof known.at === "string" ? known.at === d.at : known.at.test(d.at));
}

export function explain(reports: readonly InteractionReport[], known: readonly KnownDifference[]): { unexplained: Difference[]; unused: KnownDifference[] } {
  const all = reports.flatMap((r) => r.differences);
  const unexplained = all.filter((d) => !known.some((k) => matches(k, d)));
  // Each expectation must still be met at every interaction it names.
  const unused = known.filter((k) => k.interactions.some((i) => !all.some((d) => d.interaction === i && matches(k, d))));
  return { unexplained, unused };
}

export function describeDifference(d: Difference): string {
  switch (d.kind) {
    case "status":
      return `HTTP status: recorded ${d.recorded}, emulator ${d.emulator}`;
    case "header":
      return `${d.at} header: recorded ${d.recorded}, emulator ${d.emulator}`;
    case "operation":
      return `${d.at}: recorded ${d.recorded}, emulator ${d.emulator}`;
    case "recordedOnly":
      return `only in the recording: ${d.at}`;
    case "emulatorOnly":
      return `only in the emulator's answer: ${d.at}`;
    case "enum":
      return `${d.at}: recorded ${d.recorded}, emulator ${d.emulator}`;
  }
}

/** One block per interaction: what it was, how it was handled, and each difference (all, or only those `only` keeps). */
export function formatReport(reports: readonly InteractionReport[], only: (d: Difference) => boolean = () => true): string {
  const lines: string[] = [];
  for (const r of reports) {
    const shown = r.differences.filter(only);
    const head = `#${r.index} ${r.method} ${r.path}${r.command === undefined ? "" : ` (${r.command})`}`;
    if (r.outcome === "skipped") lines.push(`${head}\n  skipped: ${r.reason}`);
    else if (r.outcome === "polled") lines.push(`${head}\n  polled as part of #${r.polledBy}`);
    else {
      lines.push(`${head}\n  status: recorded ${r.recordedStatus}, emulator ${r.emulatorStatus}${r.differences.length === 0 ? "; no difference" : ""}`);
      if (r.emulatorError !== undefined) lines.push(`  emulator said: ${r.emulatorError}`);
      for (const d of shown) lines.push(`  - ${describeDifference(d)}`);
    }
  }
  return lines.join("\n");
}
