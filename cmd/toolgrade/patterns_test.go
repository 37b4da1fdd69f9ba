package main

import (
	"testing"

	"github.com/toolgrade/toolgrade/internal/lazyregexp"
)

// Every regular expression a package of the command compiles when first
// used compiles: the command links them all, and a run that reaches a
// broken one would otherwise be the first to find it.
func TestLazyPatternsCompile(t *testing.T) {
	if err := lazyregexp.Check(); err != nil {
		t.Fatal(err)
	}
}
