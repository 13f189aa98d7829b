package main

// Plugins and packages: running a plugin written in Python (a folder whose PulumiPlugin.yaml
// says `runtime: python`), linking a generated SDK into a program (`pulumi package add`), and
// installing a program's requirements.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/pulumi/pulumi/sdk/v3/python/toolchain"
)

// RunPlugin runs a plugin folder: its `__main__.py` when it has one (`python <folder> args...`),
// or else, when the folder is a buildable Python package, the SDK's `pulumi.run.plugin` entry
// point with the package's name. Its output streams back to the engine, which reads the
// plugin's port from the first line; its exit code is sent as the last message. As with the
// published host, a plugin runs in a virtual environment (pip's default is `venv` in the
// folder), never in the ambient Python.
func (h *host) RunPlugin(
	req *pulumirpc.RunPluginRequest, server pulumirpc.LanguageRuntime_RunPluginServer,
) error {
	ctx := server.Context()
	info := req.GetInfo()
	opts := pythonOptions(info)
	if opts.Toolchain == toolchain.Pip && opts.Virtualenv == "" {
		opts.Virtualenv = "venv"
	}
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return err
	}

	folder := info.GetProgramDirectory()
	var cmd *exec.Cmd
	if _, err := os.Stat(filepath.Join(folder, "__main__.py")); err == nil {
		cmd, err = tc.Command(ctx, append([]string{folder}, req.GetArgs()...)...)
		if err != nil {
			return err
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("looking for the plugin's __main__.py: %w", err)
	} else {
		buildable, err := toolchain.IsBuildablePackage(folder)
		if err != nil {
			return err
		}
		if !buildable {
			return fmt.Errorf("the plugin in %s has neither a __main__.py nor a buildable "+
				"pyproject.toml", folder)
		}
		project, err := toolchain.LoadPyproject(folder)
		if err != nil {
			return err
		}
		args := append([]string{project.Project.Name}, req.GetArgs()...)
		cmd, err = tc.ModuleCommand(ctx, "pulumi.run.plugin", args...)
		if err != nil {
			return err
		}
	}

	closer, stdout, stderr, err := rpcutil.MakeRunPluginStreams(server, false)
	if err != nil {
		return err
	}
	defer closer.Close()
	cmd.Dir = req.GetPwd()
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, req.GetEnv()...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			if status, ok := exit.Sys().(syscall.WaitStatus); ok {
				return server.Send(&pulumirpc.RunPluginResponse{
					Output: &pulumirpc.RunPluginResponse_Exitcode{
						Exitcode: int32(status.ExitStatus()), //nolint:gosec // 8 bits
					},
				})
			}
		}
		return fmt.Errorf("running the plugin in %s: %w", folder, err)
	}
	return closer.Close()
}

// Link adds generated SDKs (`pulumi package add`: a folder under the project, usually
// `sdks/<name>`) to a pip project's requirements.txt, once each, and answers how a program
// imports each. Projects of the uv and poetry toolchains are refused with the line to add.
func (h *host) Link(_ context.Context, req *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
	info := req.GetInfo()
	opts := pythonOptions(info)
	var lines, instructions []string
	for _, dep := range req.GetPackages() {
		path := filepath.ToSlash(dep.GetPath())
		if !filepath.IsAbs(path) {
			path = "./" + strings.TrimPrefix(path, "./")
		}
		lines = append(lines, path)
		module, err := sdkModule(filepath.Join(info.GetRootDirectory(), dep.GetPath()))
		if err != nil {
			return nil, err
		}
		alias := strings.ReplaceAll(dep.GetPackage().GetName(), "-", "_")
		instructions = append(instructions, fmt.Sprintf("import %s as %s", module, alias))
	}
	if opts.Toolchain != toolchain.Pip {
		return nil, fmt.Errorf("this host links packages into pip projects only: add %s to "+
			"the project's dependencies", strings.Join(lines, ", "))
	}
	if err := addRequirements(filepath.Join(info.GetProgramDirectory(), "requirements.txt"),
		lines); err != nil {
		return nil, err
	}
	return &pulumirpc.LinkResponse{
		ImportInstructions: "You can then import the SDK in your Python code with:\n\n  " +
			strings.Join(instructions, "\n  ") + "\n",
	}, nil
}

// sdkModule is the import name of a generated Python SDK: its folder holding pulumi-plugin.json.
func sdkModule(folder string) (string, error) {
	entries, err := os.ReadDir(folder)
	if err != nil {
		return "", fmt.Errorf("reading the SDK in %s: %w", folder, err)
	}
	for _, entry := range entries {
		marker := filepath.Join(folder, entry.Name(), "pulumi-plugin.json")
		if _, err := os.Stat(marker); entry.IsDir() && err == nil {
			return entry.Name(), nil
		}
	}
	return "", fmt.Errorf("%s holds no generated Python SDK (no <module>/pulumi-plugin.json)",
		folder)
}

// addRequirements appends the lines requirements.txt lacks, creating it if need be.
func addRequirements(path string, lines []string) error {
	have := map[string]bool{}
	text, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	scanner := bufio.NewScanner(strings.NewReader(string(text)))
	for scanner.Scan() {
		have[strings.TrimSpace(scanner.Text())] = true
	}
	out := string(text)
	if out != "" && !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	for _, line := range lines {
		if !have[line] {
			out += line + "\n"
			have[line] = true
		}
	}
	return os.WriteFile(path, []byte(out), 0o644)
}

// InstallDependencies installs a program's requirements (`pulumi install`, and after `pulumi
// package add`). With pip it creates the virtual environment the project names when it is
// missing and runs `pip install -r requirements.txt` in it; unlike the published host it does
// not first upgrade pip, setuptools and wheel from the package index, so an environment with
// what the requirements need installs without the network. uv and poetry run their own sync.
func (h *host) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer,
) error {
	ctx := server.Context()
	info := req.GetInfo()
	opts := pythonOptions(info)
	if req.GetIsPlugin() && opts.Toolchain == toolchain.Pip && opts.Virtualenv == "" {
		opts.Virtualenv = "venv"
	}
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()
	folder := info.GetProgramDirectory()

	if opts.Toolchain == toolchain.Pip && opts.Virtualenv != "" {
		venv := opts.Virtualenv
		if !filepath.IsAbs(venv) {
			venv = filepath.Join(info.GetRootDirectory(), venv)
		}
		if _, err := os.Stat(venv); errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(stdout, "Creating virtual environment %s\n", venv)
			cmd, err := toolchain.Command(ctx, "-m", "venv", venv)
			if err != nil {
				return err
			}
			cmd.Stdout, cmd.Stderr = stdout, stderr
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("creating the virtual environment %s: %w", venv, err)
			}
		}
	}
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return err
	}
	if opts.Toolchain != toolchain.Pip {
		if err := tc.InstallDependencies(ctx, folder, req.GetUseLanguageVersionTools(), true,
			stdout, stderr); err != nil {
			return err
		}
		return closer.Close()
	}
	if _, err := os.Stat(filepath.Join(folder, "requirements.txt")); err == nil {
		cmd, err := tc.ModuleCommand(ctx, "pip", "install", "-r", "requirements.txt")
		if err != nil {
			return err
		}
		cmd.Dir = folder
		cmd.Stdout, cmd.Stderr = stdout, stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("installing requirements.txt: %w", err)
		}
	}
	return closer.Close()
}
