/**
 * A simulated fleet file for the provider tests: one region offering Kubernetes 1.31.2 and 1.32.0 and
 * one node image, each member on 1.31.2 with one `system` pool.
 */
const IMAGE = "AKSUbuntu-2204gen2containerd-202611.24.0";
const POOL = `[{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: ${IMAGE}}]`;

/** `simulation`: a scenario member's simulation block, as YAML flow text (e.g. `{upgradeMinutes: 60}`). */
export function fleetYaml(names: readonly string[], simulation?: string): string {
  const members = names.map((n) => `  - {name: ${n}, region: westeurope, kubernetesVersion: 1.31.2, nodePools: ${POOL}${simulation === undefined ? "" : `, simulation: ${simulation}`}}`);
  return `regions:
  westeurope:
    kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}]
    nodeImages: [{version: ${IMAGE}}]
members:
${members.join("\n")}
`;
}
