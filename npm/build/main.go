// Command build writes the toolgrade npm packages as tarballs, the files
// `npm pack` would write:
//
//   - toolgrade-VERSION.tgz, the package `toolgrade` (npm/toolgrade: ESM
//     JavaScript and its type declarations), which lists the platform
//     packages as optional dependencies;
//
//   - toolgrade-OS-CPU-VERSION.tgz, the package `@toolgrade/OS-CPU` for
//     each chosen platform: the toolgrade binary cross-compiled for it
//     (CGO_ENABLED=0, -trimpath, stripped), with `os` and `cpu` fields so
//     that npm installs only the one that fits the machine.
//
//     go run ./npm/build                          # this machine's platform, into dist/
//     go run ./npm/build --platform all           # every platform
//     go run ./npm/build --out DIR --platform linux-amd64,darwin-arm64
//
// The version is the VERSION file's (see internal/release), stamped into
// the binaries too. It needs only Go; a tarball is byte for byte the same
// for the same inputs.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/toolgrade/toolgrade/internal/release"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// npmPlatform is a target's platform as npm's os and cpu fields (and the
// platform package's name) spell it: Node's process.platform and
// process.arch.
func npmPlatform(t release.Target) (os, cpu string) {
	os, cpu = t.GOOS, t.GOARCH
	if os == "windows" {
		os = "win32"
	}
	if cpu == "amd64" {
		cpu = "x64"
	}
	return os, cpu
}

// scope is the npm scope of the platform packages.
const scope = "@toolgrade/"

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	b, err := release.ParseArgs(args, "the tarballs", "host")
	if err != nil {
		return err
	}
	mainFiles, err := mainPackage(b.Root, b.Version)
	if err != nil {
		return err
	}
	name := filepath.Join(b.Out, "toolgrade-"+b.Version+".tgz")
	if err := writeTarball(name, mainFiles); err != nil {
		return err
	}
	if err := report(stdout, name, 0, time.Time{}); err != nil {
		return err
	}

	tmp, err := os.MkdirTemp("", "toolgrade-npm-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for _, t := range b.Targets {
		start := time.Now()
		bin, err := b.Binary(tmp, t)
		if err != nil {
			return err
		}
		files, binSize, err := platformPackage(t, b.Version, bin)
		if err != nil {
			return err
		}
		goos, cpu := npmPlatform(t)
		name := filepath.Join(b.Out, fmt.Sprintf("toolgrade-%s-%s-%s.tgz", goos, cpu, b.Version))
		if err := writeTarball(name, files); err != nil {
			return err
		}
		if err := report(stdout, name, binSize, start); err != nil {
			return err
		}
	}
	return nil
}

func report(w io.Writer, name string, binSize int64, start time.Time) error {
	st, err := os.Stat(name)
	if err != nil {
		return err
	}
	if binSize == 0 {
		_, err = fmt.Fprintf(w, "%s  %.1f kB\n", name, float64(st.Size())/1e3)
		return err
	}
	_, err = fmt.Fprintf(w, "%s  binary %.1f MB, tarball %.1f MB (%s)\n", name, float64(binSize)/1e6, float64(st.Size())/1e6, time.Since(start).Round(100*time.Millisecond))
	return err
}

// A file is one member of a package, its name relative to the package's
// root.
type file struct {
	name string
	data []byte
	exec bool
}

// mainPackage is the package `toolgrade`: the files of npm/toolgrade, its
// package.json given the version and the platform packages as optional
// dependencies, and npm/README.md.
func mainPackage(root, version string) ([]file, error) {
	pkg := filepath.Join(root, "npm", "toolgrade")
	var files []file
	err := filepath.WalkDir(pkg, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(pkg, p)
		rel = filepath.ToSlash(rel)
		if !strings.HasSuffix(rel, ".js") && !strings.HasSuffix(rel, ".d.ts") && rel != "package.json" {
			return fmt.Errorf("%s: a file of a kind the package does not ship (want .js, .d.ts, package.json)", p)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if rel == "package.json" {
			if b, err = mainManifest(b, version); err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
		}
		files = append(files, file{name: rel, data: b, exec: strings.HasPrefix(rel, "bin/")})
		return nil
	})
	if err != nil {
		return nil, err
	}
	readme, err := os.ReadFile(filepath.Join(root, "npm", "README.md"))
	if err != nil {
		return nil, err
	}
	return append(files, file{name: "README.md", data: readme}), nil
}

