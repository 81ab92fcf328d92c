/**
 * Issue 24: `pulumi import` reaches the plugin's `read` (`importRun.ts`) only with this. The engine's
 * import step sends a ReadRequest with the id and no `properties` (pkg/resource/deploy/step.go,
 * ImportStep), and `@pulumi/pulumi/provider`'s server (v3.248.0, provider/server.js `read`) calls
 * `req.getProperties().toJavaScript()` on it, which throws "Cannot read properties of undefined
 * (reading 'toJavaScript')" before any provider code runs. An absent `properties` is read as the empty
 * struct it stands for, so the provider's `read` receives `{}`: an import.
 */
import path from "node:path";

interface StructLike {
  toJavaScript(): Record<string, unknown>;
}
interface StructClass {
  new (): StructLike;
}
interface ReadRequestClass {
  prototype: { getProperties(): StructLike | undefined };
}

let patched = false;

/** Make a ReadRequest without properties read as one with empty properties (once per process). */
export function readRequestsWithoutPropertiesAreEmpty(): void {
  if (patched) return;
  patched = true;
  // The very modules the SDK's server uses (its own copies, wherever npm put them).
  const sdk = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  const { ReadRequest } = require(require.resolve("@pulumi/pulumi/proto/provider_pb", { paths: [sdk] })) as { ReadRequest: ReadRequestClass };
  const { Struct } = require(require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [sdk] })) as { Struct: StructClass };
  const given = ReadRequest.prototype.getProperties;
  ReadRequest.prototype.getProperties = function (this: unknown) {
    return given.call(this) ?? new Struct();
  };
}
