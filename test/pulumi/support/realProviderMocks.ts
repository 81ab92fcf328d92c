/**
 * Pulumi mocks that do what the engine would with our dynamic resources: each resource's inputs go
 * through its real provider's check and create (the compiled `dist/`), so a program test exercises
 * wiring, validation and the rollout itself.
 */
import path from "node:path";
import * as pulumi from "@pulumi/pulumi";

type Props = Record<string, unknown>;
interface Provider {
  check(olds: Props, news: Props): Promise<{ failures: Array<{ property: string; reason: string }> }>;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
}

export interface CreatedResource {
  name: string;
  inputs: Props;
  outs: Props;
}

const DIST = path.resolve(__dirname, "..", "..", "..", "dist", "pulumi");

/** Install the mocks for `project`; returns the list every created resource is appended to. */
export async function mockWithRealProviders(project: string): Promise<CreatedResource[]> {
  const created: CreatedResource[] = [];
  await pulumi.runtime.setMocks(
    {
      newResource: async (args) => {
        const provider = require(path.join(DIST, "runName" in args.inputs ? "runProvider" : "strategyProvider")) as Provider;
        const { failures } = await provider.check({}, args.inputs);
        if (failures.length > 0) throw new Error(`check failed: ${JSON.stringify(failures)}`);
        const { id, outs } = await provider.create(args.inputs);
        created.push({ name: args.name, inputs: args.inputs, outs });
        return { id, state: outs };
      },
      call: (args) => args.inputs,
    },
    project,
    "test",
    false,
  );
  return created;
}

/** The value an output resolves to. */
export function outputValue<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}
