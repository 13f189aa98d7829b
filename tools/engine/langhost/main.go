// Command pulumi-language-python runs Pulumi Python programs for the Pulumi CLI.
//
// The Python language host published with Pulumi lives in a Go module that the module proxy does
// not serve, so this one stands in for it. It keeps the host's contract with the engine and with
// the Python SDK: it serves the LanguageRuntime gRPC service, and Run starts the SDK's own
// `pulumi-language-python-exec` script (taken from the sdk/v3 module, installed beside this
// binary) with the arguments and environment the published host passes, through the same
// toolchain package (`sdk/v3/python/toolchain`) that resolves the interpreter and the project's
// virtual environment. Exit code 32 means the program already showed its error (a bail).
//
// It also generates code, by Pulumi's own Python generator (codegen.go): GeneratePackage (`pulumi
// package gen-sdk`), GenerateProgram (`pulumi import`) and GenerateProject (`pulumi convert`);
// and it runs a plugin folder (RunPlugin), links a generated SDK into a pip project (Link: `pulumi
// package add`) and installs a project's requirements (InstallDependencies), in plugins.go.
//
// Where it differs from the published host: an SDK is generated under the default name when the
// schema's packageName is dotted, a converted project requires the distribution of such a module,
// and installing requirements does not first upgrade pip, setuptools and wheel from the index.
// What it does not do: list a program's packages (`pulumi about`, GetProgramDependencies), ask
// for runtime options, check types, pack an SDK (Pack), or report plugins beyond those the engine
// finds on PATH.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"altostratus.local/engine/hostkit"
	"github.com/pulumi/pulumi/sdk/v3/python/toolchain"
)

// version is set at build time to the Pulumi version this host is built against.
var version = "3.0.0"

// The host's name, in its messages.
const hostName = "pulumi-language-python"

type host struct {
	hostkit.Base
	execScript string
	// The `toolchain` and `typechecker` runtime options, written into generated projects.
	toolchain   string
	typechecker string
}

func main() {
	tracing := flag.String("tracing", "", "a Zipkin-compatible endpoint to send tracing data to")
	// Flags the published host takes, accepted so a Pulumi.yaml written for it works here.
	flag.String("root", "", "the project's root directory")
	flag.String("virtualenv", "", "the virtual environment (runtime option)")
	toolchainName := flag.String("toolchain", "", "pip, poetry or uv (runtime option)")
	typechecker := flag.String("typechecker", "", "mypy or pyright (not run by this host)")
	flag.Parse()

	self, err := os.Executable()
	if err != nil {
		hostkit.Fail(hostName, err)
	}
	h := &host{
		Base:        hostkit.Base{Version: version, Tracing: *tracing},
		execScript:  filepath.Join(filepath.Dir(self), "pulumi-language-python-exec"),
		toolchain:   *toolchainName,
		typechecker: *typechecker,
	}
	hostkit.Serve(hostName, &h.Base, h, flag.Args())
}

// pythonOptions reads a program's or plugin's runtime options (`virtualenv`, `toolchain`) as
// the published host does; pip is the default toolchain.
func pythonOptions(info *pulumirpc.ProgramInfo) toolchain.PythonOptions {
	options := info.GetOptions().AsMap()
	opts := toolchain.PythonOptions{
		Root:       info.GetRootDirectory(),
		ProgramDir: info.GetProgramDirectory(),
		Toolchain:  toolchain.Pip,
	}
	if venv, ok := options["virtualenv"].(string); ok {
		opts.Virtualenv = venv
	}
	switch options["toolchain"] {
	case "uv":
		opts.Toolchain = toolchain.Uv
	case "poetry":
		opts.Toolchain = toolchain.Poetry
	}
	return opts
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	tc, err := toolchain.ResolveToolchain(pythonOptions(info))
	if err != nil {
		return nil, err
	}

	args := []string{"-u", h.execScript}
	// As the published host: a flag whose value is empty is left out, and --dry_run is always
	// given its value.
	flagArg := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name, value)
		}
	}
	flagArg("monitor", req.GetMonitorAddress())
	flagArg("engine", h.EngineAddress)
	flagArg("project", req.GetProject())
	flagArg("root_directory", info.GetRootDirectory())
	flagArg("stack", req.GetStack())
	flagArg("pwd", req.GetPwd())
	flagArg("dry_run", strconv.FormatBool(req.GetDryRun()))
	flagArg("parallel", strconv.Itoa(int(req.GetParallel())))
	flagArg("tracing", h.Tracing)
	flagArg("organization", req.GetOrganization())
	args = append(args, req.GetProgram())
	args = append(args, req.GetArgs()...)

	cmd, err := tc.Command(ctx, args...)
	if err != nil {
		return nil, err
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	// A stack without configuration leaves PULUMI_CONFIG unset, as the published host does: the
	// SDK reads an unset variable as no configuration, but "null" as an error.
	if config := req.GetConfig(); config != nil {
		encoded, err := json.Marshal(config)
		if err != nil {
			return nil, err
		}
		cmd.Env = append(cmd.Env, "PULUMI_CONFIG="+string(encoded))
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secrets, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	cmd.Env = append(cmd.Env, "PULUMI_CONFIG_SECRET_KEYS="+string(secrets))
	return hostkit.RunProgram(cmd, req.GetPwd())
}
