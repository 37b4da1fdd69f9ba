//go:build unix

package outfile

import (
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func write(t *testing.T, path, text string, perm fs.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, perm); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// entries lists dir's names, to see that no temporary file is left.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestCommitAndAbort(t *testing.T) {
	for _, tc := range []struct {
		name string
		// setup makes dir/out (or not) and returns another path that must
		// hold want after a commit ("" for none).
		setup    func(t *testing.T, dir string) (other, want string)
		perm     fs.FileMode // 0: not checked
		keepLink bool        // dir/out stays a symbolic link
	}{
		{"new file", func(*testing.T, string) (string, string) { return "", "" }, 0o644, false},
		{"replaced, keeping its permissions", func(t *testing.T, dir string) (string, string) {
			write(t, filepath.Join(dir, "out"), "old", 0o600)
			return "", ""
		}, 0o600, false},
		{"executable bits kept", func(t *testing.T, dir string) (string, string) {
			write(t, filepath.Join(dir, "out"), "old", 0o751)
			return "", ""
		}, 0o751, false},
		{"a link is followed and stays", func(t *testing.T, dir string) (string, string) {
			target := filepath.Join(dir, "target")
			write(t, target, "old", 0o640)
			if err := os.Symlink("target", filepath.Join(dir, "out")); err != nil {
				t.Fatal(err)
			}
			return target, "new"
		}, 0o640, true},
		{"a dangling link makes its target", func(t *testing.T, dir string) (string, string) {
			if err := os.Symlink("target", filepath.Join(dir, "out")); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(dir, "target"), "new"
		}, 0, true},
		{"a hard link keeps the earlier content", func(t *testing.T, dir string) (string, string) {
			write(t, filepath.Join(dir, "out"), "old", 0o644)
			other := filepath.Join(dir, "other")
			if err := os.Link(filepath.Join(dir, "out"), other); err != nil {
				t.Fatal(err)
			}
			return other, "old"
		}, 0o644, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, commit := range []bool{true, false} {
				dir := t.TempDir()
				path := filepath.Join(dir, "out")
				other, want := tc.setup(t, dir)
				before := entries(t, dir)
				old, oldErr := os.ReadFile(path)
				f, err := Create(path)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := f.Write([]byte("new")); err != nil {
					t.Fatal(err)
				}
				// Nothing is replaced while the file is being written.
				if got, err := os.ReadFile(path); string(got) != string(old) || (err == nil) != (oldErr == nil) {
					t.Errorf("while writing, out = %q (%v), want %q as before", got, err, old)
				}
				if !commit {
					f.Abort()
					if got, err := os.ReadFile(path); string(got) != string(old) || (err == nil) != (oldErr == nil) {
						t.Errorf("after Abort, out = %q (%v), want %q as before", got, err, old)
					}
					if got := entries(t, dir); len(got) != len(before) {
						t.Errorf("after Abort, the directory holds %q, want %q", got, before)
					}
					continue
				}
				if err := f.Commit(); err != nil {
					t.Fatal(err)
				}
				f.Abort() // does nothing after Commit
				if got := read(t, path); got != "new" {
					t.Errorf("out = %q, want %q", got, "new")
				}
				if other != "" {
					if got := read(t, other); got != want {
						t.Errorf("%s = %q, want %q", filepath.Base(other), got, want)
					}
				}
				if fi, err := os.Lstat(path); err != nil || (fi.Mode()&fs.ModeSymlink != 0) != tc.keepLink {
					t.Errorf("out: %v, %v; a link: want %v", fi.Mode(), err, tc.keepLink)
				}
				fi, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				if tc.perm != 0 && fi.Mode().Perm() != tc.perm&^umask(t) && fi.Mode().Perm() != tc.perm {
					t.Errorf("permissions %v, want %v", fi.Mode().Perm(), tc.perm)
				}
				for _, e := range entries(t, dir) {
					if strings.HasSuffix(e, tmpSuffix) {
						t.Errorf("the directory holds %q: a temporary file is left", entries(t, dir))
					}
				}
			}
		})
	}
}

// umask is the process's umask, for a new file's permissions.
func umask(t *testing.T) fs.FileMode {
	p := filepath.Join(t.TempDir(), "probe")
	write(t, p, "", 0o644)
	os.Remove(p)
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY, 0o777)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	fi, _ := os.Stat(p)
	return 0o777 &^ fi.Mode().Perm()
}

