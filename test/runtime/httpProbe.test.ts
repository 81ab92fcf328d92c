/** The runtime's HTTP health probe against a local server: 2xx healthy, others not, the query never shown. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { httpProbe } from "../../src/runtime/httpProbe";

let server: http.Server;
let base = "";
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.url ?? "");
    res.statusCode = req.url?.startsWith("/ok") ? 204 : 503;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it("a 2xx answer is healthy; the detail names the URL without its query string", async () => {
  const result = await httpProbe({ name: "a" }, `${base}/ok?token=s3cret`);
  expect(result).toEqual({ ok: true, detail: `GET ${base}/ok?… answered 204`, status: 204 });
  expect(seen).toContain("/ok?token=s3cret");
});

it("any other answer is unhealthy", async () => {
  expect(await httpProbe({ name: "a" }, `${base}/down`)).toEqual({ ok: false, detail: `GET ${base}/down answered 503`, status: 503 });
});

it("a refused connection is unhealthy, not an exception", async () => {
  const result = await httpProbe({ name: "a" }, "http://127.0.0.1:1/healthz?key=abc");
  expect(result.ok).toBe(false);
  expect(result.detail).toMatch(/^GET http:\/\/127\.0\.0\.1:1\/healthz\?… failed: /);
  expect(result.detail).not.toContain("abc");
});
