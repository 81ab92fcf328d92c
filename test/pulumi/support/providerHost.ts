/**
 * Test harness that drives `@pulumi/pulumi`'s own dynamic-provider host
 * (`@pulumi/pulumi/cmd/dynamic-provider`) over gRPC, the way the Pulumi engine
 * does, so dynamic resources can be exercised without the Pulumi CLI.
 *
 * What the harness does, step by step:
 *  1. Starts a minimal fake Engine gRPC server on 127.0.0.1 (records `log`
 *     calls, remembers the root resource URN).
 *  2. Spawns `node <dynamic-provider>/index.js <engineAddress>` with the caller's
 *     cwd (the serialized provider's `require(...)` calls resolve from there),
 *     and reads the gRPC port from the first numeric stdout line.
 *  3. Exposes the ResourceProvider RPCs (configure/check/diff/create/update/
 *     read/delete) with plain-object inputs and outputs.
 *
 * Things worth knowing about the host (3.248.0):
 *  - It requires the engine-address argument but never uses it: it does not
 *    connect at startup. `pulumi.log.*` inside a provider only talks to an
 *    engine when `PULUMI_NODEJS_ENGINE` is set in the host's environment;
 *    otherwise it prints `info: [runtime] msg` to stdout (warnings and errors go
 *    to stderr). Both paths end up in {@link ProviderHost.logs}; pass
 *    `logsViaEngine: true` to use the gRPC path.
 *  - `configure` must carry `args` (a Struct, empty is fine). Without it the
 *    host throws inside an async handler, never answers, and the call hangs
 *    until the deadline. {@link ProviderHost.configure} always sends `args`.
 *  - Its ConfigureResponse does not set `supportsPreview`, so the real engine
 *    never calls `create`/`update` with `preview: true`. The host ignores the
 *    flag, so `create(..., { preview: true })` really creates.
 *  - It ignores `timeout` and `cancel`; a stuck provider method only ends when
 *    the call deadline passes or the host is killed.
 *  - A deserialized provider is cached per `__provider` string for the whole
 *    life of the process. `configure()` on the provider object runs only the
 *    first time that string is seen.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import * as path from "node:path";
import * as readline from "node:readline";

import type * as GrpcJs from "@grpc/grpc-js";
import type * as EngineGrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engproto from "@pulumi/pulumi/proto/engine_pb";
import type * as ProviderGrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";

// Load gRPC (and the generated stubs that use it) from @pulumi/pulumi's own
// dependency graph, so credentials/clients all come from the same @grpc/grpc-js
// copy even if it is ever not hoisted.
const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi"));
const grpc = pulumiRequire("@grpc/grpc-js") as typeof GrpcJs;
const provrpc = pulumiRequire("@pulumi/pulumi/proto/provider_grpc_pb") as typeof ProviderGrpc;
const engrpc = pulumiRequire("@pulumi/pulumi/proto/engine_grpc_pb") as typeof EngineGrpc;

/** Directory of the dynamic-provider host (contains index.js). */
export const DYNAMIC_PROVIDER_HOST_DIR = path.dirname(
  require.resolve("@pulumi/pulumi/cmd/dynamic-provider"),
);

/** The project root (where package.json lives), default cwd of the host. */
export const PROJECT_ROOT = path.resolve(__dirname, "..", "..", "..");

/** Type token of `pulumi.dynamic.Resource` with no module and the default type. */
export const DYNAMIC_RESOURCE_TYPE = "pulumi-nodejs:dynamic:Resource";

/** The sentinel the engine sends for values that are unknown during preview. */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** The reserved input property that carries the serialized provider. */
export const PROVIDER_KEY = "__provider";

const DEFAULT_DEADLINE_MS = 120_000;
const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
const HOST_EXIT_GRACE_MS = 1_000;

const sleep = (ms: number): Promise<undefined> =>
  new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref());

// ---------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Properties as they come back from the provider (decoded protobuf Struct). */
export type PropertyMap = { [key: string]: JsonValue };

/**
 * Properties the caller sends. Anything JSON-like is accepted; keys whose value
 * is `undefined` are dropped (as the engine does). Functions, symbols and
 * bigints are rejected.
 */
export type PropertyInput = Readonly<Record<string, unknown>>;

