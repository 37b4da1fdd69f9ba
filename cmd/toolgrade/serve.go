package main

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/toolgrade/toolgrade/internal/sniff"
	"github.com/toolgrade/toolgrade/judge"
	"github.com/toolgrade/toolgrade/openai"
	"github.com/toolgrade/toolgrade/serve"
)

func (m *Main) serveCommand() *cobra.Command {
	s := &serve.Server{}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Answer JSON Lines requests on stdin (for the Python package and other hosts)",
		Long: `Run as a long-lived process: read one JSON request per line on stdin and
write one JSON response per line on stdout, in order, until stdin ends.

Requests (an optional "id" of any JSON type is echoed in the response):

  {"op": "evaluate", "config": CONFIG, "cases": [CASE, ...], "offset": N}
      CONFIG is {"metrics": [ENTRY, ...], "judge": SETTINGS}, a list of
      metric entries, or one entry (absent: the default metric). SETTINGS
      are a config file's judge section (model, base_url, key_env, ...;
      the key is read from the environment): with them, the metrics that
      take an LLM judge (the deepeval profile's tool selection,
      tool_selection, argument_correctness) use it. A judge may read its
      key only from the variables --judge-key-env allows, and be sent only
      to the endpoints --judge-base-url allows (by default OPENAI_API_KEY
      and OpenAI's API). A case gets the id "case-<offset+i>"
      when it has none. Response: {"results": [RESULT, ...]}, one result line
      (see docs/results.md) per case, in order. A case that cannot be read
      gives a result with "error" naming it and its field
      ("cases[2]: field expected_tools[0].name: want a string, got integer").
  {"op": "extract", "trace": TRACE, "format": "F"}
      TRACE is a decoded trace, or a string (JSON text, JSON Lines, an SSE
      body or a transcript). Response: {"result": {"format", "calls"},
      "skipped": [...]}.
  {"op": "version"}
      Response: {"result": {"version": "..."}}.

A request that cannot be served (an unknown op, a key its op does not
take, a bad value) gets {"error": "...", "field": "..."} ("field" when the
error names one); the process goes on with the next line.
Metrics built from a config are reused across requests with the same config.
Nothing a request says is executed, and responses are scrubbed of the keys
read.

The protocol is a contract for hosts; docs/serve.md describes it whole.

Exit status: 0 when stdin ends.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return m.runServe(cmd.Context(), s)
		},
	}
	fs := cmd.Flags()
	fs.IntVar(&s.Workers, "workers", 0, "cases graded at once within a request (default: one per CPU)")
	fs.StringArrayVar(&s.JudgeKeyEnvs, "judge-key-env", nil, "an environment variable a request's judge may read its key from (repeatable; default "+judge.DefaultKeyEnv+")")
	fs.StringArrayVar(&s.JudgeBaseURLs, "judge-base-url", nil, "an endpoint a request's judge may be sent to, or a root of them (repeatable; default "+openai.DefaultBaseURL+")")
	fs.StringVar(&s.CacheDir, "cache-dir", "", "the judges' reply cache (default: toolgrade in the user cache directory)")
	fs.BoolVar(&s.NoCache, "no-cache", false, "neither read nor write the judges' reply cache")
	return cmd
}

// runServe answers requests on the standard streams with package serve.
func (m *Main) runServe(ctx context.Context, s *serve.Server) error {
	s.Getenv, s.Warn, s.Version, s.MaxLine = m.getenv(), m.warn, versionString(), m.sizes.Line
	requests, err := sniff.Text(m.Stdin)
	if err != nil {
		return usageError("serve: standard input: %v", err)
	}
	if err := s.Serve(ctx, requests, m.Stdout); err != nil {
		return &ExitError{Code: 2, Err: err}
	}
	return nil
}
