package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/mcp"
	"github.com/toolgrade/toolgrade/schema"
)

// mcpFlags name an MCP server and the guard rails for running calls on it.
type mcpFlags struct {
	target       string
	headers      []string
	startTimeout time.Duration
	callTimeout  time.Duration
	allowExecute bool
	allowTools   []string
}

// register adds the flags; execute adds those for running calls.
func (f *mcpFlags) register(fs *pflag.FlagSet, execute bool) {
	fs.StringVar(&f.target, "mcp", "", `MCP server: a command line ("npx -y @modelcontextprotocol/server-everything") or a Streamable HTTP URL`)
	fs.StringArrayVar(&f.headers, "mcp-header", nil, `header for an HTTP MCP server, "Name: value", with ${VAR} read from the environment ("Authorization: Bearer ${MCP_TOKEN}"; repeatable; values are never printed)`)
	fs.DurationVar(&f.startTimeout, "mcp-timeout", mcp.DefaultStartTimeout, "bound on starting the MCP server and its initialize handshake")
	fs.DurationVar(&f.callTimeout, "mcp-call-timeout", mcp.DefaultCallTimeout, "bound on each MCP request (a tools/list page, a tool call)")
	if execute {
		fs.BoolVar(&f.allowExecute, "allow-execute", false, "let execution_success, DeepFabric's execution: mcp and run --mcp run calls on the MCP server for real, and a config's tools: mcp:COMMAND start its command")
		fs.StringSliceVar(&f.allowTools, "allow-tools", nil, "the only MCP tools calls may run on (comma-separated; default: all)")
	}
}

// mcpServer returns the MCP server the flags or the tool source name, or
// nil. A tool source "mcp:..." from a config file (named by cfg) runs in
// the config's directory, and a command it names only with
// --allow-execute: what a file says is not the user's choice, as a
// command line is.
func (m *Main) mcpServer(_ context.Context, f *mcpFlags, toolSource string, cfg *config.Config) (*mcp.Server, error) {
	target, fromTools := mcp.Target(toolSource)
	dir := ""
	switch {
	case f.target != "" && fromTools && target != f.target:
		return nil, usageError("--mcp %q and tools %q name different servers: give one", f.target, toolSource)
	case f.target != "":
		target = f.target
	case !fromTools:
		return nil, nil
	case cfg != nil:
		dir = cfg.Dir
		if !mcp.IsURL(target) && !f.allowExecute {
			return nil, usageError("%s: tools: %q starts a command; a command a config file names runs only with --allow-execute (give it if you trust %s, or --tools to take the tools from elsewhere)", cfg.File, toolSource, cfg.File)
		}
	}
	s, err := mcp.New(target, mcp.Options{Dir: dir, Headers: f.headers, Getenv: m.credential, Secrets: m.secrets, StartTimeout: f.startTimeout, CallTimeout: f.callTimeout})
	if err != nil {
		return nil, usageError("%v", err)
	}
	return s, nil
}

type toolsFlags struct {
	mcp    mcpFlags
	format string
	lint   bool
	noLint bool
}