export type ProviderMethod = "configure" | "check" | "diff" | "create" | "update" | "read" | "delete";

export type LogSeverity = "debug" | "info" | "warning" | "error";

export interface HostLogEntry {
  /** "engine": a `Log` RPC on the fake engine; otherwise the host's output stream. */
  readonly source: "engine" | "stdout" | "stderr";
  /**
   * For engine logs, the LogRequest severity. For stdout/stderr lines written
   * by `pulumi.log.*` without an engine (`info: [runtime] msg`), the parsed
   * severity. For other lines: "info" on stdout, "error" on stderr.
   */
  readonly severity: LogSeverity;
  /** The message, without the `<severity>: [runtime] ` prefix. */
  readonly message: string;
  /** The URN attached to an engine log, if any ("" is reported as undefined). */
  readonly urn?: string;
  /** Line exactly as written (stdout/stderr), or the message (engine). */
  readonly raw: string;
}

export interface InitFailure {
  readonly id: string;
  readonly properties: PropertyMap;
  readonly reasons: string[];
}

export interface CallOptions {
  /** Deadline of this one call in milliseconds. Default 120 000. */
  readonly deadlineMs?: number;
}

export interface ConfigureOptions extends CallOptions {
  /** Provider config as the engine sends it in `args`, e.g. `{ "project:key": "v" }`. */
  readonly args?: PropertyInput;
  /** Legacy string-valued `variables`; the dynamic host ignores them. */
  readonly variables?: Readonly<Record<string, string>>;
}

export interface ConfigureResult {
  readonly acceptSecrets: boolean;
  readonly supportsPreview: boolean;
  readonly acceptResources: boolean;
  readonly acceptOutputs: boolean;
}

export interface CheckFailure {
  readonly property: string;
  readonly reason: string;
}

export interface CheckResult {
  readonly inputs: PropertyMap;
  readonly failures: CheckFailure[];
}

export type DiffChanges = "none" | "some" | "unknown";

export interface DiffOptions extends CallOptions {
  /** Sent as `oldInputs` (the host ignores it). */
  readonly oldInputs?: PropertyInput;
  readonly ignoreChanges?: string[];
}

export interface DiffResult {
  readonly changes: DiffChanges;
  readonly replaces: string[];
  readonly deleteBeforeReplace: boolean;
}

export interface CreateOptions extends CallOptions {
  /**
   * Sent as `preview`. The dynamic host ignores it and really creates; the
   * engine never sets it for this host because `supportsPreview` is false.
   */
  readonly preview?: boolean;
  /** Sent as `timeout` in seconds (the host ignores it). */
  readonly timeoutSeconds?: number;
}

export interface CreateResult {
  readonly id: string;
  readonly properties: PropertyMap;
}

export interface UpdateOptions extends CreateOptions {
  readonly oldInputs?: PropertyInput;
  readonly ignoreChanges?: string[];
}

export interface UpdateResult {
  readonly properties: PropertyMap;
}

export interface ReadResult {
  readonly id: string;
  readonly properties: PropertyMap;
  /** `undefined` when the provider's `read` returned no `inputs`. */
  readonly inputs: PropertyMap | undefined;
}

export interface DeleteOptions extends CallOptions {
  readonly oldInputs?: PropertyInput;
  readonly timeoutSeconds?: number;
}

export interface HostExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface ProviderHostOptions {
  /** cwd of the host process; `require()` in serialized providers resolves from here. Default: project root. */
  readonly cwd?: string;
  /** Extra environment variables for the host (merged over process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Set `PULUMI_NODEJS_ENGINE` to the fake engine so `pulumi.log.*` goes over
   * gRPC (source "engine", with URNs). Default false, meaning logs go to the host's
   * stdout/stderr; the harness clears any inherited `PULUMI_NODEJS_ENGINE` then.
   */
  readonly logsViaEngine?: boolean;
  /** Used to build URNs from short names. Defaults: "project", "stack", {@link DYNAMIC_RESOURCE_TYPE}. */
  readonly project?: string;
  readonly stack?: string;
  readonly resourceType?: string;
  /** How long to wait for the port line. Default 30 000 ms. */
  readonly startupTimeoutMs?: number;
}

