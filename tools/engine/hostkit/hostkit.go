// Package hostkit is what the stand-in language hosts (langhost/ for Python, nodehost/ for
// Node.js) share: serving the LanguageRuntime service, the calls each answers the same way, and
// binding a PCL program for a language's code generator.
package hostkit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"google.golang.org/grpc"
	pbempty "google.golang.org/protobuf/types/known/emptypb"

	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/pkg/v3/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// BailExitCode is the exit code with which a program's launcher says it has already shown the
// user an actionable message (a bail).
const BailExitCode = 32

// CancelGrace is how long a cancelled program has to end after SIGINT before it is killed.
const CancelGrace = 10 * time.Second

// Base answers the calls every stand-in host answers alike; a host embeds it.
type Base struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	// Version is the Pulumi version the host is built against (its GetPluginInfo).
	Version string
	// EngineAddress is the engine's, from the command line or the handshake.
	EngineAddress string
	// Tracing is the Zipkin-compatible endpoint the engine passes, if any.
	Tracing string
}

func (b *Base) Handshake(
	_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	if req.GetEngineAddress() != "" {
		b.EngineAddress = req.GetEngineAddress()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (b *Base) GetPluginInfo(context.Context, *pbempty.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: b.Version}, nil
}

// GetRequiredPlugins names none: the engine loads a resource's provider plugin when the program
// registers the resource (Python's dynamic provider is bundled beside the CLI) and finds it on
// PATH, so a program needs no plugin the host must name.
func (b *Base) GetRequiredPlugins(
	context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (b *Base) GetRequiredPackages(
	context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

// Serve serves the host's LanguageRuntime service until the engine ends it, printing its port
// first (the engine reads it from the first line of the plugin's output). The engine's address
// is the last argument left after the flags. A failure ends the process (see Fail).
func Serve(name string, base *Base, server pulumirpc.LanguageRuntimeServer, args []string) {
	if len(args) > 0 {
		base.EngineAddress = args[len(args)-1]
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: make(chan bool),
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, server)
			return nil
		},
	})
	if err != nil {
		Fail(name, err)
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		Fail(name, err)
	}
}

// Fail ends the host with one line naming it.
func Fail(name string, err error) {
	fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
	os.Exit(1)
}

// Generator is a language's program generator (`pkg/v3/codegen/<language>`'s GenerateProgram).
type Generator func(*pcl.Program) (map[string][]byte, hcl.Diagnostics, error)

// GenerateProgram answers the engine's GenerateProgram (the code of `pulumi import` and
// `pulumi convert`): the request's PCL files parsed and bound with the schemas the engine's
// loader serves, then written by the language's generator.
func GenerateProgram(
	ctx context.Context, req *pulumirpc.GenerateProgramRequest, generate Generator,
) (*pulumirpc.GenerateProgramResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer loader.Close()

	parser := syntax.NewParser()
	for name, contents := range req.GetSource() {
		if err := parser.ParseFile(strings.NewReader(contents), name); err != nil {
			return nil, err
		}
	}
	if parser.Diagnostics.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{
			Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(parser.Diagnostics),
		}, nil
	}
	program, diags, err := pcl.BindProgramWithContext(
		ctx, parser.Files, schema.NewCachedLoader(loader), BindOptions(req.GetStrict())...)
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{
			Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags),
		}, nil
	}
	if program == nil {
		return nil, errors.New("the program bound to nothing")
	}
	files, generated, err := generate(program)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProgramResponse{
		Source:      files,
		Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(append(diags, generated...)),
	}, nil
}

// BindOptions: prefer the output-versioned form of an invoke; a non-strict bind (the engine's
// default for import and convert) tolerates what the generator can still write.
func BindOptions(strict bool) []pcl.BindOption {
	options := []pcl.BindOption{pcl.PreferOutputVersionedInvokes}
	if !strict {
		options = append(options, pcl.NonStrictBindOptions()...)
	}
	return options
}

// WriteFiles writes generated files (paths relative to directory), making their folders.
func WriteFiles(directory string, files map[string][]byte) error {
	for name, data := range files {
		path := filepath.Join(directory, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("creating the folder of %s: %w", name, err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	return nil
}

// RunProgram runs a program's launcher (its environment and arguments already set) in dir with
// the host's output, and answers the engine's Run: a bail, the exit code of a failure, or
// success. A cancelled run (the engine's Ctrl-C, through the command's context) interrupts the
// program as a terminal would, and kills it only if it has not ended after CancelGrace.
func RunProgram(cmd *exec.Cmd, dir string) (*pulumirpc.RunResponse, error) {
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = CancelGrace
	cmd.Dir = dir
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			if exit.ExitCode() == BailExitCode {
				return &pulumirpc.RunResponse{Bail: true}, nil
			}
			return &pulumirpc.RunResponse{
				Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exit.ExitCode()),
			}, nil
		}
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}
