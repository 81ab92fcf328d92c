/**
 * Provider figures: the size of the serialized `__provider` Pulumi stores with every resource; how
 * long the run provider's Check takes for a 1,000-member run (as the provider host runs it: on the
 * simulator it also plans the run and prints the plan, on Azure it only validates); and the size of a
 * completed run's outputs per member. Check and the run are measured in a child process
 * (`bench/providerRun.ts`), which keeps the provider's stderr out of the table.
 */
import * as pulumi from "@pulumi/pulumi";
import { updateRunProvider, updateStrategyProvider } from "../src/pulumi/program/providers";
import { runChild } from "./child";
import type { ProviderRunFigures } from "./providerRun";
import { round } from "./round";

const CHECK_MEMBERS = 1000;
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
  /** Mean Check on the simulator backend (validation and the plan), after one to warm up. */
  simulatorCheckMs: number;
  /** Mean Check on the Azure backend (validation only), after one to warm up. */
  azureCheckMs: number;
  runMembers: number;
  /** The completed run's `status` output, JSON bytes ÷ members. */
  statusBytesPerMember: number;
  /** Every output of the completed run (status, summary, plan, engine state...), JSON bytes ÷ members. */
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

export async function providerFigures(): Promise<ProviderFigures> {
  const run = await runChild<ProviderRunFigures>("providerRun", [String(CHECK_MEMBERS), String(RUN_MEMBERS)]);
  return {
    updateRunProviderBytes: await serializedSize(updateRunProvider),
    updateStrategyProviderBytes: await serializedSize(updateStrategyProvider),
    checkMembers: run.checkMembers,
    simulatorCheckMs: round(run.simulatorCheckMs, 1),
    azureCheckMs: round(run.azureCheckMs, 1),
    runMembers: run.runMembers,
    statusBytesPerMember: round(run.statusBytes / run.runMembers, 0),
    outputsBytesPerMember: round(run.outputsBytes / run.runMembers, 0),
    runState: run.state,
    runWallSeconds: round(run.wallMs / 1000, 1),
  };
}
