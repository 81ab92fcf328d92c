/**
 * The layers of src/ (docs/architecture.md), checked in CI (`npm run layers`, in .ci/run): each layer
 * imports only from those below it, and nothing imports in a circle.
 *
 *   model ← engine ← aks ← runtime ← events ← spec ← backends ← drivers ← simulation ← plan ← report ← pulumi, cli
 *
 * AKS's upgrade rules (src/aks/) sit below everything that enforces or predicts them: the simulated
 * fleet, the ARM emulator and the plan's findings share one copy without reaching into each other.
 *
 * The seam (issue 32): only the drivers and the simulation reach a backend; the Pulumi resources, the
 * CLI, the plan and the report talk to a `RunDriver` (src/drivers/runDriver.ts) and get the simulated
 * world from the simulation. The run spec sits below the backends: it imports no Fleet Manager code,
 * and each driver adds its backend's static checks (src/drivers/runInputs.ts).
 *
 * The emulator (src/emulator/) is a test double that ships as a command: it may use the layers up to
 * the backends, and only the simulation (`simulate --via`) and the CLI (`fleet-update emulator`) use it.
 */
const layer = (name, below) => ({
  name: `${name}-imports-only-below`,
  comment: `src/${name} imports only from ${below.join(", ")} and itself`,
  severity: "error",
  from: { path: `^src/${name}/` },
  to: { path: "^src/", pathNot: [`^src/${name}/`, ...below.map((b) => `^src/${b}/`)] },
});

const MODEL = ["model"];
const ENGINE = [...MODEL, "engine"];
const AKS = [...ENGINE, "aks"];
const INFRA = [...AKS, "runtime", "events"];
const SPEC = [...INFRA, "spec"];
const BACKENDS = [...SPEC, "backends"];
const DRIVERS = [...BACKENDS, "drivers"];
const SIMULATION = [...DRIVERS, "simulation"];
const PLAN = [...SIMULATION, "plan"];
const REPORT = [...PLAN, "report"];

module.exports = {
  forbidden: [
    { name: "no-circular", severity: "error", comment: "an import cycle", from: {}, to: { circular: true } },
    {
      name: "backends-only-through-drivers",
      comment: "only src/drivers, src/simulation and the emulator import src/backends: everything else talks to a RunDriver (docs/architecture.md); the package's entry (src/index.ts) exports the simulated fleet as public API",
      severity: "error",
      from: { path: "^src/", pathNot: ["^src/(backends|drivers|simulation|emulator)/", "^src/index\\.ts$"] },
      to: { path: "^src/backends/" },
    },
    // Issue 32: the drivers' two wings — our engine (drivers/engine/) and Fleet Manager running the run
    // (drivers/fleet/, with its mappings of our shapes to Fleet's) — share only what sits at the root
    // of drivers/ (the RunDriver interface, the records' place, the cluster reader), never each other.
    {
      name: "drivers-wings-apart",
      comment: "src/drivers/engine and src/drivers/fleet do not import each other: what both need sits in src/drivers/",
      severity: "error",
      from: { path: "^src/drivers/(engine|fleet)/" },
      to: { path: "^src/drivers/(engine|fleet)/", pathNot: ["^src/drivers/$1/"] },
    },
    // Issue 32: src/pulumi/ by where the code runs. program/ runs in the user's program and loads the
    // provider only through its stored stubs (by package path, at run time); provider/ runs in the
    // dynamic-provider host and in the plugin; plugin/ is the executable. All three describe the surface
    // of surface.ts, which imports none of them.
    {
      name: "pulumi-program-imports-only-the-surface",
      comment: "src/pulumi/program (the resources a program imports) imports of src/pulumi only surface.ts: the provider is loaded by the stored stubs",
      severity: "error",
      from: { path: "^src/pulumi/program/" },
      to: { path: "^src/pulumi/", pathNot: ["^src/pulumi/program/", "^src/pulumi/surface\\.ts$"] },
    },
    {
      name: "pulumi-provider-below-program-and-plugin",
      comment: "src/pulumi/provider (shared by the dynamic host and the plugin) imports of src/pulumi only itself and surface.ts",
      severity: "error",
      from: { path: "^src/pulumi/provider/" },
      to: { path: "^src/pulumi/", pathNot: ["^src/pulumi/provider/", "^src/pulumi/surface\\.ts$"] },
    },
    {
      name: "pulumi-plugin-not-the-program",
      comment: "src/pulumi/plugin (the executable) serves the provider: it does not import the program's resources",
      severity: "error",
      from: { path: "^src/pulumi/plugin/" },
      to: { path: "^src/pulumi/program/" },
    },
    {
      name: "pulumi-surface-at-the-bottom",
      comment: "src/pulumi/surface.ts is what program, provider and plugin describe: it imports none of them",
      severity: "error",
      from: { path: "^src/pulumi/surface\\.ts$" },
      to: { path: "^src/pulumi/(program|provider|plugin)/" },
    },
    layer("model", []),
    layer("engine", MODEL),
    layer("aks", ENGINE),
    layer("runtime", AKS),
    layer("events", [...AKS, "runtime"]),
    layer("spec", INFRA),
    layer("backends", SPEC),
    layer("drivers", BACKENDS),
    layer("simulation", [...DRIVERS, "emulator"]),
    layer("plan", SIMULATION),
    layer("report", PLAN),
    layer("emulator", BACKENDS),
    layer("pulumi", REPORT),
    layer("cli", [...REPORT, "emulator"]),
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    exclude: { path: "^(test|bench|examples|tools|dist)/" },
  },
};
