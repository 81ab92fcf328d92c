/** docs/rules.md §1 `managedClusterUpdate`: what a run does to each member. */
import { z } from "zod";
import { KubernetesVersionSchema, NodeImageVersionSchema, orRequired } from "./values";
import { imageFamily } from "./nodeImage";

export const UpgradeTypeSchema = z.enum(["Full", "ControlPlaneOnly", "NodeImageOnly"], {
  error: orRequired("must be one of Full, ControlPlaneOnly, NodeImageOnly"),
});
export type UpgradeType = z.infer<typeof UpgradeTypeSchema>;

export const NodeImageSelectionTypeSchema = z.enum(["Latest", "Consistent", "Custom"], {
  error: orRequired("must be one of Latest, Consistent, Custom"),
});
export type NodeImageSelectionType = z.infer<typeof NodeImageSelectionTypeSchema>;

/** `{ version }`: a node image version as Azure's `NodeImageVersion` holds it (Custom images, a run's applied images). */
export const NodeImageVersionRefSchema = z
  .strictObject({ version: NodeImageVersionSchema.meta({ description: "A node image version, e.g. `AKSUbuntu-2204gen2containerd-202611.24.0`." }) })
  .meta({ objectType: { name: "NodeImageVersion", description: "A node image version." } });

const UpgradeSpecSchema = z
  .strictObject({
    type: UpgradeTypeSchema.meta({ description: "Full (control plane and node pools), ControlPlaneOnly, or NodeImageOnly." }),
    kubernetesVersion: KubernetesVersionSchema.optional().meta({ description: "`major.minor.patch`: required for Full and ControlPlaneOnly, absent for NodeImageOnly." }),
  })
  .meta({ objectType: { name: "ManagedClusterUpgradeSpec", description: "The upgrade: its type and the Kubernetes version." } });

const NodeImageSelectionSchema = z
  .strictObject({
    // Default Latest (docs/rules.md §1).
    type: NodeImageSelectionTypeSchema.default("Latest").meta({
      description: "Latest (each pool the region's newest image), Consistent (one image per family for the whole run), or Custom (the versions given).",
    }),
    customNodeImageVersions: z.array(NodeImageVersionRefSchema).optional().meta({ description: "Custom only: at most one version per image family." }),
  })
  .meta({ objectType: { name: "NodeImageSelection", description: "Which node images the members get." } });

export const ManagedClusterUpdateSchema = z
  .strictObject({
    upgrade: UpgradeSpecSchema.meta({ description: "The upgrade to apply." }),
    nodeImageSelection: NodeImageSelectionSchema.optional().meta({ description: "Which node images the members get; default Latest." }),
  })
  .superRefine((update, ctx) => {
    const { type, kubernetesVersion } = update.upgrade;
    if ((type === "Full" || type === "ControlPlaneOnly") && kubernetesVersion === undefined) {
      ctx.addIssue({ code: "custom", path: ["upgrade", "kubernetesVersion"], message: `is required for a ${type} upgrade` });
    }
    if (type === "NodeImageOnly" && kubernetesVersion !== undefined) {
      ctx.addIssue({ code: "custom", path: ["upgrade", "kubernetesVersion"], message: "must be absent for a NodeImageOnly upgrade" });
    }
    const selection = update.nodeImageSelection;
    if (selection === undefined) return;
    const custom = selection.customNodeImageVersions;
    if (selection.type === "Custom") {
      if (custom === undefined || custom.length === 0) {
        ctx.addIssue({ code: "custom", path: ["nodeImageSelection", "customNodeImageVersions"], message: "is required (one version per image family) when type is Custom" });
        return;
      }
      const families = new Map<string, number>();
      custom.forEach(({ version }, i) => {
        const family = imageFamily(version);
        const first = families.get(family);
        if (first !== undefined) {
          ctx.addIssue({ code: "custom", path: ["nodeImageSelection", "customNodeImageVersions", i, "version"], message: `second version of image family '${family}' (also customNodeImageVersions[${first}])` });
        } else families.set(family, i);
      });
    } else if (custom !== undefined) {
      ctx.addIssue({ code: "custom", path: ["nodeImageSelection", "customNodeImageVersions"], message: `must be absent unless type is Custom (type is ${selection.type})` });
    }
  })
  .meta({ objectType: { name: "ManagedClusterUpdate", description: "Azure's `ManagedClusterUpdate`: the upgrade to apply to each member and the node images it gets." } });
export type ManagedClusterUpdate = z.infer<typeof ManagedClusterUpdateSchema>;

/** The Custom node image versions a run asks for (none unless its selection is Custom; none for a run whose update is generated). */
export function customImageVersions(update: ManagedClusterUpdate | undefined): string[] {
  return (update?.nodeImageSelection?.customNodeImageVersions ?? []).map((v) => v.version);
}

/** `Full to 1.32.3, Latest images`, `NodeImageOnly, Consistent images`: an update in one line (the CLI's tree, the report). */
export function describeUpdate(update: { upgrade: { type: string; kubernetesVersion?: string | undefined }; nodeImageSelection?: { type: string } | undefined }): string {
  const { type, kubernetesVersion } = update.upgrade;
  const images = type === "ControlPlaneOnly" ? "" : `, ${update.nodeImageSelection?.type ?? "Latest"} images`;
  return `${type}${kubernetesVersion === undefined ? "" : ` to ${kubernetesVersion}`}${images}`;
}
