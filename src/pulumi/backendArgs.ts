/**
 * Where a run's clusters are, as `UpdateRun` and `UpdateStrategy` take it (each field a
 * `pulumi.Input`): the simulated fleet, real AKS through ARM, or Azure Kubernetes Fleet Manager.
 * Validated by `src/spec/runSpec.ts` (`BackendConfigSchema`) in the provider.
 */
import type * as pulumi from "@pulumi/pulumi";

/** The embedded simulated fleet. */
export interface SimulatorBackendArgs {
  /**
   * Fleet description (a scenario's `regions` + `members`). A relative path is relative to the Pulumi
   * project's folder (the one holding Pulumi.yaml; `UpdateRunArgs.projectDir`) — not to the program's
   * `main` folder, nor to where `pulumi` was started. With the repo's root Pulumi.yaml
   * (`main: examples/quickstart/`) the quickstart's is `examples/quickstart/fleet.yaml`.
   */
  fleetFile: pulumi.Input<string>;
  /** Where the simulated clusters' state is kept, relative to the project's folder; default `<fleetFile>.state.json`. Delete it to reset. */
  stateFile?: pulumi.Input<string>;
  /** Simulated time per real time; default 60 (a 10-minute upgrade takes 10 seconds). */
  timeScale?: pulumi.Input<number>;
}

/** Real AKS clusters through ARM (`@azure/arm-containerservice`, api-version 2026-06-01). */
export interface AzureBackendArgs {
  /** ARM endpoint; default the Azure public cloud. */
  endpoint?: pulumi.Input<string>;
  /** A PEM file of extra CA certificates to trust (the ARM emulator's), relative to the project's folder (`UpdateRunArgs.projectDir`). */
  trustedCaFile?: pulumi.Input<string>;
  /**
   * "default" (DefaultAzureCredential: `az login`, environment, managed or workload identity) or
   * "emulator" (a dummy token, only with an endpoint on 127.0.0.1 / localhost). Tokens never reach
   * inputs, outputs, state or logs.
   */
  credential?: pulumi.Input<"default" | "emulator">;
  /** Seconds between reads of an upgrading cluster, first minutes then steady (default 15, 60). */
  pollIntervalSeconds?: pulumi.Input<{ initial: pulumi.Input<number>; steady: pulumi.Input<number> }>;
}

/**
 * Issue 12: Azure Kubernetes Fleet Manager runs the update server-side; `pulumi up` creates (or
 * attaches to) the fleet's update run named after this resource, starts, stops and skips it, and
 * follows it. Credentials as `azure`'s. Members are the fleet's: `members` may be empty.
 */
export interface AzureFleetBackendArgs {
  /** ARM id of the `Microsoft.ContainerService/fleets` resource. */
  fleetId: pulumi.Input<string>;
  endpoint?: pulumi.Input<string>;
  trustedCaFile?: pulumi.Input<string>;
  credential?: pulumi.Input<"default" | "emulator">;
  /** Seconds between GETs of the run while following it (default 60). */
  pollIntervalSeconds?: pulumi.Input<number>;
  /**
   * Issue 21: the Fleet Manager api-version every request speaks.
   * - "2026-06-01" (GA, the default): approval gates and `maxConcurrency` on stages and groups.
   * - "2026-06-02-preview": also `maxAllowedFailures` on stages and groups (a run with tolerated
   *   failures completes; Fleet counts them in `failureCount`).
   * - "2025-04-01-preview" (legacy, what the client spoke before): approval gates, neither limit.
   * A limit the version lacks is refused at `pulumi preview`, naming the version that has it. A
   * change of `apiVersion` alone is applied in place: the same fleet run is followed at the new
   * version, never replaced (docs/behaviour.md FM14).
   */
  apiVersion?: pulumi.Input<"2026-06-01" | "2026-06-02-preview" | "2025-04-01-preview">;
}

