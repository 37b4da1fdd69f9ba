package dataset_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/internal/shared"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/match"
	"github.com/toolgrade/toolgrade/trace"
	"pgregory.net/rapid"
)

// The property: a case given as a trajectory grades the same as the same
// case with its calls written out.

// tester is what both *testing.T and *rapid.T offer.
type tester interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// trajectoryMetrics grade with the defaults, and with outputs and order
// checked.
func trajectoryMetrics(t tester) []toolgrade.Metric {
	var ms []toolgrade.Metric
	for _, o := range []match.Options{{}, {Output: "exact", Order: "in-order"}} {
		m, err := match.New(o)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	return ms
}

// gradeBoth decodes both case forms and requires the same results, or
// the same error: an expected call whose arguments are not JSON is an
// error in the case either way.
func gradeBoth(t tester, withTrajectory, writtenOut jsonvalue.Object) {
	t.Helper()
	a, err := dataset.DecodeCase(withTrajectory)
	if err != nil {
		t.Fatalf("trajectory case: %v", err)
	}
	b, err := dataset.DecodeCase(writtenOut)
	if err != nil {
		t.Fatalf("written-out case: %v", err)
	}
	ra := toolgrade.Grade(context.Background(), a, trajectoryMetrics(t)...)
	rb := toolgrade.Grade(context.Background(), b, trajectoryMetrics(t)...)
	// An expected call whose arguments are not JSON is an error in the
	// case either way, each naming where it is.
	const notJSON = "not valid JSON"
	if ea, eb := ra.Metrics[0].Error, rb.Metrics[0].Error; strings.Contains(ea, notJSON) || strings.Contains(eb, notJSON) {
		if !strings.Contains(ea, notJSON) || !strings.Contains(eb, notJSON) {
			t.Fatalf("errors differ: trajectory %q, written out %q", ea, eb)
		}
		return
	}
	if diff := cmp.Diff(rb.Metrics, ra.Metrics); diff != "" {
		t.Fatalf("grades differ (-written out +trajectory):\n%s", diff)
	}
}

// writeOut turns calls in the extract form {"name", "args", "args_raw",
// "id", "output"} into case calls: arguments that did not parse are given
// as their raw text, which a case reads as invalid the same way.
func writeOut(calls []any) []any {
	out := make([]any, len(calls))
	for i, c := range calls {
		o := c.(jsonvalue.Object)
		w := jsonvalue.Object{}
		for _, m := range o {
			switch m.Key {
			case "args_raw":
				w.Set("args", m.Value)
			case "args":
				if !o.Has("args_raw") {
					w.Set("args", m.Value)
				}
			default:
				w.Set(m.Key, m.Value)
			}
		}
		out[i] = w
	}
	return out
}

// expectedFrom makes an expected list that differs from calls: the first
// call's arguments changed, the last call dropped, an unmade call added.
func expectedFrom(calls []any) []any {
	exp := append([]any(nil), writeOut(calls)...)
	if len(exp) > 0 {
		first := append(jsonvalue.Object(nil), exp[0].(jsonvalue.Object)...)
		first.Set("args", jsonvalue.Object{{Key: "changed", Value: true}})
		exp[0] = first
		exp = exp[:len(exp)-1]
	}
	return append(exp, jsonvalue.Object{{Key: "name", Value: "never_called"}})
}

func TestTrajectoryGradesLikeWrittenOutCalls(t *testing.T) {
	root := shared.Path(t, "fixtures", "traces")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range dirs {
		files, _ := os.ReadDir(filepath.Join(root, d.Name()))
		for _, f := range files {
			name := f.Name()
			if !d.IsDir() || strings.HasSuffix(name, ".expected.json") {
				continue
			}
			t.Run(d.Name()+"/"+name, func(t *testing.T) {
				path := filepath.Join(root, d.Name(), name)
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				// A JSON trace is given as its value, anything else as text.
				var traj any = string(data)
				if v, err := jsonvalue.Parse(data); err == nil {
					traj = v
				}
				wantData, err := os.ReadFile(strings.TrimSuffix(path, filepath.Ext(path)) + ".expected.json")
				if err != nil {
					t.Fatal(err)
				}
				want, err := jsonvalue.Parse(wantData)
				if err != nil {
					t.Fatal(err)
				}
				calls, _ := want.(jsonvalue.Object).Get("calls")
				// The shared expected calls predate call status: the
				// written-out calls take it from the reader (which the
				// trace package's tests check), so that the two forms
				// differ only in being written out.
				if tr, err := trace.Read(data, ""); err == nil && len(tr.Calls) == len(calls.([]any)) {
					for i, c := range tr.Calls {
						if c.Failed() {
							o := append(jsonvalue.Object(nil), calls.([]any)[i].(jsonvalue.Object)...)
							o.Set("status", "error")
							calls.([]any)[i] = o
						}
					}
				}
				expected := expectedFrom(calls.([]any))
				gradeBoth(t,
					jsonvalue.Object{{Key: "id", Value: "c"}, {Key: "trajectory", Value: traj}, {Key: "expected_tools", Value: expected}},
					jsonvalue.Object{{Key: "id", Value: "c"}, {Key: "tools_called", Value: writeOut(calls.([]any))}, {Key: "expected_tools", Value: expected}})
				// And as the expected side: expected_trajectory.
				gradeBoth(t,
					jsonvalue.Object{{Key: "id", Value: "c"}, {Key: "tools_called", Value: expected}, {Key: "expected_trajectory", Value: traj}},
					jsonvalue.Object{{Key: "id", Value: "c"}, {Key: "tools_called", Value: expected}, {Key: "expected_tools", Value: writeOut(calls.([]any))}})
			})
			n++
		}
	}
	t.Logf("%d trajectories", n)
}

// TestTrajectoryProperty generates calls, writes them as a trajectory in
// one of several formats, and grades against generated expected calls.
func TestTrajectoryProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		called := genCalls(rt, "called", true)
		expected := genCalls(rt, "expected", false)
		format := rapid.SampledFrom([]string{"openai_chat", "anthropic_messages", "langchain"}).Draw(rt, "format")
		traj := renderTrajectory(format, called)
		if rapid.Bool().Draw(rt, "as text") {
			traj = string(jsonvalue.Append(nil, traj))
		}
		gradeBoth(rt,
			jsonvalue.Object{{Key: "trajectory", Value: traj}, {Key: "expected_tools", Value: expected}},
			jsonvalue.Object{{Key: "tools_called", Value: called}, {Key: "expected_tools", Value: expected}})
	})
}

