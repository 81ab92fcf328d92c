/**
 * The "response lost after write" fault: a write (PUT, POST, PATCH, DELETE) is applied, then the
 * connection is reset instead of answered, so the client cannot tell whether it happened. Seeded like
 * the other faults; reads and refused writes are never lost.
 */
import { afterEach, expect, test } from "vitest";
import type { ArmEmulator } from "../../src/emulator";
import { clusterPath, raw, startTestEmulator } from "./helpers";

let emulator: ArmEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const upgradeBody = { location: "westeurope", properties: { kubernetesVersion: "1.32.0" } };

test("a lost answer: the upgrade was started, the client got a reset; reads and refusals are answered", async () => {
  // A simulated minute per real minute: the upgrade is still running when it is read, however slow the machine.
  emulator = await startTestEmulator({ faults: { lostResponseRate: 1 }, throttling: false, msPerSimulatedMinute: 60_000 });
  const put = await raw(emulator, "PUT", clusterPath("beta"), { body: upgradeBody }).then(
    (r) => r.status,
    (e: NodeJS.ErrnoException) => e.code,
  );
  expect(put).toBe("ECONNRESET");
  expect(emulator.fleet.operationLog()).toMatchObject([{ member: "beta", kind: "ControlPlaneOnly" }]);
  const get = await raw(emulator, "GET", clusterPath("beta"));
  expect([get.status, get.body.properties.provisioningState, get.body.properties.kubernetesVersion]).toEqual([200, "Upgrading", "1.32.0"]);
  // Sent again, the same write is refused (busy): a refusal changed nothing, so its answer arrives.
  const again = await raw(emulator, "PUT", clusterPath("beta"), { body: upgradeBody });
  expect([again.status, again.body.error.code]).toEqual([409, "OperationNotAllowed"]);
  expect(emulator.requests.map((r) => [r.method, r.status, r.fault])).toEqual([
    ["PUT", 0, "lostResponse"],
    ["GET", 200, undefined],
    ["PUT", 409, undefined],
  ]);
  expect(emulator.counters.injected.lostResponse).toBe(1);
});

test("the same seed loses the same writes, and turning it on does not move the other faults", async () => {
  /** Per request (no-op PUTs and GETs, alternating): the injected fault, or "-". */
  const faults = async (seed: number, lostResponseRate: number) => {
    const e = await startTestEmulator({ faults: { serverErrorRate: 0.3, lostResponseRate }, seed, throttling: false });
    try {
      for (let i = 0; i < 24; i++) {
        // A PUT that changes nothing succeeds without starting anything, so it can be repeated.
        await raw(e, "PUT", clusterPath("epsilon"), { body: { location: "eastus", properties: {} } }).catch(() => undefined);
        await raw(e, "GET", clusterPath("epsilon")).catch(() => undefined);
      }
      return e.requests.map((r) => r.fault ?? "-");
    } finally {
      await e.close();
    }
  };
  const first = await faults(11, 0.5);
  expect(await faults(11, 0.5)).toEqual(first);
  const lost = first.filter((f) => f === "lostResponse").length;
  expect(lost).toBeGreaterThan(3);
  expect(lost).toBeLessThan(20);
  expect(await faults(12, 0.5)).not.toEqual(first);
  // Without lost responses, the 5xx fall on exactly the same requests.
  const serverErrors = (list: string[]) => list.map((f, i) => (f === "serverError" ? i : -1)).filter((i) => i >= 0);
  expect(serverErrors(await faults(11, 0))).toEqual(serverErrors(first));
});
