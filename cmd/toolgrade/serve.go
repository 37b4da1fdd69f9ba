package main

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/toolgrade/toolgrade/serve"
)

func (m *Main) serveCommand() *cobra.Command {
	var workers int
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
      tool_selection, argument_correctness) use it. A case gets the id "case-<offset+i>"
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

The protocol is a contract for hosts; docs/serve.md describes it whole.

Exit status: 0 when stdin ends.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return m.runServe(cmd.Context(), workers)
		},
	}
	cmd.Flags().IntVar(&workers, "workers", 0, "cases graded at once within a request (default: one per CPU)")
	return cmd
}

// runServe answers requests on the standard streams with package serve.
func (m *Main) runServe(ctx context.Context, workers int) error {
	s := &serve.Server{Workers: workers, Getenv: m.Getenv, Version: versionString()}
	if err := s.Serve(ctx, m.Stdin, m.Stdout); err != nil {
		return &ExitError{Code: 2, Err: err}
	}
	return nil
}
