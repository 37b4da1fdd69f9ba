package dataset_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
	"github.com/toolgrade/toolgrade/trace"
	"golang.org/x/text/encoding/unicode"
)

// outcome is what one record decoded to: its id, line and error text.
type outcome struct {
	ID   string
	Line int
	Err  string
}

func readAll(t *testing.T, name, input string, format dataset.Format) ([]outcome, error) {
	t.Helper()
	var out []outcome
	for rec, err := range dataset.Reader(name, strings.NewReader(input), format) {
		if err != nil {
			return out, err
		}
		c, err := rec.Decode()
		o := outcome{ID: c.ID, Line: c.Line}
		if err != nil {
			o.Err = err.Error()
			o.Line = 0
		}
		out = append(out, o)
	}
	return out, nil
}

func TestReader(t *testing.T) {
	tests := []struct {
		name, file, input string
		format            dataset.Format
		want              []outcome
	}{
		{"jsonl", "c.jsonl", "{\"id\":\"a\"}\n\n{\"id\":\"b\"}\r\n{}\n", dataset.Auto,
			[]outcome{{"a", 1, ""}, {"b", 3, ""}, {"line-4", 4, ""}}},
		{"jsonl with broken lines goes on", "c.jsonl", "{\"id\":\"a\"}\n{\"id\": \"b\", \"tools_called\": [\n{\"id\":\"c\"}\n[1]\n", dataset.Auto,
			[]outcome{{"a", 1, ""}, {"line-2", 0, "c.jsonl:2:30: invalid JSON: unexpected end of input, want a value"}, {"c", 3, ""}, {"line-4", 0, "c.jsonl:4: want a case object, got an array"}}},
		{"bad field names the field", "c.jsonl", `{"id":"x","expected_tools":[{"name":"f","args":{}},{"name":3}]}`, dataset.Auto,
			[]outcome{{"x", 0, "c.jsonl:1: field expected_tools[1].name: want a string, got integer"}}},
		{"json array", "c.json", "[\n  {\"id\": \"a\"},\n  {\"id\": \"b\",\n   \"input\": \"x\"}\n]\n", dataset.Auto,
			[]outcome{{"a", 2, ""}, {"b", 3, ""}}},
		{"json array with a bad element", "c.json", "[{\"id\":\"a\"}, {\"id\": tru}, {\"id\":\"c\"}]", dataset.Auto,
			[]outcome{{"a", 1, ""}, {"line-1#2", 0, "c.json:1:11: invalid JSON: unexpected '}', want \"true\""}, {"c", 1, ""}}},
		{"json array on one line without ids", "c.json", "[{}, {\"input\":\"x\"},\n {}]", dataset.Auto,
			[]outcome{{"line-1", 1, ""}, {"line-1#2", 1, ""}, {"line-2", 2, ""}}},
		{"values on one line without ids", "c.json", "{} {}", dataset.Auto,
			[]outcome{{"line-1", 1, ""}, {"line-1#2", 1, ""}}},
		{"empty array", "c.json", " [ ] ", dataset.Auto, nil},
		{"empty file", "c.jsonl", "", dataset.Auto, nil},
		{"pretty objects one after another", "c.json", "{\n  \"id\": \"a\"\n}\n{\n  \"id\": \"b\"\n}\n", dataset.Auto,
			[]outcome{{"a", 1, ""}, {"b", 4, ""}}},
		{"byte order mark", "c.jsonl", "\ufeff{\"id\":\"a\"}\n", dataset.Auto, []outcome{{"a", 1, ""}}},
		{"yaml list", "c.yaml", "# cases\n- id: a\n  input: hi\n- id: b\n  tools_called:\n    - name: f\n      args: {x: 1}\n", dataset.Auto,
			[]outcome{{"a", 2, ""}, {"b", 4, ""}}},
		{"yaml documents", "c.yml", "id: a\n---\nid: b\nexpected_tools: []\n...\n---\nid: c\n", dataset.Auto,
			[]outcome{{"a", 1, ""}, {"b", 3, ""}, {"c", 7, ""}}},
		{"yaml bad item goes on", "c.yaml", "- id: a\n- id: [b\n- id: c\n", dataset.Auto,
			[]outcome{{"a", 1, ""}, {"line-2", 0, "c.yaml:2: invalid YAML: did not find expected ',' or ']'"}, {"c", 3, ""}}},
		{"sniffed from content", "-", "- id: a\n", dataset.Auto, []outcome{{"a", 1, ""}}},
		{"sniffed jsonl", "-", "{\"id\":\"a\"}\n{\"id\":\"b\"}\n", dataset.Auto, []outcome{{"a", 1, ""}, {"b", 2, ""}}},
		{"numeric id", "c.jsonl", `{"id": 7}`, dataset.Auto, []outcome{{"7", 1, ""}}},
		// What two readers would read differently is an error on its line,
		// and the next record goes on.
		{"jsonl repeated key", "c.jsonl", "{\"id\":\"a\"}\n{\"id\":\"b\",\"expected_tools\":[{\"name\":\"f\",\"args\":{\"x\":1,\"x\":2}}]}\n{\"id\":\"c\"}\n", dataset.Auto,
			[]outcome{{"a", 1, ""}, {"line-2", 0, `c.jsonl:2:55: invalid JSON: duplicate key "x" in object`}, {"c", 3, ""}}},
		{"jsonl not UTF-8", "c.jsonl", "{\"id\":\"DE\x91\x92\"}\n{\"id\":\"DE\x81\x82\"}\n", dataset.Auto,
			[]outcome{
				{"line-1", 0, "c.jsonl:1:10: invalid JSON: invalid UTF-8 (byte 0x91) in string: JSON text must be UTF-8; is the file in another encoding, such as Windows-1252 or Latin-1?"},
				{"line-2", 0, "c.jsonl:2:10: invalid JSON: invalid UTF-8 (byte 0x81) in string: JSON text must be UTF-8; is the file in another encoding, such as Windows-1252 or Latin-1?"},
			}},
		{"lone surrogates are ids of their own", "c.jsonl", "{\"id\":\"\\ud800\"}\n{\"id\":\"\\udbff\"}\n", dataset.Auto,
			[]outcome{{"\xed\xa0\x80", 1, ""}, {"\xed\xaf\xbf", 2, ""}}},
		{"yaml repeated key", "c.yaml", "- id: a\n  input: x\n  input: y\n- id: b\n", dataset.Auto,
			[]outcome{{"line-1", 0, `c.yaml:3: duplicate key "input" in mapping: give each key once`}, {"b", 4, ""}}},
		{"yaml octal", "c.yaml", "- id: a\n  expected_tools: [{name: f, args: {zip: 010}}]\n- id: b\n", dataset.Auto,
			[]outcome{{"line-1", 0, "c.yaml:2: 010 is 8 in YAML 1.1 and 10 in YAML 1.2: write the number plainly (decimal, 0o for octal, 0x for hexadecimal), or quote it for a string"}, {"b", 3, ""}}},
		{"yaml unknown tag", "c.yaml", "id: a\ninput: !secret x\n---\nid: b\n", dataset.Auto,
			[]outcome{{"line-1", 0, "c.yaml:2: unknown tag !secret: a value is a string, number, boolean, null, list or mapping; remove the tag, or quote the value for a string"}, {"b", 4, ""}}},
		{"utf-16 with a byte-order mark", "c.jsonl", utf16LE("{\"id\":\"a\"}\n{\"id\":\"é😀\"}\n"), dataset.Auto,
			[]outcome{{"a", 1, ""}, {"é😀", 2, ""}}},
		{"utf-16 big-endian yaml", "c.yaml", utf16BE("- id: a\n- id: b\n"), dataset.Auto,
			[]outcome{{"a", 1, ""}, {"b", 2, ""}}},
		{"a results line further down is the line's error", "c.jsonl", "{\"id\":\"a\"}\n" + `{"id":"b","success":true,"metrics":[]}`, dataset.Auto,
			[]outcome{{"a", 1, ""}, {"b", 2, ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readAll(t, tt.file, tt.input, tt.format)
			if err != nil {
				t.Fatalf("fatal error: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReaderFatalErrors(t *testing.T) {
	tests := []struct {
		name, file, input, want string
	}{
		{"unclosed array", "c.json", "[{\"id\":\"a\"},\n{\"id\":\"b\"", "c.json:2: the value starting here is not closed"},
		{"garbage between elements", "c.json", "[{\"id\":\"a\"} x]", "want ',' or ']'"},
		{"not json", "c.json", "hello", `c.json:1: not a JSON case file: it starts with "hello"`},
		{"a number for a json file", "c.json", "42\n", `c.json:1: not a JSON case file: it starts with "42"`},
		{"gzip", "c.jsonl", "\x1f\x8b\x08\x00rest", "c.jsonl: gzip-compressed data, not UTF-8 text: decompress it first"},
		{"zip", "c.json", "PK\x03\x04rest", "c.json: a zip archive, not UTF-8 text"},
		{"parquet", "c", "PAR1\x15\x04", "c: a Parquet file, not UTF-8 text: convert it to JSON Lines first"},
		{"utf-16 without a byte-order mark", "c.jsonl", utf16LE("{}")[2:], "c.jsonl: UTF-16 (little-endian) text without a byte-order mark"},
		{"utf-16 big-endian without one", "c.jsonl", utf16BE("{}")[2:], "c.jsonl: UTF-16 (big-endian) text without a byte-order mark"},
		{"utf-32", "c.jsonl", "\xff\xfe\x00\x00{\x00\x00\x00", "c.jsonl: UTF-32 text, not UTF-8 text"},
		{"utf-16 with an unpaired surrogate", "c.jsonl", utf16LE("{}\n{}") + "\x00\xd8", "c.jsonl:2: invalid UTF-16: an unpaired surrogate (\\ud800)"},
		{"utf-16 with half a character", "c.jsonl", utf16LE("{}\n") + "{", "c.jsonl:2: invalid UTF-16: the text ends in half a character"},
		{"binary", "c.jsonl", "\x00\x00\x00\x00", "c.jsonl: binary data (it starts with a NUL byte)"},
		{"a results file", "r.jsonl", `{"id":"a","success":true,"metrics":[{"name":"tool_correctness","score":1}]}`,
			"r.jsonl:1: a toolgrade results file, not cases (the line is a result: id, success, metrics); to compare two runs' results, use toolgrade compare BASE NEW"},
		{"a config", "toolgrade.yaml", "metrics:\n  - profile: deepeval\njudge:\n  model: m\n",
			"toolgrade.yaml: a toolgrade config, not cases (keys metrics, judge): give it with --config toolgrade.yaml"},
		{"a json config", "-", `{"datasets": ["cases.jsonl"]}`, "-: a toolgrade config, not cases (keys datasets)"},
		{"csv", "cases.csv", "id,input,expected_tools\n1,hi,[]\n", `cases.csv: a CSV file (its first line is "id,input,expected_tools"), not cases: toolgrade reads cases as JSON Lines, JSON or YAML`},
		{"csv by its content", "-", "id,input\n1,hi\n", `-: a CSV file (its first line is "id,input")`},
		{"tsv", "cases.tsv", "id\tinput\n", `cases.tsv: a tab-separated file`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readAll(t, tt.file, tt.input, dataset.Auto)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

// utf16LE and utf16BE encode s as UTF-16 with a byte-order mark.
func utf16LE(s string) string { return utf16Text(s, unicode.LittleEndian) }
func utf16BE(s string) string { return utf16Text(s, unicode.BigEndian) }

func utf16Text(s string, order unicode.Endianness) string {
	out, err := unicode.UTF16(order, unicode.UseBOM).NewEncoder().String(s)
	if err != nil {
		panic(err)
	}
	return out
}

func TestSniff(t *testing.T) {
	// A case file that is one passes, whatever its first case holds;
	// other files fail as Reader fails on them.
	for _, tt := range []struct{ name, input, want string }{
		{"c.jsonl", "{\"id\":\"a\"}\n", ""},
		{"c.jsonl", "{\"id\": tru}\n", ""},
		{"c.jsonl", "", ""},
		{"c.jsonl", `{"id":"a","success":true,"metrics":[]}`, "a toolgrade results file"},
		{"c.yaml", "metrics: []\n", "a toolgrade config"},
		{"c.jsonl", "\x1f\x8b", "gzip-compressed data"},
	} {
		err := dataset.Sniff(tt.name, strings.NewReader(tt.input))
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("Sniff(%q) = %v, want %q", tt.input, err, tt.want)
		}
	}
}

func TestFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, err := range dataset.Files(dir) {
		if err == nil || err.Error() != dir+" is a directory: give a file in it" {
			t.Errorf("a directory: error = %v", err)
		}
	}
	for _, err := range dataset.Files(filepath.Join(t.TempDir(), "missing.jsonl")) {
		if !errors.Is(err, os.ErrNotExist) {
			t.Errorf("error = %v, want not-exist", err)
		}
	}
}

func TestLongLine(t *testing.T) {
	// Lines far beyond the reader's buffer are read whole.
	big := strings.Repeat("x", 1<<20)
	input := `{"id":"a","input":"` + big + "\"}\n{\"id\":\"b\"}\n"
	var ids []string
	for rec, err := range dataset.Reader("c.jsonl", strings.NewReader(input), dataset.Auto) {
		if err != nil {
			t.Fatal(err)
		}
		c, err := rec.Decode()
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID)
		if c.ID == "a" && c.Input != big {
			t.Errorf("long input was cut to %d bytes", len(c.Input.(string)))
		}
	}
	if strings.Join(ids, ",") != "a,b" {
		t.Errorf("ids = %v", ids)
	}
}

func TestDecodeCaseAliases(t *testing.T) {
	in := `{"query": "weather?", "generated_response": "sunny", "expected_response": "sunny",
		"tools_called": [{"name": "w", "input_parameters": {"c": "P"}}],
		"expected_tools": [{"name": "w", "inputParameters": "{\"c\": \"P\"}"}],
		"available_tools": [{"name": "w"}], "extra": 1}`
	v, _ := jsonvalue.ParseString(in)
	c, err := dataset.DecodeCase(v)
	if err != nil {
		t.Fatal(err)
	}
	if c.Input != "weather?" || c.ActualOutput != "sunny" || c.ExpectedOutput != "sunny" || schema.Definitions(c) == nil {
		t.Errorf("aliases not read: %+v", c)
	}
	if !jsonvalue.Equal(c.Called[0].Args, c.Expected[0].Args) {
		t.Errorf("args differ: %v vs %v", c.Called[0].Args, c.Expected[0].Args)
	}
	if !c.Raw.Has("extra") {
		t.Errorf("Raw does not keep other fields")
	}
}

func TestDecodeCaseTrial(t *testing.T) {
	tests := []struct {
		in   string
		want int
		err  string
	}{
		{`{"id": "a"}`, 0, ""},
		{`{"id": "a", "trial": null}`, 0, ""},
		{`{"id": "a", "trial": 3}`, 3, ""},
		{`{"id": "a", "trial": 2.0}`, 2, ""},
		{`{"id": "a", "trial": 0}`, 0, "field trial: want the trial's index, a whole number from 1, got 0"},
		{`{"id": "a", "trial": 1.5}`, 0, "field trial: want the trial's index, a whole number from 1, got 1.5"},
		{`{"id": "a", "trial": "2"}`, 0, `field trial: want the trial's index, a whole number from 1, got "2"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			v, _ := jsonvalue.ParseString(tt.in)
			c, err := dataset.DecodeCase(v)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error = %v, want %s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Trial != tt.want {
				t.Errorf("Trial = %d, want %d", c.Trial, tt.want)
			}
		})
	}
}

func TestDecodeCaseTrajectory(t *testing.T) {
	in := `{"agent_trajectory": [
		{"role": "user", "content": "Weather in Paris?"},
		{"role": "assistant", "content": "", "tool_calls": [{"id": "call_1", "type": "function",
			"function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]},
		{"role": "tool", "tool_call_id": "call_1", "content": "sunny"}],
		"expected_tools": [{"name": "get_weather", "args": {"city": "Paris"}, "output": "sunny"}]}`
	v, _ := jsonvalue.ParseString(in)
	c, err := dataset.DecodeCase(v)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Called) != 1 || c.Called[0].Name != "get_weather" || c.Called[0].Output != "sunny" || c.Called[0].ID != "call_1" {
		t.Errorf("calls from trajectory = %+v", c.Called)
	}
	if !jsonvalue.Equal(c.Called[0].Args, c.Expected[0].Args) {
		t.Errorf("args = %v", c.Called[0].Args)
	}
}

// TestDecodeCaseTrajectoryWithMissedCall: a trajectory holding a call its
// reader did not read is the case's error, naming where the call is; its
// calls are not graded as if they were all.
func TestDecodeCaseTrajectoryWithMissedCall(t *testing.T) {
	in := `{"trajectory": {"messages": [{"role": "user", "content": "hi"}],
		"debug": {"choices": [{"message": {"role": "assistant", "tool_calls": [{"id": "c", "type": "function",
			"function": {"name": "get_weather", "arguments": "{}"}}]}}]}},
		"expected_tools": [{"name": "get_weather"}]}`
	v, _ := jsonvalue.ParseString(in)
	_, err := dataset.DecodeCase(v)
	if !errors.Is(err, trace.ErrMissed) || !strings.Contains(err.Error(), `trajectory: openai_chat: 1 call-shaped object not read: debug.choices[0].message.tool_calls[0] (tool_calls entry "get_weather")`) {
		t.Errorf("error %v, want the missed call named", err)
	}
}

// TestDecodeCaseTrajectoryOfRecords: a trajectory that is a file of
// several records (a BFCL result file as JSON Lines text, or as a list)
// gives the case the calls and turns of the record with its id; with no
// record of its id, the case is an error naming the ids.
func TestDecodeCaseTrajectoryOfRecords(t *testing.T) {
	const file = `{"id": "multi_turn_0", "result": [[[{"f": "{}"}]], [[{"g": "{}"}]]]}` + "\n" + `{"id": "multi_turn_1", "result": [[[{"h": "{\"x\": 1}"}]]]}`
	text := jsonvalue.AppendString(nil, file)
	for _, tt := range []struct {
		name, id, trajectory string
		calls                []string
		turns                []int
		err                  string
	}{
		{"JSON Lines text", "multi_turn_0", string(text), []string{"f", "g"}, []int{1, 2}, ""},
		{"a list of records", "multi_turn_1", "[" + strings.ReplaceAll(file, "\n", ",") + "]", []string{"h"}, []int{1}, ""},
		{"one record", "other", `[{"id": "multi_turn_1", "result": [{"h": "{}"}]}]`, []string{"h"}, []int{0}, ""},
		{"no record with the id", "multi_turn_2", string(text), nil, nil,
			"trajectory: a bfcl_result file of 2 records (ids `multi_turn_0`, `multi_turn_1`), and none has the case's id \"multi_turn_2\""},
		{"no id", "", string(text), nil, nil, "and the case has no id to find its record by"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := `{"trajectory": ` + tt.trajectory + `, "expected_tools": []}`
			if tt.id != "" {
				in = `{"id": "` + tt.id + `", ` + in[1:]
			}
			v, err := jsonvalue.ParseString(in)
			if err != nil {
				t.Fatal(err)
			}
			c, err := dataset.DecodeCase(v)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			var turns []int
			for _, call := range c.Called {
				names, turns = append(names, call.Name), append(turns, call.Turn)
			}
			if !cmp.Equal(names, tt.calls) || !cmp.Equal(turns, tt.turns) {
				t.Errorf("calls %v in turns %v, want %v in %v", names, turns, tt.calls, tt.turns)
			}
		})
	}
}

// FuzzReader: no input makes the reader or the decoder panic, and every
// record decodes to a case with an ID, or an error naming the input.
// TestLinesAcrossBlocks reads JSON Lines that straddle the reader's
// blocks, from readers that hand over data in odd pieces, and decodes every
// record only after the whole input was read: records share the blocks, so
// a block written again would show here as wrong text.
func TestLinesAcrossBlocks(t *testing.T) {
	var input strings.Builder
	var want []outcome
	var inputs []string
	for i := range 1500 {
		text := strings.Repeat(string(rune('a'+i%26)), (i*7919)%1500)
		if i%500 == 499 {
			text = strings.Repeat("y", 300<<10) // longer than a block
		}
		eol := "\n"
		if i%3 == 0 {
			eol = "\r\n"
		}
		fmt.Fprintf(&input, `{"id":"c%d","input":"%s"}%s`, i, text, eol)
		want = append(want, outcome{ID: fmt.Sprint("c", i), Line: i + 1})
		inputs = append(inputs, text)
	}
	in := strings.TrimSuffix(input.String(), "\n") // the last line has no newline
	readers := []struct {
		name string
		r    func() io.Reader
	}{
		{"whole", func() io.Reader { return strings.NewReader(in) }},
		{"one byte at a time", func() io.Reader { return iotest.OneByteReader(strings.NewReader(in)) }},
		{"halves", func() io.Reader { return iotest.HalfReader(strings.NewReader(in)) }},
		{"error with the data", func() io.Reader { return iotest.DataErrReader(strings.NewReader(in)) }},
	}
	for _, rd := range readers {
		t.Run(rd.name, func(t *testing.T) {
			var recs []toolgrade.Record
			for rec, err := range dataset.Reader("c.jsonl", rd.r(), dataset.Auto) {
				if err != nil {
					t.Fatal(err)
				}
				recs = append(recs, rec)
			}
			var got []outcome
			for i, rec := range recs {
				c, err := rec.Decode()
				if err != nil {
					t.Fatalf("record %d: %v", i, err)
				}
				got = append(got, outcome{ID: c.ID, Line: c.Line})
				if i < len(inputs) && c.Input != inputs[i] {
					t.Fatalf("record %d: input changed after reading on", i)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReadErrorEndsTheRun checks that a read error after some lines is a
// fatal error naming the file and line, after the lines before it.
func TestReadErrorEndsTheRun(t *testing.T) {
	r := io.MultiReader(strings.NewReader("{\"id\":\"a\"}\n{\"id\":\"b\"}\n{\"id\""), iotest.ErrReader(errors.New("disk on fire")))
	var ids []string
	var fatal error
	for rec, err := range dataset.Reader("c.jsonl", r, dataset.Auto) {
		if err != nil {
			fatal = err
			break
		}
		c, _ := rec.Decode()
		ids = append(ids, c.ID)
	}
	if strings.Join(ids, ",") != "a,b" || fatal == nil || fatal.Error() != "c.jsonl:3: disk on fire" {
		t.Errorf("ids %v, error %v; want a,b and c.jsonl:3: disk on fire", ids, fatal)
	}
}

// TestYAMLValue: YAML reads as YAML 1.2's core schema and JSON read it,
// numbers keep their exact value, and what YAML 1.1 and 1.2 read
// differently, a key given twice and a tag of no JSON kind are errors
// naming their line.
func TestYAMLValue(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"a: 0o10", `{"a":8}`, ""},
		{"a: 0x1f", `{"a":31}`, ""},
		{"a: +12", `{"a":12}`, ""},
		{"a: -0", `{"a":-0}`, ""},
		{"a: .5", `{"a":0.5}`, ""},
		{"a: -.5e-3", `{"a":-0.5e-3}`, ""},
		{"a: 1.", `{"a":1.0}`, ""},
		{"a: 00.5", `{"a":0.5}`, ""},
		{"a: 0.10000000000000001", `{"a":0.10000000000000001}`, ""},
		{"a: 1e400", `{"a":1e400}`, ""},
		{"a: 12345678901234567890123", `{"a":12345678901234567890123}`, ""},
		{"a: !!float 1", `{"a":1.0}`, ""},
		{"a: !!int '12'", `{"a":12}`, ""},
		{"a: !!str 010", `{"a":"010"}`, ""},
		{"a: '010'", `{"a":"010"}`, ""},
		{"a: 2001-12-14", `{"a":"2001-12-14"}`, ""},
		{"a: yes", `{"a":"yes"}`, ""},
		{"a: &x {b: 1}\nc:\n  <<: *x\n  b: 2", `{"a":{"b":1},"c":{"b":2}}`, ""},
		{"a: &x {b: 1}\nc:\n  <<: [*x, {d: 3}]", `{"a":{"b":1},"c":{"b":1,"d":3}}`, ""},
		{"a: 010", "", "line 1: 010 is 8 in YAML 1.1 and 10 in YAML 1.2"},
		{"a: [1, -017]", "", "line 1: -017 is -15 in YAML 1.1 and -17 in YAML 1.2"},
		{"a: 08", "", `line 1: 08 is the string "08" in YAML 1.1 and 8 in YAML 1.2`},
		{"a: 0b101", "", `line 1: 0b101 is 5 in YAML 1.1 and the string "0b101" in YAML 1.2`},
		{"a: 1_000", "", `line 1: 1_000 is 1000 in YAML 1.1 and the string "1_000" in YAML 1.2`},
		{"a: -0x1A", "", `line 1: -0x1A is -26 in YAML 1.1 and the string "-0x1A" in YAML 1.2`},
		{"a: .inf", "", "line 1: .inf has no JSON form"},
		{"a: 1\nb: 2\na: 3", "", `line 3: duplicate key "a" in mapping`},
		{"{a: 1, a: 1}", "", `line 1: duplicate key "a" in mapping`},
		{"x:\n  - {'1': a, 1: b}", "", `line 2: duplicate key "1" in mapping`},
		{"a: !foo bar", "", "line 1: unknown tag !foo"},
		{"a: !!binary aGVsbG8=", "", "line 1: unknown tag !!binary"},
		{"a: !!timestamp 2001-12-14", "", "line 1: unknown tag !!timestamp"},
		{"a: !!set {b, c}", "", "line 1: unknown tag !!set"},
		{"a: !!omap [b: 1]", "", "line 1: unknown tag !!omap"},
		{"a: !<tag:example.com,2000:x> 1", "", "line 1: unknown tag tag:example.com,2000:x"},
		{"a: !!int 1.5", "", `line 1: cannot read integer "1.5"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			v, err := dataset.YAMLValue([]byte(tt.in))
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
					t.Fatalf("YAMLValue(%q) = %s, %v; want an error %q", tt.in, jsonvalue.Append(nil, v), err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := string(jsonvalue.Append(nil, v)); got != tt.want {
				t.Errorf("YAMLValue(%q) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzYAMLValue: any YAML reads into a value whose JSON form parses back
// as the same value (numbers are JSON numbers, no key repeats), of at
// most the values it writes (no more than its bytes) plus the aliases'
// budget, or is an error; never a panic.
func FuzzYAMLValue(f *testing.F) {
	for _, s := range []string{"a: 010", "a: [0o7, 0x1F, .5, 1., +1e3, 1e400, 08, 0b1, 1_0]", "a: 1\na: 2", "<<: {a: 1}\na: 2", "a: !x 1", "- !!str 1\n- !!float 2\n- ~", "a: &x [1]\nb: *x",
		bomb(3), "a: &a [1, *a]", "a: &a {x: 1}\nb: {<<: *a, y: 2}\nc: [*a, *a]", "- &x 1\n- *x\n- *y"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := dataset.YAMLValue(data)
		if err != nil {
			return
		}
		if n := countValues(v); n > len(data)+1+dataset.MaxAliased {
			t.Fatalf("%d bytes of YAML read as %d values", len(data), n)
		}
		text := jsonvalue.Append(nil, v)
		back, err := jsonvalue.Parse(text)
		if err != nil {
			t.Fatalf("YAML %q reads as %s, which is not JSON: %v", data, text, err)
		}
		if !jsonvalue.Equal(v, back) {
			t.Fatalf("YAML %q reads as %s, which reads back otherwise", data, text)
		}
	})
}

func FuzzReader(f *testing.F) {
	for _, s := range []string{
		"{\"id\":\"a\",\"tools_called\":[{\"name\":\"f\",\"args\":{}}]}\n{bad\n",
		"[{\"id\":1},{\"x\":[1,{\"y\":\"]\"}]}]",
		"- id: a\n  expected_tools: [{name: f}]\n- [\n",
		"{\n\"id\": \"a\"\n}\n{",
		"---\nid: a\n---\n- x\n",
		utf16LE("{\"id\":\"a\"}\n{\"id\":\"b\"}\n"),
		utf16BE("- id: a\n"),
		`{"id":"a","success":true,"metrics":[]}`,
		"metrics:\n  - profile: default\n",
		"id,input\n1,hi\n",
		"\x1f\x8b\x08",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range []string{"f.jsonl", "f.json", "f.yaml", "-"} {
			// Sniff stops where the first record is, with the error
			// reading would stop on there.
			sniffed := dataset.Sniff(name, bytes.NewReader(data))
			first := true
			for rec, err := range dataset.Reader(name, bytes.NewReader(data), dataset.Auto) {
				if first && (err == nil) != (sniffed == nil) || first && err != nil && err.Error() != sniffed.Error() {
					t.Fatalf("Sniff: %v; reading: %v", sniffed, err)
				}
				first = false
				if err != nil {
					if !strings.Contains(err.Error(), name) {
						t.Fatalf("fatal error does not name the input: %v", err)
					}
					break
				}
				c, err := rec.Decode()
				if c == nil || c.ID == "" {
					t.Fatalf("record decoded to no case id (err %v)", err)
				}
				if err != nil && !strings.HasPrefix(err.Error(), name+":") {
					t.Fatalf("record error does not name the input: %v", err)
				}
			}
		}
	})
}

// TestGeneratedIDsAcrossFiles: a case without an id is "line-N" when one
// file is read, and "FILE:line-N" when several are, so that the first
// lines of two files are two cases, not two trials of one; in every
// format. The eval cases of an ADK file are named by their file's record
// without its name, as they always were.
func TestGeneratedIDsAcrossFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	for _, f := range []string{a, b} {
		if err := os.WriteFile(f, []byte("{\"tools_called\": []}\n{\"id\": \"own\", \"tools_called\": []}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	others := map[string]string{
		"c.json":   `[{"tools_called": []}, {"tools_called": []}]`,
		"d.yaml":   "- tools_called: []\n- id: own\n  tools_called: []\n",
		"e.json":   `{"eval_set_id": "s", "eval_cases": [{"conversation": []}]}`,
		"f.json":   `"[{\"tools_called\": []}]"`,
		"g.jsonl":  `{"tools_called": []} {"tools_called": []}` + "\n",
		"h.pretty": "{\n  \"tools_called\": []\n}\n",
	}
	path := map[string]string{}
	for name, text := range others {
		path[name] = filepath.Join(dir, name)
		if err := os.WriteFile(path[name], []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name  string
		files []string
		want  []string
	}{
		{"one file", []string{a}, []string{"line-1", "own"}},
		{"two files", []string{a, b}, []string{a + ":line-1", "own", b + ":line-1", "own"}},
		{"stdin and a file", []string{"-", b}, []string{"-:line-1", "own", b + ":line-1", "own"}},
		{"one of each", []string{path["c.json"], path["d.yaml"], path["e.json"], path["f.json"], path["g.jsonl"], path["h.pretty"]},
			[]string{path["c.json"] + ":line-1", path["c.json"] + ":line-1#2", path["d.yaml"] + ":line-1", "own",
				"line-1:eval_cases[0]", path["f.json"] + ":line-1", path["g.jsonl"] + ":line-1", path["h.pretty"] + ":line-1"}},
		{"one ADK file", []string{path["e.json"]}, []string{"line-1:eval_cases[0]"}},
		{"one quoted file", []string{path["f.json"]}, []string{"line-1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ids []string
			stdin := strings.NewReader("{\"tools_called\": []}\n{\"id\": \"own\", \"tools_called\": []}\n")
			for rec, err := range dataset.FilesFrom(stdin, tt.files...) {
				if err != nil {
					t.Fatal(err)
				}
				c, _ := rec.Decode()
				ids = append(ids, c.ID)
			}
			if !slices.Equal(ids, tt.want) {
				t.Errorf("ids = %q, want %q", ids, tt.want)
			}
		})
	}
}
