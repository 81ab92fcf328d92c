/**
 * Credentials for the Azure backend. Tokens stay inside the SDK's pipeline: nothing here logs,
 * stores or returns them.
 */
import type { AccessToken, TokenCredential } from "@azure/core-auth";
import { DefaultAzureCredential } from "@azure/identity";

/** The ARM emulator accepts any bearer token; this one never leaves the machine. */
export const emulatorCredential: TokenCredential = {
  getToken: async (): Promise<AccessToken> => ({ token: "emulator", expiresOnTimestamp: Date.now() + 3_600_000 }),
};

export function credentialFor(kind: "default" | "emulator"): TokenCredential {
  return kind === "emulator" ? emulatorCredential : new DefaultAzureCredential();
}

const CREDENTIAL_ERRORS = new Set(["CredentialUnavailableError", "AuthenticationRequiredError", "AggregateAuthenticationError", "AuthenticationError"]);

/** Not logged in (or no usable identity): one clear error, without any token material. */
export function credentialProblem(e: unknown): Error | undefined {
  const name = (e as { name?: string } | undefined)?.name;
  if (name === undefined || !CREDENTIAL_ERRORS.has(name)) return undefined;
  return new Error(
    "Azure credentials are not available: log in with `az login`, or set AZURE_TENANT_ID / AZURE_CLIENT_ID / AZURE_CLIENT_SECRET (or a managed or workload identity) for DefaultAzureCredential.",
  );
}
