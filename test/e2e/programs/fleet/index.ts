/**
 * A run executed by Azure Kubernetes Fleet Manager at the api-version config chooses (issue 21), for
 * the end-to-end tests against the ARM emulator's Fleet Manager (the emulator's fleet: `canary-1` in
 * group canary, `prod-1..3` in prod, `dev-1` in dev). Config:
 *   fleetId, armEndpoint, trustedCaFile, pollSeconds   the emulator's fleet (emulator credentials)
 *   apiVersion   backend.azureFleet.apiVersion (unset: the default, 2026-06-01)
 *   variant      "gated": a strategy kept in the fleet (UpdateStrategy) with maxConcurrency on the
 *                prod stage and group, and an approval gate after the canary;
 *                "tolerant": an inline strategy whose prod group and stage tolerate one failure
 *                (maxAllowedFailures, 2026-06-02-preview)
 *   approvals    gate ids approved (default none)
 */
import * as pulumi from "@pulumi/pulumi";
import { UpdateRun, UpdateStrategy } from "pulumi-fleet-update";

const config = new pulumi.Config();
const apiVersion = config.get("apiVersion") as "2026-06-01" | "2026-06-02-preview" | undefined;
const backend = {
  azureFleet: {
    fleetId: config.require("fleetId"),
    endpoint: config.require("armEndpoint"),
    trustedCaFile: config.require("trustedCaFile"),
    credential: "emulator" as const,
    pollIntervalSeconds: config.requireNumber("pollSeconds"),
    ...(apiVersion === undefined ? {} : { apiVersion }),
  },
};
const managedClusterUpdate = { upgrade: { type: "Full" as const, kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Latest" as const } };
const approvals = config.getObject<string[]>("approvals") ?? [];

let run: UpdateRun;
if (config.require("variant") === "gated") {
  const strategy = new UpdateStrategy("rollout", {
    backend,
    stages: [
      { name: "canary", groups: [{ name: "canary" }], afterGates: [{ type: "Approval", displayName: "Canary looks good" }] },
      { name: "prod", maxConcurrency: "3", groups: [{ name: "prod", maxConcurrency: "2" }, { name: "dev" }] },
    ],
  });
  run = new UpdateRun("paced", { backend, members: [], updateStrategyId: strategy.updateStrategyId.apply((id) => id as string), managedClusterUpdate, approvals });
} else {
  run = new UpdateRun("tolerant", {
    backend,
    members: [],
    strategy: {
      stages: [
        { name: "canary", groups: [{ name: "canary" }] },
        { name: "prod", maxAllowedFailures: "1", groups: [{ name: "prod", maxConcurrency: "3", maxAllowedFailures: "1" }, { name: "dev" }] },
      ],
    },
    managedClusterUpdate,
    approvals,
  });
}

export const status = run.status;
export const summary = run.summary;
export const failedMembers = run.failedMembers;
export const fleetRunId = run.fleetRun.apply((r) => r?.id);
