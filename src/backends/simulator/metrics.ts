/**
 * Issue 31: the simulated fleet's metrics (`simulation.metrics` in the fleet file, docs/health-analysis.md
 * "Simulated metrics"). Each is a gauge labelled `cluster="<name>"`, worth `value` until the end of the
 * cluster's first successful upgrade and `afterUpgrade` from then. `simulate` and `plan` evaluate
 * queries over them with no server (instant selectors only: `name{label="v",…}`, with `=`, `!=`,
 * `=~`, `!~`); the emulator serves them in Prometheus' text format on `/metrics`, where a real
 * Prometheus evaluates any PromQL.
 */
import type { MetricAnswer } from "../../engine/backend";
import type { SimulatedCluster } from "../../model/fleet";
import type { ClusterState } from "./fleetState";

export interface Series {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The cluster's series at `now`. */
export function clusterSeries(description: SimulatedCluster, state: ClusterState, now: number): Series[] {
  const metrics = description.simulation?.metrics ?? [];
  if (metrics.length === 0) return [];
  const upgraded = state.operations.some((op) => op.result === "Succeeded" && op.endAt <= now);
  return metrics.map((m) => ({
    name: m.name,
    labels: { cluster: description.name, ...(m.labels ?? {}) },
    value: upgraded && m.afterUpgrade !== undefined ? m.afterUpgrade : m.value,
  }));
}

interface Matcher {
  label: string;
  op: "=" | "!=" | "=~" | "!~";
  value: string;
}

const SELECTOR = /^\s*([a-zA-Z_:][a-zA-Z0-9_:]*)?\s*(?:\{(.*)\})?\s*$/s;
const MATCHER = /^\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"\s*$/s;

/** An instant selector, or undefined when the query is anything else. */
export function parseSelector(query: string): Matcher[] | undefined {
  const match = SELECTOR.exec(query);
  if (match === null) return undefined;
  const [, name, body] = match;
  if (name === undefined && body === undefined) return undefined;
  const matchers: Matcher[] = name === undefined ? [] : [{ label: "__name__", op: "=", value: name }];
  if (body !== undefined && body.trim() !== "") {
    for (const part of splitMatchers(body)) {
      const m = MATCHER.exec(part);
      if (m === null) return undefined;
      matchers.push({ label: m[1] as string, op: m[2] as Matcher["op"], value: (m[3] as string).replace(/\\(.)/g, "$1") });
    }
  }
  return matchers;
}

/** Split `a="x,y", b!="z"` at the commas outside quotes. */
function splitMatchers(body: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === "\\" && quoted) {
      current += c + (body[i + 1] ?? "");
      i++;
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === "," && !quoted) {
      parts.push(current);
      current = "";
    } else current += c;
  }
  if (current.trim() !== "") parts.push(current);
  return parts;
}

function matches(series: Series, matchers: readonly Matcher[]): boolean {
  return matchers.every(({ label, op, value }) => {
    const actual = label === "__name__" ? series.name : (series.labels[label] ?? "");
    switch (op) {
      case "=":
        return actual === value;
      case "!=":
        return actual !== value;
      case "=~":
        return new RegExp(`^(?:${value})$`).test(actual);
      case "!~":
        return !new RegExp(`^(?:${value})$`).test(actual);
    }
  });
}

/** A query over the fleet's series: the values of those it selects (none: no data). */
export function evaluateSelector(query: string, series: readonly Series[]): MetricAnswer {
  const matchers = parseSelector(query);
  if (matchers === undefined) {
    return { error: `the simulated fleet evaluates instant selectors only (name{label="value"}), not '${query.slice(0, 200)}': scrape the emulator's /metrics with a real Prometheus for full PromQL` };
  }
  try {
    return { values: series.filter((s) => matches(s, matchers)).map((s) => s.value) };
  } catch (e) {
    return { error: `a regular expression in '${query.slice(0, 200)}' does not parse: ${(e as Error).message}` };
  }
}

/** Prometheus' text exposition format (version 0.0.4) of the series, one TYPE line per metric. */
export function exposition(series: readonly Series[]): string {
  const byName = new Map<string, Series[]>();
  for (const s of series) byName.set(s.name, [...(byName.get(s.name) ?? []), s]);
  const lines: string[] = [];
  for (const [name, list] of byName) {
    lines.push(`# HELP ${name} Simulated by fleet-update (the fleet file's simulation.metrics).`, `# TYPE ${name} gauge`);
    for (const s of list) {
      const labels = Object.entries(s.labels)
        .map(([k, v]) => `${k}="${v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"')}"`)
        .join(",");
      lines.push(`${name}{${labels}} ${formatValue(s.value)}`);
    }
  }
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

function formatValue(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Number.POSITIVE_INFINITY) return "+Inf";
  if (v === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(v);
}
