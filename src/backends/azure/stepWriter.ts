/**
 * Sending one step's write to ARM so that it is applied once. ARM can apply a write and lose its
 * answer (the connection drops): sent again blindly, a cluster PUT would be refused (412, `If-Match`)
 * but a node image upgrade POST would start a second upgrade. So writes go through a client without
 * the SDK's automatic retries, and every failure that may hide an applied write — a dropped
 * connection, a 5xx, a 408, a 409 or 412 — is followed by a read of the cluster before anything is sent
 * again: a step found under way, done, or already ended is followed (`stepStarted`); a cluster changed
 * by someone else is written again against its new eTag; a busy one is waited for (409, Pending). A
 * 429 was not applied: it is sent again after its `Retry-After`.
 */
import type { ContainerServiceClient, ManagedCluster } from "@azure/arm-containerservice";
import { isRestError, type RestError } from "@azure/core-rest-pipeline";
import type { UpgradeRequest } from "../../engine/backend";
import type { ManagedClusterId } from "./armIds";
import { credentialProblem } from "./credentials";
import { armError, type ArmError } from "./errors";
import { operationIdOf, stepName, stepStarted, withVersions, type Step } from "./steps";

/** Writes of one step, counting those sent again after a read showed the earlier ones never landed. */
export const MAX_WRITE_ATTEMPTS = 8;

export interface StepWriterDeps {
  /** A client whose pipeline does not retry: the writer decides what is sent again. */
  writeClient(id: ManagedClusterId): ContainerServiceClient;
  read(id: ManagedClusterId): Promise<ManagedCluster>;
  /** Throws when a cluster read before a second attempt can take no write (stopped, busy). */
  checkStartable(id: ManagedClusterId, cluster: ManagedCluster): void;
  /** Real ms to pause before attempt `attempt` (2, 3, ...) after a failure. */
  pauseMs(attempt: number): number;
}

/** Start `step` once; returns its operation id (for a step found started, its name). */
export async function writeStep(deps: StepWriterDeps, id: ManagedClusterId, cluster: ManagedCluster, request: UpgradeRequest, step: Step): Promise<string> {
  let current = cluster;
  for (let attempt = 1; ; attempt++) {
    try {
      return await send(deps.writeClient(id), id, current, request, step);
    } catch (e) {
      const error = armError(e);
      if (attempt >= MAX_WRITE_ATTEMPTS || !(error.status === 429 || mayHaveLanded(e, error))) throw credentialProblem(e) ?? error.toBackendError();
      await sleep(error.status === 429 ? retryAfterMs(e as RestError) ?? deps.pauseMs(attempt + 1) : deps.pauseMs(attempt + 1));
      if (error.status === 429) continue;
      const before = current;
      current = await deps.read(id);
      if (stepStarted(current, request, step, before)) return stepName(id.name, step);
      deps.checkStartable(id, current);
    }
  }
}

function send(client: ContainerServiceClient, id: ManagedClusterId, cluster: ManagedCluster, request: UpgradeRequest, step: Step): Promise<string> {
  if (step.kind === "image") return operationIdOf(client.agentPools.upgradeNodeImageVersion(id.resourceGroup, id.name, step.pool), stepName(id.name, step));
  // Versions: PUT the whole cluster as read, with If-Match, so a change in between is not overwritten.
  const body = withVersions(cluster, request.kubernetesVersion as string, !step.controlPlaneOnly);
  return operationIdOf(client.managedClusters.createOrUpdate(id.resourceGroup, id.name, body, cluster.eTag === undefined ? {} : { ifMatch: cluster.eTag }), stepName(id.name, step));
}

/**
 * A write that may have been applied though it did not say so: a conflict or precondition answer (an
 * earlier attempt landed, or someone else wrote), a server error or timeout, or a connection that
 * dropped with no answer. A refusal for an AKS rule (400) or a missing cluster (404) was not applied.
 */
function mayHaveLanded(e: unknown, error: ArmError): boolean {
  if (error.status === undefined) return isRestError(e);
  return error.status === 409 || error.status === 412 || error.status === 408 || error.status >= 500;
}

/** A 429's wait: `retry-after-ms`, `x-ms-retry-after-ms`, or `Retry-After` seconds. */
function retryAfterMs(e: RestError): number | undefined {
  const headers = e.response?.headers;
  for (const [name, scale] of [["retry-after-ms", 1], ["x-ms-retry-after-ms", 1], ["retry-after", 1000]] as const) {
    const value = Number(headers?.get(name));
    if (headers?.get(name) !== undefined && Number.isFinite(value) && value >= 0) return value * scale;
  }
  return undefined;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
