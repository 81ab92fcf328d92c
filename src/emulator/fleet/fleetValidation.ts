/**
 * Request bodies of the Fleet routes, checked twice: first against the request's api-version
 * (`apiVersions.ts`; the version's wire schemas, `src/backends/azureFleet/wire/`: a field or an enum
 * value the version does not have is refused, as ARM refuses it, "Could not find member 'x' on object
 * of type 'UpdateStage'"), then with the project's own schemas (docs/rules.md §2). A bad body is a 400
 * whose message names every offending field by its path in the request (`properties.strategy.
 * stages[1].groups[0].name: ...`), with ARM's `target` (the first field) and one `details` entry per
 * problem. Nothing is changed when a body is refused. At 2026-06-02-preview a `memberSelector` is
 * parsed by our label-selector parser (`model/labelSelector.ts`, through the strategy schema): a
 * selector that does not parse is refused at `…memberSelector.byLabel`, naming the position of the fault.
 */
import { z } from "zod";
import { formatPath, friendlyErrors, parseOrThrow, ValidationError, type FieldIssue } from "../../model/issues";
import { NameSchema } from "../../model/values";
import { wireIssues } from "../../backends/azureFleet/wire/index";
import type { FleetApi } from "./apiVersions";
import { LabelsSchema } from "../../model/member";
import { SkipTargetSchema, type SkipTarget } from "../../model/skip";
import { UpdateRunStrategySchema, type UpdateRunStrategy } from "../../model/strategy";
import { ManagedClusterUpdateSchema, type ManagedClusterUpdate } from "../../model/update";
import { ArmError, type ArmErrorBody } from "../core/armErrors";
import { SYSTEM_LABEL_PREFIX } from "./fleetResources";

/** ARM's validation answer: 400 with `target` and `details`. */
export class FieldValidationError extends ArmError {
  constructor(readonly issues: FieldIssue[]) {
    super(400, "InvalidRequestContent", issues.map((i) => `${i.path}: ${i.message}`).join("; "));
  }

  override get body(): ArmErrorBody & { error: { target?: string; details: Array<{ code: string; target: string; message: string }> } } {
    const [first] = this.issues;
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(first === undefined ? {} : { target: first.path }),
        details: this.issues.map((i) => ({ code: this.code, target: i.path, message: i.message })),
      },
    };
  }
}

/** Run `parse`, turning the project's `ValidationError` into the 400 answer, every path under `prefix`. */
export function validated<T>(parse: () => T, prefix = ""): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ValidationError) {
      throw new FieldValidationError(error.issues.map((i) => ({ path: prefix === "" ? i.path : i.path === "(root)" ? prefix : `${prefix}.${i.path}`, message: i.message })));
    }
    throw error;
  }
}

const Properties = <S extends z.ZodType>(shape: S) => z.object({ properties: shape }, { error: "must be a mapping with properties" });

/** The body against the api-version's definition `schema` (every field and enum value of that version, no other). */
function checkWire(api: FleetApi, schema: z.ZodType, body: unknown): void {
  const result = schema.safeParse(body, { error: friendlyErrors });
  if (!result.success) throw new FieldValidationError(wireIssues(result.error, api.version, formatPath));
}

const StrategyBody = Properties(z.object({ strategy: UpdateRunStrategySchema }));

/** FleetUpdateStrategy PUT: `properties.strategy`, as the api-version defines it. */
export function parseStrategyBody(body: unknown, api: FleetApi): UpdateRunStrategy {
  checkWire(api, api.schemas.FleetUpdateStrategy, body);
  return validated(() => parseOrThrow(StrategyBody, body)).properties.strategy;
}

const RunBody = Properties(
  z.object({
    updateStrategyId: z.string({ error: "must be a string (the ARM id of an update strategy of this fleet)" }).min(1, "must not be empty").optional(),
    strategy: UpdateRunStrategySchema.optional(),
    managedClusterUpdate: ManagedClusterUpdateSchema,
  }),
);

export interface RunSpec {
  updateStrategyId?: string;
  strategy?: UpdateRunStrategy;
  managedClusterUpdate: ManagedClusterUpdate;
}

/** UpdateRun PUT: `properties.{updateStrategyId | strategy, managedClusterUpdate}`, as the api-version defines them. */
export function parseRunBody(body: unknown, api: FleetApi): RunSpec {
  checkWire(api, api.schemas.UpdateRun, body);
  const { properties } = validated(() => parseOrThrow(RunBody, body));
  if (properties.updateStrategyId !== undefined && properties.strategy !== undefined) {
    throw new FieldValidationError([{ path: "properties.updateStrategyId", message: "give either an inline strategy or a strategy reference (updateStrategyId), not both" }]);
  }
  return {
    ...(properties.updateStrategyId === undefined ? {} : { updateStrategyId: properties.updateStrategyId }),
    ...(properties.strategy === undefined ? {} : { strategy: properties.strategy }),
    managedClusterUpdate: properties.managedClusterUpdate,
  };
}

