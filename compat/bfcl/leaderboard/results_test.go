package leaderboard_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/toolgrade/toolgrade/compat/bfcl/leaderboard"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func TestReadResults(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"a.jsonl": `{"id": "simple_python_0", "result": [{"get_weather": {"city": "Paris"}}]}` + "\n\n  \r\n" +
			`{"id": "simple_python_1", "result": "text", "latency": 1.5}` + "\r\n",
		"sub/b.json":  `{"id": "irrelevance_0", "result": []}`,
		"notes.txt":   "not read\n",
		"repeat.json": `{"id": "simple_python_0", "result": []}` + "\n" + `{"id": "simple_python_2", "result": []}` + "\n",
		"bad.jsonl":   `{"id": "simple_python_3", "result": []}` + "\n" + `{"id": "simple_python_0", "result": []}` + "\n" + "{oops\n",
		"empty/x.txt": "",
	})
	path := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name    string
		paths   []string
		ids     []string // the entries read
		wheres  []string // their places, relative to dir
		repeats []string
		err     string // relative to dir
	}{
		{"a file", []string{path("a.jsonl")}, []string{"simple_python_0", "simple_python_1"}, []string{"a.jsonl:1", "a.jsonl:4"}, nil, ""},
		{"a directory, in name order", []string{path("sub"), path("a.jsonl")}, []string{"irrelevance_0", "simple_python_0", "simple_python_1"}, nil, nil, ""},
		{"repeats are ignored", []string{path("a.jsonl"), path("repeat.json")}, []string{"simple_python_0", "simple_python_1", "simple_python_2"}, nil,
			[]string{"repeat.json:1: entry simple_python_0 repeats a.jsonl:1; this line is ignored"}, ""},
		{"an error comes with what was read", []string{path("a.jsonl"), path("bad.jsonl")}, []string{"simple_python_0", "simple_python_1", "simple_python_3"}, nil,
			[]string{"bad.jsonl:2: entry simple_python_0 repeats a.jsonl:1; this line is ignored"}, "bad.jsonl:3: invalid JSON"},
		{"missing file", []string{path("a.jsonl"), path("nope.json")}, nil, nil, nil, "nope.json: no such file"},
		{"directory without result files", []string{path("empty")}, nil, nil, nil, "empty: no .json or .jsonl result files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := leaderboard.ReadResults(tt.paths...)
			if rs == nil {
				t.Fatal("ReadResults returned no results")
			}
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("error %v, want %q", err, tt.err)
			}
			var ids, wheres []string
			for _, e := range rs.Entries {
				ids = append(ids, e.ID)
				wheres = append(wheres, strings.TrimPrefix(e.Where, dir+string(filepath.Separator)))
			}
			if strings.Join(ids, " ") != strings.Join(tt.ids, " ") {
				t.Errorf("entries %q, want %q", ids, tt.ids)
			}
			if tt.wheres != nil && strings.Join(wheres, " ") != strings.Join(tt.wheres, " ") {
				t.Errorf("places %q, want %q", wheres, tt.wheres)
			}
			var repeats []string
			for _, r := range rs.Repeats {
				repeats = append(repeats, strings.ReplaceAll(r.String(), dir+string(filepath.Separator), ""))
			}
			if strings.Join(repeats, "\n") != strings.Join(tt.repeats, "\n") {
				t.Errorf("repeats %q, want %q", repeats, tt.repeats)
			}
		})
	}
}

// TestResultsRead checks the errors of one result file's lines: each
// names the file, the line and the field at fault.
func TestResultsRead(t *testing.T) {
	tests := []struct {
		name, text, err string
	}{
		{"good", `{"id": "simple_python_0", "result": []}`, ""},
		{"blank lines", "\n \t\n" + `{"id": "simple_python_0", "result": []}` + "\n\n", ""},
		{"not JSON", `{"id": "simple_python_0", "result": [}`, "r.json:1: invalid JSON"},
		{"not an object", "\n[1, 2]", "r.json:2: want a result object with a string id"},
		{"no id", `{"result": []}`, "r.json:1: want a result object with a string id"},
		{"id not a string", `{"id": 7, "result": []}`, "r.json:1: want a result object with a string id"},
		{"no result", `{"id": "simple_python_0"}`, "r.json:1: entry simple_python_0 has no result"},
		{"empty", "", "r.json: no result entries"},
		{"only blank lines", "\n \r\n", "r.json: no result entries"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rs leaderboard.Results
			err := rs.Read("r.json", strings.NewReader(tt.text))
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.err)) {
				t.Errorf("error %v, want %q", err, tt.err)
			}
		})
	}
	var rs leaderboard.Results
	if err := rs.Read("r.json", iotest.ErrReader(errors.New("disk on fire"))); err == nil || err.Error() != "r.json: disk on fire" {
		t.Errorf("read error: %v", err)
	}
}

// FuzzResultsRead reads arbitrary result files: it never panics, every
// error names the file, and every entry has a string id and a result.
func FuzzResultsRead(f *testing.F) {
	for _, s := range []string{
		`{"id": "simple_python_0", "result": [{"f": {"a": 1}}]}`,
		`{"id": "simple_python_0", "result": "[f(a=1)]"}` + "\n" + `{"id": "simple_python_0", "result": []}`,
		`{"id": "x"}`,
		"[1]\n{",
		"\r\n\n\"\"",
		`{"id": "a_1", "result": [{"f": "{\"a\": [1, 2.50, null]}"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		var rs leaderboard.Results
		err := rs.Read("fuzz.jsonl", strings.NewReader(string(text)))
		if err != nil && !strings.HasPrefix(err.Error(), "fuzz.jsonl:") {
			t.Errorf("error without the file and line: %v", err)
		}
		seen := map[string]bool{}
		for _, e := range rs.Entries {
			if seen[e.ID] {
				t.Errorf("entry %s read twice", e.ID)
			}
			seen[e.ID] = true
			if !strings.HasPrefix(e.Where, "fuzz.jsonl:") {
				t.Errorf("entry %s at %q", e.ID, e.Where)
			}
			_ = jsonvalue.Kind(e.Result)
		}
	})
}
