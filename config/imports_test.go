package config_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// Building a metric must not cost a model client or the MCP SDK: a
// program that grades with a profile, or builds one from a config, links
// neither package openai (the HTTP client, its cache, the Batch API) nor
// package mcp and the MCP SDK. Only the command does.
func TestImportsStayCheap(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	pkgs := []string{
		"github.com/toolgrade/toolgrade",
		"github.com/toolgrade/toolgrade/config",
		"github.com/toolgrade/toolgrade/match",
		"github.com/toolgrade/toolgrade/judge",
		"github.com/toolgrade/toolgrade/dataset",
		"github.com/toolgrade/toolgrade/trace",
		"github.com/toolgrade/toolgrade/snapshot",
		"github.com/toolgrade/toolgrade/toolgradetest",
		"github.com/toolgrade/toolgrade/compat/adk",
		"github.com/toolgrade/toolgrade/compat/agentevals",
		"github.com/toolgrade/toolgrade/compat/axion",
		"github.com/toolgrade/toolgrade/compat/bfcl",
		"github.com/toolgrade/toolgrade/compat/deepeval",
		"github.com/toolgrade/toolgrade/compat/deepfabric",
		"github.com/toolgrade/toolgrade/compat/ragas",
		"github.com/toolgrade/toolgrade/compat/openevals",
		"github.com/toolgrade/toolgrade/compat/evalite",
		"github.com/toolgrade/toolgrade/schema",
		"github.com/toolgrade/toolgrade/execution",
		"github.com/toolgrade/toolgrade/process",
		"github.com/toolgrade/toolgrade/grounding",
		"github.com/toolgrade/toolgrade/state",
		"github.com/toolgrade/toolgrade/runner",
	}
	heavy := []string{"github.com/toolgrade/toolgrade/openai", "github.com/modelcontextprotocol/go-sdk", "github.com/toolgrade/toolgrade/mcp"}
	for _, pkg := range pkgs {
		t.Run(pkg, func(t *testing.T) {
			out, err := exec.Command(goTool, "list", "-deps", pkg).CombinedOutput()
			if err != nil {
				t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
			}
			for _, dep := range strings.Fields(string(out)) {
				for _, h := range heavy {
					if dep == h || strings.HasPrefix(dep, h+"/") {
						t.Errorf("%s imports %s", pkg, dep)
					}
				}
			}
		})
	}
	// The check can fail: the command does link them.
	out, err := exec.Command(goTool, "list", "-deps", "github.com/toolgrade/toolgrade/cmd/toolgrade").CombinedOutput()
	deps := strings.Fields(string(out))
	if err != nil || !slices.Contains(deps, "github.com/toolgrade/toolgrade/openai") || !slices.Contains(deps, "github.com/modelcontextprotocol/go-sdk/mcp") {
		t.Errorf("go list -deps of the command does not name package openai and the MCP SDK (%v): the check looks at the wrong thing", err)
	}
}
