/**
 * The quickstart's fleet, its groups chosen by label (issue 22), production behind a ScheduledStart
 * gate whose weekday and time come from config (the test sets them an hour of simulated time ahead):
 *   startDay, startTime   the gate's (UTC)
 *   timeScale             simulated seconds per real second (default 600)
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { UpdateRun } from "pulumi-fleet-update";

const config = new pulumi.Config();
const region = (name: string) => (name.startsWith("eu") || name.startsWith("canary") ? "eu" : name.startsWith("us") ? "us" : "asia");

const run = new UpdateRun("k8s-1-32", {
  backend: { simulator: { fleetFile: path.join(__dirname, "fleet.yaml"), timeScale: config.getNumber("timeScale") ?? 600 } },
  members: ["canary-1", "eu-1", "eu-2", "us-1", "us-2", "us-3", "asia-1", "asia-2"].map((name) => ({
    name,
    labels: { ring: name === "canary-1" ? "canary" : "prod", region: region(name) },
  })),
  strategy: {
    stages: [
      { name: "canary", groups: [{ name: "canary", memberSelector: { byLabel: "ring=canary" } }] },
      {
        name: "prod",
        memberSelector: { byLabel: "ring=prod" },
        beforeGates: [
          { type: "ScheduledStart", displayName: "Production window", scheduledStartConfiguration: { startDay: config.require("startDay"), startTime: config.require("startTime"), utcOffset: "+00:00" } },
        ],
        groups: [
          { name: "prod-eu", memberSelector: { byLabel: "region=eu" } },
          { name: "prod-elsewhere", memberSelector: { byLabel: "region in (us, asia)" }, maxConcurrency: "3" },
        ],
      },
    ],
  },
  managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Consistent" } },
  timeoutMinutes: 10,
});

export const status = run.status;
export const summary = run.summary;
export const excludedMembers = run.excludedMembers;
