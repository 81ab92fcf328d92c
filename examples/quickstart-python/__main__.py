"""The quickstart in Python (examples/quickstart/index.ts in TypeScript, quickstart-yaml in YAML).

A strategy — canary first, then three regions in parallel — and a run upgrading the simulated fleet
of 8 clusters (examples/quickstart/fleet.yaml) to Kubernetes 1.32.0. `pulumi up` executes the rollout
(about 10 seconds: simulated time runs 600 times faster) and exports its status and summary.

Needs the SDK (`pip install -r requirements.txt`; in this repository `pip install ../../sdk/python`)
and the provider plugin, which Pulumi downloads, or `pulumi plugin install` installs
(docs/installation-configuration.md).
"""
import pulumi
import pulumi_fleet_update as fleet

strategy = fleet.UpdateStrategy(
    "rollout",
    stages=[
        {"name": "canary", "groups": [{"name": "canary"}], "after_stage_wait_in_seconds": 600},
        {"name": "prod", "groups": [{"name": "prod-eu"}, {"name": "prod-us", "max_concurrency": "2"}, {"name": "prod-asia"}]},
    ],
)

MEMBERS = {
    "canary-1": "canary",
    "eu-1": "prod-eu",
    "eu-2": "prod-eu",
    "us-1": "prod-us",
    "us-2": "prod-us",
    "us-3": "prod-us",
    "asia-1": "prod-asia",
    "asia-2": "prod-asia",
}

run = fleet.UpdateRun(
    "k8s-1-32",
    # Relative to this project's folder: the quickstart's fleet, with this project's own state file.
    backend={"simulator": {"fleet_file": "../quickstart/fleet.yaml", "state_file": "fleet.yaml.state.json", "time_scale": 600}},
    members=[{"name": name, "group": group} for name, group in MEMBERS.items()],
    strategy=strategy.strategy,
    managed_cluster_update={
        "upgrade": {"type": "Full", "kubernetes_version": "1.32.0"},
        "node_image_selection": {"type": "Consistent"},
    },
    state="Running",
    skip=[],
    timeout_minutes=10,
)

pulumi.export("status", run.status)
pulumi.export("summary", run.summary)
