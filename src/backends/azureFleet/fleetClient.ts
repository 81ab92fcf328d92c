/**
 * Fleet Manager for one fleet: update runs, update strategies, gates and members, all at one
 * api-version (`apiVersion`, default `DEFAULT_FLEET_API_VERSION`, 2026-06-01). Controls (`start`, `stop`, `skip`), deletes and
 * members go through `@azure/arm-containerservicefleet`'s client; run and strategy bodies and gates,
 * which its 2.0.0 models cannot carry, through the SDK's REST client (`restOperations.ts`). No HTTP,
 * retry or long-running-operation polling is written here: the SDK's pipelines retry 429s (after
 * `Retry-After`) and transient failures, and its pollers follow every long-running operation. A
 * counting policy on both pipelines records every request sent (each retry included) for the bench
 * and the tests; it reads only the method, the api-version in the URL and the status, never a header.
 */
import { ContainerServiceFleetClient, type SkipTarget } from "@azure/arm-containerservicefleet";
import type { TokenCredential } from "@azure/core-auth";
import { isRestError, type PipelinePolicy } from "@azure/core-rest-pipeline";
import { credentialProblem } from "../azure/credentials";
import { parseFleetId, type FleetId } from "./fleetId";
import { FleetRestOperations } from "./restOperations";
import { FleetRequestError } from "./requestError";

export { FleetRequestError } from "./requestError";
import { DEFAULT_FLEET_API_VERSION, FLEET_API_FEATURES, FIRST_VERSION_WITH, type ClientFleetApiVersion, type WireAutoUpgradeProfile, type WireAutoUpgradeProfileProperties, type WireGate, type WireManagedClusterUpdate, type WireStrategy, type WireUpdateRun, type WireUpdateStrategy } from "./wire";

export interface FleetClientOptions {
  /** ARM id of the `Microsoft.ContainerService/fleets` resource. */
  fleetId: string;
  credential: TokenCredential;
  /** ARM endpoint; default the Azure public cloud. */
  endpoint?: string;
  /** The api-version of every request, SDK and REST client alike (default 2026-06-01). */
  apiVersion?: ClientFleetApiVersion;
  /** Extra CA certificates (PEM) to trust, e.g. the emulator's. */
  trustedCaPem?: string;
  /** How often the SDK's pollers read a long-running operation (default the SDK's, 2 s). */
  lroIntervalMs?: number;
  /** SDK retries of 429s and transient failures (default 6). */
  maxRetries?: number;
  /** Real ms before the SDK's first retry of a 5xx or dropped connection, and its cap (compressed for the emulator). */
  retryDelayInMs?: number;
  maxRetryDelayInMs?: number;
}

/** A member of the fleet, as `fleets/{f}/members` lists it. */
export interface FleetMemberInfo {
  name: string;
  group?: string;
  clusterResourceId: string;
  /** The fleet member's labels, which a strategy's `memberSelector` selects by (docs/rules.md §16). */
  labels?: Record<string, string>;
}

/** Requests sent, by method, and 429s answered (each retried by the SDK). */
export interface RequestCounts {
  GET: number;
  PUT: number;
  POST: number;
  PATCH: number;
  DELETE: number;
  throttled: number;
}


/** Counts each request by method, and each 429 answered (the SDK retries it); notes the api-versions sent. */
function requestCounter(counts: RequestCounts, apiVersions: Set<string>): PipelinePolicy {
  return {
    name: "fleetUpdateRequestCounter",
    async sendRequest(request, next) {
      const method = request.method as keyof RequestCounts;
      if (method in counts && method !== "throttled") counts[method] += 1;
      // The fleet's resources; not the operation URLs the service hands out (`locations/…`), which carry their own.
      const url = new URL(request.url);
      if (url.pathname.includes("/fleets/")) apiVersions.add(url.searchParams.get("api-version") ?? "");
      const response = await next(request);
      if (response.status === 429) counts.throttled += 1;
      return response;
    },
  };
}

export class FleetClient {
  readonly fleet: FleetId;
  readonly counts: RequestCounts = { GET: 0, PUT: 0, POST: 0, PATCH: 0, DELETE: 0, throttled: 0 };
  readonly apiVersion: ClientFleetApiVersion;
  /** The api-versions of the requests sent to the fleet's resources so far (the tests check there is one). */
  readonly apiVersionsSent = new Set<string>();
  private readonly client: ContainerServiceFleetClient;
  private readonly rest: FleetRestOperations;
  private readonly lro: { updateIntervalInMs?: number };

