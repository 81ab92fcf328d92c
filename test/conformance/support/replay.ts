/**
 * The replay conformance harness: a recorded cassette (`cassette.ts`) replayed against an emulator, one
 * interaction after another, with the recording's names rewritten to the emulator's and the request
 * bodies otherwise verbatim. For each interaction it compares (docs/emulator-conformance.md):
 * - the HTTP status;
 * - the long-running-operation headers (`Azure-AsyncOperation`, `Location`): present or not;
 * - the operation's final state: the recording's polls of that operation (its later GETs of
 *   `.../operations/{id}` and `.../operationresults/{id}`) are not replayed on their own but belong to the
 *   interaction that started it; the harness polls the emulator's own URLs until the operation ends and
 *   compares the last status (and the paths of that status body, and the `Location` URL's final answer)
 *   with the recording's last poll;
 * - the set of JSON property paths, both ways (only the topmost path of a missing subtree is listed);
 * - enum-like values (`provisioningState`, `state`, `gateType`, `type`, ... at the same path).
 * Interactions the emulator cannot serve are skipped with a reason the caller gives: every interaction
 * of the cassette is in the report as compared, polled (by which interaction) or skipped (why).
 * The harness knows no resource type: what to skip, which names to rewrite and which differences are
 * known (`explain`) are the caller's.
 */
import https from "node:https";
import type { RecordedInteraction } from "./cassette";
import { enumDifferences, parseJson, pathsOf, pathsOnlyIn, type Json } from "./jsonShape";

/** Keys whose string values are compared, not only their presence. */
export const ENUM_KEYS: readonly string[] = ["provisioningState", "state", "gateType", "type", "timing", "channel", "status", "powerState", "code", "upgradeChannel", "nodeOSUpgradeChannel"];

export type DifferenceKind =
  /** HTTP status. */
  | "status"
  /** A long-running-operation header on one side only (`at`: the header). */
  | "header"
  /** The operation's last polled status (`at`: "operation"), or the `Location` URL's final HTTP status (`at`: "operation result"). */
  | "operation"
  /** A property path only in the recording / only in the emulator's answer (`(operation) …`: in the final operation status body; `(body)`: the whole body). */
  | "recordedOnly"
  | "emulatorOnly"
  /** An enum-like value that differs at the same path. */
  | "enum";

export interface Difference {
  interaction: number;
  kind: DifferenceKind;
  at: string;
  recorded?: string;
  emulator?: string;
}

export interface InteractionReport {
  index: number;
  method: string;
  /** The rewritten path and api-version (other query parameters of operation URLs dropped). */
  path: string;
  /** The recording's `CommandName` header (the CLI command), when it has one. */
  command?: string;
  outcome: "compared" | "polled" | "skipped";
  /** skipped: why. */
  reason?: string;
  /** polled: the interaction whose operation this polls. */
  polledBy?: number;
  recordedStatus: number;
  emulatorStatus?: number;
  /** The emulator's answer, for assertions on values (the comparison looks at paths and enums only). */
  emulatorBody?: Json;
  /** The emulator's error message, when it refused (`error.message`): what a reader needs first. */
  emulatorError?: string;
  differences: Difference[];
}

export interface ReplayOptions {
  interactions: readonly RecordedInteraction[];
  /**
   * Recorded text → the emulator's, replaced everywhere in URIs, request bodies and `If-Match` headers
   * (the host, the subscription, resource group, fleet and cluster names, ...), longest first.
   */
  names: ReadonlyArray<readonly [recorded: string, emulator: string]>;
  /** The emulator: `https://127.0.0.1:<port>` and the certificate it presents. */
  url: string;
  ca: string;
  /** Why an interaction is not replayed, or undefined to replay it. Operation polls are grouped without asking. */
  skip: (interaction: RecordedInteraction) => string | undefined;
  /** Enum-like keys (default `ENUM_KEYS`). */
  enumKeys?: readonly string[];
  /** Real milliseconds to wait for one of the emulator's operations to end (default 30 s). */
  pollTimeoutMs?: number;
  /**
   * Which of the emulator's operations to follow to their end before the next interaction: "always"
   * (default), or "asRecorded" — only those whose recording polled them, so that a read the recording made
   * while an unpolled operation ran (`--no-wait`) is compared while the emulator's runs too.
   */
  followOperations?: "always" | "asRecorded";
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body?: Json;
}

