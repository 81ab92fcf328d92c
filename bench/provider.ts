/**
 * Provider figures: the size of the serialized `__provider` Pulumi stores with every resource; how
 * long Check takes for a 1,000-member run (in process, as the provider host runs it); and the size of
 * a completed run's outputs per member (`bench/providerRun.ts`, in a child process).
 */
import * as pulumi from "@pulumi/pulumi";
import { updateRunProvider, updateStrategyProvider } from "../src/pulumi/providers";
import { check } from "../src/pulumi/runProvider";
import { runChild } from "./child";
import type { ProviderRunFigures } from "./providerRun";
import { round } from "./round";
import { benchRunInputs } from "./runInputs";

const CHECK_MEMBERS = 1000;
const CHECK_ROUNDS = 20;
/**
 * Members of the run created through the provider. Not 1,000: on the simulator backend the provider
 * rewrites the whole fleet's state file after every change, so its time grows with the square of the
 * fleet (≈ 30 s for 1,000 members on 2 idle cores). Per member the status is about the same size
 * either way (171 bytes at 1,000 members, 176 at 500: the stages and groups are shared by fewer).
 */
const RUN_MEMBERS = 500;

export interface ProviderFigures {
  updateRunProviderBytes: number;
  updateStrategyProviderBytes: number;
  checkMembers: number;
  /** Mean of 20 Checks after one to warm up. */
  checkMs: number;
  runMembers: number;
  /** The completed run's `status` output, JSON bytes ÷ members. */
  statusBytesPerMember: number;
  /** Every output of the completed run (status, summary, snapshot, engine state...), JSON bytes ÷ members. */
  outputsBytesPerMember: number;
  runState: string;
  /**
   * Real time of that run's `create` on the simulator backend (time scale 1,000,000, so the simulated
   * upgrades themselves take milliseconds): the provider's own overhead.
   */
  runWallSeconds: number;
}

async function serializedSize(provider: pulumi.dynamic.ResourceProvider): Promise<number> {
  const serialized = await pulumi.runtime.serializeFunction(() => provider, { isFactoryFunction: true, allowSecrets: false });
  return Buffer.byteLength(serialized.text);
}

async function checkMs(): Promise<number> {
  // Check reads no file: the fleet file only has to be named.
  const inputs = benchRunInputs(CHECK_MEMBERS, { simulator: { fleetFile: "fleet.yaml" } });
  await check({}, inputs);
  const began = performance.now();
  for (let i = 0; i < CHECK_ROUNDS; i++) {
    const { failures } = await check({}, inputs);
    if (failures.length > 0) throw new Error(`bench inputs invalid: ${JSON.stringify(failures)}`);
  }
  return (performance.now() - began) / CHECK_ROUNDS;
}

export async function providerFigures(): Promise<ProviderFigures> {
  const checked = await checkMs();
  const run = await runChild<ProviderRunFigures>("providerRun", [String(RUN_MEMBERS)]);
  return {
    updateRunProviderBytes: await serializedSize(updateRunProvider),
    updateStrategyProviderBytes: await serializedSize(updateStrategyProvider),
    checkMembers: CHECK_MEMBERS,
    checkMs: round(checked, 1),
    runMembers: run.members,
    statusBytesPerMember: round(run.statusBytes / run.members, 0),
    outputsBytesPerMember: round(run.outputsBytes / run.members, 0),
    runState: run.state,
    runWallSeconds: round(run.wallMs / 1000, 1),
  };
}