export interface ProviderHost {
  /** Process id of the host. */
  readonly pid: number;
  /** `127.0.0.1:<port>` of the host's ResourceProvider service. */
  readonly address: string;
  /** `127.0.0.1:<port>` of the fake engine (passed to the host as its argument). */
  readonly engineAddress: string;
  /** Everything logged so far (live array, in arrival order). */
  readonly logs: readonly HostLogEntry[];
  /** Settles when the host process exits. Never rejects. */
  readonly exited: Promise<HostExit>;

  /** Builds the URN the harness uses for a short resource name. */
  urn(name: string): string;

  configure(options?: ConfigureOptions): Promise<ConfigureResult>;
  check(name: string, olds: PropertyInput, news: PropertyInput, options?: CallOptions): Promise<CheckResult>;
  diff(id: string, name: string, olds: PropertyInput, news: PropertyInput, options?: DiffOptions): Promise<DiffResult>;
  create(name: string, properties: PropertyInput, options?: CreateOptions): Promise<CreateResult>;
  update(
    id: string,
    name: string,
    olds: PropertyInput,
    news: PropertyInput,
    options?: UpdateOptions,
  ): Promise<UpdateResult>;
  read(id: string, name: string, properties: PropertyInput, inputs?: PropertyInput, options?: CallOptions): Promise<ReadResult>;
  delete(id: string, name: string, properties: PropertyInput, options?: DeleteOptions): Promise<void>;

  /** Resolves with the first log entry matching; rejects after `timeoutMs` (default 10 000). */
  waitForLog(match: string | RegExp | ((entry: HostLogEntry) => boolean), timeoutMs?: number): Promise<HostLogEntry>;
  /** Empties {@link logs}. */
  clearLogs(): void;

  /**
   * Shuts the fake engine down, leaving the host running: what the host sees when `pulumi` itself is
   * SIGKILLed (its gRPC address stops accepting connections).
   */
  closeEngine(): void;
  /** Sends a signal to the host (default SIGKILL) and resolves when it has exited. */
  kill(signal?: NodeJS.Signals): Promise<HostExit>;
  /** Closes the client, ends the host (SIGTERM, then SIGKILL after 5 s) and the fake engine. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Error from a provider call. For provider-thrown errors `message` is the
 * provider's message unchanged. `initFailed` is set when create/update threw
 * an error carrying `id` (the host's ErrorResourceInitFailed detail).
 */
export class ProviderCallError extends Error {
  override readonly name = "ProviderCallError";
  readonly method: ProviderMethod;
  /** gRPC status code (2 = UNKNOWN for provider errors), undefined if the host exited first. */
  readonly code: number | undefined;
  /** gRPC status name, e.g. "UNKNOWN", "DEADLINE_EXCEEDED", "UNAVAILABLE", or "HOST_EXITED". */
  readonly status: string;
  readonly initFailed: InitFailure | undefined;
  /** Set when the call failed because the host process exited. */
  readonly hostExit: HostExit | undefined;

  constructor(init: {
    method: ProviderMethod;
    message: string;
    code: number | undefined;
    status: string;
    initFailed?: InitFailure;
    hostExit?: HostExit;
  }) {
    super(init.message);
    this.method = init.method;
    this.code = init.code;
    this.status = init.status;
    this.initFailed = init.initFailed;
    this.hostExit = init.hostExit;
  }
}

// ---------------------------------------------------------------------------
// Struct conversion
// ---------------------------------------------------------------------------

function toJsonValue(value: unknown, where: string): JsonValue | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`${where}: non-finite number ${value} cannot be sent`);
    return value;
  }
  if (Array.isArray(value)) {
    return value.map((v, i) => toJsonValue(v, `${where}[${i}]`) ?? null);
  }
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") {
    const out: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(value)) {
      const converted = toJsonValue(v, `${where}.${k}`);
      if (converted !== undefined) out[k] = converted;
    }
    return out;
  }
  throw new TypeError(`${where}: a ${typeof value} cannot be sent in a Struct`);
}

function toStruct(props: PropertyInput | undefined, what: string): Struct {
  const json = toJsonValue(props ?? {}, what);
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    throw new TypeError(`${what} must be an object`);
  }
  return Struct.fromJavaScript(json);
}

function fromStruct(struct: Struct | undefined): PropertyMap {
  // Struct.toJavaScript yields exactly JSON values (null/number/string/boolean/arrays/objects).
  return struct ? (struct.toJavaScript() as PropertyMap) : {};
}