const SkipBody = z.object({ targets: z.array(SkipTargetSchema, { error: "must be a list of skip targets" }).min(1, "name at least one target") });

/** UpdateRuns_Skip: `{targets: [{type, name}]}`. */
export function parseSkipBody(body: unknown, api: FleetApi): SkipTarget[] {
  checkWire(api, api.schemas.SkipProperties, body);
  return validated(() => parseOrThrow(SkipBody, body)).targets;
}

/** Gates_Update (PATCH): the version's `GatePatch` (`GateUpdate` at 2025-04-01-preview); only `state: Completed` approves. */
export function parseGatePatch(body: unknown, api: FleetApi): void {
  if (api.schemas.GatePatch !== undefined) checkWire(api, api.schemas.GatePatch, body ?? {});
  const state = (body as { properties?: { state?: unknown } } | undefined)?.properties?.state;
  if (state !== "Completed") {
    throw new FieldValidationError([{ path: "properties.state", message: `must be Completed (to approve the gate), got ${JSON.stringify(state ?? null)}` }]);
  }
}

const MemberBody = Properties(
  z.object({
    clusterResourceId: z.string({ error: "is required (the ARM id of a managed cluster)" }).min(1, "must not be empty"),
    group: NameSchema.optional(),
    labels: LabelsSchema.optional(),
  }),
);

/**
 * A member's own labels: the `fleet.azure.com/*` ones are Fleet's (it sets them from the cluster), so a
 * body that sends them back — as `az fleet member reconcile` does, with what it read — changes nothing
 * of them.
 */
function ownLabels(labels: Record<string, string> | undefined): Record<string, string> | undefined {
  if (labels === undefined) return undefined;
  return Object.fromEntries(Object.entries(labels).filter(([k]) => !k.startsWith(SYSTEM_LABEL_PREFIX)));
}

/**
 * FleetMember PUT: `properties.{clusterResourceId, group, labels}`, against the version's definition
 * (`labels` from 2025-04-01-preview: at 2025-03-01 they are an unknown member, a 400 as ARM answers).
 */
export function parseMemberBody(body: unknown, api: FleetApi): { clusterResourceId: string; group?: string; labels?: Record<string, string> } {
  checkWire(api, api.schemas.FleetMember, body);
  const { clusterResourceId, group, labels } = validated(() => parseOrThrow(MemberBody, body)).properties;
  const own = ownLabels(labels);
  return { clusterResourceId, ...(group === undefined ? {} : { group }), ...(own === undefined ? {} : { labels: own }) };
}

const MemberPatch = z.object({
  properties: z.object({ group: NameSchema.optional(), labels: LabelsSchema.optional() }, { error: "must be a mapping" }).optional(),
});

/** FleetMember PATCH: `properties.{group, labels}` (`labels` from 2025-04-01-preview; a PATCH's labels replace the member's own). */
export function parseMemberPatch(body: unknown, api: FleetApi): { group?: string; labels?: Record<string, string> } {
  checkWire(api, api.schemas.FleetMemberUpdate, body ?? {});
  const { group, labels } = validated(() => parseOrThrow(MemberPatch, body ?? {})).properties ?? {};
  const own = ownLabels(labels);
  return { ...(group === undefined ? {} : { group }), ...(own === undefined ? {} : { labels: own }) };
}

const FleetBody = z.object(
  {
    location: z.string({ error: "must be a string (an Azure region name)" }).min(1, "must not be empty").optional(),
    tags: z.record(z.string(), z.string({ error: "must be a string" }), { error: "must be a mapping of strings" }).optional(),
    identity: z.record(z.string(), z.unknown(), { error: "must be a mapping (a managed service identity)" }).optional(),
  },
  { error: "must be a mapping" },
);

/** Fleets_CreateOrUpdate / Fleets_Update: `location` (required to create), `tags`, `identity` (shown as given). */
export function parseFleetBody(body: unknown, creating: boolean): z.infer<typeof FleetBody> {
  const parsed = validated(() => parseOrThrow(FleetBody, body ?? {}));
  if (creating && parsed.location === undefined) throw new FieldValidationError([{ path: "location", message: "is required (an Azure region name)" }]);
  return parsed;
}

/** A resource name in a path (strategy, run, member): Fleet's names are DNS labels. */
export function checkName(name: string, what: string): void {
  const result = NameSchema.safeParse(name);
  if (!result.success) throw new FieldValidationError([{ path: what, message: result.error.issues[0]?.message ?? "is not a valid name" }]);
}
