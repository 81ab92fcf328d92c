/**
 * Webhook URLs carry secrets: a token in the query string, credentials before the host, and for
 * many services (Slack, Teams) the path itself. Messages name a webhook by its origin only.
 */

/** `https://hooks.example.com/services/T0/B0/xyz?token=abc` → `https://hooks.example.com/…`. */
export function redactUrl(url: URL): string {
  const hidden = url.pathname !== "/" || url.search !== "" || url.username !== "" || url.password !== "";
  return `${url.protocol}//${url.host}${hidden ? "/…" : "/"}`;
}

/**
 * Why a request failed, without the error's free text (which may quote the URL): an HTTP status, a
 * timeout, or a system error code such as ECONNREFUSED.
 */
export function describeFailure(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const { name, cause } = error as { name?: unknown; cause?: unknown };
    if (name === "TimeoutError" || name === "AbortError") return "timed out";
    const code = typeof cause === "object" && cause !== null ? (cause as { code?: unknown }).code : undefined;
    if (typeof code === "string") return code;
    if (typeof name === "string") return name;
  }
  return "request failed";
}
