package snapshot_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/snapshot"
)

func TestReadCases(t *testing.T) {
	for _, tt := range []struct {
		name, data string
		ids        []string
		err        string
	}{
		{"cases, blank lines and CRLF", `{"id": "a", "expected_tools": []}` + "\r\n\n" + `{"id": "b", "expected_tools": [{"name": "f"}]}`, []string{"a", "b"}, ""},
		{"an empty file", "", nil, ""},
		{"an expected trajectory", `{"id": "a", "expected_trajectory": []}`, []string{"a"}, ""},
		{"not JSON", `{"id": "a", "expected_tools": []}` + "\n" + `{"id": `, nil, "cases.jsonl:2: not a cases file: the line is not one JSON value"},
		{"pretty-printed JSON", "{\n  \"id\": \"a\"\n}\n", nil, "cases.jsonl:1: not a cases file"},
		{"not an object", `["a"]`, nil, "cases.jsonl:1: not a cases file: want a case object, got array"},
		{"a trace", `{"role": "assistant", "tool_calls": []}`, nil, "cases.jsonl:1: a case without an id"},
		{"a trace with an id", `{"id": "chatcmpl-1", "choices": []}`, nil, "cases.jsonl:1: not a case: it has no expected calls"},
		{"a number for an id", `{"id": 7, "expected_tools": []}`, nil, "a case without an id (a string)"},
		{"results", `{"id": "a", "success": true, "metrics": []}`, nil, "cases.jsonl:1: a toolgrade results file, not a cases file (the line is a result: id, success, metrics)"},
		{"a JSON config", `{"metrics": [{"name": "tool_correctness"}]}`, nil, "cases.jsonl: a toolgrade config, not a cases file (keys metrics): give it with --config"},
		{"a YAML config", "# a suite\ndatasets:\n  - cases/*.jsonl\nmetrics:\n  - name: tool_correctness\n", nil, "cases.jsonl: a toolgrade config, not a cases file (keys datasets, metrics): give it with --config"},
		{"gzip", "\x1f\x8b\x08\x00", nil, "cases.jsonl: gzip-compressed data, not UTF-8 text"},
		{"UTF-16 with a byte-order mark", "\xff\xfe{\x00\"\x00i\x00d\x00\"\x00:\x00\"\x00a\x00\"\x00,\x00\"\x00e\x00x\x00p\x00e\x00c\x00t\x00e\x00d\x00_\x00t\x00o\x00o\x00l\x00s\x00\"\x00:\x00[\x00]\x00}\x00", []string{"a"}, ""},
		{"an id twice", `{"id": "a", "expected_tools": []}` + "\n" + `{"id": "a", "expected_tools": []}`, nil, `cases.jsonl: the id "a" is on lines 1 and 2`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cs, err := snapshot.ReadCases("cases.jsonl", []byte(tt.data))
			if !wantError(t, err, tt.err) {
				return
			}
			if diff := cmp.Diff(tt.ids, cs.IDs()); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
		})
	}
}

// An update replaces the cases it has snapshots for and adds the others;
// every other line is written back as read.
func TestUpdate(t *testing.T) {
	const (
		a = `{"id":"a", "expected_tools": [], "note": "hand edited"}`
		b = `{"id":"b","expected_tools":[{"name":"old"}]}`
	)
	cs, err := snapshot.ReadCases("cases.jsonl", []byte(a+"\r\n\n"+b))
	if err != nil {
		t.Fatal(err)
	}
	newB := snapshot.Take(&snapshot.Run{ID: "b", Source: "b.json", Format: "openai_chat", Input: "q", Calls: []toolgrade.Call{call(t, "new", `{}`, "")}})
	newC := snapshot.Take(&snapshot.Run{ID: "c", Source: "c.json", Format: "openai_chat", Input: "q"})
	data, changes := cs.Update([]*snapshot.Snapshot{newB, newC})
	want := a + "\r\n\n" + string(newB.AppendJSON(nil)) + "\n" + string(newC.AppendJSON(nil)) + "\n"
	if diff := cmp.Diff(want, string(data)); diff != "" {
		t.Errorf("file (-want +got):\n%s", diff)
	}
	var got []string
	for _, c := range changes {
		got = append(got, c.Where("cases.jsonl")+": "+strings.Join(c.Diff(), " | "))
	}
	wantChanges := []string{
		`b (cases.jsonl:3, from b.json): input: "q" added | - #0 old() | + #0 new({})`,
		"c (cases.jsonl:4, from c.json): new case, expecting no calls",
	}
	if diff := cmp.Diff(wantChanges, got); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
}

