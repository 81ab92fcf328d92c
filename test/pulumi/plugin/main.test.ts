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
