package match_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/match"
)

var update = flag.Bool("update", false, "rewrite golden files")

// plainCases are cases with no turns, no failed calls and no data-flow
// rules: they grade on the metric's direct path.
var plainCases = []struct{ name, expected, called string }{
	{"both empty", `[]`, `[]`},
	{"nothing called", `[{"name":"get_weather","args":{"city":"Paris"}}]`, `[]`},
	{"nothing expected", `[]`, `[{"name":"get_weather","args":{"city":"Paris"}}]`},
	{"match", `[{"name":"get_weather","args":{"city":"Paris"}}]`, `[{"name":"get_weather","args":{"city":"Paris"}}]`},
	{"wrong argument", `[{"name":"get_weather","args":{"city":"Paris","days":2}}]`, `[{"name":"get_weather","args":{"city":"Rome","days":2.0}}]`},
	{"swapped", `[{"name":"a","args":{"x":1}},{"name":"b"}]`, `[{"name":"b"},{"name":"a","args":{"x":1}}]`},
	{"extra and missing", `[{"name":"a","args":{"x":1}},{"name":"b"},{"name":"c"}]`, `[{"name":"a","args":{"x":1,"y":2}},{"name":"d"},{"name":"b"}]`},
	{"duplicates", `[{"name":"f","args":{"a":1}},{"name":"f","args":{"a":2}}]`, `[{"name":"f","args":{"a":2}},{"name":"f","args":{"a":3}},{"name":"f","args":{"a":1}}]`},
	{"nested", `[{"name":"book","args":{"when":{"date":"2025-01-02","time":"10:00"},"who":["ana","bo"]}}]`,
		`[{"name":"book","args":{"when":{"date":"2025-01-02","time":"11:00"},"who":["ana"]}}]`},
	{"rules", `[{"name":"search","args":{"q":"weather in Paris","limit":10},"rules":{"q":{"regex":"(?i)paris"},"limit":{"approx":10,"tol":2},"lang":{"optional":true}}}]`,
		`[{"name":"search","args":{"q":"Paris weather","limit":11,"lang":"fr"}}]`},
	{"rules fail", `[{"name":"search","args":{"unit":"c"},"rules":{"unit":{"one_of":["c","celsius"]},"n":{"type":"integer"}}}]`,
		`[{"name":"search","args":{"unit":"f","n":"3"}}]`},
	{"fuzzy strings", `[{"name":"email","args":{"subject":"Weather report for Paris"}}]`, `[{"name":"email","args":{"subject":"Weather report: Paris"}}]`},
	{"invalid arguments", `[{"name":"f","args":{"a":1}}]`, `[{"name":"f","arguments":"{oops"}]`},
	{"outputs", `[{"name":"f","output":{"ok":true}}]`, `[{"name":"f","output":{"ok":false}}]`},
	{"types", `[{"name":"web_search","type":"web_search"},{"name":"f","type":"mcp"}]`, `[{"name":"web_search","type":"web_search"},{"name":"f"}]`},
	{"suffixed names", `[{"name":"delegate_to_sql_agent"}]`, `[{"name":"delegate_to_sql_agent_xg7c"}]`},
	{"status ok", `[{"name":"f","args":{"a":1}}]`, `[{"name":"f","args":{"a":1},"status":"ok"},{"name":"g","status":"ok"}]`},
}

var plainOptions = slices.Concat(allOptions, []match.Options{
	{Threshold: toolgrade.Float(0.5)},
	{NormalizeNames: true},
	{ArgsOverrides: map[string]match.Mode{"search": match.ArgsContains, "book": match.ArgsPartial}},
	{Order: "in-order", Scoring: "recall"},
})

// TestPlainCasesGradeAsBefore compares the results of cases that use no
// turns, failed calls or data-flow rules with results recorded before
// those existed: such cases must grade byte for byte as they did.
func TestPlainCasesGradeAsBefore(t *testing.T) {
	var buf bytes.Buffer
	for _, c := range plainCases {
		for _, o := range plainOptions {
			m, err := match.New(o)
			if err != nil {
				t.Fatal(err)
			}
			r := m.Grade(context.Background(), &toolgrade.Case{Expected: calls(t, c.expected), Called: calls(t, c.called)})
			label, err := json.Marshal(o) // new options are omitempty: the label stays
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&buf, "%s %s\n", c.name, label)
			buf.Write(r.AppendJSON(nil))
			buf.WriteByte('\n')
		}
	}
	golden := filepath.Join("testdata", "plain.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	got := buf.Bytes()
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := range max(len(gl), len(wl)) {
		var g, w []byte
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if !bytes.Equal(g, w) {
			t.Fatalf("%s line %d differs (run go test -update to accept):\ngot:  %s\nwant: %s", golden, i+1, g, w)
		}
	}
}