// ---------------------------------------------------------------------------
// Fake engine
// ---------------------------------------------------------------------------

const SEVERITIES: Record<number, LogSeverity> = {
  [engproto.LogSeverity.DEBUG]: "debug",
  [engproto.LogSeverity.INFO]: "info",
  [engproto.LogSeverity.WARNING]: "warning",
  [engproto.LogSeverity.ERROR]: "error",
};

async function startFakeEngine(onLog: (entry: HostLogEntry) => void): Promise<{ server: GrpcJs.Server; address: string }> {
  let rootUrn = "";
  const unimplemented = (method: string) => (_call: unknown, callback: GrpcJs.sendUnaryData<never>) =>
    callback({ code: grpc.status.UNIMPLEMENTED, details: `${method} is not implemented by the fake engine` }, null);

  const implementation: EngineGrpc.IEngineServer = {
    log(call, callback) {
      const req = call.request;
      const message = req.getMessage();
      const urn = req.getUrn();
      onLog({
        source: "engine",
        severity: SEVERITIES[req.getSeverity()] ?? "info",
        message,
        raw: message,
        ...(urn ? { urn } : {}),
      });
      callback(null, new Empty());
    },
    getRootResource(_call, callback) {
      callback(null, new engproto.GetRootResourceResponse().setUrn(rootUrn));
    },
    setRootResource(call, callback) {
      rootUrn = call.request.getUrn();
      callback(null, new engproto.SetRootResourceResponse());
    },
    startDebugging: unimplemented("StartDebugging"),
    requirePulumiVersion(_call, callback) {
      callback(null, new engproto.RequirePulumiVersionResponse());
    },
  };

  const server = new grpc.Server();
  server.addService(engrpc.EngineService, implementation);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)));
  });
  return { server, address: `127.0.0.1:${port}` };
}

// ---------------------------------------------------------------------------
// Host process
// ---------------------------------------------------------------------------

const RUNTIME_LOG_LINE = /^(debug|info|warning|error): \[runtime\] (.*)$/s;

function parseOutputLine(source: "stdout" | "stderr", line: string): HostLogEntry {
  const m = RUNTIME_LOG_LINE.exec(line);
  if (m) return { source, severity: m[1] as LogSeverity, message: m[2] ?? "", raw: line };
  return { source, severity: source === "stdout" ? "info" : "error", message: line, raw: line };
}

const statusName = (code: number): string =>
  (Object.entries(grpc.status).find(([, v]) => v === code)?.[0] as string | undefined) ?? `STATUS_${code}`;

function isServiceError(e: unknown): e is GrpcJs.ServiceError {
  return e instanceof Error && typeof (e as Partial<GrpcJs.ServiceError>).code === "number";
}

/** Decodes `grpc-status-details-bin` → google.rpc.Status → ErrorResourceInitFailed, if present. */
function decodeInitFailure(metadata: GrpcJs.Metadata | undefined): InitFailure | undefined {
  if (!metadata) return undefined;
  for (const raw of metadata.get("grpc-status-details-bin")) {
    const bytes = typeof raw === "string" ? Buffer.from(raw, "base64") : raw;
    const status = statusproto.Status.deserializeBinary(new Uint8Array(bytes));
    for (const detail of status.getDetailsList()) {
      if (detail.getTypeName() !== "pulumirpc.ErrorResourceInitFailed") continue;
      const failed = provproto.ErrorResourceInitFailed.deserializeBinary(detail.getValue_asU8());
      return {
        id: failed.getId(),
        properties: fromStruct(failed.getProperties()),
        reasons: failed.getReasonsList(),
      };
    }
  }
  return undefined;
}

