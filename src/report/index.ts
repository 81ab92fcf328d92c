/** The report generator: any accepted input (see `input.ts`) → one self-contained HTML page. */
import { readReportRuns } from "./input";
import { renderReport } from "./page";

export { readReportRuns, type ReportRun, type ReportSummary } from "./input";
export { renderReport } from "./page";

/** Throws the model's `ValidationError` (field paths) when `input` holds no valid run. */
export function generateReport(input: unknown): string {
  return renderReport(readReportRuns(input));
}
