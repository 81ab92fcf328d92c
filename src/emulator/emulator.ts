/**
 * `startArmEmulator`: an HTTPS server on 127.0.0.1 that answers the part of ARM the Azure backend
 * uses, over a `SimulatedFleet` (its AKS rules, operation log and errors) driven by a clock where a
 * simulated minute takes `msPerSimulatedMinute` real milliseconds.
 */
import type { ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Fleet } from "../model/fleet";
import type { Clock } from "../engine/clock";
import { CompressibleClock } from "../runtime/compressibleClock";
import { ScaledClock } from "../runtime/scaledClock";
import { SimulatedFleet, type SimulatedFleetOptions } from "../backends/simulator";
import { agentPoolRoutes } from "./arm/agentPoolRoutes";
import { armClusters } from "./arm/clusters";
import { clusterRoutes } from "./arm/clusterRoutes";
import { Lifecycle } from "./arm/lifecycle";
import { lifecycleRoutes } from "./arm/lifecycleRoutes";
import { locationRoutes } from "./arm/locationRoutes";
import { OperationRegistry } from "./arm/operations";
import { createSelfSignedCertificate } from "./core/certificate";
import { FaultInjector, type FaultOptions } from "./core/faults";
import { RequestLog, type RequestCounters, type RequestLogEntry } from "./core/requestLog";
import { createArmServer } from "./core/server";
import { SubscriptionThrottle, type ThrottlingOptions } from "./core/throttling";
import { FleetManager } from "./fleet/fleetManager";
import { fleetRoutes } from "./fleet/fleetRoutes";
import type { FleetDeclaration } from "./fleet/fleetState";
import { autoUpgradeRoutes } from "./fleet/autoUpgradeRoutes";
import { gateRoutes } from "./fleet/gateRoutes";
import { updateRunRoutes } from "./fleet/updateRunRoutes";
import { updateStrategyRoutes } from "./fleet/updateStrategyRoutes";
import type { EmulatorContext } from "./ports";

/** A simulated minute per real second unless told otherwise: a 10-minute upgrade takes 10 s. */
export const DEFAULT_MS_PER_SIMULATED_MINUTE = 1000;

export interface ArmEmulatorOptions {
  /** The simulated world: regions and clusters (`FleetSchema`). */
  fleet: Fleet;
  /** Real milliseconds per simulated minute (default 1000). */
  msPerSimulatedMinute?: number;
  /** Simulated instant at start (epoch ms or ISO 8601); default now. */
  startAt?: number | string;
  /** Injected faults (default none). */
  faults?: FaultOptions;
  /** ARM's subscription token buckets: `true` (default) for ARM's limits, `false` for none, or limits. */
  throttling?: boolean | ThrottlingOptions;
  /** Seed of the fault PRNG (default 1). */
  seed?: number;
  /** Serve only this subscription / resource group (default: whatever the request names). */
  subscriptionId?: string;
  resourceGroup?: string;
  /** TCP port on 127.0.0.1 (default: any free port). */
  port?: number;
  /** Passed to the simulated fleet (restored state, state-change hook). */
  fleetOptions?: SimulatedFleetOptions;
  /**
   * Fleet Manager fleets and their members (default: one fleet `fleet` whose members are all the
   * clusters, each in its declared `group`); `[]` serves no fleet until one is PUT.
   */
  fleets?: FleetDeclaration[];
  /**
   * Jump over idle time (default false): simulated time runs from the first request on, and
   * `clock.sleepUntil` jumps straight to the instant asked for when no upgrade runs and no request is in
   * flight (`CompressibleClock`). For a single client that sleeps on `clock`, as `simulate --via
   * arm-emulator` does; a server for other processes keeps running at `msPerSimulatedMinute`.
   */
  compressIdleTime?: boolean;
  /**
   * Told of each request as it is logged (answered, or reset), synchronously: a test acts at an exact
   * request boundary with it (the kill-and-resume test SIGKILLs the client there), where polling
   * `requests` would act a timer tick — and, under load, several requests — late.
   */
  onRequest?: (entry: RequestLogEntry) => void;
}

