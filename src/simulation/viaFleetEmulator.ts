/**
 * Issue 12: `fleet-update simulate FILE --via fleet-emulator`: the scenario's run executed by Fleet
 * Manager — the ARM emulator's, which runs it server-side with our engine on its compressed clock —
 * and driven through the `azureFleet` backend's client (`@azure/arm-containerservicefleet` over HTTPS):
 * the strategy PUT as a fleet update strategy when the scenario references one (`updateStrategyId`),
 * else inline; the run created and started at the scenario's start; each user action sent as Fleet's
 * skip, stop or start at its instant on the emulator's clock, an `approve` as a PATCH of each gate it
 * names once that gate is Pending (FM12); the run followed with GETs. The result has `--via
 * arm-emulator`'s shape. Scenario features Fleet lacks are refused with their field path.
 */
import type { TokenCredential } from "@azure/core-auth";
import { emulatorCredential } from "../backends/azure/credentials";
import { startArmEmulator, type ArmEmulatorOptions } from "../emulator";
import { FleetClient, FleetRequestError } from "../backends/azureFleet/fleetClient";
import { appliedImagesOf, failedMembersOf, fromFleetStatus } from "../backends/azureFleet/fromFleet";
import { GateApprover } from "../backends/azureFleet/gateResources";
import { checkMembersAgainstFleet } from "../backends/azureFleet/members";
import { statusChanges } from "../backends/azureFleet/statusEvents";
import { toFleetManagedClusterUpdate, toFleetStrategy } from "../backends/azureFleet/toFleet";
import { unsupportedInStrategy } from "../backends/azureFleet/unsupported";
import { summarize } from "../engine/summary";
import { ValidationError, isoInstant, type FieldIssue } from "../model/common";
import { resolveScenarioStrategy, scenarioHorizon, type Scenario } from "../model/scenario";
import { gateIdsFor } from "../model/strategy";
import type { RunEvent, UpdateRunStatus, UpdateState } from "../model/status";
import type { WireRunStatus } from "../backends/azureFleet/wire";
import { waitsForApproval } from "../drivers/waiting";
import { SCENARIO_RUN_NAME } from "./simulateScenario";
import { EMULATOR_RESOURCE_GROUP, EMULATOR_SUBSCRIPTION, type ArmSimulationReport } from "./viaArmEmulator";

/** The emulator serves one fleet, `fleet`, whose members are the scenario's clusters in their groups. */
export const EMULATOR_FLEET_ID = `/subscriptions/${EMULATOR_SUBSCRIPTION}/resourceGroups/${EMULATOR_RESOURCE_GROUP}/providers/Microsoft.ContainerService/fleets/fleet`;

export interface ViaFleetOptions {
  /** Real milliseconds per simulated minute (default 10). */
  msPerSimulatedMinute?: number;
  /**
   * Read the run every this many real milliseconds, as a real client does (its requests counted by
   * the bench). Default: read it when it can have changed — at its next pass server-side, or at the
   * next user action — which keeps ARM's real-time throttling from delaying a user action.
   */
  pollMs?: number;
  faults?: ArmEmulatorOptions["faults"];
  throttling?: ArmEmulatorOptions["throttling"];
  seed?: number;
  credential?: TokenCredential;
  onEvent?: (event: RunEvent) => void;
}

export interface FleetSimulationReport extends ArmSimulationReport {
  /** Requests the client sent (each SDK retry included), by method; `throttled`: 429s it was answered. */
  clientRequests: FleetClient["counts"];
}

const ENDED: ReadonlySet<UpdateState> = new Set(["Completed", "Failed", "Skipped"]);

