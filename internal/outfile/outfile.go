// Package outfile writes output files whole or not at all, and tells
// whether two names reach the same file.
//
// [Create] writes under a temporary name in the file's own directory and
// [File.Commit] renames it onto the file's name once it is complete, so
// that a run that fails, is interrupted or is killed leaves the earlier
// file as it was. The rules:
//
//   - A symbolic link is followed: the file it names is replaced, and the
//     link stays a link.
//   - An existing file keeps its permission bits; a new one is 0644 less
//     the umask. Owner and group become the writer's. A file the writer
//     may not write is not replaced either; one it may write in a
//     directory where it may not create files is spooled apart and
//     copied in at Commit (the earlier content stays until then).
//   - A file with other names (hard links) is replaced under the name
//     given; its other names keep the earlier content.
//   - What is not a regular file (a terminal, /dev/null, a pipe,
//     /dev/stdout) is written in place as the writing goes, as before.
//   - The temporary file, ".NAME.PID.tmp", is removed by [File.Abort] and
//     [File.Commit], so on every exit that runs them. A kill that runs
//     nothing (SIGKILL, a power cut) can leave it; the next Create of the
//     same name removes it once the process that made it has ended.
//
// A file written under a temporary name is written behind: [File.Write]
// copies, and a goroutine writes, so that the kernel's taking the bytes
// does not hold up the writer; a write's error comes back from a later
// Write or from Commit, which then puts nothing in place.
//
// Non-goal: durability across a crash of the machine (nothing is synced
// to disk); a killed process loses nothing that was committed.
package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A File is an output being written. Write to it, then Commit, or Abort
// to leave the earlier file as it was; Abort after Commit does nothing,
// so a deferred Abort covers every early return.
type File struct {
	f      *os.File
	name   string // as given, for messages
	path   string // the file to replace: name with its links followed
	tmp    string // the temporary file; "" when written in place or spooled
	spool  bool   // f is a nameless spool, copied into path at Commit
	append bool   // add to the end of path at Commit
	done   bool
	behind *behind // writes behind Write (nil: none yet)
	direct bool    // RandomAccess was called: Write writes at once
	failed error   // the first error writing behind, once settled
}

// Create starts writing the file name: a new file, or one that replaces
// the file now there at Commit.
func Create(name string) (*File, error) { return create(name, false) }

// Append starts writing what Commit adds to the end of the file name (a
// new file if there is none), in one piece. GitHub's step summary is
// written so: it is shared by a job step's commands.
func Append(name string) (*File, error) { return create(name, true) }

func create(name string, appendTo bool) (*File, error) {
	path, regular := Target(name)
	if !regular {
		// Written in place, as the writing goes.
		flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if appendTo {
			flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		}
		f, err := os.OpenFile(name, flags, 0o644)
		if err != nil {
			return nil, err
		}
		return &File{f: f, name: name, path: name}, nil
	}
	perm := fs.FileMode(0o644)
	fi, err := os.Stat(path)
	switch {
	case err == nil:
		// A file we may not write is not replaced either.
		w, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, named(err, name)
		}
		w.Close()
		perm = fi.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	dir, base := filepath.Split(path)
	sweep(dir, base)
	f, tmp, err := createTemp(dir, base, perm)
	if err != nil && fi != nil && errors.Is(err, fs.ErrPermission) {
		// A file we may write in a directory we may not: spooled apart,
		// and copied in at Commit.
		return spool(name, path, appendTo)
	}
	if err != nil {
		return nil, named(err, name)
	}
	if fi != nil && !appendTo {
		// As it was, whatever the umask took away.
		if err := f.Chmod(perm); err != nil {
			f.Close()
			os.Remove(tmp)
			return nil, err
		}
	}
	return &File{f: f, name: name, path: path, tmp: tmp, append: appendTo}, nil
}

// spool starts a File whose content waits in a nameless temporary file
// (on Unix; else one removed at Commit or Abort) until Commit copies it
// into path.
func spool(name, path string, appendTo bool) (*File, error) {
	f, err := os.CreateTemp("", "toolgrade-out-*")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name()) // fails where an open file cannot be removed; then Commit or Abort does
	return &File{f: f, name: name, path: path, spool: true, append: appendTo}, nil
}

// named makes a path error name the file as the user gave it.
func named(err error, name string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		pe.Path = name
	}
	return err
}

// createTemp creates the temporary file of base in dir, named
// .BASE.PID.tmp, or .BASE.PID-N.tmp when a file of this process by that
// name is being written already.
func createTemp(dir, base string, perm fs.FileMode) (*os.File, string, error) {
	pid := strconv.Itoa(os.Getpid())
	for n := 0; ; n++ {
		name := "." + base + "." + pid
		if n > 0 {
			name += "-" + strconv.Itoa(n)
		}
		tmp := filepath.Join(dir, name+tmpSuffix)
		f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) && n < 1000 {
			continue
		}
		return f, tmp, err
	}
}

const tmpSuffix = ".tmp"

