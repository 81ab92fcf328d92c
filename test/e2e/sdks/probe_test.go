// The Go SDK's probe (see README.md): copied into the generated module and run with `go test`.
package fleetupdate_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/fleet-update/pulumi-fleet-update/sdk/go/fleetupdate"
)

type registration struct {
	Type   string                 `json:"type"`
	Name   string                 `json:"name"`
	Inputs map[string]interface{} `json:"inputs"`
}

type mocks struct {
	mu         sync.Mutex
	registered []registration
}

func (m *mocks) NewResource(args pulumi.MockResourceArgs) (string, resource.PropertyMap, error) {
	m.mu.Lock()
	m.registered = append(m.registered, registration{args.TypeToken, args.Name, args.Inputs.Mappable()})
	m.mu.Unlock()
	state := args.Inputs.Copy()
	if args.TypeToken == "fleet-update:index:UpdateStrategy" {
		state["strategy"] = resource.NewObjectProperty(resource.PropertyMap{"stages": args.Inputs["stages"]})
	}
	return args.Name + "-id", state, nil
}

func (m *mocks) Call(pulumi.MockCallArgs) (resource.PropertyMap, error) {
	return resource.PropertyMap{}, nil
}

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
