/**
 * The layers of src/ (README, "Where things live"), checked in CI (`npm run layers`, in .ci/run): each layer
 * imports only from those below it, and nothing imports in a circle.
 *
 *   model ← engine ← runtime ← events ← backends ← spec ← drivers ← plan, simulation, report ← pulumi, cli
 *
 * The emulator (src/emulator/) is a test double that ships as a command: it may use the layers up to
 * backends, and only the simulation (`simulate --via`) and the CLI (`fleet-update emulator`) use it.
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
const INFRA = [...ENGINE, "runtime", "events"];
const BACKENDS = [...INFRA, "backends"];
const SPEC = [...BACKENDS, "spec"];
const DRIVERS = [...SPEC, "drivers"];
const USES = [...DRIVERS, "plan", "simulation", "report"];

module.exports = {
  forbidden: [
    { name: "no-circular", severity: "error", comment: "an import cycle", from: {}, to: { circular: true } },
    layer("model", []),
    layer("engine", MODEL),
    layer("runtime", ENGINE),
    layer("events", [...ENGINE, "runtime"]),
    layer("backends", INFRA),
    layer("spec", BACKENDS),
    layer("drivers", SPEC),
    layer("plan", [...DRIVERS, "report"]),
    layer("simulation", [...DRIVERS, "plan", "emulator"]),
    layer("report", [...DRIVERS, "plan"]),
    layer("emulator", BACKENDS),
    layer("pulumi", USES),
    layer("cli", [...USES, "emulator"]),
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    exclude: { path: "^(test|bench|examples|tools|dist)/" },
  },
};
