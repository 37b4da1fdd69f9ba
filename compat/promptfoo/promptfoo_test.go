package promptfoo_test

import (
	"testing"

	"github.com/toolgrade/toolgrade/compat/internal/conformance"
)

// TestPromptfooConformance runs every line of promptfoo.jsonl (the
// package's sample, and the shared corpus when present) through the
// profile, built from the line's config as a config file would build it.
func TestPromptfooConformance(t *testing.T) {
	conformance.Run(t, conformance.Suite{File: "promptfoo.jsonl", Lines: 1358})
}
