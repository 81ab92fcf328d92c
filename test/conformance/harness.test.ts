/**
 * The replay conformance harness itself (`support/`): what it reads from a cassette, how it compares two
 * bodies, how it follows an operation, and how expectations explain what it finds. The replay runs
 * against a small scripted HTTPS server standing in for an emulator.
 */
import type { AddressInfo } from "node:net";
import https from "node:https";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSelfSignedCertificate } from "../../src/emulator/core/certificate";
import { enumDifferences, explain, formatReport, pathsOf, pathsOnlyIn, readCassette, replay, rewriteNames, type RecordedInteraction } from "./support";

describe("JSON shape", () => {
  test("paths of every key and array position; keys that are not identifiers in brackets", () => {
    const paths = [...pathsOf({ a: { b: [{ c: 1 }, 2] }, labels: { "fleet.azure.com/location": "westus" } }).keys()];
    expect(paths).toEqual(["a", "a.b", "a.b[0]", "a.b[0].c", "a.b[1]", "labels", 'labels["fleet.azure.com/location"]']);
  });

  test("paths one side lacks: only the topmost of a missing subtree", () => {
    const recorded = pathsOf({ id: "x", systemData: { createdAt: "t", createdBy: "u" }, properties: { status: { lastOperationId: "o" } } });
    const emulator = pathsOf({ id: "x", properties: { group: "g" } });
    expect(pathsOnlyIn(recorded, emulator)).toEqual(["systemData", "properties.status"]);
    expect(pathsOnlyIn(emulator, recorded)).toEqual(["properties.group"]);
  });

  test("enum values compared at the same path, by key", () => {
    const a = pathsOf({ properties: { provisioningState: "Joining", name: "a" } });
    const b = pathsOf({ properties: { provisioningState: "Succeeded", name: "b" } });
    expect(enumDifferences(a, b, (k) => k === "provisioningState")).toEqual([["properties.provisioningState", "Joining", "Succeeded"]]);
  });

  test("names rewritten longest first", () => {
    expect(rewriteNames("/fleets/fl-000002/members/fl-0000021", [["fl-000002", "fleet"], ["fl-0000021", "member"]])).toBe("/fleets/fleet/members/member");
  });
});

test("the Fleet cassette: 76 interactions, headers lower-cased, bodies kept", () => {
  const all = readCassette(path.join(__dirname, "../fixtures/recordings/fleet/test_fleet_hubless.yaml"));
  expect(all).toHaveLength(76);
  const member = all[29] as RecordedInteraction;
  expect([member.method, member.status, member.requestHeaders.commandname]).toEqual(["PUT", 201, "fleet member create"]);
  expect(member.responseHeaders["azure-asyncoperation"]).toContain("/operations/784f824a-30d9-4550-8ddf-96b06e581edf");
  expect(JSON.parse(member.requestBody as string).properties.labels).toEqual({ team: "fleet" });
  expect(all[48]?.responseBody).toBeUndefined();
});

