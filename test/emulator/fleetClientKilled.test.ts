/**
 * A client process that dies mid-run (SIGKILL, no goodbye) does not stop a Fleet run: the run lives in
 * the emulator, which goes on driving it to the end.
 */
import { spawn } from "node:child_process";
import { afterEach, expect, test } from "vitest";
import type { ArmEmulator } from "../../src/emulator";
import { CANARY_THEN_PROD, FLEET, FULL_132, RESOURCE_GROUP, SUBSCRIPTION, fleetClient, runState, startFleetEmulator, waitForRun } from "./fleetHelpers";

let emulator: ArmEmulator;
afterEach(async () => {
  await emulator.close();
});

/** Creates and starts the run with the real SDK, then follows it with GETs until it is killed. */
const CLIENT = `
const { ContainerServiceFleetClient } = require("@azure/arm-containerservicefleet");
const credential = { getToken: async () => ({ token: "emulator", expiresOnTimestamp: Date.now() + 3600000 }) };
const client = new ContainerServiceFleetClient(credential, process.env.SUB, { endpoint: process.env.URL, tlsOptions: { ca: process.env.CA } });
(async () => {
  const body = JSON.parse(process.env.RUN);
  await client.updateRuns.createOrUpdate(process.env.RG, process.env.FLEET, "killed", body).pollUntilDone();
  await client.updateRuns.start(process.env.RG, process.env.FLEET, "killed", { updateIntervalInMs: 10 }).pollUntilDone();
  process.stdout.write("started\\n");
  for (;;) {
    const run = await client.updateRuns.get(process.env.RG, process.env.FLEET, "killed");
    process.stdout.write(run.properties.status.status.state + "\\n");
    await new Promise((r) => setTimeout(r, 10));
  }
})().catch((e) => { process.stderr.write(String(e) + "\\n"); process.exit(3); });
`;

test("the client is SIGKILLed while the canary upgrades; the run still completes", async () => {
  // 50 ms per simulated minute: the canary's upgrade takes 0.5 s, the whole run about 2.5 s.
  emulator = await startFleetEmulator({ msPerSimulatedMinute: 50 });
  const child = spawn(process.execPath, ["-e", CLIENT], {
    env: { ...process.env, URL: emulator.url, CA: emulator.certificatePem, SUB: SUBSCRIPTION, RG: RESOURCE_GROUP, FLEET, RUN: JSON.stringify({ properties: { strategy: CANARY_THEN_PROD, managedClusterUpdate: FULL_132 } }) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on("exit", (code, signal) => resolve(signal ?? code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      if (d.toString().includes("started")) resolve();
    });
    void exited.then((how) => reject(new Error(`client exited early (${String(how)}): ${stderr}`)));
  });
  child.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
  expect(emulator.fleet.operationLog().map((o) => [o.member, o.result])).toEqual([["canary-1", undefined]]);

  const done = await waitForRun(fleetClient(emulator), "killed", (r) => runState(r) === "Completed");
  expect(done.properties?.status?.stages?.map((s) => s.status?.state)).toEqual(["Completed", "Completed"]);
  expect(emulator.fleet.operationLog().map((o) => [o.member, o.result]).sort()).toEqual(["canary-1", "dev-1", "prod-1", "prod-2", "prod-3"].map((m) => [m, "Succeeded"]));
});
