package mastra_test

import (
	"testing"

	"github.com/toolgrade/toolgrade/compat/internal/conformance"
)

// TestMastraConformance runs every line of mastra.jsonl (the package's
// sample, and the shared corpus when present) through the profile, built
// from the line's config as a config file would build it.
func TestMastraConformance(t *testing.T) {
	conformance.Run(t, conformance.Suite{File: "mastra.jsonl", Lines: 1332})
}
