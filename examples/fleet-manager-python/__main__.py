"""A staged upgrade executed by Azure Kubernetes Fleet Manager, in Python (examples/fleet-manager/index.ts
in TypeScript). The strategy is kept in the fleet, the run is created from it and started, and
`pulumi up` follows it; the canary stage ends with an approval gate, approved by a reviewed commit:

    pulumi config set fleetId /subscriptions/…/resourceGroups/…/providers/Microsoft.ContainerService/fleets/…
    pulumi config set kubernetesVersion 1.32.0
    pulumi up                                            # returns with canary/after/0 Pending
    pulumi config set --path 'approvals[0]' canary/after/0
    pulumi up                                            # the rest of the fleet

The members are the fleet's own, each in its update group (canary, prod, dev). Credentials:
DefaultAzureCredential (`az login`, or AZURE_* variables). Against the ARM emulator
(`fleet-update emulator`), also set armEndpoint, trustedCaFile, `credential: emulator` and pollSeconds.
"""
import pulumi
import pulumi_fleet_update as fleet

config = pulumi.Config()
settings = {
    "fleet_id": config.require("fleetId"),
    "credential": config.get("credential") or "default",
    "endpoint": config.get("armEndpoint"),
    "trusted_ca_file": config.get("trustedCaFile"),
    "poll_interval_seconds": config.get_float("pollSeconds"),
    "api_version": config.get("apiVersion"),
}
# Settings left unset stay out of the inputs: the provider's defaults apply.
backend = {"azure_fleet": {key: value for key, value in settings.items() if value is not None}}

# Kept in the fleet as `updateStrategies/rollout`: Fleet's portal and CLI see the same strategy.
strategy = fleet.UpdateStrategy(
    "rollout",
    backend=backend,
    stages=[
        {"name": "canary", "groups": [{"name": "canary"}], "after_gates": [{"type": "Approval", "display_name": "Canary looks good"}]},
        {"name": "prod", "groups": [{"name": "prod"}, {"name": "dev"}]},
    ],
)

# Named after the resource: the fleet's update run `k8s-upgrade`. A second `up` attaches to it.
run = fleet.UpdateRun(
    "k8s-upgrade",
    backend=backend,
    members=[],
    update_strategy_id=strategy.update_strategy_id,
    managed_cluster_update={
        "upgrade": {"type": "Full", "kubernetes_version": config.require("kubernetesVersion")},
        "node_image_selection": {"type": "Latest"},
    },
    approvals=config.get_object("approvals") or [],
)

pulumi.export("status", run.status)
pulumi.export("summary", run.summary)
pulumi.export("fleetRunId", run.fleet_run.apply(lambda r: (r or {}).get("id")))
