/**
 * Child process of the provider figures (`bench/provider.ts`): `providerRun.js CHECK_MEMBERS
 * RUN_MEMBERS` measures the run provider's Check of a CHECK_MEMBERS-member run on both backends, then
 * creates a whole RUN_MEMBERS-member run through its `create` (as the Pulumi host does) against a
 * simulated fleet file in a scratch directory, at the highest time scale, and prints the figures as
 * JSON. Its own process because the provider writes to stderr: the plan at every Check on the
 * simulator, a progress line per state change during the run.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { check, create } from "../src/pulumi/provider/runProvider";
import { reply } from "./child";
import { benchFleetFile, benchRunInputs } from "./runInputs";

export interface ProviderRunFigures {
  checkMembers: number;
  /** Mean Check on the simulator backend: validation, then the plan a preview prints (ms). */
  simulatorCheckMs: number;
  /** Mean Check on the Azure backend: validation only (the plan is not computed for Azure) (ms). */
  azureCheckMs: number;
  runMembers: number;
  state: string;
  /** `JSON.stringify(outs.status)`, bytes. */
  statusBytes: number;
  /** Every output Pulumi stores besides the inputs (status, summary, plan, engine state...), bytes. */
  outputsBytes: number;
  wallMs: number;
}

/** Mean time of `rounds` Checks after one to warm up; the inputs must be valid. */
async function meanCheckMs(inputs: Record<string, unknown>, rounds: number): Promise<number> {
  await check({}, inputs);
  const began = performance.now();
  for (let i = 0; i < rounds; i++) {
    const { failures } = await check({}, inputs);
    if (failures.length > 0) throw new Error(`bench inputs invalid: ${JSON.stringify(failures.slice(0, 5))}`);
  }
  return (performance.now() - began) / rounds;
}

async function main(): Promise<void> {
  const [checkMembers, runMembers] = process.argv.slice(2).map(Number);
  if (!Number.isInteger(checkMembers) || !Number.isInteger(runMembers)) throw new Error("usage: providerRun.js CHECK_MEMBERS RUN_MEMBERS");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-provider-"));
  try {
    const checkFleet = path.join(dir, "check-fleet.yaml");
    fs.writeFileSync(checkFleet, benchFleetFile(checkMembers as number));
    const simulatorCheckMs = await meanCheckMs(benchRunInputs(checkMembers as number, { simulator: { fleetFile: checkFleet } }), 5);
    const azureCheckMs = await meanCheckMs(benchRunInputs(checkMembers as number, { azure: { endpoint: "https://management.azure.com" } }, { clusterIds: true }), 20);

    const runFleet = path.join(dir, "run-fleet.yaml");
    fs.writeFileSync(runFleet, benchFleetFile(runMembers as number));
    // Groups of 10 at once keep the real run short; the status has the same shape whatever the pace.
    const inputs = benchRunInputs(runMembers as number, { simulator: { fleetFile: runFleet, timeScale: 1_000_000 } }, { groupMaxConcurrency: "10" });
    const began = performance.now();
    const { outs } = await create(inputs);
    const wallMs = performance.now() - began;
    const outputs = Object.fromEntries(Object.entries(outs).filter(([key]) => !(key in inputs)));
    const status = outs.status as { status: { state: string } };
    const figures: ProviderRunFigures = {
      checkMembers: checkMembers as number,
      simulatorCheckMs,
      azureCheckMs,
      runMembers: runMembers as number,
      state: status.status.state,
      statusBytes: Buffer.byteLength(JSON.stringify(outs.status)),
      outputsBytes: Buffer.byteLength(JSON.stringify(outputs)),
      wallMs,
    };
    reply(figures);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
