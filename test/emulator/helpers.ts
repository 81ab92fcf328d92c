/** A small simulated world served by the ARM emulator, and clients for it: the real SDK and raw HTTPS. */
import https from "node:https";
import { vi } from "vitest";
import type { TokenCredential } from "@azure/core-auth";
import { emulatorCredential } from "../../src/backends/azure/credentials";
import { ContainerServiceClient } from "@azure/arm-containerservice";
import { FleetSchema, type Fleet } from "../../src/model/fleet";
import { startArmEmulator, type ArmEmulator, type ArmEmulatorOptions } from "../../src/emulator";

// Every emulator test file imports this module: keep each test (and hook) well bounded in time.
vi.setConfig({ testTimeout: 20_000, hookTimeout: 10_000 });

export const SUBSCRIPTION = "00000000-0000-0000-0000-000000000001";
export const RESOURCE_GROUP = "rg-fleet";
export const API = "api-version=2026-06-01";

export const IMAGE_OCT = "AKSUbuntu-2204gen2containerd-202610.01.0";
export const IMAGE_NOV = "AKSUbuntu-2204gen2containerd-202611.24.0";
export const AZURE_LINUX = "AKSAzureLinux-V2gen2-202611.20.0";

export const AUTO_UPGRADE_WINDOW = {
  maintenanceWindow: { schedule: { weekly: { intervalWeeks: 1, dayOfWeek: "Saturday" } }, durationHours: 6, startTime: "02:00", utcOffset: "+00:00" },
};

/** Clusters on 1.31.2 / the October image in a region offering 1.32.0 and the November image. */
export function testFleet(): Fleet {
  const pool = (name: string, nodeImageVersion = IMAGE_OCT) => ({ name, orchestratorVersion: "1.31.2", nodeImageVersion });
  return FleetSchema.parse({
    regions: {
      westeurope: {
        kubernetesVersions: [{ version: "1.30.5" }, { version: "1.31.2" }, { version: "1.32.0" }, { version: "1.33.1", availableAt: "2099-01-01T00:00:00Z" }],
        nodeImages: [{ version: IMAGE_OCT }, { version: IMAGE_NOV }, { version: AZURE_LINUX }, { version: "AKSUbuntu-2204gen2containerd-202612.10.0", availableAt: "2099-01-01T00:00:00Z" }],
      },
      eastus: { kubernetesVersions: [{ version: "1.31.2" }], nodeImages: [{ version: IMAGE_OCT }] },
    },
    members: [
      { name: "alpha", region: "westeurope", kubernetesVersion: "1.31.2", nodePools: [pool("system"), pool("linux", AZURE_LINUX)], maintenanceConfigurations: { aksManagedAutoUpgradeSchedule: AUTO_UPGRADE_WINDOW } },
      { name: "beta", region: "westeurope", kubernetesVersion: "1.31.2", nodePools: [pool("system")] },
      { name: "gamma", region: "westeurope", kubernetesVersion: "1.31.2", nodePools: [pool("system")], simulation: { upgradeMinutes: 10, fail: { code: "UpgradeFailed", message: "drain timed out" } } },
      { name: "delta", region: "westeurope", kubernetesVersion: "1.31.2", nodePools: [pool("system")], simulation: { upgradeMinutes: 600 } },
      { name: "epsilon", region: "eastus", kubernetesVersion: "1.31.2", nodePools: [pool("system")] },
    ],
  });
}

export function startTestEmulator(options: Partial<ArmEmulatorOptions> = {}): Promise<ArmEmulator> {
  return startArmEmulator({ fleet: testFleet(), msPerSimulatedMinute: 10, ...options });
}

/** The SDK needs a credential and sends its token only over HTTPS; any token does for the emulator. */
export const fakeCredential: TokenCredential = emulatorCredential;

export function sdkClient(emulator: ArmEmulator, maxRetries = 3): ContainerServiceClient {
  return new ContainerServiceClient(fakeCredential, SUBSCRIPTION, {
    endpoint: emulator.url,
    tlsOptions: { ca: emulator.certificatePem },
    retryOptions: { maxRetries, retryDelayInMs: 5, maxRetryDelayInMs: 20 },
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One HTTPS request trusting the emulator's certificate; `path` may carry its own query (api-version is added unless `apiVersion: false`). */
export function raw(
  emulator: ArmEmulator,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; agent?: https.Agent; apiVersion?: boolean } = {},
): Promise<RawResponse> {
  const url = new URL(path.startsWith("https://") ? path : `${emulator.url}${path}`);
  if (options.apiVersion !== false && !url.searchParams.has("api-version")) url.searchParams.set("api-version", "2026-06-01");
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      {
        method,
        ca: emulator.certificatePem,
        agent: options.agent ?? false,
        headers: { ...(payload ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) } : {}), ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text === "" ? undefined : JSON.parse(text) });
        });
      },
    );
    req.on("error", reject);
    if (payload) req.write(payload);
    req.end();
  });
}

export function clusterPath(name: string, rest = ""): string {
  return `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.ContainerService/managedClusters/${name}${rest}`;
}
