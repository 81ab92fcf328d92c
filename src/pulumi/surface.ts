/**
 * The Pulumi surface of `UpdateRun` and `UpdateStrategy`: each resource's description, its inputs as a
 * program writes them, and its outputs, as zod schemas. A field's `.meta({ description })` — here, or on
 * the run spec's and the model's schemas these reuse (`src/spec/runSpec.ts`, `src/model/`) — is the one
 * description of that field. Every copy a user reads is written from it and checked against it by
 * `scripts/surface.js` (`npm run surface`; `test/pulumi/surface.test.ts` fails on any difference):
 * `schema.json` (the plugin's GetSchema, `plugin/schema.ts`, and the SDKs generated from it), the doc
 * comments of the TypeScript Args and resource classes (`program/updateRun.ts`, `updateStrategy.ts`,
 * `backendArgs.ts`), and docs/reference.md. How to add a field: docs/architecture.md "Describing a field".
 *
 * Meta keys: `description` (a property, or a resource), `objectType: { name, description }` (an object
 * schema: its type's name in `schema.json` and the SDKs, and what the type is), `secret: true` (a
 * property Pulumi keeps encrypted).
 */
import { z } from "zod";
import type { MemberDrift } from "../engine/drift";
import type { FailedMember } from "../engine/results";
import type { RunState } from "../engine/runState";
import type { RunSummary } from "../engine/summary";
import type { ExcludedMember } from "../model/run";
import type { UpdateRunStatus } from "../model/status";
import { UpdateRunStrategySchema } from "../model/strategy";
import { ManagedClusterUpdateSchema, NodeImageVersionRefSchema } from "../model/update";
import type { FleetRunRecord } from "../drivers/runDriver";
import type { Plan } from "../plan/types";
import { StrategyBackendSchema, UpdateRunInputsSchema } from "../spec/runSpec";

export const UPDATE_RUN_DESCRIPTION =
  "One staged update of a fleet's members: `pulumi up` executes it — stages in order, groups in parallel, members one at a time (or `maxConcurrency` at a time), waits, gates and maintenance windows — and stores the run's status (Azure Fleet's `UpdateRunStatus` shape) as outputs. Changing the target, the members, the strategy or the backend makes a new run; `state`, `skip`, `approvals` and the time limits steer the same run. Destroying it forgets the run; clusters are never touched.";

export const UPDATE_STRATEGY_DESCRIPTION =
  "A reusable, validated update sequence in Azure's `UpdateRunStrategy` shape: pass its `strategy` output to an `UpdateRun`. With `backend.azureFleet` it is also kept in Fleet Manager as the fleet's update strategy named after the resource.";

/** The input naming the Pulumi project's folder (`provider/projectDir.ts` resolves paths against it). */
export const PROJECT_DIR_KEY = "projectDir";

/** `UpdateRun`'s inputs as a program gives them: the run spec without `runName` (the resource's name), plus `projectDir` (`provider/projectDir.ts`). */
export const UpdateRunResourceInputsSchema = UpdateRunInputsSchema.omit({ runName: true }).extend({
  [PROJECT_DIR_KEY]: z
    .string()
    .optional()
    .meta({
      description:
        "The folder relative paths (`fleetFile`, `stateFile`, `trustedCaFile`, the journal directory `.fleet-update/runs`) are resolved against. Default: the Pulumi project's folder, the one holding Pulumi.yaml (the TypeScript classes record it when the program runs; the provider plugin takes the folder it was started in, which for a program without `main` is the project's). A change of this alone neither replaces nor updates the run.",
    }),
});

/**
 * What `UpdateRun` returns besides its inputs, in the order the provider writes them: the driver's
 * view of the run (`RunView`, src/drivers/runDriver.ts) and its plan. Opaque shapes the engine alone
 * produces (the status tree, the summary, the plan, the engine's state) are `z.custom`: `schema.json`
 * types them `pulumi.json#/Any`.
 */
