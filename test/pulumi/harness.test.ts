/**
 * Self-tests of the dynamic-provider harness, using a throwaway dynamic
 * resource whose provider methods use nothing but their arguments and globals
 * (so its serialized form needs no module imports).
 */
import { mkdtemp, rm } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";

import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { captureDynamicInputs, type CapturedDynamicResource } from "./support/captureInputs";
import {
  DYNAMIC_RESOURCE_TYPE,
  PROVIDER_KEY,
  ProviderCallError,
  startProviderHost,
  type ProviderHost,
} from "./support/providerHost";

interface ToyInputs {
  n: number;
  label?: string;
  failUpdate?: boolean;
  sleepMs?: number;
}

const toyProvider: pulumi.dynamic.ResourceProvider<ToyInputs> = {
  async check(_olds, news) {
    const failures = news.n < 0 ? [{ property: "n", reason: "n must be >= 0" }] : [];
    return { inputs: { ...news, label: news.label ?? "default" }, failures };
  },
  async diff(_id, olds, news) {
    const replaces = olds.label !== news.label ? ["label"] : [];
    return { changes: olds.n !== news.n || replaces.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 };
  },
  async create(inputs) {
    if (inputs.sleepMs) await new Promise((resolve) => setTimeout(resolve, inputs.sleepMs));
    console.log(`toy: creating n=${inputs.n}`);
    return { id: "x-" + inputs.n, outs: { ...inputs, doubled: inputs.n * 2 } };
  },
  async update(id, _olds, news) {
    if (news.failUpdate) {
      const err = new Error(`update of ${id} half-applied`) as Error & Record<string, unknown>;
      err["id"] = id;
      err["properties"] = { n: news.n, state: "degraded" };
      err["reasons"] = ["health check failed", "rolled back 1 of 2"];
      throw err;
    }
    return { outs: { ...news, doubled: news.n * 2 } };
  },
  async read(id, props) {
    return { id, props: { ...props, refreshed: true }, inputs: { n: props.n, label: props.label } };
  },
  async delete(id) {
    if (id === "x-undeletable") throw new Error("cannot delete x-undeletable");
  },
};

class Toy extends pulumi.dynamic.Resource {
  constructor(name: string, args: ToyInputs) {
    super(toyProvider, name, { ...args }, {});
  }
}

/** Logs through `pulumi.log`, loading @pulumi/pulumi with a plain require (resolved from the host's cwd). */
class LoggingToy extends pulumi.dynamic.Resource {
  constructor(name: string, args: { n: number }) {
    super(
      {
        async create(inputs: { n: number }) {
          const p: typeof pulumi = require("@pulumi/pulumi");
          await p.log.info(`progress: step ${inputs.n}`);
          await p.log.warn("careful");
          return { id: "logged" };
        },
      },
      name,
      { ...args },
      {},
    );
  }
}

let captured: CapturedDynamicResource[];
let host: ProviderHost;
let toy: CapturedDynamicResource;
const withProvider = (props: Record<string, unknown>) => ({ ...props, [PROVIDER_KEY]: toy.provider });

beforeAll(async () => {
  captured = await captureDynamicInputs(() => {
    new Toy("a", { n: 2 });
    new Toy("b", { n: 3, label: "bee" });
  });
  toy = captured[0]!;
  host = await startProviderHost();
  await host.configure();
}, 60_000);

afterAll(async () => {
  await host?.stop();
});

describe("captureDynamicInputs", () => {
  it("returns every dynamic resource with its inputs and serialized provider", () => {
    expect(captured.map((c) => [c.name, c.type])).toEqual([
      ["a", DYNAMIC_RESOURCE_TYPE],
      ["b", DYNAMIC_RESOURCE_TYPE],
    ]);
    expect(captured[1]!.inputs).toMatchObject({ n: 3, label: "bee" });
    expect(typeof toy.inputs[PROVIDER_KEY]).toBe("string");
    expect(toy.provider).toContain("exports.handler");
  });
});