// genCalls generates calls in the case form {"name", "args", "id",
// "output"}; with invalid, arguments are sometimes text that is not JSON.
func genCalls(t *rapid.T, label string, invalid bool) []any {
	n := rapid.IntRange(0, 4).Draw(t, label+" count")
	calls := make([]any, n)
	for i := range calls {
		var args any = jsonvalue.Object{
			{Key: "city", Value: rapid.SampledFrom([]string{"Paris", "Rome"}).Draw(t, "city")},
			{Key: "days", Value: json.Number(strconv.Itoa(rapid.IntRange(1, 3).Draw(t, "days")))},
		}
		if invalid && rapid.IntRange(0, 5).Draw(t, "invalid") == 0 {
			args = "{\"city\": " // raw text, not JSON
		}
		c := jsonvalue.Object{
			{Key: "name", Value: rapid.SampledFrom([]string{"get_weather", "get_time"}).Draw(t, "name")},
			{Key: "args", Value: args},
			{Key: "id", Value: label + strconv.Itoa(i)},
		}
		if rapid.Bool().Draw(t, "answered") {
			c = append(c, jsonvalue.Member{Key: "output", Value: rapid.SampledFrom([]string{"sunny", "", "12:00"}).Draw(t, "output")})
		}
		calls[i] = c
	}
	return calls
}

// renderTrajectory writes case calls as messages of a format.
func renderTrajectory(format string, calls []any) any {
	var assistant, results []any
	msgs := []any{jsonvalue.Object{{Key: "role", Value: "user"}, {Key: "content", Value: "plan my trip"}}}
	for _, c := range calls {
		o := c.(jsonvalue.Object)
		name, _ := o.Get("name")
		args, _ := o.Get("args")
		id, _ := o.Get("id")
		out, answered := o.Get("output")
		argText, isText := args.(string)
		switch format {
		case "openai_chat":
			if !isText {
				argText = string(jsonvalue.Append(nil, args))
			}
			assistant = append(assistant, jsonvalue.Object{{Key: "id", Value: id}, {Key: "type", Value: "function"},
				{Key: "function", Value: jsonvalue.Object{{Key: "name", Value: name}, {Key: "arguments", Value: argText}}}})
			if answered {
				results = append(results, jsonvalue.Object{{Key: "role", Value: "tool"}, {Key: "tool_call_id", Value: id}, {Key: "content", Value: out}})
			}
		case "anthropic_messages":
			block := jsonvalue.Object{{Key: "type", Value: "tool_use"}, {Key: "id", Value: id}, {Key: "name", Value: name}, {Key: "input", Value: args}}
			assistant = append(assistant, block)
			if answered {
				results = append(results, jsonvalue.Object{{Key: "type", Value: "tool_result"}, {Key: "tool_use_id", Value: id}, {Key: "content", Value: out}})
			}
		case "langchain":
			if isText {
				// LangChain keeps unparsable arguments in invalid_tool_calls.
				msgs = append(msgs, jsonvalue.Object{{Key: "type", Value: "ai"}, {Key: "content", Value: ""},
					{Key: "invalid_tool_calls", Value: []any{jsonvalue.Object{{Key: "name", Value: name}, {Key: "args", Value: args}, {Key: "id", Value: id}}}}})
			} else {
				msgs = append(msgs, jsonvalue.Object{{Key: "type", Value: "ai"}, {Key: "content", Value: ""},
					{Key: "tool_calls", Value: []any{jsonvalue.Object{{Key: "name", Value: name}, {Key: "args", Value: args}, {Key: "id", Value: id}}}}})
			}
			if answered {
				msgs = append(msgs, jsonvalue.Object{{Key: "type", Value: "tool"}, {Key: "tool_call_id", Value: id}, {Key: "content", Value: out}})
			}
		}
	}
	switch format {
	case "openai_chat":
		msgs = append(msgs, jsonvalue.Object{{Key: "role", Value: "assistant"}, {Key: "content", Value: nil}, {Key: "tool_calls", Value: assistant}})
		msgs = append(msgs, results...)
	case "anthropic_messages":
		msgs = append(msgs, jsonvalue.Object{{Key: "role", Value: "assistant"}, {Key: "content", Value: assistant}},
			jsonvalue.Object{{Key: "role", Value: "user"}, {Key: "content", Value: results}})
	}
	return msgs
}
