package snapshot_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/snapshot"
)

// FuzzRead reads arbitrary bytes as a trace file: it must never panic,
// and every run read makes a snapshot that is a case toolgrade reads,
// with a note for each of its rules.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		chat1, chat2, tau, "[" + tau + "," + tau + "]", chat1 + "\n" + chat2,
		cancelTrace("W8127731", "W8127731", "2025-03-06T14:30:12Z", "k"),
		`{"id": "x", "tools_called": [{"name": "f", "args": {"a": ["2025-03-06", {"b": "AB1234"}]}, "output": "{\"c\": [\"AB1234\"]}"}, {"name": "g", "args": {"a.b": "AB1234", "x": {"y": "AB1234"}}}]}`,
		`{"id": "x", "tools_called": [{"name": "f", "args": {"a": [{"b": "2025-03-07T10:00:00Z"}, "2025-03-06"], "c": {"d": 12345}}, "output": {"e": [12345, {"d": 12345}]}}, {"name": "g", "args": {"c": {"d": 12345}, "n": [[12345]]}}]}`,
		`{"id": "x", "expected_tools": []}`, `{"tasks": [], "simulations": [{"messages": []}, {"messages": []}]}`,
		"<tool_call>\n{\"name\": \"f\", \"arguments\": {\"id\": \"8f1c2b9e-77a0-4a52-9f0e-3c1d5b2a6e41\"}}\n</tool_call>",
		"", "PK\x03\x04", `{"messages": [`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		runs, err := snapshot.Read("f.json", "f", data, "")
		if err != nil {
			return
		}
		for _, r := range runs {
			checkCase(t, snapshot.Take(r))
		}
	})
}

// FuzzReadCases reads arbitrary bytes as a cases file: it must never
// panic, and an update with nothing to change writes every line back.
func FuzzReadCases(f *testing.F) {
	f.Add([]byte(`{"id": "a", "expected_tools": []}` + "\r\n\n" + `{"id": "b", "expected_tools": [{"name": "f"}]}` + "\n"))
	f.Add([]byte(`{"id": "a", "expected_tools": []}`))
	f.Add([]byte("\xEF\xBB\xBF\n\n"))
	f.Add([]byte(`{"id": "a"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cs, err := snapshot.ReadCases("cases.jsonl", data)
		if err != nil {
			return
		}
		got, changes := cs.Update(nil)
		want := bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
		if len(want) > 0 && !bytes.HasSuffix(want, []byte("\n")) {
			want = append(want, '\n')
		}
		if len(changes) > 0 || !bytes.Equal(got, want) {
			t.Fatalf("an update with nothing to change wrote %q, want %q", got, want)
		}
		if len(cs.IDs()) != cs.Len() || strings.Join(cs.IDs(), "") == "" && cs.Len() > 0 {
			t.Fatalf("ids %q for %d cases", cs.IDs(), cs.Len())
		}
	})
}
