/**
 * Our Pulumi resources against `@pulumi/azure-native`'s `containerservice` types (3.28.0, whose Fleet
 * resources use Azure API 2024-05-02-preview): a strategy or a `managedClusterUpdate` written for
 * azure-native's `FleetUpdateStrategy` / `UpdateRun` can be passed to our `UpdateStrategy` / `UpdateRun`
 * unchanged, and the other way round.
 *
 * Most assertions here are type-level: `tsc -p tsconfig.json --noEmit` (npm run typecheck) checks
 * them, and vitest runs the runtime ones (our validation accepts those values, rejects what Azure's
 * looser types let through). azure-native is imported for its types only, from its module paths
 * rather than its index (which would make tsc parse every Azure service), so nothing of it is
 * loaded at run time.
 */
import type * as azure from "@pulumi/azure-native/containerservice";
import type * as azEnums from "@pulumi/azure-native/types/enums/containerservice";
import type * as azIn from "@pulumi/azure-native/types/input";
import type * as azOut from "@pulumi/azure-native/types/output";
import { describe, expect, expectTypeOf, it } from "vitest";
import { ManagedClusterUpdateSchema, type ManagedClusterUpdate } from "../../../src/model/update";
import type { ErrorDetail, MemberUpdateStatus, UpdateGroupStatus, UpdateRunStatus, UpdateStageStatus, UpdateStatus, WaitStatus } from "../../../src/model/status";
import { UpdateRunStrategySchema, type UpdateRunStrategy } from "../../../src/model/strategy";
import type {
  ManagedClusterUpgradeSpecArgs,
  NodeImageSelectionArgs,
  UpdateGroupArgs,
  UpdateRun,
  UpdateRunArgs,
  UpdateStageArgs,
  UpdateStrategy,
  UpdateStrategyArgs,
} from "../../../src/pulumi";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseScenario } from "../../../src/simulation/scenario";
import { simulateScenario } from "../../../src/simulation/simulateScenario";
import {
  asExactStatus,
  type ErrorDetailOutput,
  type MemberUpdateStatusOutput,
  type UpdateGroupStatusOutput,
  type UpdateRunStatusOutput,
  type UpdateStageStatusOutput,
  type UpdateStatusOutput,
  type WaitStatusOutput,
} from "../../../src/pulumi/program/statusOutput";
import { checkRunInputs } from "../../../src/drivers/runInputs";
import { check as checkStrategy } from "../../../src/pulumi/provider/strategyProvider";

type AzStrategyArgs = azIn.containerservice.UpdateRunStrategyArgs;
type AzStageArgs = azIn.containerservice.UpdateStageArgs;
type AzGroupArgs = azIn.containerservice.UpdateGroupArgs;
type AzManagedClusterUpdateArgs = azIn.containerservice.ManagedClusterUpdateArgs;
type AzUpgradeSpecArgs = azIn.containerservice.ManagedClusterUpgradeSpecArgs;
type AzNodeImageSelectionArgs = azIn.containerservice.NodeImageSelectionArgs;
type AzRunStatus = azOut.containerservice.UpdateRunStatusResponse;
type AzStageStatus = azOut.containerservice.UpdateStageStatusResponse;
type AzGroupStatus = azOut.containerservice.UpdateGroupStatusResponse;
type AzMemberStatus = azOut.containerservice.MemberUpdateStatusResponse;
type AzUpdateStatus = azOut.containerservice.UpdateStatusResponse;
type AzWaitStatus = azOut.containerservice.WaitStatusResponse;
type AzErrorDetail = azOut.containerservice.ErrorDetailResponse;
type AzNodeImageSelectionStatus = azOut.containerservice.NodeImageSelectionStatusResponse;

/** Constructor arguments, as `new X(name, args)` takes them. */
type ArgsOf<C extends abstract new (...args: never[]) => unknown> = ConstructorParameters<C>[1];

/** Written for `new containerservice.FleetUpdateStrategy("rollout", { ..., strategy: azStrategy })`. */
const azStrategy: AzStrategyArgs = {
  stages: [
    { name: "canary", groups: [{ name: "canary" }], afterStageWaitInSeconds: 600 },
    { name: "prod", groups: [{ name: "prod-eu" }, { name: "prod-us" }, { name: "prod-asia" }] },
  ],
};
const azFleetStrategyArgs: ArgsOf<typeof azure.FleetUpdateStrategy> = { fleetName: "fleet", resourceGroupName: "rg", strategy: azStrategy };

