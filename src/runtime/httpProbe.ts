/**
 * Issue 5 health probes over real HTTP(S): GET the member's URL, healthy on any 2xx. Used by the
 * Pulumi resources and the CLI; the engine itself does no I/O. What is reported never holds the URL's
 * query string nor its credentials, which may carry secrets (issue 11): the URL is shown by
 * `shownProbeUrl`, and a failed request by its kind (`describeFailure`), never by its free text, which
 * may quote the URL. Credentials in the URL (`https://user:password@host/…`) are sent as basic auth.
 */
import type { MemberRef, ProbeOptions, ProbeResult } from "../engine/backend";
import { shownProbeUrl } from "../engine/healthCheck";
import { describeFailure } from "./redact";

export const PROBE_TIMEOUT_MS = 10_000;

/** GET the URL; issue 31's web analyses add headers (values never reported) and a timeout. */
export async function httpProbe(_member: MemberRef, url: string, options: ProbeOptions = {}): Promise<ProbeResult> {
  const shown = shownProbeUrl(url);
  const timeoutMs = options.timeoutSeconds === undefined ? PROBE_TIMEOUT_MS : options.timeoutSeconds * 1000;
  try {
    const { target, headers } = withBasicAuth(url);
    for (const header of options.headers ?? []) headers[header.key.toLowerCase()] = header.value;
    const response = await fetch(target, { method: "GET", redirect: "follow", headers, signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return { ok: response.status >= 200 && response.status < 300, detail: `GET ${shown} answered ${response.status}`, status: response.status };
  } catch (e) {
    const reason = (e as Error).name === "TimeoutError" ? `no answer within ${timeoutMs / 1000} s` : describeFailure(e);
    return { ok: false, detail: `GET ${shown} failed: ${reason}` };
  }
}

/** `fetch` refuses a URL with credentials: they go in an Authorization header instead. */
export function withBasicAuth(url: string): { target: string; headers: Record<string, string> } {
  const parsed = new URL(url);
  if (parsed.username === "" && parsed.password === "") return { target: url, headers: {} };
  const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = "";
  parsed.password = "";
  return { target: parsed.toString(), headers: { authorization: `Basic ${Buffer.from(credentials).toString("base64")}` } };
}
