// Command pulumi-language-nodejs is a minimal Node.js language host for the Pulumi CLI the tests build
// (scripts/pulumi-cli.sh), written for this project: Pulumi's own host is a Go module the module proxy
// does not serve on these machines. It lets `pulumi up` start a TypeScript program itself, as on a
// developer's machine, instead of the tests handing the program over as an automation-API inline program.
//
// What it does is what the engine asks of a language host for programs whose dependencies are already
// installed (`npm ci`): it serves the LanguageRuntime gRPC service on a port of 127.0.0.1 it prints on
// stdout, and on Run starts `node <@pulumi/pulumi>/cmd/run` — the SDK's own entry point, which connects
// to the engine's resource monitor and runs the program — with the run's project, stack, monitor and
// engine addresses, configuration and TypeScript options. Everything about plugins, dependencies and
// code generation is answered as "none" or left unimplemented: the project's package.json is installed
// by npm and needs no provider plugins (dynamic providers run inside the Node SDK's own plugin).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// version is set at build time (-X main.version=...), to the CLI's version.
var version = "3.248.0"

// bailExitCode is the exit code the Node SDK uses when it has already reported the program's error to
// the engine, which then must not report it again.
const bailExitCode = 32

type languageHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	mu            sync.Mutex
	engineAddress string
}

func main() {
	host := &languageHost{}
	// The engine passes its own address as the last argument (and may send it again in Handshake).
	if len(os.Args) > 1 {
		host.engineAddress = os.Args[len(os.Args)-1]
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: cannot serve: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: stopped serving: %v\n", err)
		os.Exit(1)
	}
}

func (h *languageHost) Handshake(_ context.Context, req *pulumirpc.LanguageHandshakeRequest) (*pulumirpc.LanguageHandshakeResponse, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if req.GetEngineAddress() != "" {
		h.engineAddress = req.GetEngineAddress()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *languageHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

// The program's packages are installed by npm; none of them needs a provider plugin of its own.
func (h *languageHost) GetRequiredPlugins(context.Context, *pulumirpc.GetRequiredPluginsRequest) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *languageHost) GetRequiredPackages(context.Context, *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (h *languageHost) GetProgramDependencies(context.Context, *pulumirpc.GetProgramDependenciesRequest) (*pulumirpc.GetProgramDependenciesResponse, error) {
	return &pulumirpc.GetProgramDependenciesResponse{}, nil
}

// Dependencies are installed by `npm ci` before any Pulumi command: nothing to install here.
func (h *languageHost) InstallDependencies(*pulumirpc.InstallDependenciesRequest, grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse]) error {
	return nil
}

func (h *languageHost) RuntimeOptionsPrompts(context.Context, *pulumirpc.RuntimeOptionsRequest) (*pulumirpc.RuntimeOptionsResponse, error) {
	return &pulumirpc.RuntimeOptionsResponse{}, nil
}

func (h *languageHost) About(context.Context, *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("node is not on PATH: %w", err)
	}
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("node --version: %w", err)
	}
	return &pulumirpc.AboutResponse{Executable: node, Version: strings.TrimPrefix(strings.TrimSpace(string(out)), "v")}, nil
}

// Run starts the program through the Node SDK's entry point and waits for it. A program that fails
// is an answer (RunResponse.Error, or Bail when the SDK has reported it already), not an RPC error.
func (h *languageHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	programDir := req.GetPwd()
	rootDir := programDir
	entry := req.GetProgram()
	if info != nil {
		rootDir = info.GetRootDirectory()
		programDir = info.GetProgramDirectory()
		entry = filepath.Join(programDir, info.GetEntryPoint())
	}
	if entry == "" {
		entry = programDir
	}
	runScript, err := findRunScript(programDir)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return &pulumirpc.RunResponse{Error: "node is not on PATH: install Node.js 20 or later"}, nil
	}

	h.mu.Lock()
	engine := h.engineAddress
	h.mu.Unlock()
	args := []string{runScript, "--monitor", req.GetMonitorAddress(), "--engine", engine, "--project", req.GetProject(), "--stack", req.GetStack(), "--pwd", req.GetPwd(), "--root-directory", rootDir}
	if org := req.GetOrganization(); org != "" {
		args = append(args, "--organization", org)
	}
	if req.GetParallel() > 0 {
		args = append(args, "--parallel", strconv.Itoa(int(req.GetParallel())))
	}
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	args = append(args, entry)
	args = append(args, req.GetArgs()...)

	env, err := runEnvironment(req)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = req.GetPwd()
	cmd.Env = env
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			if exit.ExitCode() == bailExitCode {
				return &pulumirpc.RunResponse{Bail: true}, nil
			}
			return &pulumirpc.RunResponse{Error: fmt.Sprintf("the program exited with code %d", exit.ExitCode())}, nil
		}
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("could not start the program: %v", err)}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}

// findRunScript finds @pulumi/pulumi's `cmd/run` in the nearest node_modules at or above dir, as
// Node's own module resolution would from the program.
func findRunScript(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		candidate := filepath.Join(d, "node_modules", "@pulumi", "pulumi", "cmd", "run")
		if _, err := os.Stat(filepath.Join(candidate, "index.js")); err == nil {
			return candidate, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("@pulumi/pulumi is not installed in or above %s: run npm ci", dir)
		}
	}
}

// runEnvironment is this process's environment plus what the Node SDK reads: the stack's
// configuration, which of its keys are secret, and the project's TypeScript options (Pulumi.yaml's
// runtime options `typescript`, default true, and `tsconfig`).
func runEnvironment(req *pulumirpc.RunRequest) ([]string, error) {
	config, err := json.Marshal(orEmpty(req.GetConfig()))
	if err != nil {
		return nil, err
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secrets, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	env := append(os.Environ(), "PULUMI_CONFIG="+string(config), "PULUMI_CONFIG_SECRET_KEYS="+string(secrets))
	typescript := true
	if options := req.GetInfo().GetOptions().AsMap(); options != nil {
		if value, ok := options["typescript"].(bool); ok {
			typescript = value
		}
		if tsconfig, ok := options["tsconfig"].(string); ok && tsconfig != "" {
			env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+tsconfig)
		}
	}
	env = append(env, "PULUMI_NODEJS_TYPESCRIPT="+strconv.FormatBool(typescript))
	return env, nil
}

func orEmpty(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}
