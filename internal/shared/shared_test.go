package shared

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFind lays out a module and its sibling in a temporary directory and
// checks where find looks for the shared data.
func TestFind(t *testing.T) {
	tests := []struct {
		name    string
		link    string // "symlink", "file" (git without symbolic links) or "" (none)
		sibling bool   // whether ../shared exists
		want    string // the directory found, relative to the temporary one
		missing string // a substring of the skip message, when not found
	}{
		{name: "link to the sibling", link: "symlink", sibling: true, want: "main/testdata/shared"},
		{name: "link without its target", link: "symlink", missing: "points to ../../shared, which is absent"},
		{name: "no link: the sibling itself", sibling: true, want: "shared"},
		{name: "link checked out as a file", link: "file", sibling: true, want: "shared"},
		{name: "neither", missing: "neither"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmp, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			pkg := filepath.Join(tmp, "main", "some", "pkg")
			for _, dir := range []string{pkg, filepath.Join(tmp, "main", "testdata")} {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(tmp, "main", "go.mod"), []byte("module example.com/m\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if tt.sibling {
				if err := os.Mkdir(filepath.Join(tmp, "shared"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			link := filepath.Join(tmp, "main", "testdata", "shared")
			switch tt.link {
			case "symlink":
				err = os.Symlink(filepath.Join("..", "..", "shared"), link)
			case "file":
				err = os.WriteFile(link, []byte("../../shared"), 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Chdir(pkg)

			dir, missing, err := find()
			if err != nil {
				t.Fatal(err)
			}
			if tt.missing != "" {
				if dir != "" || !strings.Contains(missing, tt.missing) {
					t.Errorf("find() = %q, %q; want nothing and a message with %q", dir, missing, tt.missing)
				}
				return
			}
			if want := filepath.Join(tmp, tt.want); dir != want || missing != "" {
				t.Errorf("find() = %q, %q; want %q", dir, missing, want)
			}
		})
	}
}
