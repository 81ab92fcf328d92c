/**
 * Issue 31: a Prometheus query over real HTTP — Prometheus' HTTP API (`GET <address>/api/v1/query`),
 * as a self-hosted Prometheus or an Azure Monitor workspace's query endpoint serve it. The engine asks
 * through `EngineOptions.queryMetric`; it does no I/O itself.
 *
 * Secrets: header values and a bearer token are sent, never reported; the address's credentials
 * (`https://user:password@host`) go as basic auth; a failed request is named by its kind, never by
 * its free text, which may quote the URL (`describeFailure`).
 */
import { DefaultAzureCredential, type TokenCredential } from "@azure/identity";
import type { MetricAnswer, MetricQuery } from "../engine/backend";
import { AZURE_MONITOR_PROMETHEUS_SCOPE } from "../model/analysis";
import { withBasicAuth } from "./httpProbe";
import { describeFailure } from "./redact";

export const DEFAULT_QUERY_TIMEOUT_SECONDS = 10;

let credential: TokenCredential | undefined;

/** Answer a query at the server's now. Never throws: a failure is `{ error }` (an Error measurement). */
export async function prometheusQuery(request: MetricQuery): Promise<MetricAnswer> {
  const { provider } = request;
  const timeoutSeconds = provider.timeoutSeconds ?? DEFAULT_QUERY_TIMEOUT_SECONDS;
  try {
    const base = withBasicAuth(provider.address);
    const url = new URL(`${base.target.replace(/\/+$/, "")}/api/v1/query`);
    url.searchParams.set("query", request.query);
    if (request.at !== undefined) url.searchParams.set("time", (request.at / 1000).toFixed(3));
    const headers: Record<string, string> = { accept: "application/json", ...base.headers };
    for (const header of provider.headers ?? []) headers[header.key.toLowerCase()] = header.value;
    const azure = provider.authentication?.azureIdentity;
    if (azure !== undefined) {
      credential ??= new DefaultAzureCredential();
      const token = await credential.getToken(azure.scope ?? AZURE_MONITOR_PROMETHEUS_SCOPE);
      if (token === null) return { error: "no Azure token could be had (DefaultAzureCredential)" };
      headers.authorization = `Bearer ${token.token}`;
    }
    const response = await fetch(url, { method: "GET", headers, signal: AbortSignal.timeout(timeoutSeconds * 1000) });
    const text = await response.text();
    return parseAnswer(response.status, text);
  } catch (e) {
    const reason = (e as Error).name === "TimeoutError" ? `no answer within ${timeoutSeconds} s` : describeFailure(e);
    return { error: `the query could not be made: ${reason}` };
  }
}

interface ApiBody {
  status?: string;
  errorType?: string;
  error?: string;
  data?: { resultType?: string; result?: unknown };
}

/** Prometheus' answer to values: a vector's samples, a scalar's value; a matrix or a string is refused. */
export function parseAnswer(status: number, text: string): MetricAnswer {
  let body: ApiBody;
  try {
    body = JSON.parse(text) as ApiBody;
  } catch {
    return { error: `the server answered ${status} with no Prometheus API body` };
  }
  if (body.status !== "success") {
    // Prometheus' own words (`bad_data: parse error at char 9 …`): they quote the query, never a secret.
    return { error: `the server answered ${status}: ${body.errorType ?? "error"}: ${String(body.error ?? "no error text").slice(0, 300)}` };
  }
  const { resultType, result } = body.data ?? {};
  if (resultType === "scalar") return { values: [sampleValue(result)] };
  if (resultType === "vector" && Array.isArray(result)) return { values: result.map((s: { value?: unknown }) => sampleValue(s.value)) };
  return { error: `the query returned a ${resultType ?? "result"} where an instant vector or a scalar was expected (use an instant query)` };
}

function sampleValue(pair: unknown): number {
  return Array.isArray(pair) ? Number(pair[1]) : Number.NaN;
}