/** A scenario's features Fleet Manager lacks: refused by field path, as the run's Check refuses them. */
export function fleetScenarioProblems(scenario: Scenario): FieldIssue[] {
  const issues = scenario.updateStrategyId !== undefined && scenario.strategy === undefined
    ? unsupportedInStrategy(resolveScenarioStrategy(scenario), `strategies.${scenario.updateStrategyId}.`)
    : unsupportedInStrategy(scenario.strategy, "strategy.");
  scenario.members.forEach((m, i) => {
    const simulation = m.simulation as { healthy?: boolean } | undefined;
    if ((m as { healthCheck?: unknown }).healthCheck !== undefined) issues.push({ path: `members[${i}].healthCheck`, message: "Fleet Manager cannot wait for a probe made from the client" });
    if (simulation?.healthy === false) issues.push({ path: `members[${i}].simulation.healthy`, message: "our health check is not run by Fleet Manager: an unhealthy cluster is not detected" });
  });
  return issues;
}

export async function simulateScenarioViaFleet(scenario: Scenario, options: ViaFleetOptions = {}): Promise<FleetSimulationReport> {
  const problems = fleetScenarioProblems(scenario);
  if (problems.length > 0) throw new ValidationError(problems);
  const msPerMinute = options.msPerSimulatedMinute ?? 10;
  const emulator = await startArmEmulator({
    fleet: { regions: scenario.regions, members: scenario.members },
    startAt: scenario.start,
    msPerSimulatedMinute: msPerMinute,
    compressIdleTime: true,
    subscriptionId: EMULATOR_SUBSCRIPTION,
    resourceGroup: EMULATOR_RESOURCE_GROUP,
    ...(options.faults === undefined ? {} : { faults: options.faults }),
    ...(options.throttling === undefined ? {} : { throttling: options.throttling }),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
  });
  try {
    const pollMs = options.pollMs ?? Math.max(1, msPerMinute / 4);
    const pollsLikeAClient = options.pollMs !== undefined;
    const client = new FleetClient({
      fleetId: EMULATOR_FLEET_ID,
      credential: options.credential ?? emulatorCredential,
      endpoint: emulator.url,
      trustedCaPem: emulator.certificatePem,
      lroIntervalMs: pollMs,
      retryDelayInMs: 5,
      maxRetryDelayInMs: 50,
    });
    const name = SCENARIO_RUN_NAME;
    const strategy = resolveScenarioStrategy(scenario);
    const checked = checkMembersAgainstFleet([], await client.listMembers(), client.fleet.fleetName, strategy);
    if (checked.issues.length > 0) throw new ValidationError(checked.issues);

    let definition;
    if (scenario.updateStrategyId !== undefined && scenario.strategy === undefined && strategy !== undefined) {
      await client.putStrategy(scenario.updateStrategyId, toFleetStrategy(strategy)).catch(async (e: unknown) => {
        if (!(e instanceof FleetRequestError && e.statusCode === 412 && (await client.getStrategy(scenario.updateStrategyId as string)) !== undefined)) throw e;
      });
      definition = { updateStrategyId: client.strategyId(scenario.updateStrategyId), managedClusterUpdate: toFleetManagedClusterUpdate(scenario.managedClusterUpdate) };
    } else {
      definition = { ...(strategy === undefined ? {} : { strategy: toFleetStrategy(strategy) }), managedClusterUpdate: toFleetManagedClusterUpdate(scenario.managedClusterUpdate) };
    }
    const events: RunEvent[] = [];
    let seen: UpdateRunStatus | undefined;
    const observe = (status: UpdateRunStatus): UpdateRunStatus => {
      for (const e of statusChanges(name, seen, status, emulator.clock.now())) {
        events.push(e);
        options.onEvent?.(e);
      }
      seen = status;
      return status;
    };
    try {
      await client.createRun(name, definition);
    } catch (e) {
      // A create applied whose answer was lost, then retried by the SDK: If-None-Match refuses the
      // second; the run is there.
      if (!(e instanceof FleetRequestError && e.statusCode === 412 && (await client.getRun(name)) !== undefined)) throw e;
    }
    const refusedActions: ArmSimulationReport["refusedActions"] = [];
    const actions = [...scenario.actions].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    // Skips at the run's start come before its first step (in process they apply before the engine
    // looks at that instant): Fleet takes them on the run not started yet.
    const startAt = Date.parse(scenario.start);
    while (actions[0]?.skip !== undefined && Date.parse(actions[0].at) <= startAt) {
      const action = actions.shift() as (typeof actions)[number];
      try {
        await client.skip(name, (action.skip ?? []).map((t) => ({ type: t.type, name: t.name })));
      } catch (e) {
        if (!(e instanceof FleetRequestError) || e.statusCode === undefined || e.statusCode >= 500) throw e;
        refusedActions.push({ at: isoInstant(Date.parse(action.at)), message: e.message });
      }
    }
    const read = async (): Promise<UpdateRunStatus> => {
      const run = await client.getRun(name);
      if (run === undefined) throw new Error(`update run '${name}' vanished from the emulator's fleet`);
      wire = run.properties?.status;
      return observe(fromFleetStatus(wire));
    };
    let wire: WireRunStatus | undefined;
    await client.startRun(name);
    let status = await read();
    // Approvals given so far (scenario `approve` actions), sent as their gates become Pending.
    const approvals: string[] = [];
    const approver = new GateApprover(client);

    const horizon = scenarioHorizon(scenario);
    for (;;) {
      const now = emulator.clock.now();
      while (actions.length > 0 && Date.parse((actions[0] as (typeof actions)[number]).at) <= now) {
        const action = actions.shift() as (typeof actions)[number];
        if (action.approve !== undefined) {
          approvals.push(...action.approve.flatMap((a) => gateIdsFor(strategy, a)));
          continue;
        }
        try {
          if (action.skip !== undefined) await client.skip(name, action.skip.map((t) => ({ type: t.type, name: t.name })));
          else if (action.stop !== undefined) await client.stopRun(name);
          else await client.startRun(name);
          status = await read();
        } catch (e) {
          if (!(e instanceof FleetRequestError) || e.statusCode === undefined || e.statusCode >= 500) throw e;
          refusedActions.push({ at: isoInstant(Date.parse(action.at)), message: e.message });
        }
      }
      if (await approver.approveDue(approvals, wire)) {
        status = await read();
        continue;
      }
      // Idle too: a gate waits for an approval no action gives, and nothing is in flight (as in process).
      const idle = ENDED.has(status.status.state) || status.status.state === "Stopped" || waitsForApproval(status);
      if (now >= horizon || (idle && actions.length === 0)) break;
      // Followed on the emulator's clock, read when the run can have changed: at its next pass
      // server-side, or at the next user action (the simulation may ask the emulator when that pass
      // is; no real client could). While no upgrade runs the clock jumps there (`CompressibleClock`);
      // while one runs, time runs and the client sleeps until then. Reading every `pollMs` instead
      // (what `pollMs` asks for, as a real client) meets ARM's real-time throttling while upgrades run,
      // and a 429's real-time Retry-After lets simulated hours pass before a user action is sent.
      const nextAction = actions[0] === undefined ? Infinity : Date.parse(actions[0].at);
      const poll = now + Math.max(1, Math.round((pollMs * 60_000) / msPerMinute));
      const nextPass = pollsLikeAClient && emulator.fleet.hasOperationRunning(now) ? undefined : emulator.fleetManager.nextPassAt();
      await emulator.clock.sleepUntil(Math.min(nextAction, horizon, pollsLikeAClient ? poll : Infinity, nextPass ?? poll));
      status = await read();
    }
    const { GET, PUT, POST, throttled, faults, injected } = emulator.counters;
    return {
      result: { status, summary: summarize(status), clusters: emulator.fleet.snapshot().clusters, events },
      excludedMembers: checked.excluded,
      refusedActions,
      failedMembers: failedMembersOf(status),
      appliedNodeImageVersions: appliedImagesOf(status, scenario.managedClusterUpdate),
      requests: { GET, PUT, POST, throttled, faults, injected: { ...injected } },
      fleetState: emulator.fleet.toState(),
      clientRequests: { ...client.counts },
    };
  } finally {
    await emulator.close();
  }
}
