package trace_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/trace"
)

// TestTruncatedSamples: a JSON or JSON Lines sample cut short within a
// line fails, or reports what it skipped or missed; it never reads as a
// shorter trace silently. (A file cut between lines, or an event stream
// cut between events, is a shorter trace of its own and cannot be told.)
func TestTruncatedSamples(t *testing.T) {
	for _, s := range allSamples(t) {
		data := bytes.TrimSpace(s.data)
		if len(data) < 2 || data[0] != '{' && data[0] != '[' {
			continue
		}
		whole, err := trace.Read(data, "")
		if err != nil {
			continue
		}
		for _, frac := range []int{30, 60, 90, 99} {
			n := len(data) * frac / 100
			for n > 1 && (data[n] == '\n' || isSpace(data[n-1])) {
				n-- // within a line, after something of it
			}
			tr, err := trace.Read(data[:n], "")
			if err == nil && len(tr.Skipped)+len(tr.Missed) == 0 && callList(tr) != callList(whole) {
				t.Errorf("%s cut at byte %d of %d: read as %s with %d of its %d calls, nothing reported",
					s.path, n, len(data), tr.Format, len(tr.Calls), len(whole.Calls))
			}
		}
	}
}

// TestConcatenatedSamples: two samples of different formats in one file
// fail, or report what was skipped or missed, or read both's calls; the
// calls of one are never dropped silently.
func TestConcatenatedSamples(t *testing.T) {
	var picked []sample
	var own []trace.Trace
	for _, s := range allSamples(t) {
		if len(s.data) > 64<<10 || slices.ContainsFunc(picked, func(p sample) bool { return p.format == s.format }) {
			continue
		}
		tr, err := trace.Read(s.data, "")
		if err != nil || len(tr.Calls) == 0 {
			continue
		}
		picked, own = append(picked, s), append(own, tr)
	}
	for i, a := range picked {
		for j, b := range picked {
			if i == j {
				continue
			}
			data := append(append(bytes.TrimRight(slices.Clip(a.data), "\n"), '\n'), b.data...)
			tr, err := trace.Read(data, "")
			if err != nil || len(tr.Skipped)+len(tr.Missed) > 0 {
				continue
			}
			both := trace.Trace{Calls: append(slices.Clip(own[i].Calls), own[j].Calls...)}
			if len(tr.Calls) < len(both.Calls) {
				t.Errorf("%s then %s: read as %s with %d calls of %d, nothing reported", a.path, b.path, tr.Format, len(tr.Calls), len(both.Calls))
			}
		}
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// TestDamagedInput: the mistakes a user makes with a file (a wrong
// --format, a file cut short, two files in one) fail or are reported.
func TestDamagedInput(t *testing.T) {
	const (
		glaive = "USER: weather?\nASSISTANT: <functioncall> {\"name\": \"w\", \"arguments\": '{\"c\": \"P\"}'} <|endoftext|>\n"
		hermes = "<|im_start|>assistant\n<tool_call>\n{\"name\": \"h\", \"arguments\": {}}\n</tool_call><|im_end|>\n"
		chat   = `{"messages":[{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]}]}`
	)
	tests := []struct {
		name, input, format string
		calls               int
		err, skipped        string // what the error or the one skipped item says
	}{
		{"a JSON object cut short is not read as a transcript", `{"chat": "USER: hi ASSISTANT: <functioncall> {\"name\": \"w\"`, "", 0, "unterminated string", ""},
		{"JSON Lines cut within a line", chat + "\n" + chat[:40], "", 0, "line 2: invalid JSON", ""},
		{"a JSON array of objects cut short", `[{"role":"user","content":"<tool_call>"},{"role":`, "", 0, "unexpected end of input", ""},
		{"Python calls start as a JSON array does", `[f(a=1), g()]`, "", 2, "", ""},
		{"a text format forced on JSON", chat, "hermes", 0, "hermes: want text, got a JSON object", ""},
		{"an event stream with more after [DONE]", "data: {\"a\":1}\n\ndata: [DONE]\n\n" + chat, "", 0, "line 5: more after the stream's end (data: [DONE] at line 3)", ""},
		{"a JSON trace after a transcript", glaive + chat + "\n", "", 1, "", "line 3: a trace after the transcript, not read: a JSON object with keys \"messages\" (detected as openai_chat)"},
		{"JSON Lines after a transcript", glaive + chat + "\n" + chat + "\n", "", 1, "", "line 3: a trace after the transcript, not read: 2 call-shaped objects ([0].messages[0].tool_calls[0] (tool_calls entry \"f\"), [1].messages[0].tool_calls[0] (tool_calls entry \"f\"))"},
		{"an unclosed call tag's payload is no trace after the transcript", "<|im_start|>assistant\n<tool_call>\n{\"name\": \"h\", \"arguments\": {}}\n", "", 1, "", ""},
		{"transcripts of two kinds in one file", glaive + hermes, "", 0, "holds the calls of glaive and hermes transcripts", ""},
		{"of two sure formats, the one that reads calls", "USER: hi\n" + hermes + "FUNCTION RESPONSE: {}\n", "", 1, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := trace.Read([]byte(tt.input), tt.format)
			switch {
			case tt.err != "":
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one saying %q", err, tt.err)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			if len(tr.Calls) != tt.calls {
				t.Errorf("%d calls, want %d", len(tr.Calls), tt.calls)
			}
			var skipped string
			if len(tr.Skipped) > 0 {
				skipped = tr.Skipped[0].String()
			}
			if len(tr.Skipped) > 1 || skipped != tt.skipped {
				t.Errorf("skipped %v, want %q", tr.Skipped, tt.skipped)
			}
		})
	}
}
