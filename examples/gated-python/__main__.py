"""A gated rollout in Python (examples/gated/index.ts in TypeScript).

The canary stage ends with an approval gate. The first `pulumi up` upgrades the canary and returns
with the gate Pending; approve it with a reviewed commit of the stack's config, then `pulumi up` again:

    pulumi config set --path 'approvals[0]' canary/after/0
"""
import pulumi
import pulumi_fleet_update as fleet

config = pulumi.Config()

strategy = fleet.UpdateStrategy(
    "rollout",
    stages=[
        # The gate's id is `<stage>/after/<index>`: canary/after/0.
        {"name": "canary", "groups": [{"name": "canary"}], "after_gates": [{"type": "Approval", "display_name": "Canary looks good"}]},
        {"name": "prod", "groups": [{"name": "prod-eu"}, {"name": "prod-us", "max_concurrency": "2"}]},
    ],
)

run = fleet.UpdateRun(
    "k8s-1-32",
    backend={"simulator": {"fleet_file": "../quickstart/fleet.yaml", "state_file": "fleet.yaml.state.json", "time_scale": 600}},
    members=[
        {"name": "canary-1", "group": "canary"},
        {"name": "eu-1", "group": "prod-eu"},
        {"name": "eu-2", "group": "prod-eu"},
        {"name": "us-1", "group": "prod-us"},
        {"name": "us-2", "group": "prod-us"},
    ],
    strategy=strategy.strategy,
    managed_cluster_update={
        "upgrade": {"type": "Full", "kubernetes_version": "1.32.0"},
        "node_image_selection": {"type": "Consistent"},
    },
    approvals=config.get_object("approvals") or [],
)

pulumi.export("status", run.status)
pulumi.export("summary", run.summary)
