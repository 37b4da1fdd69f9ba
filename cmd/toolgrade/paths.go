package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolgrade/toolgrade/internal/outfile"
)

// A namedPath is a file a command reads or writes, with how the user
// named it ("--out", "case file", "the config's reports.html"), for
// messages. A path of "" is none, and "-" is a standard stream.
type namedPath struct{ role, path string }

// checkPaths refuses, before anything is read or written, an output that
// names an input or another output, and standard output or error
// redirected to an input. Files are compared by identity (one file
// through two paths, a symbolic link, a hard link; for a file not there
// yet, the same name in the same directory), so no spelling gets past
// it. Two outputs may share a device (/dev/null). Standard input read as
// "-" counts as an input.
func (m *Main) checkPaths(inputs, outputs []namedPath) error {
	stdin := streamFile(m.Stdin)
	for i, o := range outputs {
		if o.path == "" || o.path == "-" {
			continue
		}
		for _, in := range inputs {
			switch {
			case in.path == "":
			case in.path == "-":
				if fi, err := os.Stat(o.path); err == nil && stdin != nil && os.SameFile(fi, stdin) && fi.Mode().IsRegular() {
					return usageError("%s %s is standard input, which is read as a case file (-): writing it would destroy it before it is read; name another file", o.role, o.path)
				}
			case outfile.Same(o.path, in.path):
				return usageError("%s %s is %s %s: writing it would destroy it before it is read; name another file", o.role, o.path, in.role, in.path)
			case inFolder(o.path, in.path):
				return usageError("%s %s is inside %s %s, a folder whose files are all read: put it beside the folder", o.role, o.path, in.role, in.path)
			}
		}
		for _, other := range outputs[:i] {
			if other.path != "" && other.path != "-" && outfile.Same(o.path, other.path) && !device(o.path) {
				return usageError("%s %s and %s %s are the same file: one would replace the other; give each output its own file", other.role, other.path, o.role, o.path)
			}
		}
	}
	for _, s := range []struct {
		name string
		w    io.Writer
	}{{"standard output", m.Stdout}, {"standard error", m.Stderr}} {
		fi := streamFile(s.w)
		if fi == nil || !fi.Mode().IsRegular() {
			continue
		}
		for _, in := range inputs {
			if in.path == "" || in.path == "-" {
				continue
			}
			if ifi, err := os.Stat(in.path); err == nil && os.SameFile(fi, ifi) {
				return usageError("%s is redirected to %s %s, which the redirection emptied (>) or would grow as it is read (>>): redirect it to another file", s.name, in.role, in.path)
			}
		}
	}
	return nil
}

// inFolder reports whether path is in the folder dir or a folder below
// it, links followed: a command that reads a folder's files would read
// it too.
func inFolder(path, dir string) bool {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return false
	}
	dir, err := resolve(dir)
	if err != nil {
		return false
	}
	parent, err := resolve(filepath.Dir(path))
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(dir, parent)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// resolve makes path absolute, with its links followed.
func resolve(path string) (string, error) {
	path, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", err
	}
	return filepath.Abs(path)
}

// streamFile is the file behind a standard stream, or nil.
func streamFile(s any) os.FileInfo {
	f, ok := s.(interface{ Stat() (os.FileInfo, error) })
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil {
		return nil
	}
	return fi
}

// device reports whether path is an existing file that is neither a
// regular file nor a directory: a terminal, /dev/null.
func device(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.Mode().IsRegular() && !fi.IsDir()
}

// inputs names each path with role.
func inputs(role string, paths ...string) []namedPath {
	out := make([]namedPath, len(paths))
	for i, p := range paths {
		out[i] = namedPath{role, p}
	}
	return out
}