export interface ArmEmulator {
  /** `https://127.0.0.1:<port>`: the client's ARM endpoint. */
  url: string;
  /** PEM certificate the server presents; clients trust it with `tlsOptions: { ca }`. */
  certificatePem: string;
  /** The simulated fleet behind the emulator, for assertions (`operationLog()`, `snapshot()`). */
  fleet: SimulatedFleet;
  /** Fleet Manager's fleets, runs and their engines, for assertions. */
  fleetManager: FleetManager;
  /** A `ScaledClock`, or a `CompressibleClock` with `compressIdleTime`. */
  clock: Clock;
  /** Every request answered (or reset), in order; live. */
  requests: RequestLogEntry[];
  /** Live counters. */
  counters: RequestCounters;
  /** Forget the requests and counters so far. */
  clearRequestLog(): void;
  close(): Promise<void>;
}

export async function startArmEmulator(options: ArmEmulatorOptions): Promise<ArmEmulator> {
  const msPerSimulatedMinute = options.msPerSimulatedMinute ?? DEFAULT_MS_PER_SIMULATED_MINUTE;
  if (!(msPerSimulatedMinute > 0)) throw new RangeError(`msPerSimulatedMinute must be greater than 0 (got ${msPerSimulatedMinute})`);
  const timeScale = 60_000 / msPerSimulatedMinute;
  // Made before the clock starts: key generation takes real time that would otherwise pass as
  // (compressed) simulated hours before the first request.
  const certificate = await createSelfSignedCertificate();
  const realNow = Date.now();
  const simulatedStart = options.startAt === undefined ? realNow : typeof options.startAt === "number" ? options.startAt : Date.parse(options.startAt);
  if (Number.isNaN(simulatedStart)) throw new RangeError(`startAt is not an instant: ${String(options.startAt)}`);
  // The fleet is made after the clock, which asks it whether an upgrade runs (time runs then).
  let sim: SimulatedFleet | undefined;
  let fleetRuns: FleetManager | undefined;
  // Fleet Manager's runs act by themselves (server-side passes): a jump stops at the next one, which
  // then runs at its instant.
  const jumping =
    options.compressIdleTime === true
      ? new CompressibleClock({
          start: simulatedStart,
          timeScale,
          underWay: (now) => sim?.hasOperationRunning(now) ?? false,
          nextScheduledAt: () => fleetRuns?.nextPassAt(),
          runDue: () => fleetRuns?.runDuePasses() ?? Promise.resolve(),
        })
      : undefined;
  const clock = jumping ?? new ScaledClock({ realOrigin: realNow, simulatedOrigin: simulatedStart, timeScale });
  sim = new SimulatedFleet(options.fleet, clock, options.fleetOptions);
  const faults = options.faults === undefined ? undefined : new FaultInjector(options.faults, options.seed ?? 1);
  const throttling = options.throttling ?? true;
  const throttle = throttling === false ? undefined : new SubscriptionThrottle(throttling === true ? {} : throttling);
  const log = new RequestLog(options.onRequest);

  let baseUrl = "";
  const lifecycle = new Lifecycle();
  const fleetManager = new FleetManager(options.fleet, armClusters({ sim, fleet: options.fleet, clock, lifecycle }), { clock, timeScale }, options.fleets);
  fleetRuns = fleetManager;
  const ctx: EmulatorContext = {
    sim,
    fleet: options.fleet,
    clock,
    timeScale,
    operations: new OperationRegistry(),
    lifecycle,
    fleetOperations: fleetManager,
    baseUrl: () => baseUrl,
    ...(options.subscriptionId === undefined ? {} : { subscriptionId: options.subscriptionId }),
    ...(options.resourceGroup === undefined ? {} : { resourceGroup: options.resourceGroup }),
  };
  const server = createArmServer(
    {
      ctx,
      routes: [...clusterRoutes, ...agentPoolRoutes, ...lifecycleRoutes, ...locationRoutes, ...fleetRoutes(fleetManager), ...updateStrategyRoutes(fleetManager), ...updateRunRoutes(fleetManager), ...gateRoutes(fleetManager), ...autoUpgradeRoutes(fleetManager)],
      log,
      ...(throttle ? { throttle } : {}),
      ...(faults ? { faults } : {}),
    },
    { key: certificate.privateKeyPem, cert: certificate.certificatePem },
  );
  if (jumping !== undefined) {
    // Requests in flight hold the clock still: it jumps only while the emulator is idle.
    server.on("request", (_req, res: ServerResponse) => {
      jumping.begin();
      res.once("close", () => jumping.end());
    });
  }
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    certificatePem: certificate.certificatePem,
    fleet: sim,
    fleetManager,
    clock,
    requests: log.entries,
    counters: log.counters,
    clearRequestLog: () => log.clear(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        fleetManager.close();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
