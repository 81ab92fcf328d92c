/**
 * Issue 5 health probes over real HTTP(S): GET the member's URL, healthy on any 2xx. Used by the
 * Pulumi resources and the CLI; the engine itself does no I/O. The URL's query string is left out of
 * what is reported, since it may carry a token.
 */
import type { MemberRef, ProbeResult } from "../engine/backend";
import { withoutQuery } from "../engine/healthCheck";

export const PROBE_TIMEOUT_MS = 10_000;

export async function httpProbe(_member: MemberRef, url: string): Promise<ProbeResult> {
  const shown = withoutQuery(url);
  try {
    const response = await fetch(url, { method: "GET", redirect: "follow", signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await response.body?.cancel();
    return { ok: response.status >= 200 && response.status < 300, detail: `GET ${shown} answered ${response.status}` };
  } catch (e) {
    const reason = (e as Error).name === "TimeoutError" ? `no answer within ${PROBE_TIMEOUT_MS / 1000} s` : (e as Error).message;
    return { ok: false, detail: `GET ${shown} failed: ${reason}` };
  }
}
