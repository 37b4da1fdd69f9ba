package snapshot_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/snapshot"
	"github.com/toolgrade/toolgrade/trace"
)

const (
	chat1 = `{"messages": [{"role": "user", "content": "one"}, {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}]}`
	chat2 = `{"messages": [{"role": "user", "content": "two"}, {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "g", "arguments": "{}"}}]}]}`
	tau   = `{"task_id": 0, "reward": 1, "info": {}, "trial": 0, "traj": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "t1", "type": "function", "function": {"name": "get_user", "arguments": "{\"id\": \"u1\"}"}}]}, {"role": "tool", "tool_call_id": "t1", "name": "get_user", "content": "{}"}]}`
)

func evalZip(t *testing.T, samples int) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	add := func(name, text string) {
		f, err := w.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(text))
	}
	add("header.json", `{"eval": {"task": "t"}, "status": "success"}`)
	for i := range samples {
		id := string(rune('a' + i))
		add("samples/"+id+"_epoch_1.json", `{"id": "`+id+`", "epoch": 1, "messages": [{"role": "user", "content": "q"}]}`)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestRead(t *testing.T) {
	runFile, err := os.ReadFile("../examples/reliability/agent.fake.run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	firstRun, _, _ := strings.Cut(string(runFile), "\n")
	for _, tt := range []struct {
		name, file, data, format string
		ids                      []string // the runs', in order
		calls                    []int
		err                      string
	}{
		{"one trace", "t.json", chat1, "", []string{"t"}, []int{1}, ""},
		{"a forced format", "t.json", chat1, "openai_chat", []string{"t"}, []int{1}, ""},
		{"a text transcript", "t.txt", "<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>", "", []string{"t"}, []int{1}, ""},
		{"traces one per line", "t.jsonl", chat1 + "\n" + chat2 + "\n", "", []string{"t-1", "t-2"}, []int{1, 1}, ""},
		{"traces in an array", "t.json", "[" + tau + "," + tau + "]", "", []string{"t-1", "t-2"}, []int{1, 1}, ""},
		{"records with ids", "t.jsonl", `{"id": "a",` + tau[1:] + "\n" + `{"id": 7,` + tau[1:] + "\n", "", []string{"a", "7"}, []int{1, 1}, ""},
		{"a run file's line", "r.jsonl", firstRun, "", []string{"weather-right"}, []int{1}, ""},
		{"a case file", "c.jsonl", `{"id": "x", "input": "q", "tools_called": [{"name": "f", "args": {}, "output": {"id": "AB1234"}}]}` + "\n" + `{"tools_called": []}` + "\n", "", []string{"x", "c-2"}, []int{1, 0}, ""},
		{"a case with a trajectory", "c.json", `{"id": "x", "trajectory": ` + chat1[len(`{"messages": `):len(chat1)-1] + `}`, "", []string{"x"}, []int{1}, ""},
		{"a case with turns", "c.json", `{"id": "t", "turns": [{"input": "a", "tools_called": [{"name": "f", "args": {}}]}, {"input": "b", "tools_called": [{"name": "g", "args": {}}]}]}`, "", []string{"t"}, []int{2}, ""},
		{"a Ragas sample", "c.json", `{"user_input": [{"type": "human", "content": "q"}, {"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {}}]}], "reference_tool_calls": [{"name": "f", "args": {}}]}`, "", []string{"c"}, []int{1}, ""},
		{"an Inspect log's samples", "log.json", `{"eval": {}, "samples": [{"id": 1, "messages": [{"role": "user", "content": "a"}]}, {"id": 2, "messages": [{"role": "user", "content": "b"}]}]}`, "", []string{"1", "2"}, []int{0, 0}, ""},
		{"a τ²-bench results file", "r.json", `{"tasks": [], "simulations": [{"id": "s1", "messages": [{"role": "user", "content": "a"}]}, {"id": "s2", "messages": [{"role": "user", "content": "b"}]}]}`, "", []string{"s1", "s2"}, []int{0, 0}, ""},
		{"a .eval log's samples", "log.eval", string(evalZip(t, 2)), "", []string{"a", "b"}, []int{0, 0}, ""},
		{"a BFCL result file", "r.jsonl", `{"id": "simple_0", "result": [{"f": "{\"x\": 1}"}]}` + "\n" + `{"id": "simple_1", "result": [{"g": "{}"}, {"h": "{}"}]}` + "\n", "", []string{"simple_0", "simple_1"}, []int{1, 2}, ""},
		{"no calls", "t.json", `{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}`, "", []string{"t"}, []int{0}, ""},

		{"an empty file", "t.json", " \n", "", nil, nil, "t.json: an empty file: no trace to snapshot"},
		{"a file of no format", "t.json", `{"hello": "world"}`, "", nil, nil, "t.json: unrecognized trace"},
		{"not JSON", "t.json", `{"messages": [`, "", nil, nil, "t.json:"},
		{"a cases file", "cases.jsonl", `{"id": "a", "expected_tools": [{"name": "f"}]}` + "\n", "", nil, nil,
			"cases.jsonl: a case without recorded calls, not a run"},
		{"cases and traces mixed", "t.jsonl", `{"id": "a", "tools_called": []}` + "\n" + chat1 + "\n", "", nil, nil, "some records are cases with recorded calls and some are not"},
		{"a record of no format", "t.jsonl", chat1 + "\n" + `{"hello": 1}` + "\n", "", nil, nil, "t.jsonl:2: unrecognized trace"},
		{"a failed run", "r.jsonl", `{"id": "a", "tools_called": [], "run": {"error": "HTTP 500"}}`, "", nil, nil, "r.jsonl: the run failed (HTTP 500)"},
		{"a bad case", "c.jsonl", `{"id": "a", "tools_called": [{"args": {}}]}`, "", nil, nil, "c.jsonl: field tools_called[0].name: missing"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			id := strings.TrimSuffix(tt.file, filepath.Ext(tt.file))
			runs, err := snapshot.Read(tt.file, id, []byte(tt.data), tt.format)
			if !wantError(t, err, tt.err) {
				return
			}
			var ids []string
			var calls []int
			for _, r := range runs {
				ids, calls = append(ids, r.ID), append(calls, len(r.Calls))
				if r.Source != tt.file {
					t.Errorf("source %q", r.Source)
				}
			}
			if diff := cmp.Diff(tt.ids, ids); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.calls, calls); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
		})
	}
}

