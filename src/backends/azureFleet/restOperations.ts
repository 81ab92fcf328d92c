/**
 * The Fleet requests whose bodies `@azure/arm-containerservicefleet` 2.0.0 cannot carry (update run and
 * update strategy bodies with gates, the gates themselves, fleet members' `labels`; `wire.ts` says why), sent through the Azure
 * SDK's own REST client (`@azure-rest/core-client`: the pipeline the Fleet SDK is built on, with its
 * bearer-token, retry and 429 policies) and followed with `@azure/core-lro`'s poller, as the SDK's
 * generated operations are. Nothing here builds a URL by hand beyond the path template, signs a
 * request, retries or polls.
 */
import { createRestError, getClient, type Client, type ClientOptions, type PathUncheckedResponse } from "@azure-rest/core-client";
import type { TokenCredential } from "@azure/core-auth";
import { createHttpPoller, type OperationState, type ResourceLocationConfig } from "@azure/core-lro";
import type { PipelinePolicy } from "@azure/core-rest-pipeline";
import type { FleetId } from "./fleetId";
import type { ClientFleetApiVersion, WireAutoUpgradeProfile, WireAutoUpgradeProfileProperties, WireFleetMember, WireGate, WireStrategy, WireUpdateRun, WireUpdateStrategy } from "./wire";

const FLEET = "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.ContainerService/fleets/{fleetName}";

export interface RestOperationsOptions {
  credential: TokenCredential;
  endpoint: string;
  /** Every request's api-version (the SDK client's too). */
  apiVersion: ClientFleetApiVersion;
  /** What the SDK client is given: TLS, retry. */
  clientOptions: Pick<ClientOptions, "tlsOptions" | "retryOptions">;
  /** Runs after the retry policy, as the SDK client's counting policy does. */
  countingPolicy: PipelinePolicy;
  lroIntervalMs?: number;
}

/** A response with an unexpected status, as the SDK throws it (a `RestError` with ARM's error body in `details`). */
function expect(response: PathUncheckedResponse, statuses: readonly string[]): PathUncheckedResponse {
  if (statuses.includes(response.status)) return response;
  const error = createRestError(response);
  error.details = response.body;
  throw error;
}

export class FleetRestOperations {
  private readonly client: Client;

  constructor(
    private readonly fleet: FleetId,
    private readonly options: RestOperationsOptions,
  ) {
    this.client = getClient(options.endpoint, options.credential, {
      ...options.clientOptions,
      apiVersion: options.apiVersion,
      credentials: { scopes: [`${options.endpoint}/.default`] },
      userAgentOptions: { userAgentPrefix: "pulumi-fleet-update" },
    });
    this.client.pipeline.addPolicy(options.countingPolicy, { afterPhase: "Retry" });
  }

  /** The run, or undefined when there is none of that name (404). */
  async getRun(name: string): Promise<WireUpdateRun | undefined> {
    return this.getOrNothing<WireUpdateRun>(`${FLEET}/updateRuns/{updateRunName}`, name);
  }

  /** Create only (`If-None-Match: *`); a long-running operation followed to its end. */
  async createRun(name: string, properties: NonNullable<WireUpdateRun["properties"]>): Promise<WireUpdateRun> {
    return this.longRunning<WireUpdateRun>("azure-async-operation", ["200", "201"], () =>
      this.at(`${FLEET}/updateRuns/{updateRunName}`, name).put({ body: { properties }, contentType: "application/json", headers: { "if-none-match": "*" } }),
    );
  }

  async getStrategy(name: string): Promise<WireUpdateStrategy | undefined> {
    return this.getOrNothing<WireUpdateStrategy>(`${FLEET}/updateStrategies/{updateStrategyName}`, name);
  }

  /** Create (`If-None-Match: *`) without an eTag, else update only the version read (`If-Match`). */
  async putStrategy(name: string, strategy: WireStrategy, eTag: string | undefined): Promise<WireUpdateStrategy> {
    const condition: Record<string, string> = eTag === undefined ? { "if-none-match": "*" } : { "if-match": eTag };
    return this.longRunning<WireUpdateStrategy>("azure-async-operation", ["200", "201"], () =>
      this.at(`${FLEET}/updateStrategies/{updateStrategyName}`, name).put({ body: { properties: { strategy } }, contentType: "application/json", headers: condition }),
    );
  }

