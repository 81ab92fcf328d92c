/**
 * A gated rollout: the canary stage ends with an approval gate. The first `pulumi up` upgrades the
 * canary and returns with the gate Pending (the run waits; nothing else is touched). Approve it with
 * a reviewed commit of the stack's config —
 *
 *   pulumi config set --path 'approvals[0]' canary/after/0
 *   pulumi up
 *
 * — and the same run goes on with production. The fleet is the quickstart's simulated one
 * (examples/quickstart/fleet.yaml), with this project's own state file beside Pulumi.yaml.
 * The same program in YAML, Python and Go: examples/gated-yaml, gated-python, gated-go.
 */
import * as pulumi from "@pulumi/pulumi";
import { UpdateRun, UpdateStrategy } from "pulumi-fleet-update";

const config = new pulumi.Config();

const strategy = new UpdateStrategy("rollout", {
  stages: [
    // The gate's id is `<stage>/after/<index>`: canary/after/0.
    { name: "canary", groups: [{ name: "canary" }], afterGates: [{ type: "Approval", displayName: "Canary looks good" }] },
    { name: "prod", groups: [{ name: "prod-eu" }, { name: "prod-us", maxConcurrency: "2" }] },
  ],
});

const run = new UpdateRun("k8s-1-32", {
  // Relative to this project's folder (the one holding Pulumi.yaml).
  backend: { simulator: { fleetFile: "../quickstart/fleet.yaml", stateFile: "fleet.yaml.state.json", timeScale: 600 } },
  members: [
    { name: "canary-1", group: "canary" },
    { name: "eu-1", group: "prod-eu" },
    { name: "eu-2", group: "prod-eu" },
    { name: "us-1", group: "prod-us" },
    { name: "us-2", group: "prod-us" },
  ],
  strategy: strategy.strategy,
  managedClusterUpdate: {
    upgrade: { type: "Full", kubernetesVersion: "1.32.0" },
    nodeImageSelection: { type: "Consistent" },
  },
  approvals: config.getObject<string[]>("approvals") ?? [],
});

export const status = run.status;
export const summary = run.summary;