func (m *Main) toolsCommand() *cobra.Command {
	var f toolsFlags
	cmd := &cobra.Command{
		Use:   "tools (--mcp SERVER | FILE)",
		Short: "List tool definitions (from an MCP server or a file), convert their shape, and lint them",
		Long: `Read tool definitions from a live MCP server (--mcp: its tools/list, every
page) or from a file in any shape toolgrade reads, and print them: as a list
of names and descriptions (the default), or, with --format, as JSON in one of
the shapes ` + names(schema.Shapes()) + `.

They are linted too, the findings going to stderr: tools and parameters
without descriptions, parameters without types, names a provider rejects or
that collide once made acceptable, schemas OpenAI, Anthropic or Gemini
reject. --lint prints only the findings, to stdout, and exits 1 when one is
an error.

Exit status: 0, or 1 with --lint when a finding is an error; 2 for bad
usage or when the tools cannot be read.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return m.runTools(cmd.Context(), &f, args)
		},
	}
	fs := cmd.Flags()
	f.mcp.register(fs, false)
	fs.StringVar(&f.format, "format", "list", "output: list, or JSON in the shape "+names(schema.Shapes()))
	fs.BoolVar(&f.lint, "lint", false, "print only the lint findings, and exit 1 when one is an error")
	fs.BoolVar(&f.noLint, "no-lint", false, "do not lint")
	return cmd
}

func (m *Main) runTools(ctx context.Context, f *toolsFlags, args []string) error {
	source := ""
	if len(args) == 1 {
		source = args[0]
	}
	switch {
	case f.mcp.target != "" && source != "":
		return usageError("give --mcp or a file, not both")
	case f.mcp.target == "" && source == "":
		return usageError("name an MCP server with --mcp, or a file of tool definitions")
	}
	var shape schema.Shape
	if f.format != "list" && !f.lint {
		var err error
		if shape, err = schema.ParseShape(f.format); err != nil {
			return usageError("--format: %v", err)
		}
	}
	if _, isMCP := mcp.Target(source); !isMCP {
		if err := m.checkPaths(inputs("the tools file", source), nil); err != nil {
			return err
		}
	}
	s, err := m.mcpServer(ctx, &f.mcp, source, nil)
	if err != nil {
		return err
	}
	var tools []toolgrade.Tool
	if s != nil {
		tools, err = s.Tools(ctx)
	} else {
		tools, err = m.readTools(source)
	}
	if err != nil {
		return &ExitError{Code: 2, Err: err}
	}

	var findings []schema.Finding
	if !f.noLint {
		findings = schema.Lint(tools)
	}
	if f.lint {
		errs := writeFindings(m.Stdout, findings)
		if errs > 0 {
			return &ExitError{Code: 1}
		}
		return nil
	}
	if f.format == "list" {
		width := 0
		for _, t := range tools {
			width = max(width, len(t.Name))
		}
		for _, t := range tools {
			desc, _, _ := strings.Cut(strings.TrimSpace(t.Description), "\n")
			fmt.Fprintf(m.Stdout, "%-*s  %s\n", width, t.Name, desc)
		}
	} else {
		v, err := schema.Write(tools, shape)
		if err != nil {
			return usageError("--format: %v", err)
		}
		var out bytes.Buffer
		json.Indent(&out, jsonvalue.Append(nil, v), "", "  ")
		out.WriteByte('\n')
		m.Stdout.Write(out.Bytes())
	}
	if len(findings) > 0 {
		fmt.Fprintf(m.Stderr, "%d tools; lint:\n", len(tools))
		writeFindings(m.Stderr, findings)
	}
	return nil
}

// writeFindings writes lint findings, one per line, then a count, and
// returns how many are errors. A finding that several tools share (the
// same level, place and message) is written once, naming the tools.
func writeFindings(w interface{ Write([]byte) (int, error) }, findings []schema.Finding) int {
	type shared struct {
		schema.Finding
		tools []string
	}
	var lines []shared
	errs := 0
	for _, f := range findings {
		if f.Level == schema.LintError {
			errs++
		}
		k := slices.IndexFunc(lines, func(l shared) bool {
			return l.Level == f.Level && l.Path == f.Path && l.Message == f.Message
		})
		if k < 0 {
			lines = append(lines, shared{Finding: f})
			k = len(lines) - 1
		}
		lines[k].tools = append(lines[k].tools, f.Tool)
	}
	for _, l := range lines {
		if len(l.tools) == 1 {
			fmt.Fprintln(w, l.Finding.String())
			continue
		}
		fmt.Fprintf(w, "%s: %d tools (%s): %s: %s\n", l.Level, len(l.tools), strings.Join(l.tools, ", "), l.Path, l.Message)
	}
	fmt.Fprintf(w, "%d errors, %d warnings\n", errs, len(findings)-errs)
	return errs
}