// An unrecognized trace stays the trace package's error, for errors.Is.
func TestReadUnknown(t *testing.T) {
	_, err := snapshot.Read("t.json", "t", []byte(`{"hello": 1}`), "")
	if !errors.Is(err, trace.ErrUnknownFormat) {
		t.Errorf("got %v", err)
	}
}

// A trace's bytes are read as every input's: UTF-16 with a byte-order
// mark is text, compressed data is named.
func TestReadEncodings(t *testing.T) {
	utf16 := []byte{0xff, 0xfe}
	for _, r := range `[{"role": "user", "content": "hi"}, {"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}]` {
		utf16 = append(utf16, byte(r), 0)
	}
	runs, err := snapshot.Read("t.json", "t", utf16, "")
	if err != nil || len(runs) != 1 || len(runs[0].Calls) != 1 {
		t.Errorf("UTF-16: %v", err)
	}
	_, err = snapshot.Read("t.json.gz", "t", []byte("\x1f\x8b\x08\x00rest"), "")
	wantError(t, err, "t.json.gz: gzip-compressed data, not UTF-8 text: decompress it first")
}

// A trace holding a call its reader did not read is an error, whole file
// or record, never a snapshot of the calls that were read: the case would
// expect too little.
func TestReadMissed(t *testing.T) {
	const short = `{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "tool_calls": [{"id": "c0", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}],` +
		` "debug": {"choices": [{"message": {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]}}]}}`
	for _, tt := range []struct{ name, file, data, where string }{
		{"a trace", "t.json", short, "t.json: openai_chat: 1 call-shaped object not read: debug.choices[0].message.tool_calls[0]"},
		{"a record of traces", "t.jsonl", tau + "\n" + short + "\n", "t.jsonl:2: openai_chat: 1 call-shaped object not read"},
		{"a case's trajectory", "run.jsonl", `{"id": "a", "input": "hi", "trajectory": ` + short + `}` + "\n", "run.jsonl: field trajectory: openai_chat: 1 call-shaped object not read"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			runs, err := snapshot.Read(tt.file, "t", []byte(tt.data), "")
			if !errors.Is(err, trace.ErrMissed) || !strings.Contains(err.Error(), tt.where) || !strings.Contains(err.Error(), "neither snapshot nor checked") {
				t.Errorf("runs %d, error %v; want trace.ErrMissed at %s", len(runs), err, tt.where)
			}
		})
	}
}

