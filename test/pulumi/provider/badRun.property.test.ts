/**
 * Property: any single-place corruption of valid UpdateRun inputs (wrong type, missing field,
 * duplicate member, stage or group, bad name, version, node image, cluster id, concurrency, wrong
 * enum value, out-of-range number, 10,000-character string, unknown field), on either backend, is
 * rejected by the run provider: check returns failures naming the broken field; create and update
 * (but for unknown top-level fields, see below) throw an error naming it, with no stack trace in the
 * message, before touching the backend — the
 * simulated fleet's directory gets no state file and no journal, and nothing connects to the ARM
 * endpoint.
 */
import fs from "node:fs";
import https from "node:https";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSelfSignedCertificate } from "../../../src/emulator/core/certificate";
import type { FieldIssue } from "../../../src/model/issues";
import { check, create, update } from "../../../src/pulumi/provider/runProvider";
import { JOURNAL_DIRECTORY } from "../../../src/pulumi/provider/runSession";
import { STACK_TRACE, expectNamesBrokenField, invalidVariants, type Doc, type Variant } from "../../support/invalidInput";
import { IMAGE_NEW, richAzureRun, richSimulatorRun, runRules } from "../support/invalidRunInputs";

const IMAGE_OLD = "AKSUbuntu-2204gen2containerd-202610.01.0";
const FLEET = `regions:
  westeurope:
    kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}]
    nodeImages: [{version: ${IMAGE_OLD}}, {version: ${IMAGE_NEW}}]
members:
${["canary-1", "eu-1", "eu-2", "us-1"].map((n) => `  - {name: ${n}, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: ${IMAGE_OLD}}]}`).join("\n")}
`;
const AZURE_RUN_NAME = "bad-input-azure-property";

let fleetDir: string;
let fleetFile: string;
/** Stands in for ARM: counts every connection made to it. */
let arm: https.Server;
let armConnections = 0;
let armEndpoint: string;
let trustedCaFile: string;

beforeAll(async () => {
  fleetDir = fs.mkdtempSync(path.join(os.tmpdir(), "bad-run-"));
  fleetFile = path.join(fleetDir, "fleet.yaml");
  fs.writeFileSync(fleetFile, FLEET);
  // A real CA file elsewhere, so that a run let through would get as far as ARM.
  const certificate = await createSelfSignedCertificate();
  trustedCaFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bad-run-ca-")), "ca.pem");
  fs.writeFileSync(trustedCaFile, certificate.certificatePem);
  // Every cluster is missing: a run let through fails at its first request, quickly.
  arm = https.createServer({ key: certificate.privateKeyPem, cert: certificate.certificatePem }, (_request, response) => {
    response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "ResourceNotFound", message: "no such cluster" } }));
  });
  arm.on("connection", () => armConnections++);
  await new Promise<void>((resolve) => arm.listen(0, "127.0.0.1", resolve));
  armEndpoint = `https://127.0.0.1:${(arm.address() as net.AddressInfo).port}`;
});

afterAll(async () => {
  arm.closeAllConnections();
  await new Promise((resolve) => arm.close(resolve));
  fs.rmSync(fleetDir, { recursive: true, force: true });
  fs.rmSync(path.dirname(trustedCaFile), { recursive: true, force: true });
});

const simulatorBase = () => richSimulatorRun(fleetFile, path.join(fleetDir, "fleet.state.json"));
const azureBase = () => richAzureRun(armEndpoint, trustedCaFile, AZURE_RUN_NAME);

const failuresAsIssues = (failures: Array<{ property: string; reason: string }>): FieldIssue[] => failures.map((f) => ({ path: f.property, message: f.reason }));

/** The error create or update threw, as field issues: `invalid UpdateRun inputs:` then one `path: message` line per problem. */
async function refusal(call: Promise<unknown>): Promise<FieldIssue[]> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error === undefined) throw new Error("accepted: the call succeeded");
  expect(error).toBeInstanceOf(Error);
  const { name, message } = error as Error;
  // A plain Error (not a TypeError, RangeError, file system error...): the provider refused, nothing broke.
  expect(name, message.slice(0, 500)).toBe("Error");
  expect(message).not.toMatch(STACK_TRACE);
  const [first, ...lines] = message.split("\n");
  expect(first).toBe("invalid UpdateRun inputs:");
  return lines.map((line) => {
    const match = /^(\S+): (.+)$/s.exec(line);
    expect(match, `not a "path: message" line: ${line.slice(0, 300)}`).not.toBeNull();
    return { path: (match as RegExpExecArray)[1] as string, message: (match as RegExpExecArray)[2] as string };
  });
}

