// The mocks the Go probe (probe_test.go) and the Go examples' harness (example_test.go) run under: each
// registration is recorded and answered with its inputs as the state, plus what the provider adds that
// programs read: an UpdateStrategy's `strategy` (its stages) and `updateStrategyId`. Copied beside
// either, with its package clause set to theirs (see README.md).
package main

import (
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
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
		state["updateStrategyId"] = resource.NewStringProperty(args.Name + "-strategy-id")
	}
	return args.Name + "-id", state, nil
}

func (m *mocks) Call(pulumi.MockCallArgs) (resource.PropertyMap, error) {
	return resource.PropertyMap{}, nil
}
