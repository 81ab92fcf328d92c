/** A token given to the Azure backend appears nowhere in the result, the events or what was printed. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, it, vi } from "vitest";
import { parseScenario } from "../../../src/simulation/scenario";
import { simulateScenarioViaArm } from "../../../src/simulation/viaArmEmulator";

it("never leaks the bearer token into outputs, events, logs or errors", async () => {
  const token = "eyJ0eXAiOiJKV1QiLCJzZWNyZXQiOiJkby1ub3QtbGVhayJ9.c2VjcmV0.LEAK-CANARY-7f3a";
  let asked = 0;
  const credential = { getToken: async () => (asked++, { token, expiresOnTimestamp: Date.now() + 3_600_000 }) };
  const printed: string[] = [];
  const capture = (...args: unknown[]) => void printed.push(args.map(String).join(" "));
  const spies = [vi.spyOn(console, "log").mockImplementation(capture), vi.spyOn(console, "error").mockImplementation(capture), vi.spyOn(console, "warn").mockImplementation(capture)];
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation((chunk: unknown) => (printed.push(String(chunk)), true));
  try {
    // One member fails, so error paths are exercised too.
    const text = readFileSync(resolve(__dirname, "../../../examples/scenarios/02-staged-parallel.yaml"), "utf8").replace(
      "{name: us-1, group: prod-us, region: eastus, kubernetesVersion: 1.31.2,",
      "{name: us-1, group: prod-us, region: eastus, kubernetesVersion: 1.31.2, simulation: {fail: {code: UpgradeFailed, message: drain timed out}},",
    );
    const report = await simulateScenarioViaArm(parseScenario(text), { msPerSimulatedMinute: 8, credential });
    expect(asked).toBeGreaterThan(0);
    expect(report.result.status.status.state).toBe("Failed");
    const everything = JSON.stringify(report) + printed.join("\n");
    expect(everything).not.toContain(token);
    expect(everything).not.toContain("LEAK-CANARY");
  } finally {
    for (const spy of spies) spy.mockRestore();
    stderr.mockRestore();
  }
}, 60_000);
