package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/toolgrade/toolgrade/judge"
)

func (m *Main) promptsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "prompts",
		Short: "Print the LLM judge's prompts, with their versions",
		Long: `Print every prompt the LLM judge is sent, with its version. A version is
part of every cache key, so a changed prompt never meets an old reply.

tool_selection is used by the tool_selection metric, and by tool_correctness
(default and deepeval profiles) when a judge is configured and the case lists
available tools; argument_correctness by the argument_correctness metric, once
per call. The judge answers {"score": <0..1>, "reason": "..."}.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var b strings.Builder
			for i, p := range judge.Prompts() {
				if i > 0 {
					b.WriteString("\n")
				}
				fmt.Fprintf(&b, "=== %s (version %s)\n--- system message\n%s\n--- user message\n%s\n", p.Task, p.Version, p.System, p.User)
			}
			_, err := fmt.Fprint(m.Stdout, b.String())
			return err
		},
	}
}
