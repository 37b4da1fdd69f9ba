package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/internal/release"
)

func TestMainManifest(t *testing.T) {
	tests := []struct {
		name, src, want, wantErr string
	}{
		{
			name: "version after name, platform packages last",
			src:  `{"name": "toolgrade", "type": "module"}`,
			want: `{
  "name": "toolgrade",
  "version": "1.2.3",
  "type": "module",
  "optionalDependencies": {
    "@toolgrade/linux-x64": "1.2.3",
    "@toolgrade/linux-arm64": "1.2.3",
    "@toolgrade/darwin-x64": "1.2.3",
    "@toolgrade/darwin-arm64": "1.2.3",
    "@toolgrade/win32-x64": "1.2.3"
  }
}
`,
		},
		{name: "a version of its own", src: `{"name": "toolgrade", "version": "0.0.0"}`, wantErr: `"version" is written by npm/build`},
		{name: "dependencies of its own", src: `{"name": "toolgrade", "optionalDependencies": {}}`, wantErr: `"optionalDependencies" is written by npm/build`},
		{name: "another name", src: `{"name": "tg"}`, wantErr: `"name" is tg, want "toolgrade"`},
		{name: "not an object", src: `[]`, wantErr: "want an object"},
		{name: "not JSON", src: `{`, wantErr: "invalid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mainManifest([]byte(tt.src), "1.2.3")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("manifest (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTarball checks what npm reads: members under package/, the binary
// executable, npm pack's fixed time, and the same bytes on every write.
func TestTarball(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "toolgrade.exe")
	if err := os.WriteFile(bin, []byte("MZ binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	target := release.Target{Name: "windows-amd64", GOOS: "windows", GOARCH: "amd64"}
	files, size, err := platformPackage(target, "1.2.3", bin)
	if err != nil {
		t.Fatal(err)
	}
	if size != 9 {
		t.Errorf("binary size = %d, want 9", size)
	}
	a, b := filepath.Join(dir, "a.tgz"), filepath.Join(dir, "b.tgz")
	if err := writeTarball(a, files); err != nil {
		t.Fatal(err)
	}
	if err := writeTarball(b, files); err != nil {
		t.Fatal(err)
	}
	ab, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if !bytes.Equal(ab, bb) {
		t.Error("two writes of the same files differ")
	}

	type member struct {
		Mode    int64
		Content string
	}
	got := map[string]member{}
	zr, err := gzip.NewReader(bytes.NewReader(ab))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !h.ModTime.Equal(tarTime) {
			t.Errorf("%s: time %v, want %v", h.Name, h.ModTime, tarTime)
		}
		data, _ := io.ReadAll(tr)
		c := string(data)
		if h.Name == "package/package.json" {
			c = strings.Join(strings.Fields(c), " ")
		} else if h.Name == "package/README.md" {
			c = ""
		}
		got[h.Name] = member{h.Mode, c}
	}
	want := map[string]member{
		"package/README.md":         {0o644, ""},
		"package/bin/toolgrade.exe": {0o755, "MZ binary"},
		"package/package.json":      {0o644, `{ "name": "@toolgrade/win32-x64", "version": "1.2.3", "description": "The toolgrade binary for win32 x64; installed by the toolgrade package", "homepage": "https://github.com/toolgrade/toolgrade/tree/main/npm#readme", "repository": { "type": "git", "url": "git+https://github.com/toolgrade/toolgrade.git", "directory": "npm" }, "os": [ "win32" ], "cpu": [ "x64" ], "files": [ "bin/" ], "preferUnplugged": true }`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("members (-want +got):\n%s", diff)
	}
}

// TestMainPackage reads npm/toolgrade: every file ships, the manifest gets
// the VERSION file's version, and a file of another kind is an error.
func TestMainPackage(t *testing.T) {
	root, err := release.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	files, err := mainPackage(root, "1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range files {
		names[f.name] = true
		if f.exec != strings.HasPrefix(f.name, "bin/") {
			t.Errorf("%s: exec %v", f.name, f.exec)
		}
	}
	for _, n := range []string{"package.json", "README.md", "index.js", "index.d.ts", "openevals.js", "mastra.js", "evalite.js", "promptfoo.js", "vitest.js", "jest.js", "bin/toolgrade.js", "lib/client.js"} {
		if !names[n] {
			t.Errorf("the package lacks %s", n)
		}
	}

	bad := t.TempDir()
	if err := os.MkdirAll(filepath.Join(bad, "npm", "toolgrade"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"npm/README.md": "", "npm/toolgrade/package.json": `{"name": "toolgrade"}`, "npm/toolgrade/notes.txt": ""} {
		if err := os.WriteFile(filepath.Join(bad, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := mainPackage(bad, "1.2.3"); err == nil || !strings.Contains(err.Error(), "notes.txt") {
		t.Errorf("a stray file: error = %v, want one naming notes.txt", err)
	}
}
