package trace_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/trace"
)

// TestSamples reads the real samples under testdata/<format>/ (every
// folder named after a format) and compares them with their expected calls
// (written by reading each file), detected and forced. SOURCE.md must name
// each sample. Items a sample's expected.json lists under "skipped" (as
// "where: kind") must be exactly the ones reported.
func TestSamples(t *testing.T) {
	dirs, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if d.IsDir() && d.Name() != "fuzz" && !slices.Contains(trace.Formats(), d.Name()) {
			t.Errorf("testdata/%s is named after no format, so its samples are never read", d.Name())
		}
	}
	for _, format := range trace.Formats() {
		files, _ := filepath.Glob(filepath.Join("testdata", format, "*"))
		for _, f := range files {
			if strings.HasSuffix(f, ".expected.json") || strings.HasSuffix(f, ".md") {
				continue
			}
			t.Run(format+"/"+filepath.Base(f), func(t *testing.T) {
				source, err := os.ReadFile(filepath.Join("testdata", format, "SOURCE.md"))
				if err != nil || !strings.Contains(string(source), filepath.Base(f)) {
					t.Errorf("testdata/%s/SOURCE.md does not name %s (%v)", format, filepath.Base(f), err)
				}
				input, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				data, err := os.ReadFile(strings.TrimSuffix(f, filepath.Ext(f)) + ".expected.json")
				if err != nil {
					t.Fatal(err)
				}
				want, err := jsonvalue.Parse(data)
				if err != nil {
					t.Fatal(err)
				}
				obj := want.(jsonvalue.Object)
				var wantSkipped []string
				if s, ok := obj.Get("skipped"); ok {
					for _, v := range s.([]any) {
						wantSkipped = append(wantSkipped, v.(string))
					}
					want = slices.DeleteFunc(slices.Clone(obj), func(m jsonvalue.Member) bool { return m.Key == "skipped" })
				}
				for _, force := range []string{"", format} {
					tr, err := trace.Read(input, force)
					if err != nil {
						t.Fatalf("Read(format %q): %v", force, err)
					}
					if diff := cmp.Diff(want, asValue(t, tr), semantic); diff != "" {
						t.Errorf("Read(format %q) mismatch (-want +got):\n%s", force, diff)
					}
					var skipped []string
					for _, s := range tr.Skipped {
						skipped = append(skipped, s.String())
					}
					if !cmp.Equal(skipped, wantSkipped) {
						t.Errorf("Read(format %q): skipped %q, want %q", force, skipped, wantSkipped)
					}
				}
			})
		}
	}
}
