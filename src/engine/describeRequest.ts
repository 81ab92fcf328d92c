/**
 * The message a Running member shows: what its upgrade asks for. Most members of a run ask for the
 * same upgrade, so the text is made once per distinct request and shared (issue 13); the memo is
 * per engine (`EngineContext.describe`), not module-wide.
 */
import type { UpgradeRequest } from "./backend";

export class RequestDescriber {
  private last: { request: UpgradeRequest; text: string } | undefined;

  describe(request: UpgradeRequest): string {
    if (this.last !== undefined && sameRequest(this.last.request, request)) return this.last.text;
    const text = describeRequest(request);
    this.last = { request, text };
    return text;
  }
}

function describeRequest(request: UpgradeRequest): string {
  const images = Object.entries(request.nodeImageVersions).map(([pool, v]) => `${pool}=${v}`);
  const imagePart = images.length === 0 ? "" : ` node images ${images.join(", ")}`;
  switch (request.type) {
    case "ControlPlaneOnly":
      return `Upgrading the control plane to Kubernetes ${request.kubernetesVersion}.`;
    case "NodeImageOnly":
      return `Upgrading${imagePart}.`;
    default:
      return `Upgrading the control plane and node pools to Kubernetes ${request.kubernetesVersion}${imagePart === "" ? "" : `,${imagePart}`}.`;
  }
}

/** The same type, version and images, pool for pool in the same order (what the description says). */
function sameRequest(a: UpgradeRequest, b: UpgradeRequest): boolean {
  if (a.type !== b.type || a.kubernetesVersion !== b.kubernetesVersion) return false;
  const poolsA = Object.keys(a.nodeImageVersions);
  const poolsB = Object.keys(b.nodeImageVersions);
  return poolsA.length === poolsB.length && poolsA.every((pool, i) => poolsB[i] === pool && a.nodeImageVersions[pool] === b.nodeImageVersions[pool]);
}
