/**
 * The HTTPS front door: every request is read, logged, delayed and faulted as configured, throttled
 * per subscription, checked for `api-version`, routed, and answered in ARM's JSON with ARM's headers
 * (`x-ms-request-id`, `x-ms-correlation-request-id`, `x-ms-ratelimit-remaining-subscription-*`) — or,
 * for a write that was applied, possibly not answered at all (a lost response, `faults.ts`).
 */
import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import https from "node:https";
import type { ArmReply, EmulatorContext, Route } from "../ports";
import { ArmError, armErrorBody } from "./armErrors";
import { SERVER_ERROR_BODIES, type FaultInjector } from "./faults";
import type { RequestLog, RequestLogEntry } from "./requestLog";
import { matchRoute } from "./router";
import { exposition } from "../../backends/simulator/metrics";
import { ARM_READ_LIMITS, ARM_WRITE_LIMITS, remainingHeader, requestKind, throttledMessage, type SubscriptionThrottle } from "./throttling";

export interface FrontDoor {
  ctx: EmulatorContext;
  routes: Route[];
  log: RequestLog;
  /** Absent: throttling off. */
  throttle?: SubscriptionThrottle;
  /** Absent: no faults. */
  faults?: FaultInjector;
}

export function createArmServer(door: FrontDoor, tls: { key: string; cert: string }): https.Server {
  return https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    serve(door, req, res).catch((error: unknown) => {
      // Only reached if answering itself failed (socket gone); nothing left to tell the client.
      if (!res.headersSent && !res.destroyed) res.destroy(error instanceof Error ? error : undefined);
    });
  });
}

async function serve(door: FrontDoor, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = (req.method ?? "GET").toUpperCase();
  const url = new URL(req.url ?? "/", "https://emulator");
  const path = url.pathname;
  // Issue 31: the simulated clusters' metrics for a real Prometheus to scrape. Not ARM: never
  // throttled, faulted nor logged with ARM's requests.
  if (method === "GET" && path === "/metrics") {
    const text = exposition(door.ctx.sim.series());
    res.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8", "content-length": Buffer.byteLength(text) });
    res.end(text);
    return;
  }
  const rawBody = await readBody(req);
  const kind = requestKind(method);
  const subscriptionId = /^\/subscriptions\/([^/]+)/i.exec(path)?.[1] ?? "";
  // ARM's `Date` is ARM's clock: here, the emulator's (simulated) one (issue 30: clients take the run's instants on it).
  const answer = (reply: ArmReply, remaining: number, fault?: RequestLogEntry["fault"]) =>
    send(res, reply, { [remainingHeader(kind)]: String(remaining), Date: new Date(door.ctx.clock.now()).toUTCString() }, req, () => door.log.record({ method, path, status: reply.status, ...(fault ? { fault } : {}) }));

  const latency = door.faults?.latency() ?? 0;
  if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
  const fault = door.faults?.next() ?? { kind: "none" };
  if (fault.kind === "reset") {
    door.log.record({ method, path, status: 0, fault: "reset" });
    req.socket.destroy();
    return;
  }

  let remaining = kind === "reads" ? ARM_READ_LIMITS.burst : ARM_WRITE_LIMITS.burst;
  if (door.throttle !== undefined) {
    const decision = door.throttle.take(subscriptionId, kind);
    if (!decision.allowed) {
      const body = armErrorBody("SubscriptionRequestsThrottled", throttledMessage(kind, subscriptionId, decision.retryAfterSeconds));
      return answer({ status: 429, body, headers: { "Retry-After": String(decision.retryAfterSeconds) } }, 0, "throttled");
    }
    remaining = decision.remaining;
  }
  if (fault.kind === "serverError") {
    const { code, message } = SERVER_ERROR_BODIES[fault.status];
    return answer({ status: fault.status, body: armErrorBody(code, message) }, remaining, "serverError");
  }
  if (fault.kind === "throttle") {
    const body = armErrorBody("SubscriptionRequestsThrottled", throttledMessage(kind, subscriptionId, fault.retryAfterSeconds));
    return answer({ status: 429, body, headers: scaledRetryAfter(fault.retryAfterSeconds, door.ctx.timeScale) }, 0, "throttle");
  }

  const reply = await dispatch(door, method, path, url.searchParams, req, rawBody);
  if (kind === "writes" && reply.status < 400 && door.faults?.loseResponse() === true) {
    // Applied, but the client never hears so: it cannot tell a lost answer from a lost request.
    door.log.record({ method, path, status: 0, fault: "lostResponse" });
    req.socket.destroy();
    return;
  }
  return answer(reply, remaining);
}

/**
 * An injected 429's wait is simulated time, like every duration the emulator hands out: on a clock
 * running 15,000 times real time a fixed real second would be four simulated hours.
 */
function scaledRetryAfter(simulatedSeconds: number, timeScale: number): Record<string, string> {
  const realMs = Math.max(1, Math.round((simulatedSeconds * 1000) / timeScale));
  return { "Retry-After": String(Math.max(1, Math.ceil(realMs / 1000))), "retry-after-ms": String(realMs) };
}

async function dispatch(door: FrontDoor, method: string, path: string, query: URLSearchParams, req: IncomingMessage, rawBody: string): Promise<ArmReply> {
  try {
    if (!query.has("api-version")) {
      throw new ArmError(400, "MissingApiVersionParameter", "The api-version query parameter (?api-version=) is required for all requests.");
    }
    const match = matchRoute(door.routes, method, path);
    if (match === undefined) throw new ArmError(404, "NotFound", `The emulator does not serve '${path}'.`);
    if ("methodNotAllowed" in match) throw new ArmError(405, "MethodNotAllowed", `The requested method '${method}' is not allowed for '${path}'.`);
    return await match.route.handle(door.ctx, { method, path, params: match.params, query, headers: req.headers, body: parseJson(rawBody) });
  } catch (error) {
    if (error instanceof ArmError) return { status: error.status, body: error.body, headers: error.headers };
    const message = error instanceof Error ? error.message : String(error);
    return { status: 500, body: armErrorBody("InternalServerError", `The emulator failed: ${message}`) };
  }
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ArmError(400, "InvalidRequestContent", `The request content was invalid and could not be deserialized: ${(error as Error).message}`);
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
    req.on("close", () => {
      if (!req.complete) reject(new Error("the client closed the request before sending all of it"));
    });
  });
}

function send(res: ServerResponse, reply: ArmReply, extraHeaders: Record<string, string>, req: IncomingMessage, logged: () => void): void {
  const requestId = crypto.randomUUID();
  const clientRequestId = req.headers["x-ms-client-request-id"];
  const headers: Record<string, string> = {
    "x-ms-request-id": requestId,
    "x-ms-correlation-request-id": requestId,
    ...(typeof clientRequestId === "string" ? { "x-ms-client-request-id": clientRequestId } : {}),
    ...extraHeaders,
    ...(reply.headers ?? {}),
  };
  const body = reply.body === undefined ? "" : JSON.stringify(reply.body);
  if (body !== "") headers["Content-Type"] = "application/json; charset=utf-8";
  headers["Content-Length"] = String(Buffer.byteLength(body));
  res.writeHead(reply.status, headers);
  res.end(body);
  logged();
}