/** Written for `new containerservice.UpdateRun("k8s-1-32", { ..., managedClusterUpdate })`. */
const azFullUpgrade: AzManagedClusterUpdateArgs = {
  upgrade: { type: "Full" satisfies azEnums.ManagedClusterUpgradeType, kubernetesVersion: "1.32.0" },
  nodeImageSelection: { type: "Consistent" satisfies azEnums.NodeImageSelectionType },
};
const azNodeImageUpgrade: AzManagedClusterUpdateArgs = { upgrade: { type: "NodeImageOnly" }, nodeImageSelection: { type: "Latest" } };
const azControlPlaneUpgrade: AzManagedClusterUpdateArgs = { upgrade: { type: "ControlPlaneOnly", kubernetesVersion: "1.33.1" } };
const azUpdateRunArgs: ArgsOf<typeof azure.UpdateRun> = { fleetName: "fleet", resourceGroupName: "rg", strategy: azStrategy, managedClusterUpdate: azFullUpgrade };

describe("strategy: azure-native's UpdateRunStrategyArgs fits UpdateStrategy and UpdateRun", () => {
  it("type level: every azure-native strategy input is one of ours", () => {
    // The very values written for azure-native, passed unchanged.
    const asRunStrategy: UpdateRunArgs["strategy"] = azStrategy;
    const asStrategyArgs: UpdateStrategyArgs = azStrategy;
    const asStages: UpdateStrategyArgs["stages"] = azStrategy.stages;
    const fromFleetArgs: ArgsOf<typeof UpdateRun>["strategy"] = azFleetStrategyArgs.strategy;
    const fromRunArgs: ArgsOf<typeof UpdateRun>["strategy"] = azUpdateRunArgs.strategy;
    const fromRunArgsToStrategy: ArgsOf<typeof UpdateStrategy> = { stages: azStrategy.stages };
    expect([asRunStrategy, asStrategyArgs, asStages, fromFleetArgs, fromRunArgs, fromRunArgsToStrategy]).toHaveLength(6);

    // Every form azure-native allows (nested Outputs and Promises included), not just these values.
    expectTypeOf<AzStrategyArgs>().toExtend<UpdateStrategyArgs>();
    expectTypeOf<AzStageArgs>().toExtend<UpdateStageArgs>();
    expectTypeOf<AzGroupArgs>().toExtend<UpdateGroupArgs>();
    expectTypeOf<ArgsOf<typeof azure.FleetUpdateStrategy>["strategy"]>().toExtend<UpdateRunArgs["strategy"]>();
    expectTypeOf<ArgsOf<typeof azure.UpdateRun>["strategy"]>().toExtend<UpdateRunArgs["strategy"]>();
    expectTypeOf<AzStrategyArgs["stages"]>().toExtend<UpdateStrategyArgs["stages"]>();
    // An existing Azure strategy's output feeds our run: `strategy: azFleetStrategy.strategy`.
    expectTypeOf<azure.FleetUpdateStrategy["strategy"]>().toExtend<UpdateRunArgs["strategy"]>();
    expectTypeOf<azure.UpdateRun["strategy"]>().toExtend<UpdateRunArgs["strategy"]>();
    expectTypeOf<azOut.containerservice.UpdateRunStrategyResponse>().toExtend<UpdateStrategyArgs>();
  });

  it("type level: ours still takes what it took, and feeds azure-native", () => {
    expectTypeOf<UpdateStrategy["strategy"]>().toExtend<UpdateRunArgs["strategy"]>();
    expectTypeOf<UpdateRunStrategy>().toExtend<UpdateStrategyArgs>();
    expectTypeOf<UpdateRunStrategy["stages"]>().toExtend<UpdateStrategyArgs["stages"]>();
    // `maxConcurrency` (ours, docs/rules.md §6) is extra to Azure's 2024-05-02-preview shape: structurally fine.
    expectTypeOf<UpdateStrategy["strategy"]>().toExtend<ArgsOf<typeof azure.FleetUpdateStrategy>["strategy"]>();
    expectTypeOf<UpdateStrategy["strategy"]>().toExtend<ArgsOf<typeof azure.UpdateRun>["strategy"]>();
    // ...but azure-native 3.28.0 has no `maxConcurrency` field, so a literal carrying one is refused there.
    // @ts-expect-error: 'maxConcurrency' does not exist in type 'UpdateGroupArgs' (azure-native)
    const withConcurrency: AzGroupArgs = { name: "prod-us", maxConcurrency: "2" };
    expect(withConcurrency.name).toBe("prod-us");
  });

  it("runtime: those values pass our validation unchanged", async () => {
    expect(UpdateRunStrategySchema.parse(azStrategy)).toEqual(azStrategy);
    expect(UpdateRunStrategySchema.parse(azFleetStrategyArgs.strategy)).toEqual(azStrategy);
    // Check passes the stages through and adds the normalized strategy (known at preview).
    expect(await checkStrategy({}, { stages: azStrategy.stages })).toEqual({ inputs: { stages: azStrategy.stages, strategy: azStrategy }, failures: [] });
  });

  it("runtime: a stage without groups, which azure-native's type allows, fails our provider's check", async () => {
    const noGroups: AzStrategyArgs = { stages: [{ name: "canary", afterStageWaitInSeconds: 60 }] };
    const asOurs: UpdateStrategyArgs = noGroups;
    const { failures } = await checkStrategy({}, { stages: asOurs.stages });
    expect(failures).toEqual([{ property: "stages[0].groups", reason: "is required" }]);
    expect(UpdateRunStrategySchema.safeParse(noGroups).success).toBe(false);
  });
});

