package release

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestChoose(t *testing.T) {
	host := runtime.GOOS + "-" + runtime.GOARCH
	tests := []struct {
		spec    string
		want    []string
		wantErr bool
	}{
		{spec: "all", want: []string{"linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"}},
		{spec: "", want: []string{"linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"}},
		{spec: "host", want: []string{host}},
		{spec: "darwin-arm64, windows-amd64", want: []string{"darwin-arm64", "windows-amd64"}},
		{spec: "linux-386", wantErr: true},
		{spec: "linux-amd64,", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got, err := Choose(tt.spec)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Choose(%q) error = %v, want error %v", tt.spec, err, tt.wantErr)
			}
			if err != nil {
				return
			}
			var names []string
			for _, g := range got {
				names = append(names, g.Name)
			}
			if len(names) != len(tt.want) {
				t.Fatalf("Choose(%q) = %v, want %v", tt.spec, names, tt.want)
			}
			for i := range names {
				if names[i] != tt.want[i] {
					t.Fatalf("Choose(%q) = %v, want %v", tt.spec, names, tt.want)
				}
			}
		})
	}
}

func TestVersion(t *testing.T) {
	tests := []struct {
		file    string
		want    string
		wantErr bool
	}{
		{file: "0.1.0\n", want: "0.1.0"},
		{file: " 12.0.3 \n", want: "12.0.3"},
		{file: "v0.1.0\n", wantErr: true},
		{file: "0.1\n", wantErr: true},
		{file: "0.1.0-rc.1\n", wantErr: true}, // not a wheel version
		{file: "01.2.3\n", wantErr: true},
		{file: "", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "VERSION"), []byte(tt.file), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := Version(dir)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Fatalf("Version(%q) = %q, %v; want %q, error %v", tt.file, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// TestRepositoryVersion checks the module's own VERSION file.
func TestRepositoryVersion(t *testing.T) {
	if _, err := Version(filepath.Join("..", "..")); err != nil {
		t.Fatal(err)
	}
}

func TestExe(t *testing.T) {
	for _, tg := range Targets {
		want := "toolgrade"
		if tg.GOOS == "windows" {
			want = "toolgrade.exe"
		}
		if got := tg.Exe(); got != want {
			t.Errorf("%s: Exe() = %q, want %q", tg.Name, got, want)
		}
	}
}
