# The Python SDK's probe (see README.md): `python probe.py`, with the installed SDK on sys.path.
import json
import sys

import pulumi
from fleet_mocks import Mocks, registered  # beside this file

pulumi.runtime.set_mocks(Mocks(), project="sdk-probe", stack="dev", preview=False)

import pulumi_fleet_update as fleet_update  # noqa: E402 (the SDK registers through the mocks set above)


@pulumi.runtime.test
def probe():
    rollout = fleet_update.UpdateStrategy(
        "rollout",
        stages=[{"name": "canary", "groups": [{"name": "canary", "max_concurrency": "1"}], "after_stage_wait_in_seconds": 600}],
    )
    run = fleet_update.UpdateRun(
        "k8s-1-32",
        backend=fleet_update.BackendArgs(simulator=fleet_update.SimulatorBackendArgs(fleet_file="fleet.yaml", time_scale=600)),
        members=[fleet_update.MemberArgs(name="canary-1", group="canary")],
        strategy=rollout.strategy,
        managed_cluster_update=fleet_update.ManagedClusterUpdateArgs(
            upgrade=fleet_update.ManagedClusterUpgradeSpecArgs(type="Full", kubernetes_version="1.32.0"),
            node_image_selection=fleet_update.NodeImageSelectionArgs(type="Consistent"),
        ),
        timeout_minutes=10,
    )

    def report(_):
        registered.sort(key=lambda r: r["name"])
        sys.stdout.write(json.dumps(registered) + "\n")

    return run.id.apply(report)


probe()
