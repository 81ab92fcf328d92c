/** `fleet-update run`'s backend flags (`src/cli/runSpec.ts`). */
import { describe, expect, it } from "vitest";
import { backendFromFlags } from "../../src/cli/runSpec";
import { ValidationError } from "../../src/model/common";

function issues(flags: Parameters<typeof backendFromFlags>[0]): string[] {
  try {
    backendFromFlags(flags, "/tmp");
    return [];
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    return e.issues.map((i) => `${i.path}: ${i.message}`);
  }
}

describe("--poll-seconds", () => {
  it("with --backend azure sets how often a cluster being upgraded is read, from start to end", () => {
    expect(backendFromFlags({ backend: "azure", pollSeconds: "0.05" }, "/tmp").azure?.pollIntervalSeconds).toEqual({ initial: 0.05, steady: 0.05 });
    expect(backendFromFlags({ backend: "azure" }, "/tmp").azure?.pollIntervalSeconds).toBeUndefined();
  });

  it("with --backend azure-fleet sets the following rate", () => {
    const fleetId = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.ContainerService/fleets/f";
    expect(backendFromFlags({ backend: `azure-fleet:${fleetId}`, pollSeconds: "2" }, "/tmp").azureFleet?.pollIntervalSeconds).toBe(2);
  });

  it("is refused, naming the flag, on the simulator or when not a positive number", () => {
    expect(issues({ backend: "simulator:fleet.yaml", pollSeconds: "1" })).toEqual(["--poll-seconds: applies to --backend azure or azure-fleet:FLEET_ID only"]);
    expect(issues({ backend: "azure", pollSeconds: "0" })).toEqual(["--poll-seconds: must be a number of seconds greater than 0"]);
    expect(issues({ backend: "azure", pollSeconds: "soon" })).toEqual(["--poll-seconds: must be a number of seconds greater than 0"]);
  });
});
