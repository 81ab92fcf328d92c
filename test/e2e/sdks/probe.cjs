// The TypeScript SDK's probe (see README.md): `node probe.cjs <built SDK folder>`.
const path = require("node:path");
const sdkDir = path.resolve(process.argv[2]);
// The SDK's own @pulumi/pulumi (the one it registers resources through), not a second copy.
const pulumi = require(require.resolve("@pulumi/pulumi", { paths: [sdkDir] }));

const registered = [];
pulumi.runtime.setMocks(
  {
    newResource(args) {
      registered.push({ type: args.type, name: args.name, inputs: args.inputs });
      const state = args.type === "fleet-update:index:UpdateStrategy" ? { ...args.inputs, strategy: { stages: args.inputs.stages } } : args.inputs;
      return { id: `${args.name}-id`, state };
    },
    call: () => ({}),
  },
  "sdk-probe",
  "dev",
  false,
);

const fleetUpdate = require(path.join(sdkDir, "bin"));
const rollout = new fleetUpdate.UpdateStrategy("rollout", {
  stages: [{ name: "canary", groups: [{ name: "canary", maxConcurrency: "1" }], afterStageWaitInSeconds: 600 }],
});
const run = new fleetUpdate.UpdateRun("k8s-1-32", {
  backend: { simulator: { fleetFile: "fleet.yaml", timeScale: 600 } },
  members: [{ name: "canary-1", group: "canary" }],
  strategy: rollout.strategy,
  managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Consistent" } },
  timeoutMinutes: 10,
});

run.id.apply(() => {
  // The run registers once the strategy's output is known: both are in `registered` by now.
  registered.sort((a, b) => a.name.localeCompare(b.name));
  process.stdout.write(`${JSON.stringify(registered)}\n`);
});
