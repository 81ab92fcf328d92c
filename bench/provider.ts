/**
 * Provider figures (`npm run bench` prints them after the engine's): the size of the serialized
 * `__provider` Pulumi stores with every resource, and how long Check takes for a 1,000-member run
 * (in process, as the provider host runs it).
 */
import * as pulumi from "@pulumi/pulumi";
import { updateRunProvider, updateStrategyProvider } from "../src/pulumi/providers";
import { check } from "../src/pulumi/runProvider";

async function serializedSize(provider: pulumi.dynamic.ResourceProvider): Promise<number> {
  const serialized = await pulumi.runtime.serializeFunction(() => provider, { isFactoryFunction: true, allowSecrets: false });
  return Buffer.byteLength(serialized.text);
}

function runInputs(members: number): Record<string, unknown> {
  const groups = 20;
  return {
    runName: "bench",
    backend: { simulator: { fleetFile: "fleet.yaml" } },
    members: Array.from({ length: members }, (_, i) => ({ name: `member-${i}`, group: `group-${i % groups}` })),
    strategy: {
      stages: Array.from({ length: 4 }, (_, s) => ({
        name: `stage-${s}`,
        groups: Array.from({ length: groups / 4 }, (_, g) => ({ name: `group-${s * (groups / 4) + g}` })),
        afterStageWaitInSeconds: 600,
      })),
    },
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Consistent" } },
  };
}

export async function providerFigures(): Promise<{ updateRunProviderBytes: number; updateStrategyProviderBytes: number; check1000MembersMs: number }> {
  const inputs = runInputs(1000);
  await check({}, inputs); // warm up
  const rounds = 20;
  const began = performance.now();
  for (let i = 0; i < rounds; i++) {
    const { failures } = await check({}, inputs);
    if (failures.length > 0) throw new Error(`bench inputs invalid: ${JSON.stringify(failures)}`);
  }
  return {
    updateRunProviderBytes: await serializedSize(updateRunProvider),
    updateStrategyProviderBytes: await serializedSize(updateStrategyProvider),
    check1000MembersMs: Math.round(((performance.now() - began) / rounds) * 100) / 100,
  };
}
