/** A strategy that lists group `eu` twice in its second stage: `pulumi preview` must refuse it by path. */
import * as path from "node:path";
import { UpdateRun, UpdateStrategy } from "pulumi-fleet-update";

const strategy = new UpdateStrategy("broken", {
  stages: [
    { name: "canary", groups: [{ name: "canary" }] },
    { name: "prod", groups: [{ name: "eu" }, { name: "eu" }] },
  ],
});

new UpdateRun("k8s-1-32", {
  backend: { simulator: { fleetFile: path.join(__dirname, "fleet.yaml") } },
  members: [{ name: "canary-1", group: "canary" }, { name: "eu-1", group: "eu" }],
  strategy: strategy.strategy,
  managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
});
