/**
 * The error codes the simulated fleet answers with. ARM's own codes where ARM has a clear one
 * (`NotFound`, `OperationNotAllowed`, `InvalidParameter`); otherwise a name that says which AKS rule
 * the request broke, so a failed run's error summary explains itself.
 */
export { CLUSTER_STOPPED, OPERATION_NOT_ALLOWED } from "../engine/backend";

/** No such cluster, region or operation. */
export const NOT_FOUND = "NotFound";
/** The request itself is malformed (missing or extra version, unknown node pool). */
export const INVALID_PARAMETER = "InvalidParameter";
/** The target Kubernetes version is not offered in the cluster's region (yet). */
export const KUBERNETES_VERSION_NOT_AVAILABLE = "KubernetesVersionNotAvailable";
/** A control plane, node pool or node image would move to an older version. */
export const UPGRADE_DOWNGRADE_NOT_ALLOWED = "UpgradeDowngradeNotAllowed";
/** The control plane would skip a minor version (1.30 → 1.32). */
export const UPGRADE_MINOR_VERSION_SKIP_NOT_ALLOWED = "UpgradeMinorVersionSkipNotAllowed";
/** A node pool would run a newer Kubernetes version than the control plane. */
export const NODE_POOL_VERSION_ABOVE_CONTROL_PLANE = "NodePoolVersionAboveControlPlane";
/** The node image is not offered in the cluster's region (yet). */
export const NODE_IMAGE_VERSION_NOT_AVAILABLE = "NodeImageVersionNotAvailable";
/** The node image belongs to another image family than the pool's current image. */
export const NODE_IMAGE_FAMILY_MISMATCH = "NodeImageFamilyMismatch";
/** The upgrade was aborted (ARM's abort) before it reached its target. */
export const UPGRADE_ABORTED = "UpgradeAborted";
