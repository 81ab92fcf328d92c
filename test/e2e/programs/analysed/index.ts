/**
 * Issue 31: three stages on real AKS through ARM (the ARM emulator), each with a pre-check and a soak
 * measured by a Prometheus analysis; the test's config says where:
 *   endpoint, caFile   the ARM emulator (credential "emulator")
 *   prometheus         the Prometheus server scraping the emulator's /metrics
 *   orgId (secret)     a header sent with each query (Prometheus ignores it; it must never show)
 */
import * as pulumi from "@pulumi/pulumi";
import { UpdateRun } from "pulumi-fleet-update";

const config = new pulumi.Config();
const sub = "00000000-0000-0000-0000-000000000000";
const id = (name: string) => `/subscriptions/${sub}/resourceGroups/fleet/providers/Microsoft.ContainerService/managedClusters/${name}`;
const stage = (name: string) => ({ name, groups: [{ name }], afterStageWaitInSeconds: 8 });

const run = new UpdateRun("k8s-1-32", {
  backend: { azure: { endpoint: config.require("endpoint"), trustedCaFile: config.require("caFile"), credential: "emulator", pollIntervalSeconds: { initial: 1, steady: 1 } } },
  members: [
    { name: "c1", group: "canary", clusterResourceId: id("c1") },
    { name: "c2", group: "early", clusterResourceId: id("c2") },
    { name: "c3", group: "early", clusterResourceId: id("c3") },
    { name: "c4", group: "rest", clusterResourceId: id("c4") },
  ],
  strategy: { stages: [stage("canary"), stage("early"), stage("rest")] },
  managedClusterUpdate: { upgrade: { type: "ControlPlaneOnly", kubernetesVersion: "1.32.0" } },
  analysis: {
    templates: [
      {
        name: "error-rate",
        provider: {
          prometheus: {
            address: config.require("prometheus"),
            query: 'cluster_error_rate{cluster="{{member.name}}"}',
            headers: [{ key: "X-Scope-OrgID", value: config.requireSecret("orgId") }],
          },
        },
        initialDelay: "4s",
        interval: "2s",
        successCondition: "result < 0.05",
      },
    ],
    stages: ["canary", "early", "rest"].map((name) => ({ name, preCheck: ["error-rate"], soak: ["error-rate"] })),
  },
  timeoutMinutes: 10,
});

export const status = run.status;
export const summary = run.summary;
