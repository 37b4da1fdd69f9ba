// Command build writes the toolgrade Python wheels: one per platform, each
// holding the Python package (python/toolgrade) and the toolgrade binary
// cross-compiled for that platform (CGO_ENABLED=0, -trimpath, stripped).
//
//	go run ./python/build                      # every platform, into dist/
//	go run ./python/build --platform host      # only this machine's
//	go run ./python/build --out DIR --platform linux-amd64,darwin-arm64
//
// It needs only Go: the wheel (a zip with METADATA, WHEEL, entry_points.txt
// and a RECORD of sha256 hashes) is written here, byte for byte the same
// for the same inputs. Non-goals: publishing the wheels, and a C compiler:
// the binary is built without cgo for every platform.
package main

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/toolgrade/toolgrade/internal/release"
)

// wheelTags are each platform's wheel tags; the file name carries them
// joined with dots (a compressed tag set). A static Go binary runs on any
// Linux C library, so the Linux wheels carry both the manylinux (glibc,
// PEP 600 and its legacy alias) and musllinux (PEP 656) tags. Go 1.26
// needs macOS 12.
var wheelTags = map[string][]string{
	"linux-amd64":   {"manylinux_2_17_x86_64", "manylinux2014_x86_64", "musllinux_1_1_x86_64"},
	"linux-arm64":   {"manylinux_2_17_aarch64", "manylinux2014_aarch64", "musllinux_1_1_aarch64"},
	"darwin-amd64":  {"macosx_12_0_x86_64"},
	"darwin-arm64":  {"macosx_12_0_arm64"},
	"windows-amd64": {"win_amd64"},
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	b, err := release.ParseArgs(args, "the wheels", "all")
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "toolgrade-wheel-")
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
		wheel, binSize, err := writeWheel(b.Root, b.Out, t, b.Version, bin)
		if err != nil {
			return err
		}
		st, err := os.Stat(wheel)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s  binary %.1f MB, wheel %.1f MB (%s)\n", wheel, mb(binSize), mb(st.Size()), time.Since(start).Round(100*time.Millisecond))
	}
	return nil
}

func mb(n int64) float64 { return float64(n) / 1e6 }

// A file is one member of the wheel.
type file struct {
	name string
	data []byte
	exec bool
}

// wheelTime is every member's modification time, so that a wheel depends
// only on its contents (zip cannot store times before 1980).
var wheelTime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

func writeWheel(root, outDir string, t release.Target, version, bin string) (string, int64, error) {
	var files []file
	pkg := filepath.Join(root, "python", "toolgrade")
	err := filepath.WalkDir(pkg, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "__pycache__" || d.Name() == "bin" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".py") && d.Name() != "py.typed" || d.Name() == "_version.py" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join(root, "python"), p)
		files = append(files, file{name: filepath.ToSlash(rel), data: b})
		return nil
	})
	if err != nil {
		return "", 0, err
	}
	binData, err := os.ReadFile(bin)
	if err != nil {
		return "", 0, err
	}
	files = append(files,
		file{name: "toolgrade/bin/" + filepath.Base(bin), data: binData, exec: true},
		file{name: "toolgrade/_version.py", data: versionModule(version)})
	slices.SortFunc(files, func(a, b file) int { return strings.Compare(a.name, b.name) })

	readme, err := os.ReadFile(filepath.Join(root, "python", "README.md"))
	if err != nil {
		return "", 0, err
	}
	distInfo := "toolgrade-" + version + ".dist-info"
	files = append(files,
		file{name: distInfo + "/METADATA", data: metadata(version, readme)},
		file{name: distInfo + "/WHEEL", data: wheelFile(wheelTags[t.Name])},
		file{name: distInfo + "/entry_points.txt", data: []byte(entryPoints)},
		file{name: distInfo + "/top_level.txt", data: []byte("toolgrade\n")},
	)
	var record bytes.Buffer
	for _, f := range files {
		sum := sha256.Sum256(f.data)
		fmt.Fprintf(&record, "%s,sha256=%s,%d\n", f.name, base64.RawURLEncoding.EncodeToString(sum[:]), len(f.data))
	}
	fmt.Fprintf(&record, "%s/RECORD,,\n", distInfo)
	files = append(files, file{name: distInfo + "/RECORD", data: record.Bytes()})

	name := filepath.Join(outDir, fmt.Sprintf("toolgrade-%s-py3-none-%s.whl", version, strings.Join(wheelTags[t.Name], ".")))
	tmp := name + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return "", 0, err
	}
	zw := zip.NewWriter(f)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestCompression)
	})
	for _, m := range files {
		h := &zip.FileHeader{Name: m.name, Method: zip.Deflate, Modified: wheelTime}
		mode := fs.FileMode(0o644)
		if m.exec {
			mode = 0o755
		}
		h.SetMode(mode)
		w, err := zw.CreateHeader(h)
		if err == nil {
			_, err = w.Write(m.data)
		}
		if err != nil {
			f.Close()
			return "", 0, err
		}
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return "", 0, err
	}
	if err := f.Close(); err != nil {
		return "", 0, err
	}
	return name, int64(len(binData)), os.Rename(tmp, name)
}

const entryPoints = `[console_scripts]
toolgrade = toolgrade.__main__:main

[pytest11]
toolgrade = toolgrade.pytest_plugin
`

func metadata(version string, readme []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `Metadata-Version: 2.1
Name: toolgrade
Version: %s
Summary: Grade how well LLM agents call tools; reproduces DeepEval, Axion, agentevals, openevals, ADK, DeepFabric, BFCL, Ragas, Mastra, promptfoo and evalite scores exactly
Home-page: https://github.com/toolgrade/toolgrade
Project-URL: Source, https://github.com/toolgrade/toolgrade
Keywords: llm,agents,evaluation,tool-calling,function-calling,pytest
Classifier: Programming Language :: Python :: 3
Classifier: Programming Language :: Python :: 3 :: Only
Classifier: Framework :: Pytest
Classifier: Topic :: Software Development :: Testing
Requires-Python: >=3.9
Description-Content-Type: text/markdown

`, version)
	b.Write(readme)
	return b.Bytes()
}

// versionModule is toolgrade/_version.py, written from the VERSION file
// (the one source of the version) into the wheel.
func versionModule(version string) []byte {
	return fmt.Appendf(nil, "\"\"\"The toolgrade version, written by python/build from VERSION.\"\"\"\n\n__version__ = %q\n", version)
}

func wheelFile(tags []string) []byte {
	var b bytes.Buffer
	b.WriteString("Wheel-Version: 1.0\nGenerator: toolgrade python/build\nRoot-Is-Purelib: false\n")
	for _, tag := range tags {
		fmt.Fprintf(&b, "Tag: py3-none-%s\n", tag)
	}
	return b.Bytes()
}
