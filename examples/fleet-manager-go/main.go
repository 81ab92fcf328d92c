// A staged upgrade executed by Azure Kubernetes Fleet Manager, in Go (examples/fleet-manager/index.ts
// in TypeScript). The strategy is kept in the fleet, the run is created from it and started, and
// `pulumi up` follows it; the canary stage ends with an approval gate, approved by a reviewed commit:
//
//	pulumi config set fleetId /subscriptions/…/resourceGroups/…/providers/Microsoft.ContainerService/fleets/…
//	pulumi config set kubernetesVersion 1.32.0
//	pulumi up                                            # returns with canary/after/0 Pending
//	pulumi config set --path 'approvals[0]' canary/after/0
//	pulumi up                                            # the rest of the fleet
//
// The members are the fleet's own, each in its update group (canary, prod, dev). Credentials:
// DefaultAzureCredential (`az login`, or AZURE_* variables). Against the ARM emulator
// (`fleet-update emulator`), also set armEndpoint, trustedCaFile, `credential: emulator` and pollSeconds.
package main

import (
	"github.com/fleet-update/pulumi-fleet-update/sdk/go/fleetupdate"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(program)
}

// optional is a config value, or nil (the provider's default) when it is not set.
func optional(cfg *config.Config, key string) pulumi.StringPtrInput {
	if value, err := cfg.Try(key); err == nil {
		return pulumi.String(value)
	}
	return nil
}

// program declares the rollout (apart from main so tests can run it under Pulumi's mocks).
func program(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")
	credential := cfg.Get("credential")
	if credential == "" {
		credential = "default"
	}
	fleetBackend := fleetupdate.AzureFleetBackendArgs{
		FleetId:       pulumi.String(cfg.Require("fleetId")),
		Credential:    pulumi.String(credential),
		Endpoint:      optional(cfg, "armEndpoint"),
		TrustedCaFile: optional(cfg, "trustedCaFile"),
		ApiVersion:    optional(cfg, "apiVersion"),
	}
	if seconds, err := cfg.TryFloat64("pollSeconds"); err == nil {
		fleetBackend.PollIntervalSeconds = pulumi.Float64(seconds)
	}
	var approvals []string
	_ = cfg.TryObject("approvals", &approvals) // none until a gate is approved

	// Kept in the fleet as `updateStrategies/rollout`: Fleet's portal and CLI see the same strategy.
	strategy, err := fleetupdate.NewUpdateStrategy(ctx, "rollout", &fleetupdate.UpdateStrategyArgs{
		Backend: fleetupdate.StrategyBackendArgs{AzureFleet: fleetBackend},
		Stages: fleetupdate.UpdateStageArray{
			fleetupdate.UpdateStageArgs{
				Name:       pulumi.String("canary"),
				Groups:     fleetupdate.UpdateGroupArray{fleetupdate.UpdateGroupArgs{Name: pulumi.String("canary")}},
				AfterGates: fleetupdate.GateArray{fleetupdate.GateArgs{Type: pulumi.String("Approval"), DisplayName: pulumi.String("Canary looks good")}},
			},
			fleetupdate.UpdateStageArgs{
				Name:   pulumi.String("prod"),
				Groups: fleetupdate.UpdateGroupArray{fleetupdate.UpdateGroupArgs{Name: pulumi.String("prod")}, fleetupdate.UpdateGroupArgs{Name: pulumi.String("dev")}},
			},
		},
	})
	if err != nil {
		return err
	}

	// Named after the resource: the fleet's update run `k8s-upgrade`. A second `up` attaches to it.
	run, err := fleetupdate.NewUpdateRun(ctx, "k8s-upgrade", &fleetupdate.UpdateRunArgs{
		Backend:          fleetupdate.BackendArgs{AzureFleet: fleetBackend},
		Members:          fleetupdate.MemberArray{},
		UpdateStrategyId: strategy.UpdateStrategyId,
		ManagedClusterUpdate: fleetupdate.ManagedClusterUpdateArgs{
			Upgrade:            fleetupdate.ManagedClusterUpgradeSpecArgs{Type: pulumi.String("Full"), KubernetesVersion: pulumi.String(cfg.Require("kubernetesVersion"))},
			NodeImageSelection: fleetupdate.NodeImageSelectionArgs{Type: pulumi.String("Latest")},
		},
		Approvals: pulumi.ToStringArray(approvals),
	})
	if err != nil {
		return err
	}

	ctx.Export("status", run.Status)
	ctx.Export("summary", run.Summary)
	ctx.Export("fleetRunId", run.FleetRun.ApplyT(func(r interface{}) interface{} {
		if fleetRun, ok := r.(map[string]interface{}); ok {
			return fleetRun["id"]
		}
		return nil
	}))
	return nil
}
