/**
 * ARM's error answers: an HTTP status and the body `{ error: { code, message } }`. Handlers throw
 * `ArmError`; the server turns it into the answer. Refusals from the simulated fleet (`BackendError`)
 * keep their code and message and get the status ARM would give them.
 */
import { BackendError, OPERATION_NOT_ALLOWED } from "../../engine/backend";
import { NOT_FOUND } from "../../aks/errorCodes";

export interface ArmErrorBody {
  error: { code: string; message: string };
}

export class ArmError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "ArmError";
    this.status = status;
    this.code = code;
    this.headers = headers;
  }

  get body(): ArmErrorBody {
    return armErrorBody(this.code, this.message);
  }
}

export function armErrorBody(code: string, message: string): ArmErrorBody {
  return { error: { code, message } };
}

/** The cluster is busy → 409; no such thing → 404; any AKS rule the request breaks → 400. */
export function fromBackendError(error: BackendError): ArmError {
  if (error.code === OPERATION_NOT_ALLOWED) return new ArmError(409, error.code, error.message);
  if (error.code === NOT_FOUND) return new ArmError(404, error.code, error.message);
  return new ArmError(400, error.code, error.message);
}

/** Run a call into the simulated fleet, answering its refusals as ARM does. */
export async function armCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof BackendError) throw fromBackendError(error);
    throw error;
  }
}

export function resourceNotFound(type: string, name: string, resourceGroup: string): ArmError {
  return new ArmError(
    404,
    "ResourceNotFound",
    `The Resource '${type}/${name}' under resource group '${resourceGroup}' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix`,
  );
}

export function invalidParameter(message: string, target?: string): ArmError {
  return new ArmError(400, "InvalidParameter", target === undefined ? message : `The value of parameter ${target} is invalid. ${message}`);
}