export const UpdateRunOutputsSchema = z.strictObject({
  status: z.custom<UpdateRunStatus>().meta({
    description:
      "The run's status tree in Azure Fleet's `UpdateRunStatus` shape (docs/rules.md §5): the run's, each stage's, group's and member's state and times, gates, waits, operation ids and errors; fields without a value are absent, as in Azure's responses.",
  }),
  summary: z.custom<RunSummary>().meta({ description: "Counts of members per state, start, end, duration, and the outcome (`Succeeded`, `CompletedWithFailures`, `Failed`, `Stopped`, `Pending`)." }),
  strategySnapshot: UpdateRunStrategySchema.meta({ description: "The strategy the run snapshotted when it was created." }),
  selectedNodeImageVersions: z.array(z.string()).meta({ description: "Node image versions picked for the run (Consistent) or given (Custom)." }),
  excludedMembers: z.array(z.custom<ExcludedMember>()).meta({
    description: "Members left out of the run, each with why: its group is in no stage, or no group's label selector (`memberSelector.byLabel`) selects it.",
  }),
  failedMembers: z.array(z.custom<FailedMember>()).meta({ description: "Members that failed (name, group, cluster): pass them as `members` of a retry run." }),
  appliedNodeImageVersions: z.array(NodeImageVersionRefSchema).meta({
    description:
      "One node image per family that the run actually applied: pass them as `nodeImageSelection: { type: Custom, customNodeImageVersions }` to retry or promote with exactly these images.",
  }),
  drift: z.array(z.custom<MemberDrift>()).meta({
    description:
      "Members the run Completed whose clusters no longer report what it applied (rolled back, changed by hand), as the last `pulumi refresh` found them, each with what the cluster reports. The run is not re-run: a new run puts them right.",
  }),
  engineState: z
    .custom<RunState>()
    .optional()
    .meta({
      description:
        "The engine's state to resume the run from (engine driver), without the members' health checks. Secret: it copies the inputs that define the run. Absent on Fleet Manager, which holds the run.",
      secret: true,
    }),
  fleetRun: z
    .custom<FleetRunRecord>()
    .optional()
    .meta({
      description:
        "`azureFleet` only: the ARM id of the fleet's update run, the skip entries already sent to it (each is sent once), the analyses measured at the gates the client added (`analysis`) and, when one failed, why the client stopped the run (`halt`).",
    }),
  generatedUpdate: ManagedClusterUpdateSchema.optional().meta({
    description: "With `autoUpgradeProfile`: the `managedClusterUpdate` the channel generated when the run started. Absent otherwise.",
  }),
  plan: z
    .custom<Plan>()
    .optional()
    .meta({
      description:
        "The run as predicted when it was created (simulated fleet, up to 2,000 members): each member's stage, group, priority class, predicted start and end, Pending periods, and the pre-flight findings — `fleet-update plan --json`'s object. Absent on Azure (run `fleet-update plan`).",
    }),
});
export type UpdateRunOutputs = z.output<typeof UpdateRunOutputsSchema>;

/** The names of `UpdateRun`'s outputs, in order. */
export const UPDATE_RUN_OUTPUTS = Object.keys(UpdateRunOutputsSchema.shape) as Array<keyof UpdateRunOutputs>;

/** `UpdateStrategy`'s inputs: its stages, and where else it is kept. */
export const UpdateStrategyResourceInputsSchema = z.strictObject({
  stages: UpdateRunStrategySchema.shape.stages,
  backend: StrategyBackendSchema.optional().meta({ description: "Keep the strategy in Fleet Manager too (created, updated with its eTag, deleted on destroy)." }),
});

/** What `UpdateStrategy` returns besides its inputs. */
export const UpdateStrategyOutputsSchema = z.strictObject({
  strategy: UpdateRunStrategySchema.meta({ description: "The validated strategy, normalized: pass it to an `UpdateRun`'s `strategy`." }),
  strategyName: z.string().optional().meta({ description: "With `backend.azureFleet`: the name of the fleet's update strategy, the resource's name." }),
  updateStrategyId: z
    .string()
    .optional()
    .meta({ description: "With `backend.azureFleet`: the ARM id of the fleet's update strategy; pass it to an `UpdateRun`'s `updateStrategyId`." }),
  eTag: z
    .string()
    .optional()
    .meta({ description: "With `backend.azureFleet`: the fleet strategy's eTag as last written or read; an update writes only over that version." }),
});

/** The meta of a schema as `.meta()` gave it (its own, and what it inherits from the schema it was made from). */
export function metaOf(schema: z.ZodType): { description?: string; secret?: boolean } {
  return (z.globalRegistry.get(schema) ?? {}) as { description?: string; secret?: boolean };
}

/**
 * Top-level `UpdateRun` properties Pulumi keeps secret whatever the program says (issue 11, 24): the
 * engine's state copies every input that defines the run; `webhook` holds a bearer token and a URL
 * that may hold one. The dynamic-provider host accepts no secrets, so the class marks them
 * (`additionalSecretOutputs`); the plugin's schema marks them `secret`.
 */
export const UPDATE_RUN_SECRET_OUTPUTS: readonly string[] = [
  ...Object.entries(UpdateRunResourceInputsSchema.shape).filter(([, schema]) => metaOf(schema).secret === true),
  ...Object.entries(UpdateRunOutputsSchema.shape).filter(([, schema]) => metaOf(schema).secret === true),
].map(([name]) => name);
