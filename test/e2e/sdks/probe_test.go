// The Go SDK's probe (see README.md): copied into the SDK's module with mocks_test.go and run with `go test`.
package fleetupdate_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/fleet-update/pulumi-fleet-update/sdk/go/fleetupdate"
)

func TestProbe(t *testing.T) {
	m := &mocks{}
	err := pulumi.RunErr(func(ctx *pulumi.Context) error {
		rollout, err := fleetupdate.NewUpdateStrategy(ctx, "rollout", &fleetupdate.UpdateStrategyArgs{
			Stages: fleetupdate.UpdateStageArray{fleetupdate.UpdateStageArgs{
				Name:                    pulumi.String("canary"),
				Groups:                  fleetupdate.UpdateGroupArray{fleetupdate.UpdateGroupArgs{Name: pulumi.String("canary"), MaxConcurrency: pulumi.String("1")}},
				AfterStageWaitInSeconds: pulumi.Int(600),
			}},
		})
		if err != nil {
			return err
		}
		_, err = fleetupdate.NewUpdateRun(ctx, "k8s-1-32", &fleetupdate.UpdateRunArgs{
			Backend: fleetupdate.BackendArgs{Simulator: fleetupdate.SimulatorBackendArgs{
				FleetFile: pulumi.String("fleet.yaml"),
				TimeScale: pulumi.Float64(600),
			}},
			Members:  fleetupdate.MemberArray{fleetupdate.MemberArgs{Name: pulumi.String("canary-1"), Group: pulumi.String("canary")}},
			Strategy: rollout.Strategy,
			ManagedClusterUpdate: fleetupdate.ManagedClusterUpdateArgs{
				Upgrade:            fleetupdate.ManagedClusterUpgradeSpecArgs{Type: pulumi.String("Full"), KubernetesVersion: pulumi.String("1.32.0")},
				NodeImageSelection: fleetupdate.NodeImageSelectionArgs{Type: pulumi.String("Consistent")},
			},
			TimeoutMinutes: pulumi.Float64(10),
		})
		return err
	}, pulumi.WithMocks("sdk-probe", "dev", m))
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(m.registered, func(i, j int) bool { return m.registered[i].Name < m.registered[j].Name })
	line, err := json.Marshal(m.registered)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("PROBE %s\n", line)
}
