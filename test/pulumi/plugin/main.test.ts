/** Issue 24: the plugin finds the engine's address among the flags the engine may put before it. */
import { describe, expect, it } from "vitest";
import { engineAddressOf } from "../../../src/pulumi/plugin/main";

describe("the plugin's arguments", () => {
  it("skips --logtostderr, -v=N and --tracing with its value", () => {
    expect(engineAddressOf(["--logtostderr", "-v=9", "--tracing", "127.0.0.1:9999", "127.0.0.1:4321"])).toBe("127.0.0.1:4321");
    expect(engineAddressOf(["127.0.0.1:4321"])).toBe("127.0.0.1:4321");
    expect(engineAddressOf(["--logtostderr"])).toBeUndefined();
  });
});

describe("an import's ReadRequest (the id, no properties)", () => {
  it("reaches the provider's read as empty properties instead of failing in the SDK's server", async () => {
    const { ReadRequest } = await import("@pulumi/pulumi/proto/provider_pb");
    const request = new ReadRequest();
    request.setId("fleet.yaml.state.runs/adopted.json");
    expect(request.getProperties()).toBeUndefined();
    const { readRequestsWithoutPropertiesAreEmpty } = await import("../../../src/pulumi/plugin/importRequest");
    readRequestsWithoutPropertiesAreEmpty();
    expect(request.getProperties()!.toJavaScript()).toEqual({});
  });
});
