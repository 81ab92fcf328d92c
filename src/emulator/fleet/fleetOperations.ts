/**
 * The long-running operations of update runs: `start`, `stop` and `skip` (POST, 202 with
 * `Azure-AsyncOperation` and `Location`). The SDK polls the `Azure-AsyncOperation` URL (the shared
 * `locations/{location}/operations/{id}`), then GETs the `Location` URL (`operationresults/{id}`) for
 * the final UpdateRun. A start or a skip is done as soon as the engine took it (the run itself goes on
 * server-side); a stop is done once the run is no longer `Stopping` (in-flight upgrades finished).
 * No `Retry-After`: the SDK polls at its own interval (`updateIntervalInMs`, default 2 s).
 */
import type { FleetApiFeatures } from "../../backends/azureFleet/wire/index";
import type { Clock } from "../../engine/clock";
import { isoInstant } from "../../model/instants";
import { API_VERSION } from "../core/context";
import { asyncOperationPath, operationResultPath } from "../core/operationUrls";
import type { ArmReply, ArmScope } from "../ports";
import type { FleetRecord, RunRecord } from "./fleetState";
import { runBody } from "./fleetResources";

export type FleetOperationKind = "start" | "stop" | "skip";

export interface FleetOperation {
  operationId: string;
  kind: FleetOperationKind;
  fleet: FleetRecord;
  run: RunRecord;
  scope: ArmScope;
  location: string;
  startAt: number;
  /** The api-version of the POST: the `Location` URL answers the run as that version shows it. */
  api: FleetApiFeatures;
  /** Set when it is seen done. */
  endAt?: number;
}

export class FleetOperationRegistry {
  private readonly byId = new Map<string, FleetOperation>();
  private counter = 0;

  add(op: Omit<FleetOperation, "operationId">): FleetOperation {
    const added: FleetOperation = { ...op, operationId: `fleet-${op.kind}-${op.run.name}-${++this.counter}` };
    this.byId.set(added.operationId.toLowerCase(), added);
    return added;
  }

  get(operationId: string): FleetOperation | undefined {
    return this.byId.get(operationId.toLowerCase());
  }
}

/** Whether the operation is over at `now` (recorded the first time it is seen so). */
export function isDone(op: FleetOperation, now: number): boolean {
  if (op.endAt !== undefined) return true;
  if (op.kind === "stop" && op.run.engine.state === "Stopping") return false;
  op.endAt = now;
  return true;
}

export function fleetLroHeaders(baseUrl: string, op: FleetOperation): Record<string, string> {
  return {
    "Azure-AsyncOperation": `${baseUrl}${asyncOperationPath(op)}?api-version=${API_VERSION}`,
    Location: `${baseUrl}${operationResultPath(op)}?api-version=${API_VERSION}`,
  };
}

/** The `Azure-AsyncOperation` URL: OperationStatusResult. */
export async function fleetOperationStatus(op: FleetOperation, clock: Clock): Promise<ArmReply> {
  await op.run.driver.catchUp();
  const now = clock.now();
  const done = isDone(op, now);
  return {
    status: 200,
    // As Fleet's operation status (test_fleet_hubless): name, status, startTime, endTime once over.
    body: {
      name: op.operationId,
      status: done ? "Succeeded" : "InProgress",
      startTime: isoInstant(op.startAt),
      ...(done ? { endTime: isoInstant(op.endAt as number) } : {}),
    },
  };
}

/** The `Location` URL: 202 while in progress, then 200 with the run as it is now. */
export async function fleetOperationResult(baseUrl: string, op: FleetOperation, clock: Clock): Promise<ArmReply> {
  await op.run.driver.catchUp();
  const now = clock.now();
  if (!isDone(op, now)) return { status: 202, headers: { Location: `${baseUrl}${operationResultPath(op)}?api-version=${API_VERSION}` } };
  return { status: 200, body: runBody(op.scope, op.fleet, op.run, op.api) };
}