// sweep removes the temporary files of base in dir that a process which
// has ended left behind.
func sweep(dir, base string) {
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := "." + base + "."
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		rest, ok = strings.CutSuffix(rest, tmpSuffix)
		if !ok {
			continue
		}
		pid, _, _ := strings.Cut(rest, "-")
		n, err := strconv.Atoi(pid)
		if err == nil && n > 0 && n != os.Getpid() && ended(n) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// Write writes to the temporary file (or in place).
// A file written under a temporary name (or spooled) is written behind:
// Write copies p, and a goroutine of the File's writes it while the
// caller goes on (see behind); a write's error comes back from a later
// Write, or from Commit, which then leaves the earlier file as it was. A
// File is written by one goroutine at a time.
func (f *File) Write(p []byte) (int, error) {
	if f.failed != nil {
		return 0, f.failed
	}
	if f.done { // no writer behind may start: nothing would end it
		return 0, fmt.Errorf("%s: %w", f.name, os.ErrClosed)
	}
	if f.InPlace() || f.direct {
		return f.f.Write(p)
	}
	if f.behind == nil {
		f.behind = newBehind(f.f)
	}
	return f.behind.Write(p)
}

// settle waits for what was written behind to be in the file, and
// returns the first error writing it (kept for Write and Commit).
func (f *File) settle() error {
	if f.behind != nil {
		f.failed = f.behind.wait()
		f.behind = nil
	}
	return f.failed
}

// RandomAccess returns the temporary file, or the spool, being written,
// to be read at any offset and written where it is sought (ReadAt, Seek,
// Write, Truncate): what it holds at Commit is what is put in place. It
// is the file Write writes to, where it was sought. Not ok for a file
// written in place, or once committed or abandoned.
func (f *File) RandomAccess() (*os.File, bool) {
	if f.InPlace() || f.done {
		return nil, false
	}
	// What Write took is in the file before it is read or sought, and
	// from now on Write writes at once, where the file was sought.
	if f.settle() != nil {
		return nil, false // Commit reports the error
	}
	f.direct = true
	return f.f, true
}

// Name is the file's name as given to Create.
func (f *File) Name() string { return f.name }

// InPlace reports whether the file is written in place (it is no regular
// file), so that Abort leaves what was written.
func (f *File) InPlace() bool { return f.tmp == "" && !f.spool }

// Commit closes the file and puts it in place: renamed onto its name, or
// added to its end. After an error the earlier file is as it was and
// the temporary file is gone.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("%s: already committed or abandoned", f.name)
	}
	f.done = true
	if err := f.settle(); err != nil {
		f.f.Close()
		if f.tmp != "" {
			os.Remove(f.tmp)
		} else if f.spool {
			os.Remove(f.f.Name())
		}
		return fmt.Errorf("writing %s: %w", f.name, err)
	}
	if f.spool {
		err := copyInto(f.path, f.f, f.append)
		err = errors.Join(err, f.f.Close())
		os.Remove(f.f.Name())
		if err != nil {
			return fmt.Errorf("writing %s: %w", f.name, err)
		}
		return nil
	}
	err := f.f.Close()
	if f.tmp == "" {
		return err
	}
	if err == nil {
		if f.append {
			err = appendFile(f.path, f.tmp)
		} else {
			release := hold(f.path)
			err = os.Rename(f.tmp, f.path)
			release()
		}
	}
	if err != nil {
		os.Remove(f.tmp)
		return fmt.Errorf("writing %s: %w", f.name, err)
	}
	if f.append {
		os.Remove(f.tmp)
	}
	return nil
}

// Abort closes the file and removes the temporary file, leaving the
// earlier file as it was (a file written in place keeps what was
// written). It does nothing after Commit or Abort.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	if f.behind != nil {
		f.behind.drop() // what it holds is not written: the file is dropped
		f.behind = nil
	}
	f.f.Close()
	switch {
	case f.tmp != "":
		os.Remove(f.tmp)
	case f.spool:
		os.Remove(f.f.Name())
	}
}

// appendFile adds the content of the file from to the end of the file
// path, in one write.
func appendFile(path, from string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	return errors.Join(err, f.Close())
}

// copyInto copies the spool into the file path, from empty or at its end.
func copyInto(path string, spool *os.File, appendTo bool) error {
	if _, err := spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	flags := os.O_WRONLY | os.O_TRUNC
	if appendTo {
		flags = os.O_WRONLY | os.O_APPEND
	}
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, spool)
	return errors.Join(err, f.Close())
}

// Target returns the file that writing name replaces, its symbolic links
// followed, and whether it is a regular file or none yet: what is
// written under a temporary name and renamed. Links into /proc and
// /dev/fd (/dev/stdout) are not followed: what they name is an open
// file of the process, written in place.
func Target(name string) (path string, regular bool) {
	p := name
	for range 40 {
		if procLink(p) {
			return p, false
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return p, errors.Is(err, fs.ErrNotExist)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return p, fi.Mode().IsRegular()
		}
		link, err := os.Readlink(p)
		if err != nil {
			return p, false
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	return name, false // a loop: opening it says so
}

func procLink(p string) bool {
	p = filepath.ToSlash(filepath.Clean(p))
	return strings.HasPrefix(p, "/proc/") || strings.HasPrefix(p, "/dev/fd/")
}

// Same reports whether the names a and b reach the same file: one file
// through two paths, a symbolic link or a hard link, or, for a file not
// there yet, the same name in the same directory.
func Same(a, b string) bool {
	ia, erra := os.Stat(a)
	ib, errb := os.Stat(b)
	switch {
	case erra == nil && errb == nil:
		return os.SameFile(ia, ib)
	case erra == nil || errb == nil:
		return false
	}
	pa, _ := Target(a)
	pb, _ := Target(b)
	if filepath.Base(pa) != filepath.Base(pb) {
		return false
	}
	da, erra := os.Stat(filepath.Dir(pa))
	db, errb := os.Stat(filepath.Dir(pb))
	if erra != nil || errb != nil {
		return filepath.Clean(pa) == filepath.Clean(pb)
	}
	return os.SameFile(da, db)
}