  constructor(options: FleetClientOptions) {
    this.fleet = parseFleetId(options.fleetId);
    const endpoint = options.endpoint ?? "https://management.azure.com";
    const clientOptions = {
      ...(options.trustedCaPem === undefined ? {} : { tlsOptions: { ca: options.trustedCaPem } }),
      retryOptions: {
        maxRetries: options.maxRetries ?? 6,
        ...(options.retryDelayInMs === undefined ? {} : { retryDelayInMs: options.retryDelayInMs }),
        ...(options.maxRetryDelayInMs === undefined ? {} : { maxRetryDelayInMs: options.maxRetryDelayInMs }),
      },
    };
    this.apiVersion = options.apiVersion ?? DEFAULT_FLEET_API_VERSION;
    const countingPolicy = requestCounter(this.counts, this.apiVersionsSent);
    this.client = new ContainerServiceFleetClient(options.credential, this.fleet.subscriptionId, { ...clientOptions, endpoint, apiVersion: this.apiVersion });
    this.client.pipeline.addPolicy(countingPolicy, { afterPhase: "Retry" });
    this.rest = new FleetRestOperations(this.fleet, {
      credential: options.credential,
      endpoint,
      apiVersion: this.apiVersion,
      clientOptions,
      countingPolicy,
      ...(options.lroIntervalMs === undefined ? {} : { lroIntervalMs: options.lroIntervalMs }),
    });
    this.lro = options.lroIntervalMs === undefined ? {} : { updateIntervalInMs: options.lroIntervalMs };
  }

  /** `/subscriptions/…/fleets/{f}/updateRuns/{name}`. */
  runId(name: string): string {
    return `${this.fleetPath()}/updateRuns/${name}`;
  }

  strategyId(name: string): string {
    return `${this.fleetPath()}/updateStrategies/${name}`;
  }

  /** Through the REST client: SDK 2.0.0's deserializer drops a member's `labels`. */
  async listMembers(): Promise<FleetMemberInfo[]> {
    const members = await this.call(() => this.rest.listMembers());
    return members.map((m) => {
      const p = m.properties;
      const labels = p?.labels;
      return {
        name: m.name ?? "",
        clusterResourceId: p?.clusterResourceId ?? "",
        ...(p?.group ? { group: p.group } : {}),
        ...(labels !== undefined && labels !== null && Object.keys(labels).length > 0 ? { labels: { ...labels } } : {}),
      };
    });
  }

  /** A gate resource by name (the last segment of a status's `gateId`), or undefined when there is none. */
  async getGate(name: string): Promise<WireGate | undefined> {
    return this.call(() => this.rest.getGate(name), { notFound: true });
  }

  /** The run, or undefined when the fleet has none of that name. */
  async getRun(name: string): Promise<WireUpdateRun | undefined> {
    return this.call(() => this.rest.getRun(name), { notFound: true });
  }

  /** Create only (`If-None-Match: *`): a run of that name created meanwhile is never overwritten. */
  async createRun(name: string, definition: { strategy?: WireStrategy; updateStrategyId?: string; managedClusterUpdate: WireManagedClusterUpdate }): Promise<WireUpdateRun> {
    return this.call(() => this.rest.createRun(name, definition));
  }

  /**
   * The controls answer with the run as SDK 2.0.0 reads it (no gates), so they return nothing: the
   * caller reads the run again.
   */
  async startRun(name: string): Promise<void> {
    await this.call(() => this.client.updateRuns.start(this.fleet.resourceGroup, this.fleet.fleetName, name, this.lro));
  }

  async stopRun(name: string): Promise<void> {
    await this.call(() => this.client.updateRuns.stop(this.fleet.resourceGroup, this.fleet.fleetName, name, this.lro));
  }

  async skip(name: string, targets: SkipTarget[]): Promise<void> {
    await this.call(() => this.client.updateRuns.skip(this.fleet.resourceGroup, this.fleet.fleetName, name, { targets }, this.lro));
  }

  /** Approve a gate by its resource name (the last segment of the `gateId` a run's status shows). */
  async approveGate(name: string): Promise<WireGate> {
    return this.call(() => this.rest.approveGate(name));
  }

  async deleteRun(name: string): Promise<void> {
    await this.call(() => this.client.updateRuns.delete(this.fleet.resourceGroup, this.fleet.fleetName, name, this.lro), { notFound: true });
  }

  async getStrategy(name: string): Promise<WireUpdateStrategy | undefined> {
    return this.call(() => this.rest.getStrategy(name), { notFound: true });
  }

  /** Create (`If-None-Match: *`) without an eTag; update only the version read (`If-Match`) with one. */
  async putStrategy(name: string, strategy: WireStrategy, eTag?: string): Promise<WireUpdateStrategy> {
    return this.call(() => this.rest.putStrategy(name, strategy, eTag));
  }

  async deleteStrategy(name: string, eTag?: string): Promise<void> {
    await this.call(() => this.client.fleetUpdateStrategies.delete(this.fleet.resourceGroup, this.fleet.fleetName, name, { ...(eTag === undefined ? {} : { ifMatch: eTag }), ...this.lro }), { notFound: true });
  }