func TestDiff(t *testing.T) {
	obj := func(s string) jsonvalue.Object { return val(t, s).(jsonvalue.Object) }
	for _, tt := range []struct {
		name, old, new string
		want           []string
	}{
		{"unchanged", `{"expected_tools": [{"name": "f", "args": {"a": 1}}]}`, `{"expected_tools": [{"name": "f", "args": {"a": 1.0}}]}`, nil},
		{"an argument changed, added and removed",
			`{"expected_tools": [{"name": "f", "args": {"a": 1, "b": {"c": "x"}, "gone": true}}]}`,
			`{"expected_tools": [{"name": "f", "args": {"a": 2, "b": {"c": "y"}, "new": [1]}}]}`,
			[]string{`~ #0 f: args.a: 1 → 2; args.b.c: "x" → "y"; args.gone: true removed; args.new: [1] added`}},
		{"a call added and one removed",
			`{"expected_tools": [{"name": "a"}, {"name": "log", "args": {}}, {"name": "b"}]}`,
			`{"expected_tools": [{"name": "a"}, {"name": "b"}, {"name": "email", "args": {"to": "x"}}]}`,
			[]string{`- #1 log({})`, `+ #2 email({"to":"x"})`}},
		{"the input, the status and a rule",
			`{"input": "q", "expected_tools": [{"name": "f", "status": "ok", "rules": {"id": {"ignore": true}}}]}`,
			`{"input": "r", "expected_tools": [{"name": "f", "status": "error", "rules": {"id": {"from": "g.output.id"}}}]}`,
			[]string{`input: "q" → "r"`, `~ #0 f: status: "ok" → "error"; rules.id.ignore: true removed; rules.id.from: "g.output.id" added`}},
		{"a value an unchanged rule covers is not listed",
			`{"expected_tools": [{"name": "f", "args": {"id": "W1", "at": "2025-03-06", "items": [{"sku": "A1234"}]}, "rules": {"id": {"from": "g.output.id"}, "at": {"ignore": true}, "items.0.sku": {"from": "g.output.sku"}}}]}`,
			`{"expected_tools": [{"name": "f", "args": {"id": "W2", "at": "2025-04-01", "items": [{"sku": "B5678"}]}, "rules": {"id": {"from": "g.output.id"}, "at": {"ignore": true}, "items.0.sku": {"from": "g.output.sku"}}}]}`,
			nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := snapshot.Change{ID: "x", Old: obj(tt.old), New: obj(tt.new)}
			if diff := cmp.Diff(tt.want, c.Diff()); diff != "" {
				t.Errorf("diff (-want +got):\n%s", diff)
			}
		})
	}
}

// A run with no accepted case, a run whose input differs, and a case
// whose rule does not decode are results, not the end of the check.
func TestRecords(t *testing.T) {
	runs := []*snapshot.Run{
		{ID: "new", Source: "new.json", Input: "q"},
		{ID: "moved", Source: "moved.json", Input: "another question"},
		{ID: "broken", Source: "broken.json", Input: "q"},
	}
	cs, err := snapshot.ReadCases("cases.jsonl", []byte(`{"id": "moved", "input": "q", "expected_tools": []}`+"\n"+
		`{"id": "broken", "expected_tools": [{"name": "f", "rules": {"x": {"regex": "("}}}]}`+"\n"+`{"id": "left", "expected_tools": []}`+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	results := grade(t, cs, runs)
	for _, tt := range []struct{ id, want string }{
		{"new", `no accepted case with the id \"new\" in cases.jsonl (--update adds its snapshot)`},
		{"moved", `moved.json: the run's first user message, \"another question\", is not the case's input`},
		{"broken", `cases.jsonl:2: field expected_tools[0].rules.x.regex`},
	} {
		if got := string(results[tt.id].AppendJSON(nil)); !strings.Contains(got, tt.want) {
			t.Errorf("%s: %s lacks %q", tt.id, got, tt.want)
		}
	}
	if got := cs.Unchecked(runs); !cmp.Equal(got, []string{"left"}) {
		t.Errorf("unchecked %v", got)
	}
}
