package main

import (
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/mcp"
)

// envFlags are the flags for what metrics share across a run (the judge,
// the run's tool definitions).
type envFlags struct {
	tools string // tool definitions for cases without available_tools
	judge judgeFlags
	mcp   mcpFlags // tools.go
}

func (f *envFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.tools, "tools", "", "tool definitions (JSON: OpenAI, Anthropic, Gemini, Bedrock, MCP tools/list, BFCL, ...), or mcp:SERVER (a command line or URL) for an MCP server's tools/list, for cases without available_tools; overrides the config's tools")
	f.judge.register(fs)
	f.mcp.register(fs, true)
}

// runEnv builds what the metrics of a run share, from flags and config.
func (m *Main) runEnv(cmd *cobra.Command, f *envFlags, cfg *config.Config) (*config.Env, error) {
	env := &config.Env{}
	// The judge first: its key is then a secret of the run before anything
	// else can echo it (an MCP server that fails to start, say).
	j, err := m.openJudge(cmd, &f.judge, cfg) // judge.go
	if err != nil {
		return nil, err
	}
	env.Judge = j
	toolsFile, toolsCfg := f.tools, (*config.Config)(nil)
	if toolsFile == "" && cfg != nil && cfg.Tools != "" {
		toolsFile, toolsCfg = cfg.Tools, cfg
	}
	_, toolsMCP := mcp.Target(toolsFile)
	if !toolsMCP {
		toolsFile, _ = f.toolsFile(cfg)
	}
	// An MCP server: --mcp, or tools: mcp:... (tools.go).
	server, err := m.mcpServer(cmd.Context(), &f.mcp, toolsFile, toolsCfg)
	if err != nil {
		return nil, err
	}
	if server != nil {
		env.Server, env.AllowExecute, env.AllowTools = server, f.mcp.allowExecute, f.mcp.allowTools
		if toolsMCP || toolsFile == "" {
			tools, err := server.Tools(cmd.Context())
			if err != nil {
				return nil, usageError("tools: %v", err)
			}
			env.Tools = tools
		}
	}
	if toolsFile != "" && !toolsMCP {
		tools, err := m.readTools(toolsFile)
		if err != nil {
			return nil, usageError("tools: %v", err)
		}
		if tools == nil {
			tools = []toolgrade.Tool{} // defined, and empty: every call is to an unknown tool
		}
		env.Tools = tools
	}
	return env, nil
}

// toolsFile is the file of tool definitions a run reads (--tools, else
// the config's tools, relative to the config), with how it was named;
// "" for none or an MCP server.
func (f *envFlags) toolsFile(cfg *config.Config) (path, role string) {
	path, role, dir := f.tools, "--tools", ""
	if path == "" && cfg != nil && cfg.Tools != "" {
		path, role, dir = cfg.Tools, "the config's tools", cfg.Dir
	}
	if _, isMCP := mcp.Target(path); isMCP {
		return "", ""
	}
	if dir != "" && path != "" && !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	return path, role
}
