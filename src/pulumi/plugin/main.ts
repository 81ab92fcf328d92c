/**
 * Issue 24: the entry point of the provider plugin `pulumi-resource-fleet-update` (`serve`, which
 * `bin/pulumi-resource-fleet-update` calls). The Pulumi engine starts it with its own address as the
 * argument (after any `--logtostderr`, `-v=N`, `--tracing ADDR` flags) and reads the port the gRPC
 * server listens on from its first line of stdout, which `@pulumi/pulumi/provider`'s `main` prints:
 * nothing else may write to stdout before it.
 */
import { main } from "@pulumi/pulumi/provider";
import { fleetUpdateProvider } from "./provider";
import { packageSchema } from "./schema";
import { readRequestsWithoutPropertiesAreEmpty } from "./importRequest";
import { readPackageJson } from "./publishing";

/** The engine's address among the plugin's arguments, as `@pulumi/pulumi/provider` parses them. */
export function engineAddressOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--tracing") i += 1;
    else if (!arg.startsWith("-")) return arg;
  }
  return undefined;
}

/** The package's version (package.json), which is the plugin's and the schema's. */
export function packageVersion(): string {
  return readPackageJson().version;
}

/** Serves the plugin until the engine is done with it (the shim `bin/pulumi-resource-fleet-update` calls this). */
export function serve(args: readonly string[]): Promise<void> {
  const version = packageVersion();
  const engineAddress = engineAddressOf(args);
  readRequestsWithoutPropertiesAreEmpty();
  return main(fleetUpdateProvider({ version, schema: JSON.stringify(packageSchema(version)), ...(engineAddress === undefined ? {} : { engineAddress }) }), [...args]);
}
