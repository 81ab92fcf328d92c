/**
 * Child process of the provider figures (`bench/provider.ts`): `providerRun.js MEMBERS` runs a whole
 * UpdateRun through the run provider's `create` (as the Pulumi host does) against a simulated fleet
 * file in a scratch directory, at the highest time scale, and prints the size of what the run
 * outputs. Its own process because the provider writes a progress line per state change to stderr.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { create } from "../src/pulumi/runProvider";
import { reply } from "./child";
import { benchFleetFile, benchRunInputs } from "./runInputs";

export interface ProviderRunFigures {
  members: number;
  state: string;
  /** `JSON.stringify(outs.status)`, bytes. */
  statusBytes: number;
  /** Every output Pulumi stores besides the inputs (status, summary, snapshot, engine state...), bytes. */
  outputsBytes: number;
  wallMs: number;
}

async function main(): Promise<void> {
  const members = Number(process.argv[2]);
  if (!Number.isInteger(members) || members < 1) throw new Error("usage: providerRun.js MEMBERS");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-provider-"));
  try {
    const fleetFile = path.join(dir, "fleet.yaml");
    fs.writeFileSync(fleetFile, benchFleetFile(members));
    // Groups of 10 at once keep the real run short; the status has the same shape whatever the pace.
    const inputs = benchRunInputs(members, { simulator: { fleetFile, timeScale: 1_000_000 } }, "10");
    const began = performance.now();
    const { outs } = await create(inputs);
    const wallMs = performance.now() - began;
    const outputs = Object.fromEntries(Object.entries(outs).filter(([key]) => !(key in inputs)));
    const status = outs.status as { status: { state: string } };
    const figures: ProviderRunFigures = {
      members,
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
