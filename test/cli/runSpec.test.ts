/** `fleet-update run`'s backend flags (`src/cli/runSpec.ts`). */
import { describe, expect, it } from "vitest";
import { backendFromFlags } from "../../src/cli/runSpec";
import { ValidationError } from "../../src/model/issues";

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

describe("--api-version (issue 21)", () => {
  const fleetId = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.ContainerService/fleets/f";

  it("with --backend azure-fleet sets the api-version; unset, the run speaks the default (2026-06-01)", () => {
    for (const version of ["2026-06-01", "2026-06-02-preview", "2025-04-01-preview"]) {
      expect(backendFromFlags({ backend: `azure-fleet:${fleetId}`, apiVersion: version }, "/tmp").azureFleet?.apiVersion).toBe(version);
    }
    expect(backendFromFlags({ backend: `azure-fleet:${fleetId}` }, "/tmp").azureFleet?.apiVersion).toBeUndefined();
  });

  it("is refused, naming the flag, on another backend or when Fleet's client does not speak it", () => {
    expect(issues({ backend: "azure", apiVersion: "2026-06-01" })).toEqual(["--api-version: applies to --backend azure-fleet:FLEET_ID only"]);
    expect(issues({ backend: "simulator:fleet.yaml", apiVersion: "2026-06-01" })).toEqual(["--api-version: applies to --backend azure-fleet:FLEET_ID only"]);
    for (const version of ["2025-03-01", "2026-06-01-preview", "latest", ""]) {
      expect(issues({ backend: `azure-fleet:${fleetId}`, apiVersion: version })).toEqual(["--api-version: must be 2026-06-01 (GA, the default), 2026-06-02-preview or 2025-04-01-preview (legacy)"]);
    }
  });
});