describe("replay against a scripted server", () => {
  let server: https.Server;
  let url = "";
  let ca = "";
  let polls = 0;
  const seen: Array<{ method: string; path: string; body: string; ifMatch?: string }> = [];

  beforeAll(async () => {
    const cert = await createSelfSignedCertificate();
    ca = cert.certificatePem;
    server = https.createServer({ key: cert.privateKeyPem, cert: cert.certificatePem }, (req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        const path = new URL(req.url ?? "/", "https://x").pathname;
        seen.push({ method: req.method ?? "", path, body, ...(typeof req.headers["if-match"] === "string" ? { ifMatch: req.headers["if-match"] } : {}) });
        const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
          res.writeHead(status, { "content-type": "application/json", ...headers });
          res.end(value === undefined ? "" : JSON.stringify(value));
        };
        if (path.endsWith("/operations/op-1")) return json(200, { name: "op-1", status: ++polls < 3 ? "InProgress" : "Succeeded" });
        if (path.endsWith("/things/a") && req.method === "PUT") {
          return json(201, { id: "/things/a", eTag: "e-1", properties: { provisioningState: "Creating", size: 1 } }, { "azure-asyncoperation": `${url}/operations/op-1?api-version=1` });
        }
        if (path.endsWith("/things/a") && req.method === "PATCH") return json(200, { id: "/things/a", eTag: "e-2", properties: { provisioningState: "Succeeded" } });
        return json(404, { error: { code: "NotFound", message: `no ${path}` } });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const recorded = (index: number, x: Partial<RecordedInteraction> & Pick<RecordedInteraction, "method" | "uri" | "status">): RecordedInteraction => ({ index, requestHeaders: {}, responseHeaders: {}, ...x });

  test("names rewritten, operations followed to their end, differences per interaction, skips with their reason", async () => {
    const host = "https://management.azure.com";
    const interactions = [
      recorded(0, { method: "GET", uri: `${host}/rg/old?api-version=1`, status: 200 }),
      recorded(1, {
        method: "PUT",
        uri: `${host}/things/recorded-a?api-version=1`,
        requestBody: '{"properties":{"owner":"recorded-a"}}',
        status: 201,
        responseHeaders: { "azure-asyncoperation": `${host}/operations/abc?api-version=2016&t=1` },
        responseBody: '{"id":"/things/recorded-a","eTag":"\\"r-1\\"","properties":{"provisioningState":"Joining","size":1,"status":{"lastOperationId":"abc"}}}',
      }),
      recorded(2, { method: "GET", uri: `${host}/operations/abc?api-version=2016&t=1`, status: 200, responseBody: '{"name":"abc","status":"InProgress"}' }),
      recorded(3, { method: "GET", uri: `${host}/operations/abc?api-version=2016&t=1`, status: 200, responseBody: '{"name":"abc","status":"Succeeded","endTime":"t"}' }),
      recorded(4, { method: "PATCH", uri: `${host}/things/recorded-a?api-version=1`, requestHeaders: { "if-match": '"r-1"' }, status: 200, responseBody: '{"id":"/things/recorded-a","properties":{"provisioningState":"Succeeded"}}' }),
    ];
    const reports = await replay({ interactions, names: [[host, url], ["recorded-a", "a"]], url, ca, skip: (x) => (x.uri.includes("/rg/") ? "resource groups are not served" : undefined) });

    expect(reports.map((r) => [r.index, r.outcome])).toEqual([[0, "skipped"], [1, "compared"], [2, "polled"], [3, "polled"], [4, "compared"]]);
    expect(reports[0]?.reason).toBe("resource groups are not served");
    expect(seen.filter((s) => !s.path.includes("/operations/"))).toEqual([
      { method: "PUT", path: "/things/a", body: '{"properties":{"owner":"a"}}' },
      // The recording's eTag is sent as the server's eTag of the same resource.
      { method: "PATCH", path: "/things/a", body: "", ifMatch: "e-1" },
    ]);
    expect(polls).toBe(3);
    expect(reports[1]?.differences).toEqual([
      { interaction: 1, kind: "recordedOnly", at: "properties.status" },
      { interaction: 1, kind: "enum", at: "properties.provisioningState", recorded: "Joining", emulator: "Creating" },
      // The recording's last poll had an `endTime`; the scripted server's has none.
      { interaction: 1, kind: "recordedOnly", at: "(operation) endTime" },
    ]);
    expect(reports[4]?.differences).toEqual([{ interaction: 4, kind: "emulatorOnly", at: "eTag" }]);

    const { unexplained, unused } = explain(reports, [
      { interactions: [1], kind: "recordedOnly", at: "properties.status", reason: "no operation ids" },
      { interactions: [1], kind: "enum", at: /provisioningState$/, reason: "Creating, not Joining" },
      { interactions: [4], kind: "status", at: "", reason: "never happens" },
    ]);
    expect(unexplained.map((d) => `${d.interaction} ${d.kind} ${d.at}`)).toEqual(["1 recordedOnly (operation) endTime", "4 emulatorOnly eTag"]);
    expect(unused.map((k) => k.reason)).toEqual(["never happens"]);
    const text = formatReport(reports);
    expect(text).toContain("#0 GET /rg/old?api-version=1\n  skipped: resource groups are not served");
    expect(text).toContain("#2 GET /operations/abc?api-version=2016\n  polled as part of #1");
    expect(text).toContain("  - properties.provisioningState: recorded Joining, emulator Creating");
  });
});
