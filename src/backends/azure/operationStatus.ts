/**
 * Issue 30: an AKS operation's own record, as ARM keeps it at the operation's status URL — the
 * `Azure-AsyncOperation` URL a write answers with, `…/providers/Microsoft.ContainerService/locations/
 * {location}/operations/{operationId}` — whose body (ARM's OperationStatus) carries `status`,
 * `startTime` and, once it ended, `endTime`. The URL is made again from the cluster's location and the
 * operation's id, so a process that resumed a run can read the record of an operation an earlier one
 * started. At api-version 2026-06-01 this is the only record of an operation ARM serves: a cluster's
 * operations cannot be listed (docs/behaviour.md, "Operation ids and times on ARM").
 *
 * And the clock: every answer's `Date` header is an instant ARM's clock had reached (`armClockPolicy`).
 */
import type { ContainerServiceClient } from "@azure/arm-containerservice";
import { createDefaultHttpClient, createPipelineRequest, type HttpClient, type PipelinePolicy } from "@azure/core-rest-pipeline";
import type { ManagedClusterId } from "./armIds";

/** The api-version the Azure backend speaks (`@azure/arm-containerservice`'s). */
const API_VERSION = "2026-06-01";

export interface OperationRecord {
  status: string;
  startedAt?: number;
  endedAt?: number;
}

export interface OperationStatusSource {
  clientOf(id: ManagedClusterId): ContainerServiceClient;
  call<T>(request: () => Promise<T>): Promise<T>;
  /** ARM's endpoint, without a trailing slash. */
  endpoint: string;
  /** Told of the instants the record shows ARM's clock reached. */
  reached?: (instant: number) => void;
}

export class OperationStatuses {
  private readonly http: HttpClient = createDefaultHttpClient();

  constructor(private readonly source: OperationStatusSource) {}

  /**
   * The operation's record; undefined when ARM has none under that id (an operation found started
   * after a lost answer goes by its step's name, which names no record) or the cluster's location
   * is unknown.
   */
  async status(id: ManagedClusterId, location: string | undefined, operationId: string): Promise<OperationRecord | undefined> {
    if (location === undefined || location === "") return undefined;
    const url = `${this.source.endpoint}/subscriptions/${encodeURIComponent(id.subscriptionId)}/providers/Microsoft.ContainerService/locations/${encodeURIComponent(location.toLowerCase().replace(/\s+/g, ""))}/operations/${encodeURIComponent(operationId)}?api-version=${API_VERSION}`;
    const client = this.source.clientOf(id);
    const response = await this.source.call(() => client.pipeline.sendRequest(this.http, createPipelineRequest({ url, method: "GET" })));
    if (response.status !== 200) return undefined;
    let body: { status?: unknown; startTime?: unknown; endTime?: unknown };
    try {
      body = JSON.parse(response.bodyAsText ?? "") as typeof body;
    } catch {
      return undefined;
    }
    const instant = (value: unknown): number | undefined => {
      const parsed = typeof value === "string" ? Date.parse(value) : Number.NaN;
      if (Number.isNaN(parsed)) return undefined;
      this.source.reached?.(parsed);
      return parsed;
    };
    const startedAt = instant(body.startTime);
    const endedAt = instant(body.endTime);
    return { status: typeof body.status === "string" ? body.status : "Unknown", ...(startedAt === undefined ? {} : { startedAt }), ...(endedAt === undefined ? {} : { endedAt }) };
  }
}

/** A pipeline policy handing each answer's `Date` (an instant ARM's clock had reached) to `reached`. */
export function armClockPolicy(reached: (instant: number) => void): PipelinePolicy {
  return {
    name: "fleetUpdateArmClock",
    async sendRequest(request, next) {
      const response = await next(request);
      const date = response.headers.get("date");
      if (date !== undefined) reached(Date.parse(date));
      return response;
    },
  };
}