describe("dynamic provider host", () => {
  it("reports what the engine would see from configure", async () => {
    expect(await host.configure()).toEqual({
      acceptSecrets: false,
      supportsPreview: false,
      acceptResources: false,
      acceptOutputs: false,
    });
  });

  it("check passes inputs through (keeping __provider) and reports failures by property path", async () => {
    const ok = await host.check("a", {}, toy.inputs);
    expect(ok.failures).toEqual([]);
    expect(ok.inputs).toMatchObject({ n: 2, label: "default", [PROVIDER_KEY]: toy.provider });

    const bad = await host.check("a", {}, withProvider({ n: -1 }));
    expect(bad.failures).toEqual([{ property: "n", reason: "n must be >= 0" }]);
  });

  it("create returns id and outputs; console output shows up in logs", async () => {
    const created = await host.create("a", toy.inputs);
    expect(created.id).toBe("x-2");
    expect(created.properties).toMatchObject({ n: 2, doubled: 4, [PROVIDER_KEY]: toy.provider });
    const line = await host.waitForLog("toy: creating n=2");
    expect(line).toMatchObject({ source: "stdout", severity: "info" });
  });

  it("diff maps changes, replaces and deleteBeforeReplace", async () => {
    const olds = withProvider({ n: 2, label: "default" });
    expect(await host.diff("x-2", "a", olds, olds)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
    expect(await host.diff("x-2", "a", olds, withProvider({ n: 5, label: "default" }))).toEqual({
      changes: "some",
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect(await host.diff("x-2", "a", olds, withProvider({ n: 2, label: "new" }))).toEqual({
      changes: "some",
      replaces: ["label"],
      deleteBeforeReplace: true,
    });
  });

  it("update returns outputs", async () => {
    const updated = await host.update("x-2", "a", withProvider({ n: 2 }), withProvider({ n: 7 }));
    expect(updated.properties).toMatchObject({ n: 7, doubled: 14, [PROVIDER_KEY]: toy.provider });
  });

  it("decodes an update's ErrorResourceInitFailed detail into initFailed", async () => {
    const err = await host
      .update("x-2", "a", withProvider({ n: 2 }), withProvider({ n: 9, failUpdate: true }))
      .then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderCallError);
    const callError = err as ProviderCallError;
    expect(callError.message).toBe("update of x-2 half-applied");
    expect(callError.method).toBe("update");
    expect(callError.status).toBe("UNKNOWN");
    expect(callError.initFailed).toEqual({
      id: "x-2",
      properties: { n: 9, state: "degraded" },
      reasons: ["health check failed", "rolled back 1 of 2"],
    });
  });

  it("read returns refreshed properties and inputs", async () => {
    const read = await host.read("x-2", "a", withProvider({ n: 2, label: "default", doubled: 4 }));
    expect(read.id).toBe("x-2");
    expect(read.properties).toMatchObject({ n: 2, doubled: 4, refreshed: true, [PROVIDER_KEY]: toy.provider });
    expect(read.inputs).toEqual({ n: 2, label: "default", [PROVIDER_KEY]: toy.provider });
  });

  it("delete succeeds, and a delete error is a ProviderCallError without initFailed", async () => {
    await expect(host.delete("x-2", "a", withProvider({ n: 2 }))).resolves.toBeUndefined();
    const err = await host.delete("x-undeletable", "a", withProvider({ n: 2 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderCallError);
    expect((err as ProviderCallError).message).toBe("cannot delete x-undeletable");
    expect((err as ProviderCallError).initFailed).toBeUndefined();
  });

  it("a call past its deadline fails with DEADLINE_EXCEEDED", async () => {
    const err = await host.create("slow", withProvider({ n: 1, sleepMs: 5_000 }), { deadlineMs: 200 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderCallError);
    expect((err as ProviderCallError).status).toBe("DEADLINE_EXCEEDED");
  });
});

describe("host lifecycle", () => {
  it("routes pulumi.log through the fake engine when logsViaEngine is set", async () => {
    const [logging] = await captureDynamicInputs(() => {
      new LoggingToy("logging", { n: 1 });
    });
    const engineHost = await startProviderHost({ logsViaEngine: true });
    try {
      await engineHost.configure();
      await engineHost.create("logging", logging!.inputs);
      expect(engineHost.logs.filter((l) => l.source === "engine").map((l) => [l.severity, l.message])).toEqual([
        ["info", "progress: step 1"],
        ["warning", "careful"],
      ]);
    } finally {
      await engineHost.stop();
    }
    // Without an engine the same calls land on stdout/stderr with a [runtime] prefix.
    const stdioHost = await startProviderHost();
    try {
      await stdioHost.configure();
      await stdioHost.create("logging", logging!.inputs);
      const info = await stdioHost.waitForLog("progress: step 1");
      const warn = await stdioHost.waitForLog("careful");
      expect([info.source, info.severity, info.raw]).toEqual(["stdout", "info", "info: [runtime] progress: step 1"]);
      expect([warn.source, warn.severity]).toEqual(["stderr", "warning"]);
    } finally {
      await stdioHost.stop();
    }
  });

  it("resolves require() in serialized providers from the host's cwd", async () => {
    const [logging] = await captureDynamicInputs(() => {
      new LoggingToy("elsewhere", { n: 1 });
    });
    const emptyDir = await mkdtemp(path.join(os.tmpdir(), "provider-host-cwd-"));
    const elsewhere = await startProviderHost({ cwd: emptyDir });
    try {
      await elsewhere.configure();
      await expect(elsewhere.create("elsewhere", logging!.inputs)).rejects.toThrow(/Cannot find module '@pulumi\/pulumi'/);
    } finally {
      await elsewhere.stop();
      await rm(emptyDir, { recursive: true, force: true });
    }
  });

  it("kill() during a call surfaces an error instead of hanging", async () => {
    const victim = await startProviderHost();
    try {
      await victim.configure();
      const pending = victim.create("slow", withProvider({ n: 1, sleepMs: 60_000 }));
      const settled = pending.catch((e: unknown) => e);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const exit = await victim.kill("SIGKILL");
      expect(exit.signal).toBe("SIGKILL");
      const err = await settled;
      expect(err).toBeInstanceOf(ProviderCallError);
      expect(err).toMatchObject({ status: "HOST_EXITED", method: "create", hostExit: { signal: "SIGKILL" } });
      // Later calls fail immediately too.
      await expect(victim.check("a", {}, toy.inputs)).rejects.toMatchObject({ status: "HOST_EXITED" });
    } finally {
      await victim.stop();
    }
  });

  it("stop() ends the host process", async () => {
    const h = await startProviderHost();
    await h.stop();
    const exit = await h.exited;
    expect(exit.code !== null || exit.signal !== null).toBe(true);
    expect(() => process.kill(h.pid, 0)).toThrow();
  });
});