const LRO_HEADERS = ["azure-asyncoperation", "location"] as const;
const TERMINAL = new Set(["succeeded", "failed", "canceled", "cancelled"]);

/** Replaces every recorded name with the emulator's, longest first (so `fl-000002` is not cut by a shorter name). */
export function rewriteNames(text: string, names: ReplayOptions["names"]): string {
  let out = text;
  for (const [from, to] of [...names].sort((a, b) => b[0].length - a[0].length)) out = out.split(from).join(to);
  return out;
}

/** The operation id an LRO header URL names (`…/operations/{id}` or `…/operationresults/{id}`). */
function operationIdOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  return /\/(?:operations|operationresults)\/([^/?]+)/i.exec(url)?.[1]?.toLowerCase();
}

/** Path and api-version of a URI (the long signed query of operation URLs dropped). */
function shownPath(uri: string): string {
  const url = new URL(uri, "https://placeholder");
  const api = url.searchParams.get("api-version");
  return `${url.pathname}${api === null ? "" : `?api-version=${api}`}`;
}

function request(base: string, ca: string, method: string, target: string, headers: Record<string, string>, body: string | undefined): Promise<Answer> {
  const url = new URL(target, base);
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      { method, ca, agent: false, headers: { ...headers, ...(body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) }) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const out: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? (v[0] ?? "") : v;
          const parsed = parseJson(Buffer.concat(chunks).toString("utf8"));
          resolve({ status: res.statusCode ?? 0, headers: out, ...(parsed === undefined ? {} : { body: parsed }) });
        });
      },
    );
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

function bodyDifferences(index: number, recorded: Json | undefined, emulator: Json | undefined, isEnumKey: (k: string) => boolean, prefix = ""): Difference[] {
  if (recorded === undefined && emulator === undefined) return [];
  if (recorded === undefined || emulator === undefined) {
    return [{ interaction: index, kind: recorded === undefined ? "emulatorOnly" : "recordedOnly", at: `${prefix}(body)` }];
  }
  const r = pathsOf(recorded);
  const e = pathsOf(emulator);
  return [
    ...pathsOnlyIn(r, e).map((at): Difference => ({ interaction: index, kind: "recordedOnly", at: `${prefix}${at}` })),
    ...pathsOnlyIn(e, r).map((at): Difference => ({ interaction: index, kind: "emulatorOnly", at: `${prefix}${at}` })),
    ...enumDifferences(r, e, isEnumKey).map(([at, rv, ev]): Difference => ({ interaction: index, kind: "enum", at: `${prefix}${at}`, recorded: rv, emulator: ev })),
  ];
}

/** eTags the recording showed → the emulator's for the same resource (matched at the top, and by `id` in lists). */
function learnETags(map: Map<string, string>, recorded: Json | undefined, emulator: Json | undefined, names: ReplayOptions["names"]): void {
  const tag = (x: Json | undefined) => (x !== null && typeof x === "object" && !Array.isArray(x) && typeof x.eTag === "string" ? x.eTag : undefined);
  const [r, e] = [tag(recorded), tag(emulator)];
  if (r !== undefined && e !== undefined) map.set(r, e);
  const list = (x: Json | undefined) => (x !== null && typeof x === "object" && !Array.isArray(x) && Array.isArray(x.value) ? x.value : []);
  const byId = new Map(list(emulator).map((item) => [String((item as { id?: Json }).id ?? "").toLowerCase(), item] as const));
  for (const item of list(recorded)) {
    const id = rewriteNames(String((item as { id?: Json }).id ?? ""), names).toLowerCase();
    const [rt, et] = [tag(item), tag(byId.get(id))];
    if (rt !== undefined && et !== undefined) map.set(rt, et);
  }
}

