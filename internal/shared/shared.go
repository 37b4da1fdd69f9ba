// Package shared finds the shared test data (conformance cases, trace
// fixtures) that lives beside the repository in ../shared.
package shared

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the shared directory, or skips the test with a clear message
// when it is absent (as on a clone without it beside).
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("shared test data not found: no go.mod above the test directory")
		}
		dir = parent
	}
	shared := filepath.Join(dir, "..", "shared")
	if _, err := os.Stat(shared); err != nil {
		t.Skipf("shared test data not found at %s (clone the repository with ../shared beside it to run this test)", shared)
	}
	return shared
}

// Path joins elements onto the shared directory.
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	return filepath.Join(append([]string{Dir(t)}, elem...)...)
}
