/**
 * Where a long-running operation's status and result are served: ARM's shared URLs under
 * `locations/{location}`, for every part's operations (an upgrade's, a deletion's, an abort's; an
 * update run's start, stop or skip). The `Azure-AsyncOperation` URL is `operations/{id}`, the
 * `Location` URL `operationresults/{id}`.
 */
import type { ArmScope } from "../ports";

const PROVIDER = "providers/Microsoft.ContainerService";

/** What an operation's URLs are made of. */
export interface OperationAddress {
  operationId: string;
  scope: ArmScope;
  location: string;
}

export function asyncOperationPath(op: OperationAddress): string {
  return `/subscriptions/${op.scope.subscriptionId}/${PROVIDER}/locations/${op.location}/operations/${op.operationId}`;
}

export function operationResultPath(op: OperationAddress): string {
  return `/subscriptions/${op.scope.subscriptionId}/${PROVIDER}/locations/${op.location}/operationresults/${op.operationId}`;
}