function toCallError(method: ProviderMethod, err: unknown): ProviderCallError {
  if (err instanceof ProviderCallError) return err;
  if (isServiceError(err)) {
    const initFailed = decodeInitFailure(err.metadata);
    return new ProviderCallError({
      method,
      message: err.details || err.message,
      code: err.code,
      status: statusName(err.code),
      ...(initFailed ? { initFailed } : {}),
    });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ProviderCallError({ method, message, code: undefined, status: "CLIENT_ERROR" });
}

interface Spawned {
  child: ChildProcess;
  pid: number;
  port: number;
  exited: Promise<HostExit>;
}

function spawnHost(
  options: ProviderHostOptions,
  engineAddress: string,
  onLog: (entry: HostLogEntry) => void,
): Promise<Spawned> {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  if (options.logsViaEngine) env["PULUMI_NODEJS_ENGINE"] = engineAddress;
  else delete env["PULUMI_NODEJS_ENGINE"];

  const child = spawn(process.execPath, [path.join(DYNAMIC_PROVIDER_HOST_DIR, "index.js"), engineAddress], {
    cwd: options.cwd ?? PROJECT_ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });

  const exited = new Promise<HostExit>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  // A spawn failure emits "error" (and maybe no "exit"); treat it as an exit.
  const spawnError = new Promise<Error>((resolve) => child.once("error", resolve));

  const startupLines: string[] = [];
  let port: number | undefined;
  let onPort: ((p: number) => void) | undefined;
  const portSeen = new Promise<number>((resolve) => (onPort = resolve));

  readline.createInterface({ input: child.stdout! }).on("line", (line) => {
    if (port === undefined && /^\d+$/.test(line.trim())) {
      port = Number(line.trim());
      onPort?.(port);
      return;
    }
    if (port === undefined) startupLines.push(line);
    onLog(parseOutputLine("stdout", line));
  });
  readline.createInterface({ input: child.stderr! }).on("line", (line) => {
    if (port === undefined) startupLines.push(line);
    onLog(parseOutputLine("stderr", line));
  });

  const timeoutMs = options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), timeoutMs)));

  return Promise.race([portSeen, exited, spawnError, timedOut]).then((outcome) => {
    clearTimeout(timer);
    if (typeof outcome === "number") return { child, pid: child.pid!, port: outcome, exited };
    child.kill("SIGKILL");
    const output = startupLines.length ? `\n--- host output ---\n${startupLines.join("\n")}` : "";
    if (outcome === "timeout") throw new Error(`dynamic provider host printed no port within ${timeoutMs} ms${output}`);
    if (outcome instanceof Error) throw new Error(`could not start dynamic provider host: ${outcome.message}`);
    throw new Error(
      `dynamic provider host exited before printing its port (code ${outcome.code}, signal ${outcome.signal})${output}`,
    );
  });
}

// ---------------------------------------------------------------------------
// startProviderHost
// ---------------------------------------------------------------------------

type UnaryMethod<Req, Res> = (
  request: Req,
  metadata: GrpcJs.Metadata,
  options: Partial<GrpcJs.CallOptions>,
  callback: (error: GrpcJs.ServiceError | null, response: Res) => void,
) => GrpcJs.ClientUnaryCall;

