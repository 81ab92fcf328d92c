/**
 * Issue 11: `pulumi up` with the repo's root Pulumi.yaml (`main: examples/quickstart/`). The engine
 * starts the dynamic-provider host in the `main` folder, not the project's, so relative paths must be
 * resolved against the project folder `UpdateRun` records (`projectDir`), never the host's cwd. The
 * host here runs where the real engine runs it: in `examples/quickstart/`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpdateRun } from "../../../src/pulumi";
import type { RunSummary } from "../../../src/engine/summary";
import { captureDynamicInputs } from "../support/captureInputs";
import { fleetYaml } from "../support/fleetYaml";
import { PROJECT_ROOT, startProviderHost, type PropertyMap, type ProviderHost } from "../support/providerHost";

const FLEET = fleetYaml(["eu-1", "eu-2"]);
/** The program's folder: the host's working directory under the real CLI. */
const MAIN = path.join(PROJECT_ROOT, "examples", "quickstart");

let provider = "";
let host: ProviderHost;

/** A project folder elsewhere, laid out like the repo: `examples/quickstart/fleet.yaml`. */
function project(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "project-"));
  fs.mkdirSync(path.join(dir, "examples", "quickstart"), { recursive: true });
  fs.writeFileSync(path.join(dir, "examples", "quickstart", "fleet.yaml"), FLEET);
  return dir;
}

function inputs(projectDir: string, overrides: Record<string, unknown> = {}): PropertyMap {
  return {
    __provider: provider,
    runName: "paths",
    projectDir,
    backend: { simulator: { fleetFile: "examples/quickstart/fleet.yaml", timeScale: 20_000 } },
    members: [{ name: "eu-1" }, { name: "eu-2" }],
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
    ...overrides,
  } as PropertyMap;
}

beforeAll(async () => {
  const [captured] = await captureDynamicInputs(() => {
    new UpdateRun("paths", { backend: { simulator: { fleetFile: "fleet.yaml" } }, members: [{ name: "eu-1" }], managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } } });
  });
  provider = captured!.provider;
  host = await startProviderHost({ cwd: MAIN });
  await host.configure();
}, 60_000);

afterAll(async () => {
  await host?.stop();
});

describe("relative paths are resolved against the recorded project folder, not the host's cwd", () => {
  it("a create whose host runs in the `main` folder finds the fleet file, and keeps state and journal in the project", async () => {
    const dir = project();
    const checked = await host.check("paths", {}, inputs(dir));
    expect(checked.failures).toEqual([]);
    // The preview's plan read the fleet too (it would say "not computed: cannot read ..." otherwise).
    await host.waitForLog(/\[paths\] plan: 2 members from /);

    const { id, properties } = await host.create("paths", inputs(dir));
    expect(properties.summary as unknown as RunSummary).toMatchObject({ state: "Completed", members: { total: 2, Completed: 2 } });
    expect(fs.existsSync(path.join(dir, "examples", "quickstart", "fleet.yaml.state.json"))).toBe(true);
    expect(fs.existsSync(path.join(dir, "examples", "quickstart", "fleet.yaml.state.runs", "paths.json"))).toBe(true);
    // Nothing was looked for or written under the host's own folder.
    expect(fs.existsSync(path.join(MAIN, "examples"))).toBe(false);
    expect(fs.existsSync(path.join(MAIN, "fleet.yaml.state.json"))).toBe(false);

    // Delete forgets the journal where the run kept it.
    await host.delete(id, "paths", properties);
    expect(fs.existsSync(path.join(dir, "examples", "quickstart", "fleet.yaml.state.runs", "paths.json"))).toBe(false);
  });

  it("the same project from another checkout path is the same run: diff ignores projectDir", async () => {
    const olds = inputs("/home/ci/checkout-1");
    expect(await host.diff("paths-1", "paths", olds, inputs("/home/ci/checkout-2"))).toMatchObject({ changes: "none", replaces: [] });
    expect(await host.diff("paths-1", "paths", olds, inputs("/home/ci/checkout-2", { members: [{ name: "eu-1" }] }))).toMatchObject({ changes: "some", replaces: ["members"] });
  });

  it("check refuses a projectDir that is not an absolute path, naming the field", async () => {
    const { failures } = await host.check("paths", {}, inputs("examples"));
    expect(failures).toEqual([{ property: "projectDir", reason: expect.stringContaining("must be an absolute path") }]);
  });
});

describe("UpdateRun records the project folder when the program runs", () => {
  it("from pulumi.runtime.getRootDirectory() (the folder holding Pulumi.yaml), else the program's cwd", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "root-"));
    const args = { backend: { simulator: { fleetFile: "fleet.yaml" } }, members: [{ name: "eu-1" }], managedClusterUpdate: { upgrade: { type: "Full" as const, kubernetesVersion: "1.32.0" } } };
    const [withRoot] = await captureDynamicInputs(() => {
      // What the Node.js language host sets from the CLI (PULUMI_NODEJS_ROOT_DIRECTORY).
      (require("@pulumi/pulumi/runtime/state") as { getStore(): { settings: { options: { rootDirectory?: string } } } }).getStore().settings.options.rootDirectory = root;
      new UpdateRun("a", args);
    });
    expect(withRoot!.inputs.projectDir).toBe(root);
    const [withoutRoot] = await captureDynamicInputs(() => {
      (require("@pulumi/pulumi/runtime/state") as { getStore(): { settings: { options: { rootDirectory?: string } } } }).getStore().settings.options.rootDirectory = "rootDirectory";
      new UpdateRun("b", args);
    });
    expect(withoutRoot!.inputs.projectDir).toBe(process.cwd());
    const [given] = await captureDynamicInputs(() => {
      new UpdateRun("c", { ...args, projectDir: root });
    });
    expect(given!.inputs.projectDir).toBe(root);
  });
});
