// Command pulumi-language-nodejs runs Pulumi TypeScript and JavaScript programs for the Pulumi CLI.
//
// The Node.js language host published with Pulumi lives in a Go module that the module proxy does
// not serve, and npm's @pulumi/pulumi ships the program launcher but no host, so this one stands
// in for it. It keeps the host's contract with the engine and with the Node.js SDK: it serves the
// LanguageRuntime gRPC service, and Run starts `node` on the project's own
// `@pulumi/pulumi/cmd/run` (resolved from the program's folder, as the published host does) with
// the arguments and environment the published host passes; TypeScript goes through the ts-node the
// SDK loads. It installs dependencies (`pulumi install`: npm, yarn, pnpm or bun, as the project
// uses), and generates SDKs (`pulumi package gen-sdk --language nodejs`) and programs (`pulumi
// import`, `pulumi convert`) with the CLI's own code generator. What it does not do: list a
// program's packages (`pulumi about`), run plugins or policy packs written in Node.js, or report
// plugins beyond those the engine finds on PATH.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"google.golang.org/grpc"

	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"altostratus.local/engine/hostkit"
)

// The launcher inside the program's @pulumi/pulumi, as the published host resolves it.
const runModule = "@pulumi/pulumi/cmd/run"

// version is set at build time to the Pulumi version this host is built against.
var version = "3.0.0"

// The host's name, in its messages.
const hostName = "pulumi-language-nodejs"

type host struct {
	hostkit.Base
}

func main() {
	tracing := flag.String("tracing", "", "a Zipkin-compatible endpoint to send tracing data to")
	// Flags the published host takes, accepted so a Pulumi.yaml written for it works here.
	flag.String("root", "", "the project's root directory")
	flag.Bool("typescript", true, "use ts-node (runtime option)")
	flag.String("tsconfig", "", "the tsconfig.json to use (runtime option)")
	flag.String("nodeargs", "", "arguments for node (runtime option)")
	flag.String("packagemanager", "", "npm, yarn, pnpm or bun (runtime option)")
	flag.Parse()

	h := &host{Base: hostkit.Base{Version: version, Tracing: *tracing}}
	hostkit.Serve(hostName, &h.Base, h, flag.Args())
}

// runtimeOptions are Pulumi.yaml's `runtime.options`, as the published host reads them.
type runtimeOptions struct {
	typescript     bool
	tsconfig       string
	nodeargs       []string
	packagemanager npm.PackageManagerType
}

func parseOptions(info *pulumirpc.ProgramInfo) (runtimeOptions, error) {
	opts := runtimeOptions{typescript: true, packagemanager: npm.AutoPackageManager}
	for key, value := range info.GetOptions().AsMap() {
		switch key {
		case "typescript":
			b, ok := value.(bool)
			if !ok {
				return opts, fmt.Errorf("runtime option typescript must be true or false, not %v", value)
			}
			opts.typescript = b
		case "tsconfig":
			opts.tsconfig = fmt.Sprint(value)
		case "nodeargs":
			opts.nodeargs = strings.Fields(fmt.Sprint(value))
		case "packagemanager":
			opts.packagemanager = npm.PackageManagerType(fmt.Sprint(value))
		}
	}
	return opts, nil
}

