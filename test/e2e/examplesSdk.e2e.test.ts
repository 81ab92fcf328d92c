/**
 * Issue 33: the Python and Go examples (`examples/*-python`, `examples/*-go`), built against the
 * committed SDKs (`sdk/python` installed with pip, `sdk/go` through the examples' `replace`), and their
 * programs run under each SDK's mocks — Pulumi's Python and Go language hosts are not served here, so
 * the CLI cannot start them (test/e2e/sdks/README.md). Each registers exactly what its YAML twin
 * declares (`examples/*-yaml`, which the real CLI runs: examplesCli.e2e.test.ts): the same resources,
 * names and inputs, in the schema's names, so the four languages' examples are one program.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, realCliAvailable } from "./support/pulumiCli";

const HARNESS = path.join(__dirname, "sdks");
const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
const SCHEMA = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8")) as { resources: Record<string, { inputProperties: Record<string, { default?: unknown }> }> };
const GO_SDK = /^module (\S+)$/m.exec(fs.readFileSync(path.join(REPO_ROOT, "sdk", "go", "go.mod"), "utf8"))![1]!;

interface Registration {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

/** Each example, with the stack config its programs read (the same for every language). */
const EXAMPLES: Array<{ name: string; yaml: string; config: Record<string, unknown> }> = [
  { name: "quickstart", yaml: "quickstart-yaml", config: {} },
  { name: "gated", yaml: "gated-yaml", config: { approvals: ["canary/after/0"] } },
  {
    name: "fleet-manager",
    yaml: "fleet-manager-yaml",
    config: {
      fleetId: "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.ContainerService/fleets/fleet-1",
      kubernetesVersion: "1.32.0",
      armEndpoint: "https://127.0.0.1:8443",
      credential: "emulator",
      pollSeconds: 1,
      apiVersion: "2026-06-02-preview",
      approvals: [],
    },
  },
];

function run(command: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const result = spawnSync(command, args, { cwd: options.cwd ?? REPO_ROOT, env: { ...process.env, ...options.env }, encoding: "utf8", timeout: 15 * 60_000, maxBuffer: 64 * 1024 * 1024 });
  return { code: result.status, stdout: result.stdout ?? "", stderr: `${result.stderr ?? ""}${result.error ? `\n${result.error.message}` : ""}` };
}
const failure = (r: ReturnType<typeof run>) => `exit ${r.code}\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`;

function registered(output: string): Registration[] {
  const line = output.split("\n").find((l) => l.startsWith("REGISTERED "));
  if (line === undefined) throw new Error(`no REGISTERED line in:\n${output.slice(-3000)}`);
  return JSON.parse(line.slice("REGISTERED ".length)) as Registration[];
}

/**
 * What a Pulumi YAML program registers, read from its file the way the YAML host evaluates it for these
 * examples: config (with its defaults) and variables by name, `${resource.output}` through the same
 * mocks as the harnesses (a strategy's `strategy` and `updateStrategyId`), resources in file order.
 */
function yamlRegistrations(file: string, config: Record<string, unknown>): Registration[] {
  const program = parseYaml(fs.readFileSync(file, "utf8")) as {
    config?: Record<string, { default?: unknown }>;
    variables?: Record<string, unknown>;
    resources: Record<string, { type: string; properties: Record<string, unknown> }>;
  };
  const names: Record<string, unknown> = { ...Object.fromEntries(Object.entries(program.config ?? {}).map(([k, v]) => [k, v.default])), ...config };
  const states: Record<string, Record<string, unknown>> = {};
  const lookup = (reference: string): unknown => {
    if (reference in names) return names[reference];
    const [resource, ...fields] = reference.split(".");
    let value: unknown = states[resource!];
    if (value === undefined) throw new Error(`${file}: \${${reference}} names nothing`);
    for (const field of fields) value = (value as Record<string, unknown>)[field];
    return value;
  };
  const resolve = (value: unknown): unknown => {
    if (typeof value === "string") {
      const reference = /^\$\{([^}]+)\}$/.exec(value);
      return reference === null ? value : lookup(reference[1]!);
    }
    if (Array.isArray(value)) return value.map(resolve);
    if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
    return value;
  };
  for (const [name, value] of Object.entries(program.variables ?? {})) names[name] = resolve(value);
  const registrations: Registration[] = [];
  for (const [name, resource] of Object.entries(program.resources)) {
    // The schema's defaults of the resource's inputs, which every SDK fills in as it registers.
    const defaults = Object.entries(SCHEMA.resources[resource.type]!.inputProperties).flatMap(([k, spec]) => (spec.default === undefined ? [] : [[k, spec.default] as const]));
    const inputs = { ...Object.fromEntries(defaults), ...(resolve(resource.properties) as Record<string, unknown>) };
    registrations.push({ type: resource.type, name, inputs });
    states[name] = resource.type === "fleet-update:index:UpdateStrategy" ? { ...inputs, strategy: { stages: inputs.stages }, updateStrategyId: `${name}-strategy-id` } : inputs;
  }
  return registrations.sort((a, b) => a.name.localeCompare(b.name));
}