func TestNotRegularWrittenInPlace(t *testing.T) {
	f, err := Create(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	if f.tmp != "" {
		t.Errorf("%s written under a temporary name %s", os.DevNull, f.tmp)
	}
	if _, err := f.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(t.TempDir()); err == nil {
		t.Error("a directory was opened for writing")
	}
}

// TestRandomAccess: what is written where the temporary file is sought,
// around what Write then writes from its start, is what Commit puts in
// place or adds; a file written in place, or done with, offers no such
// file.
func TestRandomAccess(t *testing.T) {
	for _, appendTo := range []bool{false, true} {
		dir := t.TempDir()
		path := filepath.Join(dir, "out")
		write(t, path, "earlier\n", 0o644)
		open := Create
		want := "head body"
		if appendTo {
			open, want = Append, "earlier\n"+want
		}
		f, err := open(path)
		if err != nil {
			t.Fatal(err)
		}
		ra, ok := f.RandomAccess()
		if !ok {
			t.Fatalf("append %v: no random access to the temporary file", appendTo)
		}
		if _, err := ra.Seek(5, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		if _, err := ra.Write([]byte("body")); err != nil {
			t.Fatal(err)
		}
		if _, err := ra.Seek(0, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte("head ")); err != nil {
			t.Fatal(err)
		}
		got := make([]byte, 4)
		if _, err := ra.ReadAt(got, 5); err != nil || string(got) != "body" {
			t.Errorf("append %v: read back %q, %v", appendTo, got, err)
		}
		if err := f.Commit(); err != nil {
			t.Fatal(err)
		}
		if got := read(t, path); got != want {
			t.Errorf("append %v: out = %q, want %q", appendTo, got, want)
		}
		if _, ok := f.RandomAccess(); ok {
			t.Errorf("append %v: random access after Commit", appendTo)
		}
	}
	f, err := Create(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	if _, ok := f.RandomAccess(); ok {
		t.Errorf("random access to %s, written in place", os.DevNull)
	}
}

func TestAppend(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "summary.md")
	write(t, path, "earlier step\n", 0o644)
	f, err := Append(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("ours\n"))
	if got := read(t, path); got != "earlier step\n" {
		t.Errorf("before Commit: %q", got)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := read(t, path); got != "earlier step\nours\n" {
		t.Errorf("after Commit: %q", got)
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Errorf("left %q", got)
	}
}

// TestSweep: the temporary file of a process that has ended is removed
// by the next Create of the name; one of a live process is kept.
func TestSweep(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	deadPid := cmd.Process.Pid
	dead := filepath.Join(dir, ".out."+strconv.Itoa(deadPid)+".tmp")
	live := filepath.Join(dir, ".out.1.tmp") // init's
	otherName := filepath.Join(dir, ".other."+strconv.Itoa(deadPid)+".tmp")
	for _, p := range []string{dead, live, otherName} {
		write(t, p, "partial", 0o644)
	}
	f, err := Create(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	if _, err := os.Stat(dead); err == nil {
		t.Errorf("%s, left by an ended process, is still there", filepath.Base(dead))
	}
	for _, p := range []string{live, otherName} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(p), err)
		}
	}
}

func TestSame(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	write(t, at("a"), "x", 0o644)
	write(t, at("b"), "x", 0o644)
	if err := os.Link(at("a"), at("hard")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a", at("soft")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("new", at("dangling")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(at("sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, at("sub/up")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{at("a"), at("a"), true},
		{at("a"), at("sub/../a"), true},
		{at("a"), at("hard"), true},
		{at("a"), at("soft"), true},
		{at("a"), at("sub/up/a"), true},
		{at("a"), at("b"), false},
		{at("new"), at("new"), true},
		{at("new"), at("sub/up/new"), true},
		{at("new"), at("dangling"), true},
		{at("new"), at("sub/new"), false},
		{at("new"), at("a"), false},
	} {
		if got := Same(tc.a, tc.b); got != tc.want {
			t.Errorf("Same(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestPermissions: a file the writer may not write is not replaced; one
// it may write in a directory where it may not create files is written
// by copying, whole at Commit. (Root may do anything: skipped.)
func TestPermissions(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root bypasses permissions")
	}
	dir := t.TempDir()
	readOnly := filepath.Join(dir, "baseline.jsonl")
	write(t, readOnly, "baseline", 0o444)
	if _, err := Create(readOnly); err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Errorf("a read-only file: %v, want permission denied", err)
	}
	if got := read(t, readOnly); got != "baseline" {
		t.Errorf("the read-only file holds %q", got)
	}

	locked := filepath.Join(t.TempDir(), "locked")
	os.Mkdir(locked, 0o755)
	path := filepath.Join(locked, "out")
	write(t, path, "old", 0o644)
	os.Chmod(locked, 0o555)
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	for _, commit := range []bool{false, true} {
		f, err := Create(path)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte("new"))
		if got := read(t, path); got != "old" {
			t.Errorf("before Commit: %q", got)
		}
		if !commit {
			f.Abort()
			continue
		}
		if err := f.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	if got := read(t, path); got != "new" {
		t.Errorf("after Commit: %q", got)
	}
	if got := entries(t, locked); len(got) != 1 {
		t.Errorf("the directory holds %q", got)
	}
}
