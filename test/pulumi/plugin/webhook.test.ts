/**
 * Issue 24: `UpdateRun`'s `webhook` input through the provider plugin, called in process as
 * `@pulumi/pulumi/provider`'s server calls it. The run's events reach a 127.0.0.1 receiver with the
 * secret token as their bearer Authorization; the token stays secret in the outputs and is in no
 * plain-text output, in no line the provider told, and not in the run's journal; a new webhook is an
 * update of the same run, never a replacement.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fleetUpdateProvider } from "../../../src/pulumi/plugin/provider";
import { asSecret, isSecret, reveal } from "../../../src/pulumi/plugin/secrets";
import { checkRunInputs } from "../../../src/drivers/runInputs";
import { SEQUENCE_HEADER } from "../../../src/events/webhook";
import * as runProvider from "../../../src/pulumi/provider/runProvider";
import { fleetYaml } from "../support/fleetYaml";
import { runCommand } from "../../../src/cli/run";

const RUN_URN = "urn:pulumi:dev::proj::fleet-update:index:UpdateRun::hooked";
const TOKEN = "wh-T0KEN-5150-bearer";

let dir = "";
let server: http.Server;
let hookUrl = "";
const received: Array<{ authorization?: string; sequence?: string; body: { scope: string; name: string; from: string; to: string } }> = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-webhook-"));
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push({
        ...(req.headers.authorization === undefined ? {} : { authorization: req.headers.authorization }),
        ...(typeof req.headers[SEQUENCE_HEADER] === "string" ? { sequence: req.headers[SEQUENCE_HEADER] } : {}),
        body: JSON.parse(body),
      });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/fleet`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every string of a property struct outside the engine's secret marks. */
function plainText(value: unknown): string {
  if (isSecret(value)) return "";
  if (Array.isArray(value)) return value.map(plainText).join(" ");
  if (value !== null && typeof value === "object") return Object.values(value).map(plainText).join(" ");
  return String(value);
}

/** Every file under a folder, as text. */
function filesUnder(folder: string): Array<{ file: string; text: string }> {
  return fs.readdirSync(folder, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => {
    const file = path.join(e.parentPath, e.name);
    return { file, text: fs.readFileSync(file, "utf8") };
  });
}

describe("an UpdateRun's webhook", () => {
  it("receives every event with the token as its bearer Authorization; the token is secret in the outputs and in no journal, output or line told", async () => {
    fs.writeFileSync(path.join(dir, "fleet.yaml"), fleetYaml(["eu-1", "eu-2"]));
    const told: string[] = [];
    const p = fleetUpdateProvider({ version: "0.0.0-test", schema: "{}" });
    const news = {
      backend: { simulator: { fleetFile: "fleet.yaml", timeScale: 20_000 } },
      members: [{ name: "eu-1" }, { name: "eu-2" }],
      managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
      projectDir: dir,
      webhook: { url: hookUrl, token: asSecret(TOKEN) },
    };
    const stderr = captureStderr(told);
    let created;
    try {
      const checked = await p.check!(RUN_URN, {}, news);
      expect(checked.failures).toEqual([]);
      created = await p.create!(RUN_URN, checked.inputs);
    } finally {
      stderr.restore();
    }
    const { outs } = created;
    expect(reveal(outs.summary)).toMatchObject({ state: "Completed", members: { Completed: 2 } });

    // Every transition, in order, each with the bearer token.
    expect(received.length).toBeGreaterThan(4);
    expect(new Set(received.map((r) => r.authorization))).toEqual(new Set([`Bearer ${TOKEN}`]));
    expect(received.map((r) => Number(r.sequence))).toEqual(received.map((_r, i) => i + 1));
    expect(received.filter((r) => r.body.scope === "member" && r.body.to === "Completed").map((r) => r.body.name).sort()).toEqual(["eu-1", "eu-2"]);
    expect(received.at(-1)!.body).toMatchObject({ scope: "run", to: "Completed" });

    // Kept secret, and nowhere in plain text.
    expect(isSecret(outs.webhook)).toBe(true);
    expect(reveal(outs.webhook)).toEqual({ url: hookUrl, token: TOKEN });
    expect(plainText(outs)).not.toContain(TOKEN);
    expect(JSON.stringify(reveal(outs.engineState))).not.toContain(TOKEN);
    expect(told.join("\n")).not.toContain(TOKEN);
    const written = filesUnder(dir);
    expect(written.some((f) => f.file.includes(".runs"))).toBe(true);
    for (const { file, text } of written) expect(text.includes(TOKEN), `${file} holds the token`).toBe(false);
  });

  it("a new URL or token updates the same run in place; the run's identity is untouched", async () => {
    const olds = { runName: "hooked", backend: { simulator: { fleetFile: "fleet.yaml" } }, members: [{ name: "eu-1" }], managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } }, webhook: { url: hookUrl, token: "old" } };
    const diff = await runProvider.diff("hooked-0a1b2c3d", olds, { ...olds, webhook: { url: `${hookUrl}/v2`, token: "new" } });
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const same = await runProvider.diff("hooked-0a1b2c3d", olds, { ...olds });
    expect(same.changes).toBe(false);
  });

  it("check refuses a webhook that is not http(s), or an empty token, by field path", () => {
    const base = { runName: "hooked", backend: { simulator: { fleetFile: "fleet.yaml" } }, members: [{ name: "eu-1" }], managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } } };
    expect(checkRunInputs({ ...base, webhook: { url: "ftp://example.com/hook", token: "" } }).map((i) => i.path).sort()).toEqual(["webhook.token", "webhook.url"]);
    expect(checkRunInputs({ ...base, webhook: { url: hookUrl, secret: "x" } }).map((i) => i.path)).toEqual(["webhook.secret"]);
  });
});

describe("a run spec's webhook (`fleet-update run`)", () => {
  it("is delivered as the resource's is, with the token as bearer, and never printed", async () => {
    const specDir = fs.mkdtempSync(path.join(os.tmpdir(), "spec-webhook-"));
    fs.writeFileSync(path.join(specDir, "fleet.yaml"), fleetYaml(["eu-1"]));
    fs.writeFileSync(path.join(specDir, "spec.yaml"), JSON.stringify({ members: [{ name: "eu-1" }], managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } }, webhook: { url: hookUrl, token: "spec-T0KEN-99" } }));
    const before = received.length;
    const printed: string[] = [];
    const io = { stdout: (t: string) => printed.push(t), stderr: (t: string) => printed.push(t) };
    const code = await runCommand(path.join(specDir, "spec.yaml"), { backend: `simulator:${path.join(specDir, "fleet.yaml")}`, timeScale: "20000", progress: "lines" }, io);
    expect(code, printed.join("")).toBe(0);
    const mine = received.slice(before);
    expect(mine.some((r) => r.body.scope === "member" && r.body.name === "eu-1" && r.body.to === "Completed")).toBe(true);
    expect(new Set(mine.map((r) => r.authorization))).toEqual(new Set(["Bearer spec-T0KEN-99"]));
    expect(printed.join("")).not.toContain("spec-T0KEN-99");
    for (const { file, text } of filesUnder(specDir).filter((f) => !f.file.endsWith("spec.yaml"))) expect(text.includes("spec-T0KEN-99"), `${file} holds the token`).toBe(false);
    fs.rmSync(specDir, { recursive: true, force: true });
  });
});

/** The provider's lines go to stderr when no engine Log service is given: keep them to search. */
function captureStderr(into: string[]): { restore: () => void } {
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    into.push(String(chunk));
    return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  return { restore: () => void (process.stderr.write = write) };
}
