/**
 * Quickstart: a strategy (canary first, then three regions in parallel) and a run upgrading a
 * simulated fleet of 8 clusters to Kubernetes 1.32.0. `pulumi up` executes the rollout (about 10
 * seconds: simulated time runs 600 times faster) and exports its status and summary.
 */
import { UpdateRun, UpdateStrategy } from "pulumi-fleet-update";

const strategy = new UpdateStrategy("rollout", {
  stages: [
    { name: "canary", groups: [{ name: "canary" }], afterStageWaitInSeconds: 600 },
    { name: "prod", groups: [{ name: "prod-eu" }, { name: "prod-us", maxConcurrency: "2" }, { name: "prod-asia" }] },
  ],
});

const run = new UpdateRun("k8s-1-32", {
  // Relative to the Pulumi project's folder — the one holding Pulumi.yaml, here the repo root, whose
  // `main: examples/quickstart/` runs this program — not to this program's folder. The same path works
  // whether `pulumi up` is started at the root or in examples/quickstart/ (Pulumi finds the root's
  // Pulumi.yaml from either); UpdateRun records the project folder (`projectDir`) for the provider.
  backend: { simulator: { fleetFile: "examples/quickstart/fleet.yaml", timeScale: 600 } },
  members: [
    { name: "canary-1", group: "canary" },
    { name: "eu-1", group: "prod-eu" },
    { name: "eu-2", group: "prod-eu" },
    { name: "us-1", group: "prod-us" },
    { name: "us-2", group: "prod-us" },
    { name: "us-3", group: "prod-us" },
    { name: "asia-1", group: "prod-asia" },
    { name: "asia-2", group: "prod-asia" },
  ],
  strategy: strategy.strategy,
  managedClusterUpdate: {
    upgrade: { type: "Full", kubernetesVersion: "1.32.0" },
    nodeImageSelection: { type: "Consistent" },
  },
  state: "Running",
  skip: [],
  timeoutMinutes: 10,
});

export const status = run.status;
export const summary = run.summary;
