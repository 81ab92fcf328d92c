/**
 * Issue 11: secrets never reach the stack in plain text. A member's health-check URL given as
 * `pulumi.secret(...)` (a token in the query, credentials before the host) goes through the real
 * dynamic-provider host; the raw outputs it returns are checked the way the engine stores them
 * (`storedInPlainText`: only outputs under a secret input's key, and `additionalSecretOutputs`, become
 * secret), and so are the journal on disk and every line the host logged.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UPDATE_RUN_SECRET_OUTPUTS, UpdateRun } from "../../../src/pulumi";
import type { RunSummary } from "../../../src/engine/summary";
import { captureDynamicInputs, type CapturedDynamicResource } from "../support/captureInputs";
import { storedInPlainText } from "../support/engineSecrets";
import { fleetYaml } from "../support/fleetYaml";
import { ProviderCallError, startProviderHost, type PropertyMap, type ProviderHost } from "../support/providerHost";

const TOKEN = "s3cr3t-T0KEN-4711";
const PASSWORD = "pr0be-pa55w0rd";
const FLEET = fleetYaml(["eu-1", "eu-2"]);

/** The members' health endpoints: eu-1's wants basic auth, eu-2's a token, and answers 503 while `eu2Down`. */
let server: http.Server;
let eu2Down = true;
const probes: Array<{ path: string; authorization?: string }> = [];
let host: ProviderHost;
let captured: CapturedDynamicResource;
let dir = "";

function expectNoSecret(where: string, value: unknown): void {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  for (const secret of [TOKEN, PASSWORD]) expect(text.includes(secret), `${where} holds '${secret}'`).toBe(false);
}

/** What the stack would hold in plain text, from the raw properties the host returned. */
const plainPart = (properties: PropertyMap) => storedInPlainText(properties, captured.secretInputs, UPDATE_RUN_SECRET_OUTPUTS);

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new globalThis.URL(req.url ?? "/", "http://127.0.0.1");
    probes.push({ path: url.pathname, ...(req.headers.authorization === undefined ? {} : { authorization: req.headers.authorization }) });
    const basic = `Basic ${Buffer.from(`probe-user:${PASSWORD}`).toString("base64")}`;
    if (url.pathname === "/clusters/eu-1/healthz") res.statusCode = req.headers.authorization === basic ? 200 : 401;
    else res.statusCode = url.searchParams.get("token") === TOKEN && !eu2Down ? 200 : 503;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "secrets-"));
  fs.writeFileSync(path.join(dir, "fleet.yaml"), FLEET);
  const check = (url: string) => ({ url: pulumi.secret(url), settleSeconds: 0, retries: 0 });
  [captured] = (await captureDynamicInputs(() => {
    new UpdateRun("secret-probe", {
      backend: { simulator: { fleetFile: "fleet.yaml", timeScale: 20_000 } },
      projectDir: dir,
      members: [
        { name: "eu-1", healthCheck: check(`http://probe-user:${PASSWORD}@127.0.0.1:${port}/clusters/eu-1/healthz`) },
        { name: "eu-2", healthCheck: check(`http://127.0.0.1:${port}/clusters/eu-2/healthz?token=${TOKEN}`) },
      ],
      managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
    });
  })) as [CapturedDynamicResource];
  host = await startProviderHost();
  await host.configure();
}, 60_000);

