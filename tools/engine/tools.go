//go:build tools

// Package tools pins the CLI's main package in this module, so `go build` takes it from here.
package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
