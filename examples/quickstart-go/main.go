// The quickstart in Go (examples/quickstart/index.ts in TypeScript, quickstart-yaml in YAML).
//
// A strategy — canary first, then three regions in parallel — and a run upgrading the simulated fleet
// of 8 clusters (examples/quickstart/fleet.yaml) to Kubernetes 1.32.0. `pulumi up` executes the
// rollout (about 10 seconds: simulated time runs 600 times faster) and exports its status and summary.
// Needs the provider plugin, which Pulumi downloads, or `pulumi plugin install` installs
// (docs/installation-configuration.md).
package main

import (
	"github.com/fleet-update/pulumi-fleet-update/sdk/go/fleetupdate"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(program)
}

// members: each cluster of the fleet, in its update group.
var members = [][2]string{
	{"canary-1", "canary"},
	{"eu-1", "prod-eu"}, {"eu-2", "prod-eu"},
	{"us-1", "prod-us"}, {"us-2", "prod-us"}, {"us-3", "prod-us"},
	{"asia-1", "prod-asia"}, {"asia-2", "prod-asia"},
}

// program declares the rollout (apart from main so tests can run it under Pulumi's mocks).
func program(ctx *pulumi.Context) error {
	strategy, err := fleetupdate.NewUpdateStrategy(ctx, "rollout", &fleetupdate.UpdateStrategyArgs{
		Stages: fleetupdate.UpdateStageArray{
			fleetupdate.UpdateStageArgs{
				Name:                    pulumi.String("canary"),
				Groups:                  fleetupdate.UpdateGroupArray{fleetupdate.UpdateGroupArgs{Name: pulumi.String("canary")}},
				AfterStageWaitInSeconds: pulumi.Int(600),
			},
			fleetupdate.UpdateStageArgs{
				Name: pulumi.String("prod"),
				Groups: fleetupdate.UpdateGroupArray{
					fleetupdate.UpdateGroupArgs{Name: pulumi.String("prod-eu")},
					fleetupdate.UpdateGroupArgs{Name: pulumi.String("prod-us"), MaxConcurrency: pulumi.String("2")},
					fleetupdate.UpdateGroupArgs{Name: pulumi.String("prod-asia")},
				},
			},
		},
	})
	if err != nil {
		return err
	}

	var fleetMembers fleetupdate.MemberArray
	for _, m := range members {
		fleetMembers = append(fleetMembers, fleetupdate.MemberArgs{Name: pulumi.String(m[0]), Group: pulumi.String(m[1])})
	}
	run, err := fleetupdate.NewUpdateRun(ctx, "k8s-1-32", &fleetupdate.UpdateRunArgs{
		// Relative to this project's folder: the quickstart's fleet, with this project's own state file.
		Backend: fleetupdate.BackendArgs{Simulator: fleetupdate.SimulatorBackendArgs{
			FleetFile: pulumi.String("../quickstart/fleet.yaml"),
			StateFile: pulumi.String("fleet.yaml.state.json"),
			TimeScale: pulumi.Float64(600),
		}},
		Members:  fleetMembers,
		Strategy: strategy.Strategy,
		ManagedClusterUpdate: fleetupdate.ManagedClusterUpdateArgs{
			Upgrade:            fleetupdate.ManagedClusterUpgradeSpecArgs{Type: pulumi.String("Full"), KubernetesVersion: pulumi.String("1.32.0")},
			NodeImageSelection: fleetupdate.NodeImageSelectionArgs{Type: pulumi.String("Consistent")},
		},
		State:          pulumi.String("Running"),
		Skip:           fleetupdate.SkipTargetArray{},
		TimeoutMinutes: pulumi.Float64(10),
	})
	if err != nil {
		return err
	}

	ctx.Export("status", run.Status)
	ctx.Export("summary", run.Summary)
	return nil
}