  /**
   * Create or update an auto-upgrade profile (a long-running PUT, followed to its end). Through the REST
   * client: SDK 2.0.0's serializer drops `targetKubernetesVersion` and `longTermSupport`.
   */
  async putAutoUpgradeProfile(name: string, properties: WireAutoUpgradeProfileProperties): Promise<WireAutoUpgradeProfile> {
    return this.longRunning<WireAutoUpgradeProfile>("azure-async-operation", ["200", "201"], () =>
      this.at(`${FLEET}/autoUpgradeProfiles/{autoUpgradeProfileName}`, name).put({ body: { properties }, contentType: "application/json" }),
    );
  }

  /** A gate resource (a ScheduledStart gate's `absoluteStartTime` is only there), or undefined when there is none of that name. */
  async getGate(name: string): Promise<WireGate | undefined> {
    return this.getOrNothing<WireGate>(`${FLEET}/gates/{gateName}`, name);
  }

  /** Every member of the fleet, page after page (`nextLink`), with its `labels`. */
  async listMembers(): Promise<WireFleetMember[]> {
    const { subscriptionId, resourceGroup, fleetName } = this.fleet;
    const out: WireFleetMember[] = [];
    let page = await this.client.pathUnchecked(`${FLEET}/members`, subscriptionId, resourceGroup, fleetName).get();
    for (;;) {
      const body = expect(page, ["200"]).body as { value?: WireFleetMember[]; nextLink?: string | null };
      out.push(...(body.value ?? []));
      if (typeof body.nextLink !== "string" || body.nextLink === "") return out;
      // ARM's nextLink is a full URL carrying its own api-version and skip token.
      page = await this.client.pathUnchecked(body.nextLink).get({ skipUrlEncoding: true });
    }
  }

  /** Approve a gate: PATCH `{properties: {state: "Completed"}}`, a long-running operation. */
  async approveGate(name: string): Promise<WireGate> {
    return this.longRunning<WireGate>("location", ["200", "201", "202"], () =>
      this.at(`${FLEET}/gates/{gateName}`, name).patch({ body: { properties: { state: "Completed" } }, contentType: "application/json" }),
    );
  }

  /** A fleet child resource: `template`'s path parameters are the fleet's and the child's name. */
  private at(template: string, name: string) {
    const { subscriptionId, resourceGroup, fleetName } = this.fleet;
    return (this.client.pathUnchecked as (path: string, ...args: string[]) => ReturnType<Client["pathUnchecked"]>)(template, subscriptionId, resourceGroup, fleetName, name);
  }

  private async getOrNothing<T>(template: string, name: string): Promise<T | undefined> {
    const response = await this.at(template, name).get();
    if (response.status === "404") return undefined;
    return expect(response, ["200"]).body as T;
  }

  private async longRunning<T>(where: ResourceLocationConfig, statuses: readonly string[], send: () => PromiseLike<PathUncheckedResponse>): Promise<T> {
    const asOperation = (response: PathUncheckedResponse) => {
      const ok = expect(response, statuses);
      return { flatResponse: ok, rawResponse: { ...ok, statusCode: Number.parseInt(ok.status, 10), body: ok.body } };
    };
    const poller = createHttpPoller<T, OperationState<T>>(
      {
        sendInitialRequest: async () => asOperation(await send()),
        sendPollRequest: async (path, pollOptions) => asOperation(await this.client.pathUnchecked(path).get(pollOptions?.abortSignal === undefined ? {} : { abortSignal: pollOptions.abortSignal })),
      },
      {
        resourceLocationConfig: where,
        processResult: async (result) => (result as PathUncheckedResponse).body as T,
        ...(this.options.lroIntervalMs === undefined ? {} : { intervalInMs: this.options.lroIntervalMs }),
      },
    );
    return poller.pollUntilDone();
  }
}
