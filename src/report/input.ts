/**
 * Finding the runs in the report's input. Accepted: a `fleet-update simulate --json` result
 * (`{status, clusters, events}`), `pulumi stack output --json` of a program exporting an UpdateRun's
 * `status` and `summary`, a bare status tree, or an object whose values are any of these (a stack
 * exporting several runs) or lists of them (chained runs: `simulate --json` of a `runs:` scenario).
 * Problems are field paths, as everywhere else in the project.
 */
import type { z } from "zod";
import { ValidationError, friendlyErrors, toFieldIssues, type FieldIssue } from "../model/issues";
import type { UpdateState } from "../model/status";
import { summarize } from "../engine/summary";
import { describeUpdate } from "../model/update";
import { ReportStatusSchema, RunHolderSchema, type ReportEvent, type ReportStatus } from "./schema";

/** `summarize`'s output, with the outcome as text (a summary read back may come from a newer version). */
export interface ReportSummary {
  state: UpdateState;
  outcome: string;
  members: { total: number } & Record<UpdateState, number>;
  startTime?: string;
  completedTime?: string;
  durationSeconds?: number;
}

export interface ReportRun {
  /** The run's name (its own `name`, its run event's), or the key holding it. */
  name: string;
  status: ReportStatus;
  summary: ReportSummary;
  /** Present when the input carried them (simulate results do; stack outputs do not). */
  events?: ReportEvent[];
  /** `Full to 1.32.3, Latest images`: what a run given an `autoUpgradeProfile` generated (docs/rules.md §18). */
  generatedUpdate?: string;
}

const UNNAMED_RUN = "update run";

/** The runs in `input`, in the input's order; throws `ValidationError` naming the field paths. */
export function readReportRuns(input: unknown): ReportRun[] {
  if (!isObject(input)) throw new ValidationError([{ path: "(root)", message: `must be a mapping (a 'fleet-update simulate --json' result or 'pulumi stack output --json'), got ${describe(input)}` }]);
  if (isStatusTree(input.status)) return [parseHolder(input, [], undefined)];
  if (isStatusTree(input)) return [parseStatus(input, [], UNNAMED_RUN)];
  const runs: ReportRun[] = [];
  const issues: FieldIssue[] = [];
  for (const [key, value] of Object.entries(input)) {
    const candidates: Array<[unknown, PropertyKey[], string]> = Array.isArray(value)
      ? value.map((item, i) => [item, [key, i], isObject(item) && typeof item.name === "string" ? item.name : `${key}[${i}]`])
      : [[value, [key], key]];
    for (const [candidate, path, name] of candidates) {
      try {
        if (isObject(candidate) && isStatusTree(candidate.status)) runs.push(parseHolder(candidate, path, name));
        else if (isStatusTree(candidate)) runs.push(parseStatus(candidate, path, name));
      } catch (e) {
        if (!(e instanceof ValidationError)) throw e;
        issues.push(...e.issues);
      }
    }
  }
  if (issues.length > 0) throw new ValidationError(issues);
  if (runs.length > 0) return runs;
  // Nothing looks like a run: a `status` that is there but malformed deserves its own paths.
  if ("status" in input) return [parseHolder(input, [], undefined)];
  throw new ValidationError([{ path: "status", message: "is required: no update run status ({status, stages}) found at the top or in any value" }]);
}

function parseHolder(value: unknown, prefix: PropertyKey[], key: string | undefined): ReportRun {
  const holder = parse(RunHolderSchema, value, prefix);
  const name = key ?? holder.events?.find((e) => e.scope === "run")?.name ?? UNNAMED_RUN;
  return {
    name,
    status: holder.status,
    summary: holder.summary ?? summarizeStatus(holder.status),
    ...(holder.events === undefined ? {} : { events: holder.events }),
    ...(holder.generatedUpdate === undefined ? {} : { generatedUpdate: describeUpdate(holder.generatedUpdate) }),
  };
}

function parseStatus(value: unknown, prefix: PropertyKey[], name: string): ReportRun {
  const status = parse(ReportStatusSchema, value, prefix);
  return { name, status, summary: summarizeStatus(status) };
}

/** `summarize` reads only states and times, which the report's looser status has in the model's shape. */
function summarizeStatus(status: ReportStatus): ReportSummary {
  return summarize(status as Parameters<typeof summarize>[0]);
}

function parse<T>(schema: z.ZodType<T>, value: unknown, prefix: PropertyKey[]): T {
  const result = schema.safeParse(value, { error: friendlyErrors });
  if (!result.success) throw new ValidationError(toFieldIssues(result.error, prefix));
  return result.data;
}

/** The shallow shape of an UpdateRunStatus: enough to tell it apart from other stack outputs. */
function isStatusTree(value: unknown): boolean {
  return isObject(value) && "status" in value && "stages" in value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "a list" : typeof value;
}
