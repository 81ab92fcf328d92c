/**
 * Retry and promotion with outputs (issue 5). Staging takes the newest node image it has and
 * tolerates one failure; a retry run takes exactly staging's failed members with exactly the images
 * staging applied; production then gets those same images — never a newer build staging did not see.
 * `fleet-update simulate examples/promotion/scenario.yaml` shows the same chain on a virtual clock.
 */
import { UpdateRun } from "pulumi-fleet-update";

// Relative to the project folder (the one holding this example's Pulumi.yaml).
const backend = { simulator: { fleetFile: "fleet.yaml", timeScale: 3600 } };
const nodeImagesOnly = { type: "NodeImageOnly" as const };

const staging = new UpdateRun("staging", {
  backend,
  members: [
    { name: "staging-1", group: "staging" },
    { name: "staging-2", group: "staging" },
  ],
  strategy: { stages: [{ name: "staging", groups: [{ name: "staging", maxAllowedFailures: "1" }] }] },
  managedClusterUpdate: { upgrade: nodeImagesOnly, nodeImageSelection: { type: "Latest" } },
});

// The same versions, only the members that failed: a retry that cannot drift to a newer image.
const stagingRetry = new UpdateRun("staging-retry", {
  backend,
  members: staging.failedMembers,
  managedClusterUpdate: {
    upgrade: nodeImagesOnly,
    nodeImageSelection: { type: "Custom", customNodeImageVersions: staging.appliedNodeImageVersions },
  },
});

// Production gets exactly what staging validated, once the retry is through.
const production = new UpdateRun(
  "production",
  {
    backend,
    members: [
      { name: "prod-eu-1", group: "eu" },
      { name: "prod-eu-2", group: "eu" },
      { name: "prod-us-1", group: "us" },
      { name: "prod-us-2", group: "us" },
    ],
    strategy: {
      stages: [
        { name: "canary", groups: [{ name: "eu" }], afterStageWaitInSeconds: 3600 },
        { name: "rest", groups: [{ name: "us" }] },
      ],
    },
    managedClusterUpdate: {
      upgrade: nodeImagesOnly,
      nodeImageSelection: { type: "Custom", customNodeImageVersions: staging.appliedNodeImageVersions },
    },
  },
  { dependsOn: [stagingRetry] },
);

export const stagingSummary = staging.summary;
export const stagingApplied = staging.appliedNodeImageVersions;
export const stagingFailed = staging.failedMembers;
export const retrySummary = stagingRetry.summary;
export const productionSummary = production.summary;
export const productionStatus = production.status;
