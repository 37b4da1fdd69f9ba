// Package release holds what the package builds (python/build, npm/build)
// share: the release version, the platforms a package is built for, and
// the cross-compiled toolgrade binary each package carries.
//
// The version has one source, the file VERSION at the module's root: the
// binary has it compiled in (toolgrade.Version, so that `toolgrade
// version` prints it however the binary was built), and each build writes
// it into the package it makes (the wheel's and the npm packages'
// version).
package release

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
)

// A Target is one platform a package is built for.
type Target struct {
	Name         string // linux-amd64
	GOOS, GOARCH string
}

// Exe is the binary's file name on the target: toolgrade, or
// toolgrade.exe on Windows.
func (t Target) Exe() string {
	if t.GOOS == "windows" {
		return "toolgrade.exe"
	}
	return "toolgrade"
}

// Targets are the platforms the packages are built for: Go cross-compiles
// a static binary for each (Go 1.26 needs macOS 12).
var Targets = []Target{
	{"linux-amd64", "linux", "amd64"},
	{"linux-arm64", "linux", "arm64"},
	{"darwin-amd64", "darwin", "amd64"},
	{"darwin-arm64", "darwin", "arm64"},
	{"windows-amd64", "windows", "amd64"},
}

// Names lists the targets' names, for usage and error messages.
func Names() string {
	var n []string
	for _, t := range Targets {
		n = append(n, t.Name)
	}
	return strings.Join(n, ", ")
}

// Choose reads a --platform value: "all" (or empty), "host", or
// comma-separated target names (host among them).
func Choose(spec string) ([]Target, error) {
	if spec == "all" || spec == "" {
		return Targets, nil
	}
	var out []Target
	for _, name := range strings.Split(spec, ",") {
		name = strings.TrimSpace(name)
		if name == "host" {
			name = runtime.GOOS + "-" + runtime.GOARCH
		}
		i := slices.IndexFunc(Targets, func(t Target) bool { return t.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("unknown platform %q (want %s, host or all)", name, Names())
		}
		out = append(out, Targets[i])
	}
	return out, nil
}

// ModuleRoot finds the directory of the toolgrade go.mod at or above the
// working directory.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.Contains(b, []byte("module github.com/toolgrade/toolgrade\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside the toolgrade module (use --root)")
		}
		dir = parent
	}
}

// versionRE is the shape a version takes in VERSION: semantic versioning,
// which both npm and Python's packaging accept (a prerelease as 1.2.0-rc.1
// would not be a valid wheel version, so none is allowed).
var versionRE = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`)

// Version reads the release version from the VERSION file at root: one
// line, MAJOR.MINOR.PATCH.
func Version(root string) (string, error) {
	file := filepath.Join(root, "VERSION")
	b, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	v := strings.TrimSpace(string(b))
	if !versionRE.MatchString(v) {
		return "", fmt.Errorf("%s: %q is not a version MAJOR.MINOR.PATCH", file, v)
	}
	return v, nil
}

// BuildBinary cross-compiles the toolgrade command for t into out: static
// (CGO_ENABLED=0), without paths of this machine (-trimpath), stripped.
// go build's output goes to stderr.
func BuildBinary(root string, t Target, out string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", out, "./cmd/toolgrade")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+t.GOOS, "GOARCH="+t.GOARCH)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build for %s: %w", t.Name, err)
	}
	return nil
}

// A Build is what a package build's command line asks for.
type Build struct {
	Out     string   // the directory the packages go to; ParseArgs creates it
	Root    string   // the module's root directory
	Version string   // the VERSION file's
	Targets []Target // the platforms chosen
}

// ParseArgs reads a package build's command line: --out DIR (default
// dist), --platform (default defaultPlatform; see Choose) and --root DIR
// (default: found from the working directory). It reads the version and
// creates the output directory. what names the packages, for the usage
// text.
func ParseArgs(args []string, what, defaultPlatform string) (*Build, error) {
	fset := flag.NewFlagSet("build", flag.ContinueOnError)
	out := fset.String("out", "dist", "directory to write "+what+" to")
	platforms := fset.String("platform", defaultPlatform, "comma-separated platforms ("+Names()+"), host, or all")
	root := fset.String("root", "", "the module's root directory (default: found from the working directory)")
	if err := fset.Parse(args); err != nil {
		return nil, err
	}
	if fset.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fset.Args())
	}
	b := &Build{Out: *out, Root: *root}
	var err error
	if b.Root == "" {
		if b.Root, err = ModuleRoot(); err != nil {
			return nil, err
		}
	}
	if b.Targets, err = Choose(*platforms); err != nil {
		return nil, err
	}
	if b.Version, err = Version(b.Root); err != nil {
		return nil, err
	}
	return b, os.MkdirAll(b.Out, 0o755)
}

// Binary builds the toolgrade binary for t into dir/<t.Name>/ and returns
// its path.
func (b *Build) Binary(dir string, t Target) (string, error) {
	bin := filepath.Join(dir, t.Name, t.Exe())
	return bin, BuildBinary(b.Root, t, bin)
}
