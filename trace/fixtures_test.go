package trace_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/internal/shared"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/trace"
)

// A fixture is one trace of ../shared/fixtures/traces or
// ../shared/fixtures/realworld and its expected calls.
type fixture struct {
	set          string // the folder of ../shared/fixtures
	format, name string // the directory (the format) and the file
	input        []byte
	want         any // the .expected.json document
}

// loadFixtures reads every fixture, skipping when the shared data is
// absent.
func loadFixtures(t *testing.T) []fixture {
	t.Helper()
	var fixtures []fixture
	for _, set := range []string{"traces", "realworld"} {
		fixtures = append(fixtures, loadFixtureSet(t, shared.Path(t, "fixtures", set))...)
	}
	return fixtures
}

// loadFixtureSet reads the fixtures of one folder: <format>/<name>.<ext>
// with <format>/<name>.expected.json.
func loadFixtureSet(t *testing.T, root string) []fixture {
	t.Helper()
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var fixtures []fixture
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, err := os.ReadDir(filepath.Join(root, d.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f.Name(), ".expected.json") {
				continue
			}
			path := filepath.Join(root, d.Name(), f.Name())
			input, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			expected := strings.TrimSuffix(path, filepath.Ext(path)) + ".expected.json"
			data, err := os.ReadFile(expected)
			if err != nil {
				t.Fatalf("%s: no expected file: %v", path, err)
			}
			want, err := jsonvalue.Parse(data)
			if err != nil {
				t.Fatalf("%s: %v", expected, err)
			}
			fixtures = append(fixtures, fixture{filepath.Base(root), d.Name(), f.Name(), input, want})
		}
	}
	if len(fixtures) == 0 {
		t.Fatalf("no trace fixtures found in %s", root)
	}
	return fixtures
}

// semantic compares values of the model by meaning: objects regardless of
// key order, numbers by value.
var semantic = cmp.Options{
	cmp.Transformer("object", func(o jsonvalue.Object) map[string]any {
		m := make(map[string]any, len(o))
		for _, e := range o {
			m[e.Key] = e.Value
		}
		return m
	}),
	cmp.Comparer(func(a, b json.Number) bool { return jsonvalue.CompareNumbers(a, b) == 0 }),
}

// asValue returns a trace as extract prints it, in the value model.
func asValue(t *testing.T, tr trace.Trace) any {
	t.Helper()
	v, err := jsonvalue.Parse(tr.AppendJSON(nil))
	if err != nil {
		t.Fatalf("extract output is not JSON: %v", err)
	}
	return v
}

// TestFixtures requires every fixture to yield exactly its expected calls,
// both when its format is detected and when it is forced.
func TestFixtures(t *testing.T) {
	fixtures := loadFixtures(t)
	calls := 0
	for _, f := range fixtures {
		t.Run(f.set+"/"+f.format+"/"+f.name, func(t *testing.T) {
			for _, format := range []string{"", f.format} {
				tr, err := trace.Read(f.input, format)
				if err != nil {
					t.Fatalf("Read(format %q): %v", format, err)
				}
				if diff := cmp.Diff(f.want, withoutTrajectory(asValue(t, tr)), semantic); diff != "" {
					t.Errorf("Read(format %q) mismatch (-want +got):\n%s", format, diff)
				}
			}
		})
		calls += len(get(f.want, "calls").([]any))
	}
	t.Logf("%d fixtures, %d calls", len(fixtures), calls)
}

// TestFixturesAsValues reads the JSON fixtures through Extract, as a
// case's trajectory reaches it.
func TestFixturesAsValues(t *testing.T) {
	for _, f := range loadFixtures(t) {
		v, err := jsonvalue.Parse(f.input)
		if err != nil {
			continue // JSON Lines, SSE and text are strings in a case
		}
		t.Run(f.set+"/"+f.format+"/"+f.name, func(t *testing.T) {
			tr, err := trace.Extract(v, "")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(f.want, withoutTrajectory(asValue(t, tr)), semantic); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// withoutTrajectory drops "status" and "turn" from the calls of an
// extracted trace. The shared fixtures cannot be edited and predate these
// keys, so they are compared without them; the project's own samples
// (TestSamples) and the table tests check them in full.
func withoutTrajectory(v any) any {
	calls, _ := get(v, "calls").([]any)
	for i, c := range calls {
		o := c.(jsonvalue.Object)
		kept := make(jsonvalue.Object, 0, len(o))
		for _, m := range o {
			if m.Key != "status" && m.Key != "turn" {
				kept = append(kept, m)
			}
		}
		calls[i] = kept
	}
	return v
}

func get(v any, key string) any {
	x, _ := v.(jsonvalue.Object).Get(key)
	return x
}
