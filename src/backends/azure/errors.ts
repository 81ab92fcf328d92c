/** ARM error bodies (`{ error: { code, message } }`) as the engine's `BackendError`. */
import { isRestError } from "@azure/core-rest-pipeline";
import { BackendError, OPERATION_NOT_ALLOWED } from "../../engine/backend";

export interface ArmError {
  status: number | undefined;
  code: string;
  message: string;
  toBackendError(): BackendError;
}

export function armError(e: unknown): ArmError {
  if (e instanceof BackendError) return { status: undefined, code: e.code, message: e.message, toBackendError: () => e };
  const status = isRestError(e) ? e.statusCode : undefined;
  const body = isRestError(e) ? (e.details as { error?: { code?: string; message?: string } } | undefined) : undefined;
  const code = body?.error?.code ?? (isRestError(e) ? e.code : undefined) ?? (status === 409 ? OPERATION_NOT_ALLOWED : "ArmRequestFailed");
  const message = body?.error?.message ?? (e as Error).message ?? String(e);
  return { status, code, message, toBackendError: () => new BackendError(status === 409 && code === "Conflict" ? OPERATION_NOT_ALLOWED : code, message) };
}