// mainManifest is npm/toolgrade/package.json with "version" after "name"
// and "optionalDependencies" naming every platform package (whatever
// --platform built: the published package lists them all).
func mainManifest(src []byte, version string) ([]byte, error) {
	v, err := jsonvalue.Parse(src)
	if err != nil {
		return nil, err
	}
	in, ok := v.(jsonvalue.Object)
	if !ok {
		return nil, fmt.Errorf("want an object, got %s", jsonvalue.Kind(v))
	}
	if name, _ := in.Get("name"); name != "toolgrade" {
		return nil, fmt.Errorf(`"name" is %v, want "toolgrade"`, name)
	}
	var m jsonvalue.Object
	for _, member := range in {
		if member.Key == "version" || member.Key == "optionalDependencies" {
			return nil, fmt.Errorf("%q is written by npm/build; remove it", member.Key)
		}
		m = append(m, member)
		if member.Key == "name" {
			m = append(m, jsonvalue.Member{Key: "version", Value: version})
		}
	}
	var deps jsonvalue.Object
	for _, t := range release.Targets {
		goos, cpu := npmPlatform(t)
		deps = append(deps, jsonvalue.Member{Key: scope + goos + "-" + cpu, Value: version})
	}
	m = append(m, jsonvalue.Member{Key: "optionalDependencies", Value: deps})
	return indent(m)
}

// platformPackage is the package @toolgrade/OS-CPU: the binary in bin/,
// a package.json with os and cpu, and a README pointing to toolgrade.
func platformPackage(t release.Target, version, bin string) ([]file, int64, error) {
	data, err := os.ReadFile(bin)
	if err != nil {
		return nil, 0, err
	}
	goos, cpu := npmPlatform(t)
	name := scope + goos + "-" + cpu
	manifest, err := indent(jsonvalue.Object{
		{Key: "name", Value: name},
		{Key: "version", Value: version},
		{Key: "description", Value: fmt.Sprintf("The toolgrade binary for %s %s; installed by the toolgrade package", goos, cpu)},
		{Key: "homepage", Value: "https://github.com/toolgrade/toolgrade/tree/main/npm#readme"},
		{Key: "repository", Value: jsonvalue.Object{{Key: "type", Value: "git"}, {Key: "url", Value: "git+https://github.com/toolgrade/toolgrade.git"}, {Key: "directory", Value: "npm"}}},
		{Key: "os", Value: []any{goos}},
		{Key: "cpu", Value: []any{cpu}},
		{Key: "files", Value: []any{"bin/"}},
		{Key: "preferUnplugged", Value: true},
	})
	if err != nil {
		return nil, 0, err
	}
	readme := fmt.Sprintf("# %s\n\nThe toolgrade binary for %s %s. Install [toolgrade](https://www.npmjs.com/package/toolgrade), which depends on this package where it fits the machine.\n", name, goos, cpu)
	return []file{
		{name: "README.md", data: []byte(readme)},
		{name: "bin/" + t.Exe(), data: data, exec: true},
		{name: "package.json", data: manifest},
	}, int64(len(data)), nil
}

func indent(v jsonvalue.Object) ([]byte, error) {
	var b bytes.Buffer
	if err := json.Indent(&b, jsonvalue.Append(nil, v), "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// tarTime is every member's modification time, the one npm pack writes,
// so that a tarball depends only on its contents.
var tarTime = time.Date(1985, 10, 26, 8, 15, 0, 0, time.UTC)

// writeTarball writes the files under package/ in a gzipped tar, as npm
// pack does, in name order; the file appears whole or not at all.
func writeTarball(name string, files []file) error {
	slices.SortFunc(files, func(a, b file) int { return strings.Compare(a.name, b.name) })
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(zw)
	for _, f := range files {
		mode := int64(0o644)
		if f.exec {
			mode = 0o755
		}
		h := &tar.Header{Name: "package/" + f.name, Mode: mode, Size: int64(len(f.data)), ModTime: tarTime, Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(f.data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}
