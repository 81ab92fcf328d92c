/**
 * docs/rules.md §18 `autoUpgradeProfile`: a run whose update is not written in the program but generated
 * when the run starts from what AKS offers then, as Fleet Manager's auto-upgrade profiles and
 * `generateUpdateRun` do. Fleet's field names (`AutoUpgradeProfileProperties`), so a profile moves
 * between backends unchanged. The generation rule itself is `engine/autoUpgradeChannel.ts`.
 */
import { z } from "zod";
import { orRequired } from "./values";
import type { FieldIssue } from "./issues";
import type { ManagedClusterUpdate } from "./update";

export const UPGRADE_CHANNELS = ["Stable", "Rapid", "NodeImage", "TargetKubernetesVersion", "SecurityPatch"] as const;

export const AutoUpgradeProfileSchema = z
  .strictObject({
    // Which version the run takes: docs/rules.md §18.
    channel: z.enum(UPGRADE_CHANNELS, { error: orRequired(`must be one of ${UPGRADE_CHANNELS.join(", ")}`) }).meta({ description: "Stable, Rapid, NodeImage, TargetKubernetesVersion or SecurityPatch (a node-image update; on Fleet Manager from api-version 2026-06-02-preview)." }),
    targetKubernetesVersion: z
      .string({ error: "must be a string of the form major.minor, e.g. 1.33" })
      .regex(/^\d+\.\d+$/, "must be of the form major.minor, e.g. 1.33 (the latest patch is chosen when the run starts)")
      .optional()
      .meta({ description: "`major.minor` (e.g. 1.33), with TargetKubernetesVersion only: the minor whose latest patch is taken." }),
    longTermSupport: z
      .boolean({ error: "must be true or false" })
      .optional()
      .meta({ description: "With TargetKubernetesVersion only: allow a minor older than N-2 that AKS supports long-term." }),
    // docs/rules.md §3.6.
    nodeImageSelection: z
      .strictObject({ type: z.enum(["Latest", "Consistent"], { error: orRequired("must be one of Latest, Consistent") }).meta({ description: "Latest or Consistent." }) })
      .meta({ objectType: { name: "AutoUpgradeNodeImageSelection", description: "Which node images a generated update takes: Latest or Consistent." } })
      .optional()
      .meta({ description: "Which node images the generated update takes; default Latest." }),
  })
  .superRefine((profile, ctx) => {
    const targeted = profile.channel === "TargetKubernetesVersion";
    if (targeted && profile.targetKubernetesVersion === undefined) {
      ctx.addIssue({ code: "custom", path: ["targetKubernetesVersion"], message: "is required when channel is TargetKubernetesVersion" });
    }
    if (!targeted && profile.targetKubernetesVersion !== undefined) {
      ctx.addIssue({ code: "custom", path: ["targetKubernetesVersion"], message: `is taken only when channel is TargetKubernetesVersion (channel is ${profile.channel})` });
    }
    if (!targeted && profile.longTermSupport === true) {
      ctx.addIssue({ code: "custom", path: ["longTermSupport"], message: `must be false unless channel is TargetKubernetesVersion (channel is ${profile.channel})` });
    }
  })
  .meta({
    objectType: {
      name: "AutoUpgradeProfile",
      description: "Fleet Manager's auto-upgrade profile fields that shape a run: the update is generated from the channel when the run starts (docs/rules.md §18).",
    },
  });
export type AutoUpgradeProfile = z.infer<typeof AutoUpgradeProfileSchema>;

/**
 * What a run does to its members: a `managedClusterUpdate` written out, or an `autoUpgradeProfile`
 * from which it is generated at the run's start. Exactly one (`updateChoiceIssues`).
 */
export type UpdateChoice =
  | { managedClusterUpdate: ManagedClusterUpdate; autoUpgradeProfile?: undefined }
  | { autoUpgradeProfile: AutoUpgradeProfile; managedClusterUpdate?: undefined };

/** "Exactly one of the two", with the paths `at` prefixes (`""`, `runs[2].`). */
export function updateChoiceIssues(input: { managedClusterUpdate?: unknown; autoUpgradeProfile?: unknown }, at = ""): FieldIssue[] {
  const both = input.managedClusterUpdate !== undefined && input.autoUpgradeProfile !== undefined;
  const neither = input.managedClusterUpdate === undefined && input.autoUpgradeProfile === undefined;
  if (both) return [{ path: `${at}autoUpgradeProfile`, message: "give either managedClusterUpdate or autoUpgradeProfile, not both" }];
  if (neither) return [{ path: `${at}managedClusterUpdate`, message: "is required (or autoUpgradeProfile, to generate the update when the run starts)" }];
  return [];
}

/** The choice `input` makes (after `updateChoiceIssues` found none), as the tagged union. */
export function updateChoiceOf(input: { managedClusterUpdate?: ManagedClusterUpdate; autoUpgradeProfile?: AutoUpgradeProfile }): UpdateChoice {
  if (input.managedClusterUpdate !== undefined) return { managedClusterUpdate: input.managedClusterUpdate };
  if (input.autoUpgradeProfile !== undefined) return { autoUpgradeProfile: input.autoUpgradeProfile };
  throw new Error("a run has managedClusterUpdate or autoUpgradeProfile (updateChoiceIssues)");
}