describe.skipIf(!realCliAvailable())("the Python and Go examples, against the committed SDKs", () => {
  let scratch: string;
  let python: string | undefined;
  let site: string;

  beforeAll(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-update-examples-sdk-"));
    site = path.join(scratch, "python-site");
    const made = run("bash", [path.join(REPO_ROOT, "scripts", "python-pulumi.sh")]);
    if (made.code === 0) python = made.stdout.trim();
    else if (process.env.CI === "true") throw new Error(`the Python environment is required under CI: ${failure(made)}`);
    else process.stderr.write(`skipping the Python examples: ${made.stderr.trim().split("\n").slice(-2).join(" ")}\n`);
    if (python !== undefined) {
      // The committed SDK, installed as `pip install sdk/python` does (its version from its metadata).
      const installed = run(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--no-build-isolation", "--no-index", "--target", site, path.join(REPO_ROOT, "sdk", "python")]);
      expect(installed.code, failure(installed)).toBe(0);
    }
  }, 15 * 60_000);

  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("every example is there in TypeScript, Python, Go and YAML, each a project of its language", () => {
    const runtimeOf = (dir: string) => {
      // The TypeScript quickstart's project is the repository's own Pulumi.yaml (`main: examples/quickstart/`).
      const own = path.join(REPO_ROOT, "examples", dir, "Pulumi.yaml");
      const file = fs.existsSync(own) ? own : path.join(REPO_ROOT, "Pulumi.yaml");
      const project = parseYaml(fs.readFileSync(file, "utf8")) as { runtime: string | { name: string }; main?: string };
      if (file !== own) expect(project.main, `${dir}: the root project's main`).toBe(`examples/${dir}/`);
      return typeof project.runtime === "string" ? project.runtime : project.runtime.name;
    };
    for (const { name, yaml } of EXAMPLES) {
      expect(runtimeOf(name), `examples/${name}`).toBe("nodejs");
      expect(runtimeOf(yaml), `examples/${yaml}`).toBe("yaml");
      expect(runtimeOf(`${name}-python`), `examples/${name}-python`).toBe("python");
      expect(runtimeOf(`${name}-go`), `examples/${name}-go`).toBe("go");
      expect(fs.readFileSync(path.join(REPO_ROOT, "examples", `${name}-python`, "requirements.txt"), "utf8")).toMatch(/^pulumi_fleet_update$/m);
      // The Go examples require the SDK at this version, built from the committed one in a checkout.
      const goMod = fs.readFileSync(path.join(REPO_ROOT, "examples", `${name}-go`, "go.mod"), "utf8");
      expect(goMod).toMatch(new RegExp(`^\\s*${GO_SDK.replace(/[./]/g, "\\$&")} v${VERSION.replace(/\./g, "\\.")}$`, "m"));
      expect(goMod).toContain(`replace ${GO_SDK} => ../../sdk/go`);
    }
  });

  for (const example of EXAMPLES) {
    const project = (suffix: string) => (parseYaml(fs.readFileSync(path.join(REPO_ROOT, "examples", `${example.name}-${suffix}`, "Pulumi.yaml"), "utf8")) as { name: string }).name;

    it(`${example.name}: the Python program, with the committed SDK, registers what the YAML program declares`, (context) => {
      if (python === undefined) return context.skip();
      const dir = path.join(REPO_ROOT, "examples", `${example.name}-python`);
      // Compiled in memory (py_compile would write __pycache__ into the checkout).
      const compiled = run(python, ["-c", "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')", path.join(dir, "__main__.py")]);
      expect(compiled.code, failure(compiled)).toBe(0);
      const ran = run(python, [path.join(HARNESS, "run_example.py"), dir, project("python"), JSON.stringify(example.config)], { env: { PYTHONPATH: site, PYTHONDONTWRITEBYTECODE: "1" } });
      expect(ran.code, failure(ran)).toBe(0);
      expect(registered(ran.stdout)).toEqual(yamlRegistrations(path.join(REPO_ROOT, "examples", example.yaml, "Pulumi.yaml"), example.config));
    }, 5 * 60_000);

    it(`${example.name}: the Go program vets and builds against the committed SDK, and registers what the YAML program declares`, () => {
      const dir = path.join(scratch, `${example.name}-go`);
      fs.cpSync(path.join(REPO_ROOT, "examples", `${example.name}-go`), dir, { recursive: true });
      // The example's own go.mod and go.sum, with the committed SDK where it is (not ../../sdk/go).
      const env = { GOFLAGS: "-trimpath -buildvcs=false", GOTOOLCHAIN: "local" };
      const replaced = run("go", ["mod", "edit", "-replace", `${GO_SDK}=${path.join(REPO_ROOT, "sdk", "go")}`], { cwd: dir, env });
      expect(replaced.code, failure(replaced)).toBe(0);
      // `go vet` compiles the program; `go test` below builds and links it into the harness's binary.
      const vetted = run("go", ["vet", "."], { cwd: dir, env });
      expect(vetted.code, failure(vetted)).toBe(0);

      for (const file of ["mocks_test.go", "example_test.go"]) fs.copyFileSync(path.join(HARNESS, file), path.join(dir, file));
      const config = Object.fromEntries(Object.entries(example.config).map(([k, v]) => [`${project("go")}:${k}`, typeof v === "string" ? v : JSON.stringify(v)]));
      const ran = run("go", ["test", "-count=1", "-run", "^TestExampleUnderMocks$", "-v", "."], { cwd: dir, env: { ...env, EXAMPLE_PROJECT: project("go"), PULUMI_CONFIG: JSON.stringify(config) } });
      expect(ran.code, failure(ran)).toBe(0);
      expect(registered(ran.stdout)).toEqual(yamlRegistrations(path.join(REPO_ROOT, "examples", example.yaml, "Pulumi.yaml"), example.config));
    }, 15 * 60_000);
  }
});
