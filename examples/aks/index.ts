/**
 * Staged upgrade of existing AKS clusters through ARM. The clusters come from config:
 *
 *   pulumi config set --path 'clusterIds[0]' /subscriptions/…/managedClusters/canary-1
 *   pulumi config set --path 'clusterIds[1]' /subscriptions/…/managedClusters/prod-eu-1
 *   pulumi config set kubernetesVersion 1.32.0
 *
 * The first cluster is the canary; the rest follow after `canaryWaitSeconds` (default one hour), two
 * at a time. Credentials: DefaultAzureCredential (`az login`, or AZURE_* variables in CI). To try it
 * against the ARM emulator, also set `armEndpoint`, `trustedCaFile`, `credential: emulator` and a small
 * `pollSeconds`.
 */
import * as pulumi from "@pulumi/pulumi";
import { UpdateRun, UpdateStrategy } from "pulumi-fleet-update";

const config = new pulumi.Config();
const clusterIds = config.requireObject<string[]>("clusterIds");
const endpoint = config.get("armEndpoint");
const trustedCaFile = config.get("trustedCaFile");
const credential = config.get("credential") === "emulator" ? "emulator" : "default";
/** How often an upgrading cluster is read, in seconds (default 15, then 60; the emulator is faster). */
const pollSeconds = config.getNumber("pollSeconds");

const strategy = new UpdateStrategy("aks-rollout", {
  stages: [
    { name: "canary", groups: [{ name: "canary" }], afterStageWaitInSeconds: config.getNumber("canaryWaitSeconds") ?? 3600 },
    { name: "prod", groups: [{ name: "prod", maxConcurrency: "2" }] },
  ],
});

const run = new UpdateRun("aks-upgrade", {
  backend: {
    azure: {
      credential,
      ...(endpoint === undefined ? {} : { endpoint }),
      ...(trustedCaFile === undefined ? {} : { trustedCaFile }),
      ...(pollSeconds === undefined ? {} : { pollIntervalSeconds: { initial: pollSeconds, steady: pollSeconds } }),
    },
  },
  members: clusterIds.map((id, i) => ({ name: id.slice(id.lastIndexOf("/") + 1).toLowerCase(), group: i === 0 ? "canary" : "prod", clusterResourceId: id })),
  strategy: strategy.strategy,
  managedClusterUpdate: {
    upgrade: { type: "Full", kubernetesVersion: config.require("kubernetesVersion") },
    nodeImageSelection: { type: "Latest" },
  },
  timeoutMinutes: config.getNumber("timeoutMinutes") ?? 240,
});

export const status = run.status;
export const summary = run.summary;
