/**
 * Issue 11: the provider host ends when its Pulumi engine goes away. The engine starts plugins in
 * their own process group, through a shell script that does not `exec` node; if `pulumi` itself is
 * SIGKILLed (a CI timeout) nothing signals the host, which would go on driving the run alone. The
 * host is started with the engine's gRPC address as its first argument; while a create or update
 * drives a run, that address is tried every `intervalMs` with a TCP connect, and after
 * `failuresToGone` failures in a row the engine counts as gone.
 */
import net from "node:net";

/** The engine's address, when this process is `@pulumi/pulumi`'s dynamic-provider host; else undefined (tests calling the provider in-process, the CLI). */
export function hostEngineAddress(argv: readonly string[] = process.argv): string | undefined {
  if (!/[\\/]cmd[\\/]dynamic-provider([\\/]index\.js)?$/.test(argv[1] ?? "")) return undefined;
  const address = argv[2];
  return address !== undefined && /^.+:\d+$/.test(address) ? address : undefined;
}

export interface EngineWatchOptions {
  intervalMs?: number;
  timeoutMs?: number;
  failuresToGone?: number;
}

/** Calls `onGone` once when the engine at `address` stops accepting connections. Returns the stop. */
export function watchEngine(address: string, onGone: () => void, options: EngineWatchOptions = {}): () => void {
  const { intervalMs = 2_000, timeoutMs = 2_000, failuresToGone = 3 } = options;
  const cut = address.lastIndexOf(":");
  const host = address.slice(0, cut).replace(/^\[(.*)\]$/, "$1");
  const port = Number(address.slice(cut + 1));
  let failures = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const probe = (): void => {
    const socket = net.connect({ host, port });
    let settled = false;
    const settle = (ok: boolean): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (stopped) return;
      failures = ok ? 0 : failures + 1;
      if (failures >= failuresToGone) {
        stopped = true;
        onGone();
        return;
      }
      schedule();
    };
    socket.setTimeout(timeoutMs, () => settle(false));
    socket.once("connect", () => settle(true));
    socket.once("error", () => settle(false));
  };
  const schedule = (): void => {
    timer = setTimeout(probe, intervalMs);
    timer.unref();
  };
  schedule();
  return () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
  };
}
