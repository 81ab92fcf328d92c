/**
 * One Pulumi operation through the real CLI, in its own Node process, so a test can signal or kill it.
 *
 *   node driver.cjs REQUEST.json
 *
 * REQUEST: { op: "preview" | "up" | "refresh" | "destroy" | "cancel",
 *            workDir, stackName, pulumiRoot, backendUrl, program?, config?, env?, args?, resultFile }
 *
 * The program is the example's own TypeScript file, loaded here and handed to the CLI as an inline
 * program (the automation API serves it to `pulumi` over `--client`): the Node language host
 * (`pulumi-language-nodejs`) is not served by the Go module proxy, so the CLI cannot start a program
 * itself on these machines (see test/e2e/README.md). Everything else is the real engine: the
 * project file in `workDir` (its `main` sets the plugins' working directory), closure serialization of
 * `__provider`, the dynamic-provider plugin, the state file on a file backend, preview, refresh,
 * destroy, pending operations, signals.
 *
 * The result (outputs, the operation's summary, or the error) is written to `resultFile` as JSON;
 * the CLI's own output is streamed to stdout as it comes.
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

const request = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));

// What the Node language host tells a program it starts (`--root-directory`): the project's folder,
// the one holding Pulumi.yaml. The automation API's inline server does not set it.
process.env.PULUMI_NODEJS_ROOT_DIRECTORY = request.workDir;

// The examples are TypeScript: compile each .ts file as it is required (types are the type-check's job).
require.extensions[".ts"] = (module, filename) => {
  const source = fs.readFileSync(filename, "utf8");
  const output = ts.transpileModule(source, {
    fileName: filename,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, sourceMap: false },
  });
  module._compile(output.outputText, filename);
};

const { LocalWorkspace, PulumiCommand } = require("@pulumi/pulumi/automation");

function write(result) {
  fs.writeFileSync(request.resultFile, JSON.stringify(result, null, 2));
}

async function main() {
  const pulumiCommand = await PulumiCommand.get({ root: request.pulumiRoot, skipVersionCheck: true });
  const envVars = {
    PULUMI_BACKEND_URL: request.backendUrl,
    PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    ...(request.env ?? {}),
  };
  const program = async () => {
    if (request.program === undefined) return {};
    const programPath = path.resolve(request.program);
    // The engine starts the program in its `main` folder; so do we (the real language host does the same).
    const exports = require(programPath);
    return { ...exports };
  };
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: request.stackName, projectName: request.projectName, program },
    { workDir: request.workDir, pulumiCommand, envVars },
  );
  if (request.config !== undefined) {
    for (const [key, value] of Object.entries(request.config)) {
      await stack.setConfig(key, typeof value === "object" ? value : { value: String(value) }, request.configPath === true);
    }
  }
  const onOutput = (text) => process.stdout.write(text);
  const args = request.args ?? {};
  switch (request.op) {
    case "preview": {
      const result = await stack.preview({ onOutput, ...args });
      write({ ok: true, stdout: result.stdout, changeSummary: result.changeSummary });
      return;
    }
    case "up": {
      const result = await stack.up({ onOutput, ...args });
      write({ ok: true, stdout: result.stdout, outputs: plainOutputs(result.outputs), summary: result.summary });
      return;
    }
    case "refresh": {
      const result = await stack.refresh({ onOutput, ...args });
      write({ ok: true, stdout: result.stdout, summary: result.summary });
      return;
    }
    case "destroy": {
      const result = await stack.destroy({ onOutput, ...args });
      write({ ok: true, stdout: result.stdout, summary: result.summary });
      return;
    }
    case "cancel": {
      await stack.cancel();
      write({ ok: true });
      return;
    }
    default:
      throw new Error(`unknown op ${request.op}`);
  }
}

/** Outputs as plain values; a secret keeps its mark so a test can see it was one. */
function plainOutputs(outputs) {
  const plain = {};
  for (const [key, { value, secret }] of Object.entries(outputs)) plain[key] = secret ? { secret: true, value } : value;
  return plain;
}

main().catch((error) => {
  write({ ok: false, message: String(error && error.message ? error.message : error), stdout: error?.stdout, stderr: error?.stderr });
  process.exitCode = 1;
});
