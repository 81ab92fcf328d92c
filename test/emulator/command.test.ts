/** `fleet-update emulator`: flag parsing and the run (the CLI wiring itself is added elsewhere). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { parseEmulatorFlags, runEmulatorCommand, type ArmEmulator } from "../../src/emulator";
import { ValidationError } from "../../src/model/issues";
import { raw, clusterPath } from "./helpers";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "emulator-command-"));
const started: ArmEmulator[] = [];
afterAll(async () => {
  for (const e of started) await e.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t) }, out, err };
}

describe("parseEmulatorFlags", () => {
  test("turns flags into emulator options", () => {
    expect(
      parseEmulatorFlags({ port: "0", msPerSimulatedMinute: "10", seed: "3", throttling: false, serverErrorRate: "0.1", resetRate: "0.05", latencyMs: "20-200", subscription: "s", certFile: "c.pem" }),
    ).toEqual({
      options: { port: 0, msPerSimulatedMinute: 10, seed: 3, throttling: false, faults: { serverErrorRate: 0.1, resetRate: 0.05, latencyMs: { min: 20, max: 200 } }, subscriptionId: "s" },
      certFile: "c.pem",
    });
    expect(parseEmulatorFlags({})).toEqual({ options: {} });
    expect(parseEmulatorFlags({ latencyMs: "15" }).options.faults).toEqual({ latencyMs: { min: 15, max: 15 } });
    expect(parseEmulatorFlags({ lostResponseRate: "0.1", seed: "9" }).options).toEqual({ seed: 9, faults: { lostResponseRate: 0.1 } });
  });

  test("names each bad flag", () => {
    let error: unknown;
    try {
      parseEmulatorFlags({ port: "http", serverErrorRate: "2", latencyMs: "9-3", startAt: "yesterday", lostResponseRate: "-0.5" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path).sort()).toEqual(["--latency-ms", "--lost-response-rate", "--port", "--server-error-rate", "--start-at"]);
  });
});

describe("runEmulatorCommand", () => {
  test("starts the emulator for a fleet file and prints its URL and certificate file", async () => {
    const fleetFile = path.join(dir, "fleet.yaml");
    fs.writeFileSync(
      fleetFile,
      [
        "regions:",
        "  westeurope: {kubernetesVersions: [{version: 1.31.2}], nodeImages: [{version: AKSUbuntu-2204gen2containerd-202610.01.0}]}",
        "members:",
        "  - {name: one, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: AKSUbuntu-2204gen2containerd-202610.01.0}]}",
      ].join("\n"),
    );
    const certFile = path.join(dir, "emulator.pem");
    const { io, out } = capture();
    const result = await runEmulatorCommand(fleetFile, { msPerSimulatedMinute: "10", certFile }, io);
    expect(result.exitCode).toBe(0);
    const emulator = result.emulator!;
    started.push(emulator);
    expect(out.join("")).toContain(`ARM emulator listening on ${emulator.url}`);
    expect(out.join("")).toContain(`certificate: ${certFile}`);
    expect(out.join("")).toMatch(/Fleet Manager: fleet 'fleet' \(\d+ members\)/);
    expect(fs.readFileSync(certFile, "utf8")).toBe(emulator.certificatePem);
    const res = await raw(emulator, "GET", clusterPath("one"));
    expect(res.body.properties.kubernetesVersion).toBe("1.31.2");
  });

  test("a bad fleet file or flag exits 2 with one line per problem", async () => {
    const bad = path.join(dir, "bad.yaml");
    fs.writeFileSync(bad, "regions: {}\nmembers: [{name: Bad_Name, region: nowhere, kubernetesVersion: '1.31', nodePools: []}]\n");
    const { io, err } = capture();
    expect((await runEmulatorCommand(bad, {}, io)).exitCode).toBe(2);
    expect(err.join("")).toContain(`${bad}: members[0].name:`);
    expect(err.join("")).toContain(`${bad}: members[0].kubernetesVersion:`);
    const missing = capture();
    expect((await runEmulatorCommand(path.join(dir, "absent.yaml"), {}, missing.io)).exitCode).toBe(2);
    expect(missing.err.join("")).toContain("no such file");
    const flag = capture();
    expect((await runEmulatorCommand(bad, { resetRate: "-1" }, flag.io)).exitCode).toBe(2);
    expect(flag.err.join("")).toMatch(/^--reset-rate: /);
  });
});
