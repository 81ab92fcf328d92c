// Runs a Go example's program under Pulumi's mocks (mocks_test.go; see README.md): copied beside its
// main.go with mocks_test.go and run with `go test -run TestExampleUnderMocks`, the stack's config in
// PULUMI_CONFIG and the project in EXAMPLE_PROJECT; prints one line, `REGISTERED <json>`: what the
// program registered.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

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