/** Starts a fake engine and the dynamic-provider host. Call `stop()` (e.g. in `afterAll`). */
export async function startProviderHost(options: ProviderHostOptions = {}): Promise<ProviderHost> {
  const logs: HostLogEntry[] = [];
  const logWaiters = new Set<(entry: HostLogEntry) => void>();
  const onLog = (entry: HostLogEntry): void => {
    logs.push(entry);
    for (const waiter of [...logWaiters]) waiter(entry);
  };

  const engine = await startFakeEngine(onLog);
  let spawned: Spawned;
  try {
    spawned = await spawnHost(options, engine.address, onLog);
  } catch (e) {
    engine.server.forceShutdown();
    throw e;
  }
  const { child, pid, port, exited } = spawned;

  // If the test process goes away without stop(), do not leave the host running.
  const killOnExit = (): void => void child.kill("SIGKILL");
  process.once("exit", killOnExit);

  let exitInfo: HostExit | undefined;
  void exited.then((e) => (exitInfo = e));

  const address = `127.0.0.1:${port}`;
  const client = new provrpc.ResourceProviderClient(address, grpc.credentials.createInsecure());

  const project = options.project ?? "project";
  const stack = options.stack ?? "stack";
  const resourceType = options.resourceType ?? DYNAMIC_RESOURCE_TYPE;
  const urn = (name: string): string =>
    name.startsWith("urn:pulumi:") ? name : `urn:pulumi:${stack}::${project}::${resourceType}::${name}`;

  function hostExitedError(method: ProviderMethod, exit: HostExit, grpcMessage?: string): ProviderCallError {
    const cause = grpcMessage ? ` (gRPC: ${grpcMessage})` : "";
    return new ProviderCallError({
      method,
      message: `dynamic provider host exited (code ${exit.code}, signal ${exit.signal}) during ${method}${cause}`,
      code: undefined,
      status: "HOST_EXITED",
      hostExit: exit,
    });
  }

  /** One unary call with its own deadline, failing fast if the host exits. */
  function call<Req, Res>(
    method: ProviderMethod,
    fn: UnaryMethod<Req, Res>,
    request: Req,
    opts: CallOptions | undefined,
  ): Promise<Res> {
    if (exitInfo) return Promise.reject(hostExitedError(method, exitInfo));
    const deadline = new Date(Date.now() + (opts?.deadlineMs ?? DEFAULT_DEADLINE_MS));
    let unaryCall: GrpcJs.ClientUnaryCall | undefined;
    const rpc = new Promise<Res>((resolve, reject) => {
      unaryCall = fn.call(client, request, new grpc.Metadata(), { deadline }, (err, res) => {
        if (!err) return resolve(res);
        const callError = toCallError(method, err);
        if (callError.code !== grpc.status.UNAVAILABLE) return reject(callError);
        // A dropped connection usually means the host died; the exit event
        // tends to arrive just after the gRPC error. Report it as such.
        void Promise.race([exited, sleep(HOST_EXIT_GRACE_MS)]).then((exit) =>
          reject(exit ? hostExitedError(method, exit, callError.message) : callError),
        );
      });
    });
    let settled = false;
    const onExit = exited.then((exit) => {
      if (settled) return new Promise<never>(() => undefined);
      unaryCall?.cancel();
      throw hostExitedError(method, exit);
    });
    return Promise.race([rpc, onExit]).finally(() => {
      settled = true;
    });
  }

  let stopping: Promise<void> | undefined;

  const host: ProviderHost = {
    pid,
    address,
    engineAddress: engine.address,
    logs,
    exited,
    urn,

    async configure(opts) {
      const req = new provproto.ConfigureRequest();
      req.setArgs(toStruct(opts?.args, "configure args"));
      const vars = req.getVariablesMap();
      for (const [k, v] of Object.entries(opts?.variables ?? {})) vars.set(k, v);
      req.setAcceptsecrets(true).setAcceptresources(true).setSendsOldInputs(true).setSendsOldInputsToDelete(true);
      const res = await call("configure", client.configure as UnaryMethod<provproto.ConfigureRequest, provproto.ConfigureResponse>, req, opts);
      return {
        acceptSecrets: res.getAcceptsecrets(),
        supportsPreview: res.getSupportspreview(),
        acceptResources: res.getAcceptresources(),
        acceptOutputs: res.getAcceptoutputs(),
      };
    },

    async check(name, olds, news, opts) {
      const req = new provproto.CheckRequest()
        .setUrn(urn(name))
        .setName(name)
        .setType(resourceType)
        .setOlds(toStruct(olds, "check olds"))
        .setNews(toStruct(news, "check news"));
      const res = await call("check", client.check as UnaryMethod<provproto.CheckRequest, provproto.CheckResponse>, req, opts);
      return {
        inputs: fromStruct(res.getInputs()),
        failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },

    async diff(id, name, olds, news, opts) {
      const req = new provproto.DiffRequest()
        .setId(id)
        .setUrn(urn(name))
        .setName(name)
        .setType(resourceType)
        .setOlds(toStruct(olds, "diff olds"))
        .setNews(toStruct(news, "diff news"))
        .setOldInputs(toStruct(opts?.oldInputs ?? olds, "diff oldInputs"))
        .setIgnorechangesList(opts?.ignoreChanges ?? []);
      const res = await call("diff", client.diff as UnaryMethod<provproto.DiffRequest, provproto.DiffResponse>, req, opts);
      const changes: DiffChanges =
        res.getChanges() === provproto.DiffResponse.DiffChanges.DIFF_SOME
          ? "some"
          : res.getChanges() === provproto.DiffResponse.DiffChanges.DIFF_NONE
            ? "none"
            : "unknown";
      return { changes, replaces: res.getReplacesList(), deleteBeforeReplace: res.getDeletebeforereplace() };
    },

    async create(name, properties, opts) {
      const req = new provproto.CreateRequest()
        .setUrn(urn(name))
        .setName(name)
        .setType(resourceType)
        .setProperties(toStruct(properties, "create properties"))
        .setTimeout(opts?.timeoutSeconds ?? 0)
        .setPreview(opts?.preview ?? false);
      const res = await call("create", client.create as UnaryMethod<provproto.CreateRequest, provproto.CreateResponse>, req, opts);
      return { id: res.getId(), properties: fromStruct(res.getProperties()) };
    },

    async update(id, name, olds, news, opts) {
      const req = new provproto.UpdateRequest()
        .setId(id)
        .setUrn(urn(name))
        .setName(name)
        .setType(resourceType)
        .setOlds(toStruct(olds, "update olds"))
        .setNews(toStruct(news, "update news"))
        .setOldInputs(toStruct(opts?.oldInputs ?? olds, "update oldInputs"))
        .setIgnorechangesList(opts?.ignoreChanges ?? [])
        .setTimeout(opts?.timeoutSeconds ?? 0)
        .setPreview(opts?.preview ?? false);
      const res = await call("update", client.update as UnaryMethod<provproto.UpdateRequest, provproto.UpdateResponse>, req, opts);
      return { properties: fromStruct(res.getProperties()) };
    },

    async read(id, name, properties, inputs, opts) {
      const req = new provproto.ReadRequest()
        .setId(id)
        .setUrn(urn(name))
        .setName(name)
        .setType(resourceType)
        .setProperties(toStruct(properties, "read properties"));
      if (inputs) req.setInputs(toStruct(inputs, "read inputs"));
      const res = await call("read", client.read as UnaryMethod<provproto.ReadRequest, provproto.ReadResponse>, req, opts);
      const returnedInputs = res.getInputs();
      return {
        id: res.getId(),
        properties: fromStruct(res.getProperties()),
        inputs: returnedInputs ? fromStruct(returnedInputs) : undefined,
      };
    },

    async delete(id, name, properties, opts) {
      const req = new provproto.DeleteRequest()
        .setId(id)
        .setUrn(urn(name))
        .setName(name)
        .setType(resourceType)
        .setProperties(toStruct(properties, "delete properties"))
        .setOldInputs(toStruct(opts?.oldInputs ?? properties, "delete oldInputs"))
        .setTimeout(opts?.timeoutSeconds ?? 0);
      await call("delete", client.delete as UnaryMethod<provproto.DeleteRequest, Empty>, req, opts);
    },

    waitForLog(match, timeoutMs = 10_000) {
      const test =
        typeof match === "function"
          ? match
          : typeof match === "string"
            ? (e: HostLogEntry) => e.message.includes(match)
            : (e: HostLogEntry) => match.test(e.message);
      const existing = logs.find(test);
      if (existing) return Promise.resolve(existing);
      return new Promise<HostLogEntry>((resolve, reject) => {
        const timer = setTimeout(() => {
          logWaiters.delete(waiter);
          const seen = logs.map((l) => `  [${l.source}/${l.severity}] ${l.message}`).join("\n");
          reject(new Error(`no log entry matched ${String(match)} within ${timeoutMs} ms; logs so far:\n${seen}`));
        }, timeoutMs);
        const waiter = (entry: HostLogEntry): void => {
          if (!test(entry)) return;
          clearTimeout(timer);
          logWaiters.delete(waiter);
          resolve(entry);
        };
        logWaiters.add(waiter);
      });
    },

    clearLogs() {
      logs.length = 0;
    },

    closeEngine() {
      engine.server.forceShutdown();
    },

    async kill(signal = "SIGKILL") {
      if (!exitInfo) child.kill(signal);
      return exited;
    },

    stop() {
      stopping ??= (async () => {
        client.close();
        if (!exitInfo) {
          child.kill("SIGTERM");
          const escalate = setTimeout(() => child.kill("SIGKILL"), 5_000);
          await exited;
          clearTimeout(escalate);
        }
        process.removeListener("exit", killOnExit);
        await new Promise<void>((resolve) => {
          const force = setTimeout(() => {
            engine.server.forceShutdown();
            resolve();
          }, 2_000);
          engine.server.tryShutdown(() => {
            clearTimeout(force);
            resolve();
          });
        });
      })();
      return stopping;
    },
  };
  return host;
}
