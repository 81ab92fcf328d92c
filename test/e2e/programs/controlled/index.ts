/**
 * The quickstart's fleet and rollout, steered from config, for the end-to-end tests:
 *   state            Running | Stopped (default Running)
 *   timeScale        simulated seconds per real second (default 600)
 *   approvals        gate ids approved (default none); production waits at `prod/before/0`
 *   gateProduction   true puts an approval gate before production (default false)
 *   probeUrl         canary-1's health probe; with the secret `probeToken` in its query
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { UpdateRun, UpdateStrategy } from "pulumi-fleet-update";

const config = new pulumi.Config();
const probeUrl = config.get("probeUrl");
const probeToken = config.getSecret("probeToken");
const healthCheck = probeUrl === undefined ? undefined : { url: pulumi.interpolate`${probeUrl}?token=${probeToken ?? ""}`, settleSeconds: 0, retries: 0 };

const strategy = new UpdateStrategy("rollout", {
  stages: [
    { name: "canary", groups: [{ name: "canary" }], afterStageWaitInSeconds: 600 },
    {
      name: "prod",
      groups: [{ name: "prod-eu" }, { name: "prod-us", maxConcurrency: "2" }, { name: "prod-asia" }],
      ...(config.getBoolean("gateProduction") === true ? { beforeGates: [{ displayName: "Canary looks good", type: "Approval" as const }] } : {}),
    },
  ],
});

const run = new UpdateRun("k8s-1-32", {
  backend: { simulator: { fleetFile: path.join(__dirname, "fleet.yaml"), timeScale: config.getNumber("timeScale") ?? 600 } },
  members: [
    { name: "canary-1", group: "canary", ...(healthCheck === undefined ? {} : { healthCheck }) },
    { name: "eu-1", group: "prod-eu" },
    { name: "eu-2", group: "prod-eu" },
    { name: "us-1", group: "prod-us" },
    { name: "us-2", group: "prod-us" },
    { name: "us-3", group: "prod-us" },
    { name: "asia-1", group: "prod-asia" },
    { name: "asia-2", group: "prod-asia" },
  ],
  strategy: strategy.strategy,
  managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Consistent" } },
  state: (config.get("state") ?? "Running") as "Running" | "Stopped",
  approvals: config.getObject<string[]>("approvals") ?? [],
  timeoutMinutes: 10,
});

export const status = run.status;
export const summary = run.summary;
