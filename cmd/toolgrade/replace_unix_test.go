//go:build unix

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestCreate(t *testing.T) {
	write := func(t *testing.T, path, text string, perm fs.FileMode) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), perm); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, perm); err != nil {
			t.Fatal(err)
		}
	}
	read := func(t *testing.T, path string) string {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, tc := range []struct {
		name string
		// setup makes dir/out and returns another path whose content must
		// be "new" after the write (the same file) or "" to skip.
		setup    func(t *testing.T, dir string) string
		wantPerm fs.FileMode // 0: not checked (a new file's follow the umask)
		replaced bool        // a new file, not the old one truncated
	}{
		{"new file", func(*testing.T, string) string { return "" }, 0, false},
		{"plain file keeps its permissions", func(t *testing.T, dir string) string {
			write(t, filepath.Join(dir, "out"), "old results", 0o600)
			return ""
		}, 0o600, true},
		{"hard link is truncated in place", func(t *testing.T, dir string) string {
			write(t, filepath.Join(dir, "out"), "old results", 0o644)
			other := filepath.Join(dir, "other")
			if err := os.Link(filepath.Join(dir, "out"), other); err != nil {
				t.Fatal(err)
			}
			return other
		}, 0o644, false},
		{"symlink writes through", func(t *testing.T, dir string) string {
			target := filepath.Join(dir, "target")
			write(t, target, "old results", 0o644)
			if err := os.Symlink(target, filepath.Join(dir, "out")); err != nil {
				t.Fatal(err)
			}
			return target
		}, 0o644, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out")
			same := tc.setup(t, dir)
			var old *os.File
			if _, err := os.Stat(path); err == nil {
				if old, err = os.Open(path); err != nil {
					t.Fatal(err)
				}
				defer old.Close()
			}
			f, err := create(path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteString("new"); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			if got := read(t, path); got != "new" {
				t.Errorf("content = %q, want %q", got, "new")
			}
			if same != "" {
				if got := read(t, same); got != "new" {
					t.Errorf("%s holds %q, want the new content: the file was not written in place", filepath.Base(same), got)
				}
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); tc.wantPerm != 0 && got != tc.wantPerm {
				t.Errorf("permissions = %v, want %v", got, tc.wantPerm)
			}
			if old != nil {
				// A handle on the replaced file still reads the old content.
				b := make([]byte, 64)
				n, _ := old.ReadAt(b, 0)
				if got := string(b[:n]); (got == "old results") != tc.replaced {
					t.Errorf("old handle reads %q; replaced = %v", got, tc.replaced)
				}
			}
		})
	}
}
