package trace_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/internal/shared"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/trace"
)

// A sample is one trace file of a known format: a shared fixture
// (../shared/fixtures/traces, ../shared/fixtures/realworld) or one of the
// project's samples (testdata/<format>).
type sample struct {
	format, path string
	data         []byte
}

// allSamples reads every sample, each folder named after its format.
func allSamples(t *testing.T) []sample {
	t.Helper()
	roots := []string{shared.Path(t, "fixtures", "traces"), shared.Path(t, "fixtures", "realworld"), "testdata"}
	var samples []sample
	for _, root := range roots {
		files, _ := filepath.Glob(filepath.Join(root, "*", "*"))
		for _, f := range files {
			format := filepath.Base(filepath.Dir(f))
			if strings.HasSuffix(f, ".expected.json") || strings.HasSuffix(f, ".md") || format == "fuzz" {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			samples = append(samples, sample{format, f, data})
		}
	}
	if len(samples) == 0 {
		t.Fatal("no samples")
	}
	return samples
}

// TestAuditFindsNothingMissed: on every sample, read as detected and as
// its own format, every call-shaped object is accounted for.
func TestAuditFindsNothingMissed(t *testing.T) {
	for _, s := range allSamples(t) {
		for _, forced := range []string{"", s.format} {
			tr, err := trace.Read(s.data, forced)
			if errors.Is(err, trace.ErrMissed) || len(tr.Missed) > 0 {
				t.Errorf("%s (format %q): %v", s.path, forced, err)
			}
		}
	}
}

// TestForcedFormats: a format forced on another format's sample fails,
// reports what it skipped, or reads the calls the sample holds, every
// call-shaped object accounted for; it never returns an empty list, or
// calls of its own making, silently.
func TestForcedFormats(t *testing.T) {
	samples := allSamples(t)
	own := make([]string, len(samples))
	for i, s := range samples {
		tr, err := trace.Read(s.data, "")
		if err != nil {
			own[i] = "error"
			continue
		}
		own[i] = callList(tr)
	}
	for _, forced := range trace.Formats() {
		t.Run(forced, func(t *testing.T) {
			for i, s := range samples {
				if s.format == forced {
					continue
				}
				tr, err := trace.Read(s.data, forced)
				if err == nil && len(tr.Calls) == 0 && len(tr.Skipped) == 0 {
					t.Errorf("on %s: no calls, nothing skipped, no error", s.path)
				}
				if err != nil || len(tr.Skipped) > 0 || forced == "generic" {
					continue // generic reads by shape, and says so
				}
				if got := callList(tr); got != own[i] {
					t.Errorf("on %s: nothing skipped, no error, and calls %s; detected, it holds %s", s.path, got, own[i])
				}
			}
		})
	}
}

// callList writes a trace's calls, their names and arguments, in order.
func callList(tr trace.Trace) string {
	var b strings.Builder
	b.WriteString("[")
	for i, c := range tr.Calls {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s(%s)", c.Name, jsonvalue.Append(nil, c.Args))
		if c.ArgsRaw != "" {
			fmt.Fprintf(&b, "raw %q", c.ArgsRaw)
		}
	}
	return b.String() + "]"
}

// TestRepeatedViews: the views in which formats show calls again (a model
// run's input history, a sample's events, a chunk's pieces) are read as
// such; a call in them that was never read is still missed.
func TestRepeatedViews(t *testing.T) {
	ai := func(id string) string {
		return `{"type":"ai","content":"","tool_calls":[{"id":"` + id + `","name":"f","args":{}}]}`
	}
	tests := []struct {
		name, format, input string
		calls               int
		missed              []string
	}{
		{"langsmith model input history", "langsmith",
			`[{"id":"1","run_type":"llm","dotted_order":"1","inputs":{"messages":[[{"type":"human","content":"hi"}]]},"outputs":{"generations":[[{"type":"ChatGeneration","text":"","message":` + ai("a") + `}]]}},
			 {"id":"2","run_type":"tool","name":"f","dotted_order":"2","inputs":{"input":"{}"},"outputs":{"output":"x"}},
			 {"id":"3","run_type":"llm","dotted_order":"3","inputs":{"messages":[[{"type":"human","content":"hi"},` + ai("a") + `]]},"outputs":{"generations":[[{"type":"ChatGeneration","text":"done","message":{"type":"ai","content":"done"}}]]}},
			 {"id":"4","run_type":"chain","dotted_order":"4","inputs":{"messages":[` + ai("a") + `]},"outputs":{"messages":[` + ai("a") + `]}}]`,
			1, nil},
		{"langsmith history with a call never read", "langsmith",
			`[{"id":"1","run_type":"llm","inputs":{"messages":[[` + ai("z") + `]]},"outputs":{"generations":[[{"type":"ChatGeneration","text":"","message":` + ai("a") + `}]]}}]`,
			1, []string{"[0].inputs.messages[0][0].tool_calls[0]: tool_calls entry \"f\""}},
		{"inspect sample events and output", "inspect_ai",
			`{"eval":{},"samples":[{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"","tool_calls":[{"id":"t1","function":"f","arguments":{}}]},{"role":"tool","tool_call_id":"t1","function":"f","content":"x"}],
			"events":[{"event":"model","output":{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"t1","function":"f","arguments":{}}]}}]}},{"event":"tool","id":"t1","function":"f","arguments":{},"result":"x"}],
			"output":{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"t1","function":"f","arguments":{}}]}}]}}]}`,
			1, nil},
		{"claude stream events and permission requests", "claude_code_stream_json",
			`{"type":"stream_event","session_id":"s","event":{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"Bash","input":{}}}}` + "\n" +
				`{"type":"assistant","session_id":"s","parent_tool_use_id":null,"message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}` + "\n" +
				`{"type":"control_request","request_id":"r","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"ls"},"tool_use_id":"t1"}}`,
			1, nil},
		{"codex events", "codex_rollout",
			`{"type":"response_item","payload":{"type":"function_call","call_id":"c1","name":"m__t","arguments":"{}"}}` + "\n" +
				`{"type":"event_msg","payload":{"type":"mcp_tool_call_begin","call_id":"c1","invocation":{"server":"m","tool":"t","arguments":{}}}}` + "\n" +
				`{"type":"compacted","payload":{"message":"","replacement_history":[{"type":"function_call","call_id":"c1","name":"m__t","arguments":"{}"}]}}`,
			1, nil},
		{"langchain chunk pieces", "langchain",
			`[{"type":"AIMessageChunk","content":"","tool_calls":[{"id":"c","name":"f","args":{"a":1}}],"tool_call_chunks":[{"id":"c","name":"f","args":"{\"a\": 1}","index":0,"type":"tool_call_chunk"}]}]`,
			1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := trace.Read([]byte(tt.input), tt.format)
			if len(tt.missed) == 0 && err != nil {
				t.Fatal(err)
			}
			var missed []string
			for _, m := range tr.Missed {
				missed = append(missed, m.String())
			}
			if len(tr.Calls) != tt.calls || !slices.Equal(missed, tt.missed) {
				t.Errorf("%d calls, missed %q; want %d, %q (error %v)", len(tr.Calls), missed, tt.calls, tt.missed, err)
			}
		})
	}
}
