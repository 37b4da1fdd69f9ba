// Package shared finds the shared test data (conformance cases, trace
// fixtures) that lives beside the repository in ../shared.
//
// Tests reach it through the symbolic link testdata/shared at the module
// root, which points to ../../shared (the sibling of the module root).
// The go command caches a test's result keyed by the files the test
// looked at, but it only re-checks files inside the module root: a look-up
// of ../shared itself is never re-checked, so after a run without the
// shared data a later run with it would print a cached result in which
// every test that needs it was skipped. A look-up through the link is
// lexically inside the module, so the go command records it and re-runs
// the tests when the link's target appears, disappears or changes.
//
// Non-goals: fetching the data. A test that needs it skips without it,
// saying so; a package's own sample, which is part of the repository,
// never skips.
package shared

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// linkPath is the path, relative to the module root, of the symbolic
// link to the shared data.
var linkPath = filepath.Join("testdata", "shared")

// Dir returns the shared directory, as a path through the module root's
// testdata/shared link, or skips the test with a clear message when the
// shared data is absent (as on a clone without ../shared beside it).
func Dir(t testing.TB) string {
	t.Helper()
	dir, missing, err := find()
	if err != nil {
		t.Fatal(err)
	}
	if missing != "" {
		t.Skip(missing)
	}
	return dir
}

// Path joins elements onto the shared directory, skipping the test when
// the shared data is absent.
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	return filepath.Join(append([]string{Dir(t)}, elem...)...)
}

// find returns the shared directory, or a message that says why it is
// not there.
func find() (dir, missing string, err error) {
	root, missing, err := moduleRoot()
	if missing != "" || err != nil {
		return "", missing, err
	}
	link := filepath.Join(root, linkPath)
	// os.Stat follows the link: a link whose target is missing is an
	// error, and the go command records the look-up either way.
	if fi, err := os.Stat(link); err == nil && fi.IsDir() {
		return link, "", nil
	}
	li, err := os.Lstat(link)
	if err == nil && li.Mode()&fs.ModeSymlink != 0 {
		return "", fmt.Sprintf("shared test data not found: %s points to ../../shared, which is absent (clone the repository with ../shared beside it to run this test)", link), nil
	}
	// The link is missing, or was checked out as a plain file (git on a
	// system without symbolic links writes the target's name into a
	// file): look beside the module root directly. The go command does not
	// re-check this path, so a cached result may hide a change to it.
	sibling := filepath.Join(root, "..", "shared")
	if fi, err := os.Stat(sibling); err == nil && fi.IsDir() {
		return sibling, "", nil
	}
	return "", fmt.Sprintf("shared test data not found: neither %s nor %s is a directory (clone the repository with ../shared beside it to run this test)", link, sibling), nil
}

// moduleRoot returns the directory of the nearest go.mod above the
// working directory (a test runs in its package's directory).
func moduleRoot() (root, missing string, err error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, "", nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "shared test data not found: no go.mod above the test directory", nil
		}
		dir = parent
	}
}