afterAll(async () => {
  await host?.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("secret health-check URLs", () => {
  it("are seen as secret by the test (the capture keeps which inputs were secret) and sent plain, as the engine does", () => {
    expect(captured.secretValues).toEqual(expect.arrayContaining([expect.stringContaining(PASSWORD), expect.stringContaining(TOKEN)]));
    expect(Object.keys(captured.secretInputs)).toEqual(["members"]);
    expect(JSON.stringify(captured.inputs)).toContain(TOKEN);
  });

  it("never reach an output stored in plain text, the journal or the logs — failed, resumed and completed", async () => {
    const failure = (await host.create("secret-probe", captured.inputs).catch((e: unknown) => e)) as ProviderCallError;
    expect(failure).toBeInstanceOf(ProviderCallError);
    const kept = failure.initFailed!;
    // The probes really ran: eu-1's with its credentials as basic auth, eu-2's failing the member.
    expect(failure.message).toContain("Member 'eu-2' failed: Health check failed (probe): GET http://127.0.0.1");
    expect(probes.find((p) => p.path === "/clusters/eu-1/healthz")?.authorization).toMatch(/^Basic /);
    expectNoSecret("the error", failure.message);
    expectNoSecret("the properties kept on failure", plainPart(kept.properties));
    const journal = path.join(dir, "fleet.yaml.state.runs", "secret-probe.json");
    expectNoSecret("the journal", fs.readFileSync(journal, "utf8"));

    // The endpoint recovers. The next `pulumi up` resumes from the state Pulumi stored (the journal is
    // gone here), which holds no health check: the probe is taken from the inputs again and passes.
    eu2Down = false;
    fs.rmSync(journal);
    const probesBefore = probes.filter((p) => p.path === "/clusters/eu-2/healthz").length;
    const { properties } = await host.update(kept.id, "secret-probe", kept.properties, captured.inputs);
    expect(properties.summary as unknown as RunSummary).toMatchObject({ state: "Completed", members: { Completed: 2 } });
    expect(probes.filter((p) => p.path === "/clusters/eu-2/healthz").length).toBeGreaterThan(probesBefore);
    expectNoSecret("the outputs", plainPart(properties));
    // Kept out of the engine's state altogether, though that output is stored as a secret besides.
    expect(UPDATE_RUN_SECRET_OUTPUTS).toContain("engineState");
    expectNoSecret("engineState", properties.engineState);
    expect(JSON.stringify(properties.engineState)).not.toContain("healthCheck");
    expectNoSecret("the journal", fs.readFileSync(journal, "utf8"));
    expectNoSecret("the logs", host.logs.map((l) => l.raw));
  });
});

describe("a secret webhook token (issue 24) through the dynamic-provider host", () => {
  const HOOK_TOKEN = "dyn-h00k-T0KEN-2626";
  it("is sent as the events' bearer token, and is in no output stored in plain text, the journal or the logs", async () => {
    const hooks: string[] = [];
    const receiver = http.createServer((req, res) => {
      hooks.push(req.headers.authorization ?? "");
      req.resume();
      req.on("end", () => {
        res.statusCode = 204;
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const hookDir = fs.mkdtempSync(path.join(os.tmpdir(), "secret-webhook-"));
      fs.writeFileSync(path.join(hookDir, "fleet.yaml"), FLEET);
      const [hooked] = (await captureDynamicInputs(() => {
        new UpdateRun("hooked", {
          backend: { simulator: { fleetFile: "fleet.yaml", timeScale: 20_000 } },
          projectDir: hookDir,
          members: [{ name: "eu-1" }],
          managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
          // Not given as a secret: UpdateRun makes the webhook one.
          webhook: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`, token: HOOK_TOKEN },
        });
      })) as [CapturedDynamicResource];
      expect(Object.keys(hooked.secretInputs)).toEqual(["webhook"]);

      const { properties } = await host.create("hooked", hooked.inputs);
      expect(properties.summary as unknown as RunSummary).toMatchObject({ state: "Completed" });
      expect(hooks.length).toBeGreaterThan(0);
      expect(new Set(hooks)).toEqual(new Set([`Bearer ${HOOK_TOKEN}`]));
      const plain = JSON.stringify(storedInPlainText(properties, hooked.secretInputs, UPDATE_RUN_SECRET_OUTPUTS));
      expect(plain).not.toContain(HOOK_TOKEN);
      expect(plain).toContain("summary");
      expect(fs.readFileSync(path.join(hookDir, "fleet.yaml.state.runs", "hooked.json"), "utf8")).not.toContain(HOOK_TOKEN);
      expect(host.logs.map((l) => l.raw).join("\n")).not.toContain(HOOK_TOKEN);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