// locateRunScript resolves @pulumi/pulumi's launcher as node would from the program's folder: the
// project's own SDK runs the program.
func locateRunScript(ctx context.Context, nodeBin, programDir string) (string, error) {
	script := fmt.Sprintf("console.log(require.resolve(%q));", runModule)
	cmd := exec.CommandContext(ctx, nodeBin, "-e", script)
	cmd.Dir = programDir
	out, err := cmd.Output()
	if err != nil {
		return "", errors.New("it looks like the Pulumi SDK has not been installed: " +
			"run `npm install` (or `pulumi install`) in " + programDir)
	}
	return strings.TrimSpace(string(out)), nil
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	opts, err := parseOptions(info)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		return &pulumirpc.RunResponse{Error: "could not find node on the PATH: install Node.js 18 or newer"}, nil
	}
	runScript, err := locateRunScript(ctx, nodeBin, info.GetProgramDirectory())
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}

	args := append([]string{}, opts.nodeargs...)
	args = append(args, runScript)
	// As the published host: a flag whose value is empty is left out, --dry-run is a switch, and
	// --parallel is given only above 1.
	flagArg := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name, value)
		}
	}
	flagArg("monitor", req.GetMonitorAddress())
	flagArg("engine", h.EngineAddress)
	flagArg("organization", req.GetOrganization())
	flagArg("project", req.GetProject())
	flagArg("root-directory", info.GetRootDirectory())
	flagArg("stack", req.GetStack())
	flagArg("pwd", req.GetPwd())
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	if req.GetParallel() > 1 {
		flagArg("parallel", strconv.Itoa(int(req.GetParallel())))
	}
	flagArg("tracing", h.Tracing)
	// The engine passes the program's entry point, "." for the package's own.
	args = append(args, req.GetProgram())
	args = append(args, req.GetArgs()...)

	cmd := exec.CommandContext(ctx, nodeBin, args...)
	cmd.Env = os.Environ()
	// The SDK reads configuration from these, "{}" for none; the run script reads the rest.
	config := req.GetConfig()
	if config == nil {
		config = map[string]string{}
	}
	encoded, err := json.Marshal(config)
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
	cmd.Env = append(cmd.Env,
		"PULUMI_CONFIG="+string(encoded),
		"PULUMI_CONFIG_SECRET_KEYS="+string(secrets),
		"PULUMI_NODEJS_TYPESCRIPT="+strconv.FormatBool(opts.typescript),
	)
	if opts.tsconfig != "" {
		cmd.Env = append(cmd.Env, "PULUMI_NODEJS_TSCONFIG_PATH="+opts.tsconfig)
	}
	return hostkit.RunProgram(cmd, req.GetPwd())
}

// streamWriter sends what a package manager prints to the engine, which shows it to the user.
type streamWriter struct {
	server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse]
	stderr bool
}

func (w streamWriter) Write(p []byte) (int, error) {
	data := append([]byte{}, p...)
	resp := &pulumirpc.InstallDependenciesResponse{Stdout: data}
	if w.stderr {
		resp = &pulumirpc.InstallDependenciesResponse{Stderr: data}
	}
	if err := w.server.Send(resp); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (h *host) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest,
	server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	opts, err := parseOptions(req.GetInfo())
	if err != nil {
		return err
	}
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetDirectory()
	}
	stdout := streamWriter{server: server}
	stderr := streamWriter{server: server, stderr: true}
	name, err := npm.Install(server.Context(), opts.packagemanager, dir, false, stdout, stderr)
	if err != nil {
		return fmt.Errorf("%s install failed in %s: %w", name, dir, err)
	}
	return nil
}

func (h *host) GeneratePackage(
	ctx context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer loader.Close()

	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.GetSchema()), &spec); err != nil {
		return nil, fmt.Errorf("the package schema is not valid JSON: %w", err)
	}
	pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, err
	}
	rpcDiagnostics := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GeneratePackageResponse{Diagnostics: rpcDiagnostics}, nil
	}
	files, err := codegen.GeneratePackage("pulumi-language-nodejs", pkg, req.GetExtraFiles(),
		req.GetLocalDependencies(), req.GetLocal(), loader)
	if err != nil {
		return nil, err
	}
	if err := hostkit.WriteFiles(req.GetDirectory(), files); err != nil {
		return nil, err
	}
	return &pulumirpc.GeneratePackageResponse{Diagnostics: rpcDiagnostics}, nil
}

func (h *host) GenerateProgram(
	ctx context.Context, req *pulumirpc.GenerateProgramRequest,
) (*pulumirpc.GenerateProgramResponse, error) {
	return hostkit.GenerateProgram(ctx, req, codegen.GenerateProgram)
}
