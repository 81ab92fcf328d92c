/**
 * A Pulumi project in a scratch folder, driven through the real CLI on a file backend, one operation
 * per driver process (`driver.cjs`) so a test can signal or kill it mid-operation.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT, pulumiCli } from "./pulumiCli";

export type Operation = "preview" | "up" | "refresh" | "destroy" | "cancel";

export interface OperationResult {
  ok: boolean;
  /** Everything the CLI printed. */
  output: string;
  message?: string;
  outputs?: Record<string, unknown>;
  summary?: { result?: string; resourceChanges?: Record<string, number> };
  changeSummary?: Record<string, number>;
}

export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

export interface ProjectOptions {
  /** Files to copy from the repository into the copy: a path kept as it is, or [from, to]. */
  files: Array<string | [string, string]>;
  /** The folder holding Pulumi.yaml, relative to the copy (default: its root). */
  projectDir?: string;
  /** The program, relative to the copy. */
  program: string;
  /** The folder the engine starts the program and its plugins in (Pulumi.yaml's `main`), relative. */
  main: string;
  projectName: string;
  stackName?: string;
}

export class E2eProject {
  readonly dir: string;
  readonly backendDir: string;
  readonly stackName: string;
  private readonly driver = path.join(__dirname, "driver.cjs");
  private sequence = 0;

  constructor(private readonly options: ProjectOptions) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-project-"));
    this.backendDir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-backend-"));
    this.stackName = options.stackName ?? `dev${process.pid}`;
    for (const file of options.files) {
      const [from, relativeTo] = typeof file === "string" ? [file, file] : file;
      const to = path.join(this.dir, relativeTo);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      // A clean checkout's files: not the state a local run left beside a fleet (gitignored).
      fs.cpSync(path.join(REPO_ROOT, from), to, { recursive: true, filter: (source) => !/\.state\.(json|runs)|Pulumi\..+\.yaml$/.test(source) });
    }
    // The checkout's dependencies, as `npm ci` would have put them beside a copy of the repo.
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(this.dir, "node_modules"), "junction");
  }

  path(...parts: string[]): string {
    return path.join(this.dir, ...parts);
  }

  /** Starts an operation; the handle can be signalled while it runs. */
  start(op: Operation, extra: { config?: Record<string, unknown>; env?: Record<string, string>; args?: Record<string, unknown> } = {}): RunningOperation {
    const cli = pulumiCli().cli;
    if (cli === undefined) throw new Error("the Pulumi CLI is not available");
    const n = ++this.sequence;
    const requestFile = path.join(this.backendDir, `request-${n}.json`);
    const resultFile = path.join(this.backendDir, `result-${n}.json`);
    fs.writeFileSync(
      requestFile,
      JSON.stringify({
        op,
        workDir: path.join(this.dir, this.options.projectDir ?? "."),
        stackName: this.stackName,
        projectName: this.options.projectName,
        pulumiRoot: cli.root,
        backendUrl: `file://${this.backendDir}`,
        program: path.join(this.dir, this.options.program),
        resultFile,
        ...extra,
      }),
    );
    const child = spawn(process.execPath, [this.driver, requestFile], {
      cwd: path.join(this.dir, this.options.main),
      env: { ...process.env, PATH: cli.path, PULUMI_HOME: path.join(this.backendDir, "home") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    return new RunningOperation(child, resultFile);
  }

  /**
   * Runs `pulumi ARGS...` itself in the project's folder, as a user would: the CLI starts the program
   * through its Node language host (tools/pulumi-cli/languagehost), with no automation API between.
   */
  cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return this.startCli(args, env).result;
  }

  /** `cli`, with a handle on the `pulumi` process (to signal it) and what it printed so far. */
  startCli(args: string[], env: Record<string, string> = {}): { child: ChildProcess; printed: () => string; result: Promise<{ code: number | null; stdout: string; stderr: string }> } {
    const cli = pulumiCli().cli;
    if (cli === undefined) throw new Error("the Pulumi CLI is not available");
    const child = spawn(path.join(cli.root, "bin", "pulumi"), [...args, "--non-interactive"], {
      cwd: path.join(this.dir, this.options.projectDir ?? "."),
      env: {
        ...process.env,
        PATH: cli.path,
        PULUMI_HOME: path.join(this.backendDir, "home"),
        PULUMI_BACKEND_URL: `file://${this.backendDir}`,
        PULUMI_CONFIG_PASSPHRASE: "",
        PULUMI_SKIP_UPDATE_CHECK: "true",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const result = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
    return { child, printed: () => stdout + stderr, result };
  }

  /** Runs an operation to its end. */
  run(op: Operation, extra: Parameters<E2eProject["start"]>[1] = {}): Promise<OperationResult> {
    return this.start(op, extra).result();
  }

  /** The stack's checkpoint as the file backend holds it. */
  stateFile(): string {
    const stacks = path.join(this.backendDir, ".pulumi", "stacks", this.options.projectName);
    return path.join(stacks, `${this.stackName}.json`);
  }

  state(): { checkpoint: { latest?: { resources?: StateResource[]; pending_operations?: unknown[] } } } {
    return JSON.parse(fs.readFileSync(this.stateFile(), "utf8"));
  }

  resources(type?: string): StateResource[] {
    const all = this.state().checkpoint.latest?.resources ?? [];
    return type === undefined ? all : all.filter((r) => r.type === type);
  }

  cleanup(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
    fs.rmSync(this.backendDir, { recursive: true, force: true });
  }
}

export class RunningOperation {
  private output = "";
  private readonly done: Promise<number | null>;

  constructor(readonly child: ChildProcess, private readonly resultFile: string) {
    child.stdout!.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    this.done = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  }

  /** What the CLI has printed so far. */
  get printed(): string {
    return this.output;
  }

  /** Resolves once the CLI has printed text matching `pattern`. */
  async waitFor(pattern: RegExp, timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.output)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; printed:\n${this.output.slice(-3000)}`);
      if (this.child.exitCode !== null) throw new Error(`the operation ended before ${pattern}; printed:\n${this.output.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The `pulumi` process this operation started (a child of the driver). */
  pulumiPid(): number | undefined {
    return descendants(this.child.pid!).find((pid) => commandOf(pid).endsWith("/bin/pulumi") || commandOf(pid) === "pulumi");
  }

  async result(): Promise<OperationResult> {
    await this.done;
    const result = fs.existsSync(this.resultFile) ? JSON.parse(fs.readFileSync(this.resultFile, "utf8")) : { ok: false, message: "no result: the driver was killed" };
    return { ...result, output: this.output };
  }

  exited(): Promise<number | null> {
    return this.done;
  }
}

/** Every live descendant of a process (Linux /proc). */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // the process ended while we looked
    }
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** The executable of a process, or "" when it is gone. */
export function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0] ?? "";
  } catch {
    return "";
  }
}

/** Live processes whose command line mentions `text` (e.g. a scratch folder). */
export function processesMentioning(text: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8");
      const cwd = fs.readlinkSync(`/proc/${entry}/cwd`);
      if (cmdline.includes(text) || cwd.startsWith(text)) found.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}
