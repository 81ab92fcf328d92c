/**
 * A staged upgrade executed by Azure Kubernetes Fleet Manager (`backend.azureFleet`): the strategy is
 * kept in the fleet as an update strategy, the run is created from it and started, and `pulumi up`
 * follows it. The canary stage ends with an approval gate: the first `up` returns with the gate
 * Pending (the run waits in Fleet, no client needed); approve it with a reviewed commit —
 *
 *   pulumi config set --path 'approvals[0]' canary/after/0
 *   pulumi up
 *
 * — and the rest of the fleet is upgraded. The members are the fleet's own (`fleets/{f}/members`, each
 * in its update group: here canary, prod and dev). Config:
 *
 *   pulumi config set fleetId /subscriptions/…/resourceGroups/…/providers/Microsoft.ContainerService/fleets/…
 *   pulumi config set kubernetesVersion 1.32.0
 *   pulumi config set apiVersion 2026-06-02-preview   # optional: Fleet's api-version (default 2026-06-01)
 *
 * Credentials: DefaultAzureCredential (`az login`, or AZURE_* variables in CI). Against the ARM
 * emulator (`fleet-update emulator`), also set `armEndpoint`, `trustedCaFile`, `credential: emulator`
 * and a small `pollSeconds`.
 */
import * as pulumi from "@pulumi/pulumi";
import { UpdateRun, UpdateStrategy } from "pulumi-fleet-update";

const config = new pulumi.Config();
const endpoint = config.get("armEndpoint");
const trustedCaFile = config.get("trustedCaFile");
const pollSeconds = config.getNumber("pollSeconds");
const apiVersion = config.get("apiVersion") as "2026-06-01" | "2026-06-02-preview" | "2025-04-01-preview" | undefined;
const backend = {
  azureFleet: {
    fleetId: config.require("fleetId"),
    credential: config.get("credential") === "emulator" ? ("emulator" as const) : ("default" as const),
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(trustedCaFile === undefined ? {} : { trustedCaFile }),
    ...(pollSeconds === undefined ? {} : { pollIntervalSeconds: pollSeconds }),
    ...(apiVersion === undefined ? {} : { apiVersion }),
  },
};

// Kept in the fleet as `updateStrategies/rollout`: Fleet's portal and CLI see the same strategy.
const strategy = new UpdateStrategy("rollout", {
  backend,
  stages: [
    { name: "canary", groups: [{ name: "canary" }], afterGates: [{ type: "Approval", displayName: "Canary looks good" }] },
    { name: "prod", groups: [{ name: "prod" }, { name: "dev" }] },
  ],
});

// Named after the resource: the fleet's update run `k8s-upgrade`. A second `up` attaches to it.
const run = new UpdateRun("k8s-upgrade", {
  backend,
  members: [],
  updateStrategyId: strategy.updateStrategyId.apply((id) => id as string),
  managedClusterUpdate: {
    upgrade: { type: "Full", kubernetesVersion: config.require("kubernetesVersion") },
    nodeImageSelection: { type: "Latest" },
  },
  approvals: config.getObject<string[]>("approvals") ?? [],
});

export const status = run.status;
export const summary = run.summary;
export const fleetRunId = run.fleetRun.apply((r) => r?.id);