// The records of a trace file that holds several are placed by their
// line in JSON Lines, else by their path.
func TestReadRecordPlaces(t *testing.T) {
	bfcl := `{"id": "simple_0", "result": [{"f": "{}"}]}` + "\n\n" + `{"result": [{"g": "{}"}]}` + "\n"
	inspect := `{"eval": {}, "samples": [{"id": 1, "messages": [{"role": "user", "content": "a"}]}, {"messages": [{"role": "user", "content": "b"}]}]}`
	for _, tt := range []struct {
		name, file, data string
		want             []string // each run's id and place
	}{
		{"JSON Lines", "r.jsonl", bfcl, []string{"simple_0 r.jsonl:1", "r-2 r.jsonl:3"}},
		{"a JSON document", "log.json", inspect, []string{"1 log.json samples[0]", "log-2 log.json samples[1]"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			id := strings.TrimSuffix(tt.file, filepath.Ext(tt.file))
			runs, err := snapshot.Read(tt.file, id, []byte(tt.data), "")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range runs {
				got = append(got, r.ID+" "+r.Where())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("runs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadFirstInput(t *testing.T) {
	runs := read(t, "t.json", chat1)
	if runs[0].Input != "one" || len(runs[0].Inputs) != 1 || runs[0].Format != "openai_chat" {
		t.Errorf("got %+v", runs[0])
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("traces/b.json", chat2)
	write("traces/a.json", chat1)
	write("traces/retail/a.json", chat1)
	write("traces/.hidden.json", "not a trace")
	write("traces/.git/x", "not a trace")
	one := write("one.json", chat1)
	write("dup/a.json", chat1)
	os.MkdirAll(filepath.Join(dir, "empty"), 0o755)

	runs, err := snapshot.Files([]string{filepath.Join(dir, "traces"), "-"}, "", strings.NewReader(chat2))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range runs {
		ids = append(ids, r.ID)
	}
	if diff := cmp.Diff([]string{"a", "b", "retail/a", "stdin"}, ids); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}

	for _, tt := range []struct {
		name  string
		paths []string
		err   string
	}{
		{"one id twice", []string{one, filepath.Join(dir, "dup")}, `two runs have the id "one"`},
		{"a folder with no files", []string{filepath.Join(dir, "empty")}, "a folder with no trace files in it"},
		{"a file that is not there", []string{filepath.Join(dir, "nope.json")}, "no such file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "one id twice" {
				write("dup/one.json", chat2)
			}
			_, err := snapshot.Files(tt.paths, "", nil)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("error %v, want %q", err, tt.err)
			}
		})
	}
}

// wantError fails the test unless err holds want ("" for no error), and
// reports whether the test goes on: there was no error.
func wantError(t *testing.T, err error, want string) bool {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Fatal(err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Fatalf("error %v, want %q", err, want)
	}
	return err == nil
}