describe("managedClusterUpdate: azure-native's ManagedClusterUpdateArgs fits UpdateRun", () => {
  it("type level: every azure-native managedClusterUpdate input is one of ours", () => {
    const asOurs: UpdateRunArgs["managedClusterUpdate"] = azFullUpgrade;
    const fromRunArgs: ArgsOf<typeof UpdateRun>["managedClusterUpdate"] = azUpdateRunArgs.managedClusterUpdate;
    expect([asOurs, fromRunArgs]).toHaveLength(2);

    expectTypeOf<AzManagedClusterUpdateArgs>().toExtend<UpdateRunArgs["managedClusterUpdate"]>();
    expectTypeOf<ArgsOf<typeof azure.UpdateRun>["managedClusterUpdate"]>().toExtend<UpdateRunArgs["managedClusterUpdate"]>();
    expectTypeOf<AzUpgradeSpecArgs>().toExtend<ManagedClusterUpgradeSpecArgs>();
    expectTypeOf<AzNodeImageSelectionArgs>().toExtend<NodeImageSelectionArgs>();
    // An Azure run's output feeds our run: `managedClusterUpdate: azRun.managedClusterUpdate`.
    expectTypeOf<azure.UpdateRun["managedClusterUpdate"]>().toExtend<UpdateRunArgs["managedClusterUpdate"]>();
    // Azure's enum types are the same values as ours.
    expectTypeOf<azEnums.ManagedClusterUpgradeType>().toEqualTypeOf<ManagedClusterUpdate["upgrade"]["type"]>();
    expectTypeOf<azEnums.NodeImageSelectionType>().toEqualTypeOf<NonNullable<ManagedClusterUpdate["nodeImageSelection"]>["type"]>();
  });

  it("type level: ours still takes what it took, and feeds azure-native", () => {
    expectTypeOf<ManagedClusterUpdate>().toExtend<UpdateRunArgs["managedClusterUpdate"]>();
    expectTypeOf<ManagedClusterUpdate>().toExtend<AzManagedClusterUpdateArgs>();
    // azure-native 3.28.0's NodeImageSelectionArgs has only `type`: no `customNodeImageVersions` literal there.
    // @ts-expect-error: 'customNodeImageVersions' does not exist in type 'NodeImageSelectionArgs' (azure-native)
    const custom: AzNodeImageSelectionArgs = { type: "Custom", customNodeImageVersions: [{ version: "AKSUbuntu-2204gen2containerd-202611.24.0" }] };
    expect(custom.type).toBe("Custom");
  });

  it("runtime: those values pass our validation unchanged", () => {
    for (const update of [azFullUpgrade, azNodeImageUpgrade, azControlPlaneUpgrade]) {
      expect(ManagedClusterUpdateSchema.parse(update)).toEqual(update);
    }
    const issues = checkRunInputs({
      runName: "k8s-1-32",
      backend: { simulator: { fleetFile: "fleet.yaml" } },
      members: [
        { name: "canary-1", group: "canary" },
        { name: "eu-1", group: "prod-eu" },
        { name: "us-1", group: "prod-us" },
        { name: "asia-1", group: "prod-asia" },
      ],
      strategy: azUpdateRunArgs.strategy,
      managedClusterUpdate: azUpdateRunArgs.managedClusterUpdate,
    });
    expect(issues).toEqual([]);
  });

  it("runtime: an enum value azure-native's `string` type lets through fails our provider's check", () => {
    const typo: AzManagedClusterUpdateArgs = { upgrade: { type: "full", kubernetesVersion: "1.32.0" } };
    const asOurs: UpdateRunArgs["managedClusterUpdate"] = typo;
    const issues = checkRunInputs({ runName: "r", backend: { simulator: { fleetFile: "fleet.yaml" } }, members: [], managedClusterUpdate: asOurs });
    expect(issues).toEqual([{ path: "managedClusterUpdate.upgrade.type", message: "must be one of Full, ControlPlaneOnly, NodeImageOnly" }]);
  });
});