/** check, create and update each refuse `broken`, naming the broken field. */
async function expectRefused(broken: Variant, valid: Doc): Promise<void> {
  expectNamesBrokenField(failuresAsIssues((await check({}, broken.doc)).failures), broken);
  // create and update read only the input fields they know (stored properties mix inputs and
  // outputs), so an unknown top-level field is check's alone to refuse; Pulumi never creates
  // what check refused.
  if (broken.kind.startsWith("unknown field") && broken.path.length === 1) return;
  expectNamesBrokenField(await refusal(create(broken.doc)), broken);
  expectNamesBrokenField(await refusal(update("run-1", valid, broken.doc)), broken);
}

describe("property: invalid UpdateRun inputs are refused with the broken field's path, before the backend is touched", () => {
  it("the rich base inputs are valid on both backends", async () => {
    expect((await check({}, simulatorBase())).failures).toEqual([]);
    expect((await check({}, azureBase())).failures).toEqual([]);
  });

  it("a valid run on the simulator writes its state file and journal beside the fleet file (what the property watches)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "good-run-"));
    try {
      fs.writeFileSync(path.join(dir, "fleet.yaml"), FLEET);
      const inputs = {
        runName: "good",
        backend: { simulator: { fleetFile: path.join(dir, "fleet.yaml"), timeScale: 1_000_000 } },
        members: [{ name: "canary-1" }],
        managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
      };
      const { outs } = await create(inputs);
      expect((outs.status as { status: { state: string } }).status.state).toBe("Completed");
      // ...and holds the fleet's lease (the lock file) until this process ends.
      expect(fs.readdirSync(dir).sort()).toEqual(["fleet.yaml", "fleet.yaml.state.json", "fleet.yaml.state.json.lock", "fleet.yaml.state.runs"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a valid run on Azure connects to the ARM endpoint (what the property watches)", async () => {
    const inputs = { ...azureBase(), runName: "bad-input-azure-valid", strategy: undefined, skip: [], timeoutMinutes: 1 };
    const before = armConnections;
    await create(inputs).catch(() => undefined);
    expect(armConnections).toBeGreaterThan(before);
    armConnections = before;
    fs.rmSync(path.resolve(JOURNAL_DIRECTORY, "bad-input-azure-valid.json"), { force: true });
  });

  it("1,000 invalid runs on the simulated fleet: no state file, no journal, the fleet file unchanged", async () => {
    await fc.assert(
      fc.asyncProperty(invalidVariants(simulatorBase(), runRules("simulator")), async (broken: Variant) => {
        await expectRefused(broken, simulatorBase());
        expect(fs.readdirSync(fleetDir)).toEqual(["fleet.yaml"]);
        expect(fs.readFileSync(fleetFile, "utf8")).toBe(FLEET);
      }),
      { numRuns: 1_000 },
    );
  });

  it("1,000 invalid runs on Azure: no connection to the ARM endpoint, no journal", async () => {
    await fc.assert(
      fc.asyncProperty(invalidVariants(azureBase(), runRules("azure")), async (broken: Variant) => {
        await expectRefused(broken, azureBase());
      }),
      { numRuns: 1_000 },
    );
    expect(armConnections).toBe(0);
    expect(fs.existsSync(path.resolve(JOURNAL_DIRECTORY, `${AZURE_RUN_NAME}.json`))).toBe(false);
  });

  // `runName` (the Pulumi resource name) names the run's journal file: a name too long for a file
  // name is refused by check, before anything is written.
  it("a 300-character runName is refused by check", async () => {
    const { failures } = await check({}, { ...simulatorBase(), runName: "r".repeat(300) });
    expect(failures.map((f) => f.property)).toContain("runName");
  });
});
