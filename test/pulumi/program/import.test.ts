/**
 * Issue 11: `pulumi import` (and the `import` resource option) cannot adopt an `UpdateRun` or an
 * `UpdateStrategy`: the engine's import step calls Read with the id and no properties
 * (pkg/resource/deploy/step.go, ImportStep), and a dynamic resource's provider lives in its stored
 * `__provider` property. What the user sees is pinned here; docs/behaviour.md says what to do instead.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpdateRun, UpdateStrategy } from "../../../src/pulumi";
import { captureDynamicInputs } from "../support/captureInputs";
import { ProviderCallError, startProviderHost, type ProviderHost } from "../support/providerHost";

let host: ProviderHost;
let runProvider = "";
let strategyProvider = "";

beforeAll(async () => {
  const captured = await captureDynamicInputs(() => {
    new UpdateStrategy("rollout", { stages: [{ name: "a", groups: [{ name: "g" }] }] });
    new UpdateRun("run", { backend: { simulator: { fleetFile: "fleet.yaml" } }, members: [{ name: "eu-1" }], managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } } });
  });
  strategyProvider = captured.find((c) => c.name === "rollout")!.provider;
  runProvider = captured.find((c) => c.name === "run")!.provider;
  host = await startProviderHost();
  await host.configure();
}, 60_000);

afterAll(async () => {
  await host?.stop();
});

describe("import", () => {
  it("as the engine sends it (no properties): the host fails before any code of ours, with require-from-string's message", async () => {
    const error = (await host.read("k8s-1-32-0a1b2c3d", "run", {}).catch((e: unknown) => e)) as ProviderCallError;
    expect(error).toBeInstanceOf(ProviderCallError);
    expect(error.message).toBe("code must be a string, not undefined");
  });

  it("a Read that reaches our providers with nothing to read fails saying it cannot be imported and what to do", async () => {
    const run = (await host.read("k8s-1-32-0a1b2c3d", "run", { __provider: runProvider }).catch((e: unknown) => e)) as ProviderCallError;
    expect(run.message).toMatch(/^an UpdateRun cannot be imported .*Declare the run in the program and `pulumi up`/);
    const strategy = (await host.read("strategy-0a1b", "rollout", { __provider: strategyProvider }).catch((e: unknown) => e)) as ProviderCallError;
    expect(strategy.message).toMatch(/^an UpdateStrategy cannot be imported/);
  });
});
