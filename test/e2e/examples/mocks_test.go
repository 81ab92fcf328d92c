// Runs a Go example's program under Pulumi's mocks (see README.md): copied beside its main.go and run
// with `go test -run TestExampleUnderMocks`, the stack's config in PULUMI_CONFIG and the project in
// EXAMPLE_PROJECT; prints one line, `REGISTERED <json>`: what the program registered.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"sync"
	"testing"

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

func TestExampleUnderMocks(t *testing.T) {
	m := &mocks{}
	if err := pulumi.RunErr(program, pulumi.WithMocks(os.Getenv("EXAMPLE_PROJECT"), "dev", m)); err != nil {
		t.Fatal(err)
	}
	sort.Slice(m.registered, func(i, j int) bool { return m.registered[i].Name < m.registered[j].Name })
	line, err := json.Marshal(m.registered)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("REGISTERED %s\n", line)
}
