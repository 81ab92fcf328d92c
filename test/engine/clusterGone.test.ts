/**
 * A member whose cluster is gone (ARM 404 `ResourceNotFound`: deleted before its turn, or while it was
 * being upgraded) fails with that error, under the usual failure rules (docs/rules.md §3.7, tolerance), instead
 * of every later pass throwing and the whole run standing still.
 */
import { describe, expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import { BackendError, type ClusterBackend, type MemberRef } from "../../src/engine/backend";
import { VirtualClock } from "../../src/engine/clock";
import { drive } from "../../src/engine/drive";
import { UpdateRunEngine } from "../../src/engine/engine";
import { parseScenario } from "../../src/simulation/scenario";
import { START, member, scenario } from "./helpers";
import { updateChoiceOf } from "../../src/model/autoUpgrade";

/** The simulated fleet, but the clusters named in `gone` answer 404 as ARM does for a deleted cluster. */
function withGone(fleet: SimulatedFleet, gone: Set<string>, code = "ResourceNotFound"): ClusterBackend {
  const check = (ref: MemberRef) => {
    if (gone.has(ref.name)) throw new BackendError(code, `The Resource 'Microsoft.ContainerService/managedClusters/${ref.name}' under resource group 'rg' was not found.`);
  };
  return new Proxy(fleet, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop !== "getCluster" && prop !== "getOperation") return typeof value === "function" ? value.bind(target) : value;
      return (ref: MemberRef, ...rest: unknown[]) => {
        check(ref);
        return (value as (...a: unknown[]) => unknown).call(target, ref, ...rest);
      };
    },
  }) as unknown as ClusterBackend;
}

async function run(strategy: string, gone: Set<string>, goneAt?: { member: string; minute: number }, code?: string) {
  const parsed = parseScenario(scenario({ members: [member("a", { group: "g" }), member("b", { group: "g" }), member("c", { group: "g" })], strategy }));
  const clock = new VirtualClock(Date.parse(START));
  const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
  const engine = UpdateRunEngine.create({ name: "run", members: parsed.members.map((m) => ({ name: m.name, group: m.group as string })), strategy: parsed.strategy, ...updateChoiceOf(parsed) }, withGone(fleet, gone, code));
  engine.start(clock.now());
  await drive(engine, clock, {
    until: Date.parse(START) + 24 * 3600_000,
    onPass: () => {
      if (goneAt !== undefined && clock.now() >= Date.parse(START) + goneAt.minute * 60_000) gone.add(goneAt.member);
    },
  });
  const members = Object.fromEntries(engine.status().stages.flatMap((s) => s.groups.flatMap((g) => g.members)).map((m) => [m.name, m]));
  return { engine, members, upgraded: fleet.operationLog().map((o) => o.member) };
}

describe("a member whose cluster is gone", () => {
  it("deleted before its turn: it fails with ARM's error; with a tolerance of one the others complete", async () => {
    const { engine, members, upgraded } = await run('{stages: [{name: s, groups: [{name: g, maxAllowedFailures: "1"}]}]}', new Set(["b"]));
    expect(members.b?.status).toMatchObject({ state: "Failed", error: { code: "ResourceNotFound" } });
    expect([members.a?.status.state, members.c?.status.state]).toEqual(["Completed", "Completed"]);
    expect(engine.status().status.state).toBe("Completed");
    expect(upgraded.sort()).toEqual(["a", "c"]);
  });

  it("without tolerance it fails the run, as any failure does; nothing after it starts", async () => {
    const { engine, members } = await run("{stages: [{name: s, groups: [{name: g}]}]}", new Set(["b"]));
    expect(members.b?.status.state).toBe("Failed");
    expect(members.c?.status.state).toBe("NotStarted");
    expect(engine.status().status.state).toBe("Failed");
    expect(engine.settled).toBe(true);
  });

  it("deleted while it is being upgraded: its upgrade fails with ARM's error, the run goes on within its tolerance", async () => {
    const { engine, members } = await run('{stages: [{name: s, groups: [{name: g, maxAllowedFailures: "1"}]}]}', new Set(), { member: "a", minute: 0 });
    expect(members.a?.status).toMatchObject({ state: "Failed", error: { code: "ResourceNotFound" } });
    expect([members.b?.status.state, members.c?.status.state]).toEqual(["Completed", "Completed"]);
    expect(engine.status().status.state).toBe("Completed");
  });

  it("NotFound (the 404 of the emulator and the simulated fleet) is gone too", async () => {
    const { members } = await run('{stages: [{name: s, groups: [{name: g, maxAllowedFailures: "1"}]}]}', new Set(["b"]), undefined, "NotFound");
    expect(members.b?.status).toMatchObject({ state: "Failed", error: { code: "NotFound" } });
    expect([members.a?.status.state, members.c?.status.state]).toEqual(["Completed", "Completed"]);
  });

  it("another error from the backend is not taken as a gone cluster: no member fails for it, the pass is refused with it", async () => {
    await expect(run('{stages: [{name: s, groups: [{name: g, maxAllowedFailures: "1"}]}]}', new Set(["b"]), undefined, "InternalServerError")).rejects.toThrow(/was not found/);
  });
});
