// A gated rollout in Go (examples/gated/index.ts in TypeScript).
//
// The canary stage ends with an approval gate. The first `pulumi up` upgrades the canary and returns
// with the gate Pending; approve it with a reviewed commit of the stack's config, then `pulumi up`:
//
//	pulumi config set --path 'approvals[0]' canary/after/0
package main

import (
	"github.com/fleet-update/pulumi-fleet-update/sdk/go/fleetupdate"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(program)
}

// program declares the rollout (apart from main so tests can run it under Pulumi's mocks).
func program(ctx *pulumi.Context) error {
	var approvals []string
	_ = config.New(ctx, "").TryObject("approvals", &approvals) // none until a gate is approved

	strategy, err := fleetupdate.NewUpdateStrategy(ctx, "rollout", &fleetupdate.UpdateStrategyArgs{
		Stages: fleetupdate.UpdateStageArray{
			// The gate's id is `<stage>/after/<index>`: canary/after/0.
			fleetupdate.UpdateStageArgs{
				Name:       pulumi.String("canary"),
				Groups:     fleetupdate.UpdateGroupArray{fleetupdate.UpdateGroupArgs{Name: pulumi.String("canary")}},
				AfterGates: fleetupdate.GateArray{fleetupdate.GateArgs{Type: pulumi.String("Approval"), DisplayName: pulumi.String("Canary looks good")}},
			},
			fleetupdate.UpdateStageArgs{
				Name: pulumi.String("prod"),
				Groups: fleetupdate.UpdateGroupArray{
					fleetupdate.UpdateGroupArgs{Name: pulumi.String("prod-eu")},
					fleetupdate.UpdateGroupArgs{Name: pulumi.String("prod-us"), MaxConcurrency: pulumi.String("2")},
				},
			},
		},
	})
	if err != nil {
		return err
	}

	run, err := fleetupdate.NewUpdateRun(ctx, "k8s-1-32", &fleetupdate.UpdateRunArgs{
		Backend: fleetupdate.BackendArgs{Simulator: fleetupdate.SimulatorBackendArgs{
			FleetFile: pulumi.String("../quickstart/fleet.yaml"),
			StateFile: pulumi.String("fleet.yaml.state.json"),
			TimeScale: pulumi.Float64(600),
		}},
		Members: fleetupdate.MemberArray{
			fleetupdate.MemberArgs{Name: pulumi.String("canary-1"), Group: pulumi.String("canary")},
			fleetupdate.MemberArgs{Name: pulumi.String("eu-1"), Group: pulumi.String("prod-eu")},
			fleetupdate.MemberArgs{Name: pulumi.String("eu-2"), Group: pulumi.String("prod-eu")},
			fleetupdate.MemberArgs{Name: pulumi.String("us-1"), Group: pulumi.String("prod-us")},
			fleetupdate.MemberArgs{Name: pulumi.String("us-2"), Group: pulumi.String("prod-us")},
		},
		Strategy: strategy.Strategy,
		ManagedClusterUpdate: fleetupdate.ManagedClusterUpdateArgs{
			Upgrade:            fleetupdate.ManagedClusterUpgradeSpecArgs{Type: pulumi.String("Full"), KubernetesVersion: pulumi.String("1.32.0")},
			NodeImageSelection: fleetupdate.NodeImageSelectionArgs{Type: pulumi.String("Consistent")},
		},
		Approvals: pulumi.ToStringArray(approvals),
	})
	if err != nil {
		return err
	}

	ctx.Export("status", run.Status)
	ctx.Export("summary", run.Summary)
	return nil
}
