/**
 * Issue 24: the provider plugin's lines for the user (plans, progress, drift, notes). The engine hides
 * a real provider plugin's stdout and stderr from the CLI's display (it keeps them for its debug log:
 * `plugin.go`, "Hiding logs from" in pulumi v3.248.0), so the plugin sends its lines through the
 * engine's Log service, attached to the resource they are about — as `pulumi.log.info` does in a program.
 */
import * as path from "node:path";
import type { Tell } from "../provider/runSession";

import { EngineClient } from "@pulumi/pulumi/proto/engine_grpc_pb";
import { LogRequest, LogSeverity } from "@pulumi/pulumi/proto/engine_pb";

// @pulumi/pulumi's own gRPC runtime (its dependency, not ours): the one its generated stubs were built for.
const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] })) as typeof import("@grpc/grpc-js");

/** Lines to the engine at `address`, in order; a line the engine cannot take goes to stderr (the debug log). */
export class EngineLog {
  private readonly client: EngineClient;
  private last: Promise<void> = Promise.resolve();

  constructor(address: string) {
    this.client = new EngineClient(address, grpc.credentials.createInsecure());
  }

  /** A `Tell` for lines about the resource `urn`. */
  about(urn: string): Tell {
    return (line) => this.info(line, urn);
  }

  info(message: string, urn: string): void {
    const request = new LogRequest();
    request.setSeverity(LogSeverity.INFO);
    request.setMessage(message);
    request.setUrn(urn);
    request.setEphemeral(false);
    this.last = this.last.then(
      () =>
        new Promise<void>((resolve) => {
          this.client.log(request, (error) => {
            if (error !== null) process.stderr.write(`${message} (not shown: ${error.message})\n`);
            resolve();
          });
        }),
    );
  }

  /** Resolves once every line sent so far was answered. */
  flushed(): Promise<void> {
    return this.last;
  }
}
