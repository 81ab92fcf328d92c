/**
 * Where a run's clusters are, as `UpdateRun` and `UpdateStrategy` take it (each field a
 * `pulumi.Input`): the simulated fleet, real AKS through ARM, or Azure Kubernetes Fleet Manager.
 * Validated by `src/spec/runSpec.ts` (`BackendConfigSchema`) in the provider.
 */
import type * as pulumi from "@pulumi/pulumi";

/** The embedded simulated fleet: a fleet file describing regions and clusters, and a state file beside it. */
export interface SimulatorBackendArgs {
  /**
   * The fleet description (a scenario's `regions` and `members`), relative to `projectDir` (the Pulumi
   * project's folder, the one holding Pulumi.yaml; not the program's `main` folder, nor where `pulumi` was
   * started).
   */
  fleetFile: pulumi.Input<string>;
  /**
   * Where the simulated clusters' state is kept, relative to `projectDir`; default `<fleetFile>.state.json`.
   * Delete it to reset the fleet.
   */
  stateFile?: pulumi.Input<string>;
  /** Simulated time per real time; default 60 (a 10-minute upgrade takes 10 seconds). */
  timeScale?: pulumi.Input<number>;
}

/**
 * Real AKS clusters through ARM; members then need `clusterResourceId`. Credentials come from the environment
 * (DefaultAzureCredential), never from inputs.
 */
export interface AzureBackendArgs {
  /** ARM endpoint; default the Azure public cloud. */
  endpoint?: pulumi.Input<string>;
  /** A PEM file of extra CA certificates to trust (the ARM emulator's), relative to `projectDir`. */
  trustedCaFile?: pulumi.Input<string>;
  /**
   * "default": DefaultAzureCredential (`az login`, environment, managed or workload identity). "emulator": a
   * dummy token, accepted only with an endpoint on 127.0.0.1 or localhost. Tokens never reach inputs,
   * outputs, state or logs.
   */
  credential?: pulumi.Input<"default" | "emulator">;
  /** Seconds between reads of an upgrading cluster, first minutes then steady (default 15, 60). */
  pollIntervalSeconds?: pulumi.Input<{ initial: pulumi.Input<number>; steady: pulumi.Input<number> }>;
}

/**
 * Azure Kubernetes Fleet Manager runs the update server-side; `pulumi up` creates (or attaches to) the
 * fleet's update run named after the resource, steers it and follows it.
 */
export interface AzureFleetBackendArgs {
  /** ARM id of the `Microsoft.ContainerService/fleets` resource. */
  fleetId: pulumi.Input<string>;
  /** ARM endpoint; default the Azure public cloud. */
  endpoint?: pulumi.Input<string>;
  /** A PEM file of extra CA certificates to trust (the ARM emulator's), relative to `projectDir`. */
  trustedCaFile?: pulumi.Input<string>;
  /** As `azure`'s: "default" (DefaultAzureCredential) or "emulator" (loopback endpoints only). */
  credential?: pulumi.Input<"default" | "emulator">;
  /** Seconds between GETs of the run while following it (default 60). */
  pollIntervalSeconds?: pulumi.Input<number>;
  /**
   * The Fleet Manager api-version every request speaks: "2026-06-01" (GA, the default: approval gates and
   * `maxConcurrency`), "2026-06-02-preview" (also `maxAllowedFailures`, `memberSelector` and ScheduledStart
   * gates), "2025-04-01-preview" (legacy: approval gates, neither limit). A field the version lacks is
   * refused at `pulumi preview`, naming the version that has it. A change of it alone follows the same fleet
   * run at the new version.
   */
  apiVersion?: pulumi.Input<"2026-06-01" | "2026-06-02-preview" | "2025-04-01-preview">;
}