describe("status: ours is read wherever azure-native's run status is expected", () => {
  it("type level: UpdateRun.status fits azure-native's UpdateRun.status, level by level", () => {
    // A program written for `new containerservice.UpdateRun(...)` reads `run.status` unchanged.
    expectTypeOf<UpdateRun["status"]>().toExtend<azure.UpdateRun["status"]>();
    expectTypeOf<UpdateRunStatusOutput>().toExtend<AzRunStatus>();
    expectTypeOf<UpdateStageStatusOutput>().toExtend<AzStageStatus>();
    expectTypeOf<UpdateGroupStatusOutput>().toExtend<AzGroupStatus>();
    expectTypeOf<MemberUpdateStatusOutput>().toExtend<AzMemberStatus>();
    expectTypeOf<UpdateStatusOutput>().toExtend<AzUpdateStatus>();
    expectTypeOf<WaitStatusOutput>().toExtend<AzWaitStatus>();
    expectTypeOf<ErrorDetailOutput>().toExtend<AzErrorDetail>();
    expectTypeOf<UpdateRunStatusOutput["nodeImageSelection"]>().toExtend<AzNodeImageSelectionStatus>();
    // The same fields at every level: nothing of Azure's is missing from ours.
    expectTypeOf<keyof AzRunStatus>().toExtend<keyof UpdateRunStatusOutput>();
    expectTypeOf<keyof AzStageStatus>().toExtend<keyof UpdateStageStatusOutput>();
    expectTypeOf<keyof AzMemberStatus>().toExtend<keyof MemberUpdateStatusOutput>();
    expectTypeOf<keyof AzErrorDetail>().toExtend<keyof ErrorDetailOutput>();
    // A function written against azure-native's type takes our output.
    const readFirstMemberState = (status: AzRunStatus): string => status.stages[0]!.groups[0]!.members[0]!.status.state;
    expectTypeOf(readFirstMemberState).parameter(0).toExtend<AzRunStatus>();
    expectTypeOf<UpdateRunStatusOutput>().toExtend<Parameters<typeof readFirstMemberState>[0]>();
  });

  it("type level: the engine's exact type (optional where absent) is what the output holds at run time", () => {
    // The model's exact type is not azure-native's (its absent fields are optional, docs/rules.md §5), so the
    // output is declared in azure-native's style and `asExactStatus` gives the exact type back.
    expectTypeOf<UpdateRunStatus>().not.toExtend<AzRunStatus>();
    expectTypeOf(asExactStatus).returns.toEqualTypeOf<UpdateRunStatus>();
    // Ours adds gates and failure counts (issue 5), which Azure's 2024-05-02-preview shape lacks.
    expectTypeOf<keyof UpdateRunStatus>().toEqualTypeOf<keyof UpdateRunStatusOutput>();
    expectTypeOf<keyof UpdateStageStatus>().toEqualTypeOf<keyof UpdateStageStatusOutput>();
    expectTypeOf<keyof UpdateGroupStatus>().toEqualTypeOf<keyof UpdateGroupStatusOutput>();
    expectTypeOf<keyof MemberUpdateStatus>().toEqualTypeOf<keyof MemberUpdateStatusOutput>();
    expectTypeOf<keyof UpdateStatus>().toEqualTypeOf<keyof UpdateStatusOutput>();
    expectTypeOf<keyof WaitStatus>().toEqualTypeOf<keyof WaitStatusOutput>();
    expectTypeOf<ErrorDetail>().toEqualTypeOf<Pick<ErrorDetailOutput, "code" | "message">>();
    expectTypeOf<NonNullable<UpdateStatus["startTime"]>>().toEqualTypeOf<UpdateStatusOutput["startTime"]>();
    expectTypeOf<UpdateStatus["state"]>().toEqualTypeOf<UpdateStatusOutput["state"]>();
  });

  it("runtime: a completed run's status, read through azure-native's type, has what a reader of Azure's expects", async () => {
    const scenario = parseScenario(readFileSync(join(__dirname, "../../../examples/scenarios/02-staged-parallel.yaml"), "utf8"));
    const { result } = await simulateScenario(scenario);
    const asAzure: AzRunStatus = result.status as unknown as UpdateRunStatusOutput;
    expect(asAzure.status.state).toBe("Completed");
    for (const stage of asAzure.stages) {
      expect(typeof stage.status.startTime).toBe("string");
      for (const member of stage.groups.flatMap((g) => g.members)) {
        expect(member.status.state).toBe("Completed");
        expect(typeof member.operationId).toBe("string");
        expect(Number.isNaN(Date.parse(member.status.completedTime))).toBe(false);
        // Absent, not null or "", where there is nothing to say: as Azure's responses are.
        expect("error" in member.status).toBe(false);
      }
    }
  });
});

it("loads nothing of azure-native at run time", () => {
  expect(Object.keys(require.cache).filter((file) => file.includes("@pulumi/azure-native"))).toEqual([]);
});