/**
 * Names the service made up (a gate's GUID, a generated run's name): the recording's → the emulator's,
 * learned from answers both sides gave to the same request (the top-level `name`, or each item of a
 * `value` list of the same length, by position; the last segment of a top-level `id`).
 */
function learnNames(map: Map<string, string>, recorded: Json | undefined, emulator: Json | undefined): void {
  const object = (x: Json | undefined) => (x !== null && typeof x === "object" && !Array.isArray(x) ? x : undefined);
  const pair = (r: Json | undefined, e: Json | undefined) => {
    if (typeof r === "string" && typeof e === "string" && r !== e && r.length >= 8) map.set(r, e);
  };
  const [r, e] = [object(recorded), object(emulator)];
  if (r === undefined || e === undefined) return;
  pair(r.name, e.name);
  if (typeof r.id === "string" && typeof e.id === "string") pair(r.id.split("/").at(-1), e.id.split("/").at(-1));
  const [rs, es] = [r.value, e.value];
  if (Array.isArray(rs) && Array.isArray(es) && rs.length === es.length) rs.forEach((item, i) => pair(object(item)?.name, object(es[i])?.name));
}

/** Replays the cassette against the emulator; one report per recorded interaction, in order. */
export async function replay(options: ReplayOptions): Promise<InteractionReport[]> {
  const keys = new Set(options.enumKeys ?? ENUM_KEYS);
  const isEnumKey = (k: string) => keys.has(k);
  const timeout = options.pollTimeoutMs ?? 30_000;

  // Which interaction started each recorded operation, and the recording's polls of it.
  const origin = new Map<string, number>();
  const pollOf = new Map<number, number>();
  for (const x of options.interactions) {
    const polled = /\/(?:operations|operationresults)\//i.test(new URL(x.uri).pathname) ? operationIdOf(x.uri) : undefined;
    if (polled !== undefined && origin.has(polled)) {
      pollOf.set(x.index, origin.get(polled) as number);
      continue;
    }
    for (const h of LRO_HEADERS) {
      const id = operationIdOf(x.responseHeaders[h]);
      if (id !== undefined && !origin.has(id)) origin.set(id, x.index);
    }
  }
  const pollsOf = (index: number) => options.interactions.filter((x) => pollOf.get(x.index) === index);

  const eTags = new Map<string, string>();
  const learned = new Map<string, string>();
  const names = () => [...options.names, ...learned];
  const reports: InteractionReport[] = [];
  for (const x of options.interactions) {
    const base = {
      index: x.index,
      method: x.method,
      path: rewriteNames(shownPath(x.uri), names()),
      ...(x.requestHeaders.commandname === undefined ? {} : { command: x.requestHeaders.commandname }),
      recordedStatus: x.status,
      differences: [] as Difference[],
    };
    const by = pollOf.get(x.index);
    if (by !== undefined) {
      reports.push({ ...base, outcome: "polled", polledBy: by });
      continue;
    }
    const reason = options.skip(x);
    if (reason !== undefined) {
      reports.push({ ...base, outcome: "skipped", reason });
      continue;
    }

    const headers: Record<string, string> = {};
    if (x.requestHeaders["content-type"] !== undefined) headers["content-type"] = x.requestHeaders["content-type"];
    for (const h of ["if-match", "if-none-match"]) {
      const v = x.requestHeaders[h];
      // The recording's eTags mean nothing to the emulator: each is sent as the emulator's eTag of the same resource.
      if (v !== undefined) headers[h] = v.split(",").map((t) => eTags.get(t.trim()) ?? eTags.get(`"${t.trim().replace(/^"|"$/g, "")}"`) ?? t.trim()).join(", ");
    }
    const target = new URL(rewriteNames(x.uri, names()));
    const body = x.requestBody === undefined ? undefined : rewriteNames(x.requestBody, names());
    const answer = await request(options.url, options.ca, x.method, `${target.pathname}${target.search}`, headers, body);
    const recorded = parseJson(x.responseBody);
    const differences: Difference[] = [];
    if (answer.status !== x.status) differences.push({ interaction: x.index, kind: "status", at: "", recorded: String(x.status), emulator: String(answer.status) });
    for (const h of LRO_HEADERS) {
      const [r, e] = [x.responseHeaders[h] !== undefined, answer.headers[h] !== undefined];
      if (r !== e) differences.push({ interaction: x.index, kind: "header", at: h === "location" ? "Location" : "Azure-AsyncOperation", recorded: r ? "present" : "absent", emulator: e ? "present" : "absent" });
    }
    differences.push(...bodyDifferences(x.index, recorded, answer.body, isEnumKey));
    learnETags(eTags, recorded, answer.body, names());
    if (answer.status < 300 && x.status < 300) learnNames(learned, recorded, answer.body);

    // The operation, if either side started one: the emulator's polled to its end, compared with the recording's last polls.
    const polls = pollsOf(x.index);
    const lastStatusPoll = [...polls].reverse().find((p) => !/\/operationresults\//i.test(p.uri));
    const lastResultPoll = [...polls].reverse().find((p) => /\/operationresults\//i.test(p.uri));
    const started = LRO_HEADERS.some((h) => answer.headers[h] !== undefined) && answer.status < 300 && (options.followOperations !== "asRecorded" || polls.length > 0);
    if (lastStatusPoll !== undefined || lastResultPoll !== undefined || started) {
      const final = started ? await pollToEnd(options, answer, timeout) : undefined;
      const recordedStatus = lastStatusPoll === undefined ? undefined : parseJson(lastStatusPoll.responseBody);
      const rs = (recordedStatus as { status?: string } | undefined)?.status ?? (lastStatusPoll === undefined ? undefined : "(no status)");
      const es = (final?.status?.body as { status?: string } | undefined)?.status ?? (final?.status === undefined ? undefined : "(no status)");
      if (rs !== undefined || es !== undefined) {
        if (rs !== es) differences.push({ interaction: x.index, kind: "operation", at: "operation", recorded: rs ?? "(no operation)", emulator: es ?? "(no operation)" });
        if (recordedStatus !== undefined && final?.status?.body !== undefined) differences.push(...bodyDifferences(x.index, recordedStatus, final.status.body, isEnumKey, "(operation) "));
      }
      if (lastResultPoll !== undefined && final?.result?.status !== lastResultPoll.status) {
        differences.push({ interaction: x.index, kind: "operation", at: "operation result", recorded: String(lastResultPoll.status), emulator: final?.result === undefined ? "(no Location URL)" : String(final.result.status) });
      }
    }
    const refusal = answer.status >= 400 ? (answer.body as { error?: { message?: string } } | undefined)?.error?.message : undefined;
    reports.push({
      ...base,
      outcome: "compared",
      emulatorStatus: answer.status,
      ...(answer.body === undefined ? {} : { emulatorBody: answer.body }),
      ...(refusal === undefined ? {} : { emulatorError: refusal }),
      differences,
    });
  }
  return reports;
}

/** The emulator's operation followed to its end: the last status body, then the `Location` URL's answer. */
async function pollToEnd(options: ReplayOptions, started: Answer, timeoutMs: number): Promise<{ status?: Answer; result?: Answer }> {
  const deadline = Date.now() + timeoutMs;
  const get = (url: string) => request(options.url, options.ca, "GET", url, {}, undefined);
  const asyncUrl = started.headers["azure-asyncoperation"];
  let status: Answer | undefined;
  if (asyncUrl !== undefined) {
    for (;;) {
      status = await get(asyncUrl);
      const s = String((status.body as { status?: string } | undefined)?.status ?? "").toLowerCase();
      if (status.status >= 400 || TERMINAL.has(s)) break;
      if (Date.now() > deadline) throw new Error(`the emulator's operation ${asyncUrl} did not end in ${timeoutMs} ms: ${JSON.stringify(status.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  const locationUrl = started.headers.location;
  let result: Answer | undefined;
  if (locationUrl !== undefined) {
    for (;;) {
      result = await get(locationUrl);
      if (result.status !== 202) break;
      if (Date.now() > deadline) throw new Error(`the emulator's operation result ${locationUrl} still answered 202 after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  return { ...(status === undefined ? {} : { status }), ...(result === undefined ? {} : { result }) };
}