  /**
   * Issue 22: create (or update) the auto-upgrade profile `name` with `disabled: true`, whatever
   * `profile` says: Fleet then starts no run from it by itself; `generateUpdateRun` makes the one we start.
   * A channel or field the api-version lacks is refused here, naming it (no request is sent).
   */
  async putAutoUpgradeProfile(name: string, profile: Omit<WireAutoUpgradeProfileProperties, "disabled">): Promise<WireAutoUpgradeProfile> {
    const features = FLEET_API_FEATURES[this.apiVersion];
    const lacking = [
      ...(features.autoUpgradeChannels.includes(profile.channel) ? [] : [`channel ${profile.channel} (from api-version ${FIRST_VERSION_WITH[`UpgradeChannel.${profile.channel}`] ?? "?"})`]),
      ...(["targetKubernetesVersion", "longTermSupport"] as const)
        .filter((field) => profile[field] !== undefined && !features.autoUpgradeChannels.includes("TargetKubernetesVersion"))
        .map((field) => `${field} (from api-version ${FIRST_VERSION_WITH[field] ?? "?"})`),
    ];
    if (lacking.length > 0) throw new FleetRequestError(undefined, "UnsupportedByApiVersion", `autoUpgradeProfile: api-version ${this.apiVersion} has no ${lacking.join(", no ")}`);
    return this.call(() => this.rest.putAutoUpgradeProfile(name, { ...profile, disabled: true }));
  }

  /**
   * Issue 22: Fleet's `generateUpdateRun` for the profile (long-running, followed by the SDK's poller):
   * the name and ARM id of the update run it made, NotStarted. Refused at an api-version without the action.
   */
  async generateUpdateRun(profileName: string): Promise<{ name: string; id: string }> {
    if (!FLEET_API_FEATURES[this.apiVersion].generateUpdateRun) {
      throw new FleetRequestError(undefined, "UnsupportedByApiVersion", `autoUpgradeProfile: api-version ${this.apiVersion} has no generateUpdateRun`);
    }
    const generated = await this.call(() => this.client.autoUpgradeProfileOperations.generateUpdateRun(this.fleet.resourceGroup, this.fleet.fleetName, profileName, this.lro));
    // The id must be a run of this fleet: anything else (an operation's id, say) is not a run to start.
    const prefix = `${this.fleetPath()}/updateRuns/`.toLowerCase();
    const name = generated.id.slice(prefix.length);
    if (!generated.id.toLowerCase().startsWith(prefix) || name === "" || name.includes("/")) {
      throw new FleetRequestError(undefined, "UnexpectedGenerateResponse", `generateUpdateRun of profile '${profileName}' answered id ${JSON.stringify(generated.id)}, not an update run of ${this.fleetPath()}`);
    }
    return { name, id: generated.id };
  }

  /**
   * Issue 22: names of the fleet's update runs that `generateUpdateRun` made from the profile
   * `profileName` (their `autoUpgradeProfileId` names it), as the fleet lists them.
   */
  async runsGeneratedBy(profileName: string): Promise<string[]> {
    const suffix = `/autoUpgradeProfiles/${profileName}`.toLowerCase();
    return this.call(async () => {
      const out: string[] = [];
      for await (const run of this.client.updateRuns.listByFleet(this.fleet.resourceGroup, this.fleet.fleetName)) {
        if (run.name !== undefined && run.properties?.autoUpgradeProfileId?.toLowerCase().endsWith(suffix) === true) out.push(run.name);
      }
      return out;
    });
  }

  /** Issue 22: delete the auto-upgrade profile (long-running; nothing when it is already gone). Its generated runs stay. */
  async deleteAutoUpgradeProfile(name: string): Promise<void> {
    await this.call(() => this.client.autoUpgradeProfiles.delete(this.fleet.resourceGroup, this.fleet.fleetName, name, this.lro), { notFound: true });
  }

  private fleetPath(): string {
    const { subscriptionId, resourceGroup, fleetName } = this.fleet;
    return `/subscriptions/${subscriptionId}/resourceGroups/${resourceGroup}/providers/Microsoft.ContainerService/fleets/${fleetName}`;
  }

  /** SDK errors as one clear error; `notFound` turns a 404 into undefined. */
  private async call<T>(request: () => PromiseLike<T>, opts: { notFound: true }): Promise<T | undefined>;
  private async call<T>(request: () => PromiseLike<T>): Promise<T>;
  private async call<T>(request: () => PromiseLike<T>, opts?: { notFound: true }): Promise<T | undefined> {
    try {
      return await request();
    } catch (e) {
      const credentials = credentialProblem(e);
      if (credentials !== undefined) throw credentials;
      const status = isRestError(e) ? e.statusCode : undefined;
      if (status === 404 && opts?.notFound === true) return undefined;
      const body = isRestError(e) ? (e.details as { error?: { code?: string; message?: string } } | undefined) : undefined;
      const code = body?.error?.code ?? (isRestError(e) ? e.code : undefined) ?? "FleetRequestFailed";
      const message = body?.error?.message ?? (e as Error).message ?? String(e);
      throw new FleetRequestError(status, code, `${code}: ${message}`);
    }
  }
}
