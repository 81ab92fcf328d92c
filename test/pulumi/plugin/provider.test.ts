/**
 * Issue 24: the provider plugin's `Provider`, called in process as `@pulumi/pulumi/provider`'s server
 * calls it (raw property structs, secrets marked the engine's way): the resource's name from the URN,
 * secrets kept where they were given, `engineState` always secret, and Cancel stopping a run at its
 * next checkpoint with its partial status kept, which the next call continues.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fleetUpdateProvider, parseUrn } from "../../../src/pulumi/plugin/provider";
import { asSecret, containsSecret, isSecret, reveal } from "../../../src/pulumi/plugin/secrets";
import { RunNotFinishedError } from "../../../src/pulumi/provider/runOutputs";
import { readFleetState } from "../../../src/backends/simulator/stateFile";
import { fleetYaml } from "../support/fleetYaml";

const RUN_URN = "urn:pulumi:dev::proj::fleet-update:index:UpdateRun::k8s-1-32";
const STRATEGY_URN = "urn:pulumi:dev::proj::fleet-update:index:UpdateStrategy::rollout";
const TOKEN = "pr0be-T0KEN-2424";

let dir = "";
let server: http.Server;
let probeUrl = "";

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-provider-"));
  server = http.createServer((_req, res) => {
    res.statusCode = 200;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  probeUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz?token=${TOKEN}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(dir, { recursive: true, force: true });
});

function provider() {
  return fleetUpdateProvider({ version: "0.0.0-test", schema: "{}" });
}

function runInputs(fleetFile: string, members: unknown[], timeScale: number): Record<string, unknown> {
  return {
    backend: { simulator: { fleetFile, timeScale } },
    members,
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
    projectDir: dir,
  };
}

/** Every string of a property struct outside the engine's secret marks. */
function plainText(value: unknown): string {
  if (isSecret(value)) return "";
  if (Array.isArray(value)) return value.map(plainText).join(" ");
  if (value !== null && typeof value === "object") return Object.values(value).map(plainText).join(" ");
  return String(value);
}

describe("the provider plugin's resources", () => {
  it("parses a URN's type (the last of its parent types) and name", () => {
    expect(parseUrn("urn:pulumi:dev::proj::my:mod:Parent$fleet-update:index:UpdateRun::a::b")).toEqual({ type: "fleet-update:index:UpdateRun", name: "a::b" });
  });

  it("refuses a type it does not serve, naming the ones it does", async () => {
    await expect(provider().check!("urn:pulumi:dev::proj::fleet-update:index:Nope::x", {}, {})).rejects.toThrow(/unknown resource type fleet-update:index:Nope: .*UpdateRun and .*UpdateStrategy/);
  });

  it("check names the run after the resource and reports problems by field path", async () => {
    fs.writeFileSync(path.join(dir, "check.yaml"), fleetYaml(["eu-1"]));
    const ok = await provider().check!(RUN_URN, {}, runInputs("check.yaml", [{ name: "eu-1" }], 600));
    expect(ok.failures).toEqual([]);
    expect(ok.inputs).toMatchObject({ runName: "k8s-1-32", projectDir: dir });

    const bad = await provider().check!(RUN_URN, {}, runInputs("check.yaml", [{ name: "EU_1" }], 600));
    expect(bad.failures).toEqual([expect.objectContaining({ property: "members[0].name" })]);
  });

  it("an UpdateStrategy's strategy is known from check, as for the dynamic resource", async () => {
    const stages = [{ name: "canary", groups: [{ name: "canary" }] }];
    const checked = await provider().check!(STRATEGY_URN, {}, { stages });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.strategy).toEqual({ stages });
  });

  it("keeps a secret input secret where it was given, and engineState secret whatever the inputs", async () => {
    fs.writeFileSync(path.join(dir, "secret.yaml"), fleetYaml(["eu-1"]));
    const news = runInputs("secret.yaml", [{ name: "eu-1", healthCheck: { url: asSecret(probeUrl), settleSeconds: 0, retries: 0 } }], 20_000);
    const p = provider();
    const checked = await p.check!(RUN_URN, {}, news);
    expect(checked.failures).toEqual([]);
    expect(isSecret((checked.inputs.members as Array<{ healthCheck: { url: unknown } }>)[0]!.healthCheck.url)).toBe(true);

    const { id, outs } = await p.create!(RUN_URN, checked.inputs);
    expect(id).toMatch(/^k8s-1-32-/);
    expect(reveal(outs.summary)).toMatchObject({ state: "Completed", members: { Completed: 1 } });
    expect(isSecret(outs.engineState)).toBe(true);
    expect(isSecret((outs.members as Array<{ healthCheck: { url: unknown } }>)[0]!.healthCheck.url)).toBe(true);
    expect(containsSecret(outs.status)).toBe(false);
    expect(plainText(outs)).not.toContain(TOKEN);
  });

  it("Cancel stops the run at its next checkpoint, keeps it with its partial status, and the next up continues it", async () => {
    // Two members one after the other, 20 simulated minutes each at 1,200x: about 1 s of real time each.
    fs.writeFileSync(path.join(dir, "cancel.yaml"), fleetYaml(["eu-1", "eu-2"], "{upgradeMinutes: 20}"));
    const news = runInputs("cancel.yaml", [{ name: "eu-1" }, { name: "eu-2" }], 1_200);
    const first = provider();
    const checked = await first.check!(RUN_URN, {}, news);
    const creating = first.create!(RUN_URN, checked.inputs);
    // Cancel once eu-1's upgrade has started (its operation is in the fleet's state file).
    const statePath = path.join(dir, "cancel.yaml.state.json");
    const started = () => (readFleetState(statePath)?.clusters?.["eu-1"]?.operations.length ?? 0) > 0;
    for (const deadline = Date.now() + 20_000; !started(); ) {
      if (Date.now() > deadline) throw new Error("eu-1's upgrade did not start within 20 s");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await first.cancel!();
    const error = await creating.then(
      () => undefined,
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(RunNotFinishedError);
    const kept = error as RunNotFinishedError;
    expect(kept.message).toMatch(/cancelled \(Ctrl-C\): the run is Stopped \(1 of 2 members done\); upgrades that had started were followed to their end/);
    expect(isSecret(kept.properties.engineState)).toBe(true);
    expect(kept.properties).toMatchObject({ runName: "k8s-1-32", summary: { state: "Stopped", members: { Completed: 1, NotStarted: 1 } } });

    // The next `pulumi up` is another plugin process; the engine hands it the kept properties.
    const { outs } = await provider().update!(kept.id, RUN_URN, kept.properties, checked.inputs);
    expect(reveal(outs.summary)).toMatchObject({ state: "Completed", members: { Completed: 2 } });
    // Each cluster upgraded, and once: one operation each in the fleet's own record.
    const clusters = readFleetState(statePath)!.clusters!;
    expect(Object.values(clusters).map((c) => [c.kubernetesVersion, c.operations.length])).toEqual([["1.32.0", 1], ["1.32.0", 1]]);
  });
});
