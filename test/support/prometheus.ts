/**
 * Issue 31: a real Prometheus server for tests — the binary `scripts/prometheus.sh` caches (Debian's
 * package), started on 127.0.0.1 with a temporary data directory, scraping the targets given every
 * second. Never a mock of its API. When the binary cannot be had, `prometheusBinary()` says why and
 * the tests skip (as the Pulumi CLI's do).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parseScenario, type Scenario } from "../../src/simulation/scenario";
import { startArmEmulator, type ArmEmulator } from "../../src/emulator";
import { EMULATOR_RESOURCE_GROUP, EMULATOR_SUBSCRIPTION } from "../../src/simulation/viaArmEmulator";

const SCRIPT = path.resolve(__dirname, "../../scripts/prometheus.sh");
const SICK = fs.readFileSync(path.resolve(__dirname, "../../examples/health-analysis/sick-cluster.yaml"), "utf8");

/**
 * `examples/health-analysis/sick-cluster.yaml` at real-time-friendly durations (one-minute upgrades,
 * two-minute soaks measured from their first minute every 30 s), its analysis pointed at `address`,
 * starting at the current minute; `healthy`: the 3rd cluster stays healthy. `realSeconds`: the soaks
 * and analyses in seconds, for a client on the real clock (the ARM backend) while the emulator runs
 * its clusters' minutes fast.
 */
export function realTimeScenario(address: string, healthy = false, realSeconds = false): Scenario {
  let text = SICK.replace(/simulation: \{metrics:/g, "simulation: {upgradeMinutes: 1, metrics:")
    .replace(/afterStageWaitInSeconds: 600/g, `afterStageWaitInSeconds: ${realSeconds ? 8 : 120}`)
    .replace("      interval: 5m\n", realSeconds ? "      initialDelay: 4s\n      interval: 2s\n" : "      initialDelay: 1m\n      interval: 30s\n")
    .replace("http://prometheus.monitoring:9090", address);
  if (healthy) text = text.replace("afterUpgrade: 0.31", "afterUpgrade: 0.02");
  return parseScenario(text.replace(/^start: .*$/m, `start: ${new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString()}`));
}

let cached: { path?: string; why?: string } | undefined;

/** The binary's path, or why there is none (exit 3 of the script: it cannot be had here). */
export function prometheusBinary(): { path?: string; why?: string } {
  if (cached !== undefined) return cached;
  try {
    cached = { path: execFileSync("bash", [SCRIPT], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 300_000 }).trim() };
  } catch (e) {
    const err = e as { status?: number; stderr?: string };
    if (err.status !== 3) throw e;
    cached = { why: (err.stderr ?? "").trim() || "scripts/prometheus.sh: Prometheus cannot be had here" };
  }
  return cached;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ScrapeTarget {
  /** `127.0.0.1:<port>` */
  hostPort: string;
  scheme: "http" | "https";
}

export interface RunningPrometheus {
  /** `http://127.0.0.1:<port>`: the address an analysis's `prometheus.address` takes. */
  address: string;
  /** Query now; the samples' values. */
  query(promql: string): Promise<number[]>;
  /** Poll until `promql` returns `expected` (a loaded machine may scrape late: no fixed sleep). */
  waitFor(promql: string, test: (values: number[]) => boolean, timeoutMs?: number): Promise<number[]>;
  stop(): Promise<void>;
}

/** Start Prometheus scraping `targets` every second; resolves once it is ready and has scraped each. */
export async function startPrometheus(binary: string, targets: readonly ScrapeTarget[]): Promise<RunningPrometheus> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-prometheus-"));
  const jobs = targets.map(
    (t, i) => `  - job_name: fleet-${i}
    scrape_interval: 1s
    scrape_timeout: 1s
    scheme: ${t.scheme}
    tls_config: {insecure_skip_verify: true}
    static_configs: [{targets: ["${t.hostPort}"]}]`,
  );
  fs.writeFileSync(path.join(dir, "prometheus.yml"), `global: {scrape_interval: 1s, evaluation_interval: 1s}\nscrape_configs:\n${jobs.join("\n")}\n`);
  const port = await freePort();
  const address = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    binary,
    [`--config.file=${path.join(dir, "prometheus.yml")}`, `--storage.tsdb.path=${path.join(dir, "data")}`, `--web.listen-address=127.0.0.1:${port}`, "--log.level=warn"],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  let exited = false;
  child.on("exit", () => (exited = true));

  const get = (url: string): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      http
        .get(url, (res) => {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString("utf8")));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        })
        .on("error", reject);
    });
  const query = async (promql: string): Promise<number[]> => {
    const { body } = await get(`${address}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const parsed = JSON.parse(body) as { data: { result: Array<{ value: [number, string] }> } };
    return parsed.data.result.map((s) => Number(s.value[1]));
  };
  const waitFor = async (promql: string, test: (values: number[]) => boolean, timeoutMs = 120_000): Promise<number[]> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (exited) throw new Error(`prometheus exited: ${stderr}`);
      const values = await query(promql).catch(() => undefined);
      if (values !== undefined && test(values)) return values;
      if (Date.now() > deadline) throw new Error(`prometheus: ${promql} did not reach the expected values in ${timeoutMs} ms (last ${JSON.stringify(values)}); stderr: ${stderr}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  // Ready, then every target scraped once (`up` is 1 for each).
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited) throw new Error(`prometheus exited at start: ${stderr}`);
    const ready = await get(`${address}/-/ready`).catch(() => undefined);
    if (ready?.status === 200) break;
    if (Date.now() > deadline) throw new Error(`prometheus not ready after 120 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  await waitFor("up", (v) => v.length === targets.length && v.every((x) => x === 1));
  return {
    address,
    query,
    waitFor,
    stop: async () => {
      if (!exited) {
        child.kill("SIGTERM");
        await new Promise<void>((resolve) => (exited ? resolve() : child.once("exit", () => resolve())));
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The sick-cluster rollout's fleet in an ARM emulator (upgrades 3 s each; `realTimeScenario` with
 * `realSeconds`, for a client on the real clock), and a Prometheus scraping the emulator's own
 * `/metrics`, ready once it has every cluster's series.
 */
export async function startMeasuredEmulator(binary: string): Promise<{ scenario: Scenario; emulator: ArmEmulator; prometheus: RunningPrometheus; close: () => Promise<void> }> {
  const scenario = realTimeScenario("http://unused", false, true);
  const emulator = await startArmEmulator({
    fleet: { regions: scenario.regions, members: scenario.members },
    msPerSimulatedMinute: 3_000,
    subscriptionId: EMULATOR_SUBSCRIPTION,
    resourceGroup: EMULATOR_RESOURCE_GROUP,
    throttling: false,
  });
  const prometheus = await startPrometheus(binary, [{ hostPort: emulator.url.replace("https://", ""), scheme: "https" }]);
  await prometheus.waitFor("count(cluster_error_rate)", (v) => v[0] === scenario.members.length);
  return {
    scenario,
    emulator,
    prometheus,
    close: async () => {
      await prometheus.stop();
      await emulator.close();
    },
  };
}

/** A small exporter on 127.0.0.1 serving `text()` on /metrics (Prometheus' text format). */
export async function startExporter(text: () => string): Promise<{ target: ScrapeTarget; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.url !== "/metrics") {
      res.writeHead(404).end();
      return;
    }
    const body = text();
    res.writeHead(200, { "content-type": "text/plain; version=0.0.4" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    target: { hostPort: `127.0.0.1:${port}`, scheme: "http" },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
