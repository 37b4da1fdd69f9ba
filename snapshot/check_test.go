package snapshot_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/match"
	"github.com/toolgrade/toolgrade/snapshot"
)

// cancelTrace is a chat in which cancel_order passes the id find_order
// returned, the time of the request and an idempotency key.
func cancelTrace(found, cancelled, when, key string) string {
	return `{"messages": [
 {"role": "user", "content": "Please cancel my latest order, I'm ana@example.com"},
 {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "find_order", "arguments": "{\"email\": \"ana@example.com\"}"}}]},
 {"role": "tool", "tool_call_id": "c1", "content": "{\"order\": {\"id\": \"` + found + `\", \"total\": 1299.5}}"},
 {"role": "assistant", "content": null, "tool_calls": [{"id": "c2", "type": "function", "function": {"name": "cancel_order", "arguments": "{\"order_id\": \"` + cancelled + `\", \"requested_at\": \"` + when + `\", \"idempotency_key\": \"` + key + `\"}"}}]},
 {"role": "tool", "tool_call_id": "c2", "content": "{\"status\": \"cancelled\"}"}]}`
}

// grade checks runs against accepted cases with the default metric, and
// returns each result by id.
func grade(t *testing.T, cases *snapshot.Cases, runs []*snapshot.Run) map[string]*toolgrade.Result {
	t.Helper()
	metric, err := match.New(match.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*toolgrade.Result{}
	err = toolgrade.Evaluate(context.Background(), cases.Records(runs), []toolgrade.Metric{metric}, func(r *toolgrade.Result) error {
		out[r.ID] = r
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func read(t *testing.T, name, text string) []*snapshot.Run {
	t.Helper()
	runs, err := snapshot.Read(name, strings.TrimSuffix(name, ".json"), []byte(text), "")
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

func accept(t *testing.T, runs []*snapshot.Run) *snapshot.Cases {
	t.Helper()
	var lines []byte
	for _, r := range runs {
		lines = append(snapshot.Take(r).AppendJSON(lines), '\n')
	}
	cases, err := snapshot.ReadCases("cases.jsonl", lines)
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// The test: a snapshot of one good run passes the same behaviour
// on other data — another id looked up, another day, another key — and
// fails an invented id.
func TestSnapshotGeneralizes(t *testing.T) {
	cases := accept(t, read(t, "cancel.json", cancelTrace("W8127731", "W8127731", "2025-03-06T14:30:12Z", "8f1c2b9e")))
	for _, tt := range []struct {
		name   string
		trace  string
		pass   bool
		reason string
	}{
		{"the same run", cancelTrace("W8127731", "W8127731", "2025-03-06T14:30:12Z", "8f1c2b9e"), true, ""},
		{"another order, another day", cancelTrace("W5550001", "W5550001", "2025-04-11T09:02:55Z", "77aa01"), true, ""},
		{"an invented id", cancelTrace("W5550001", "W5550002", "2025-04-11T09:02:55Z", "77aa01"), false,
			`order_id not the value of find_order.output.order.id (expected "W5550001", got "W5550002")`},
		{"the recorded id on other data", cancelTrace("W5550001", "W8127731", "2025-04-11T09:02:55Z", "77aa01"), false, "order_id not the value"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := grade(t, cases, read(t, "cancel.json", tt.trace))["cancel"]
			if r == nil || r.Success != tt.pass || !strings.Contains(r.Metrics[0].Reason, tt.reason) {
				t.Errorf("got %s", r.AppendJSON(nil))
			}
		})
	}
}

// traceFiles lists the real traces of the repository's reader samples and,
// when present, the shared fixtures: every file but the expected calls
// and the notes on where each came from.
func traceFiles(t *testing.T) []string {
	var files []string
	for _, root := range []string{"../trace/testdata", "../testdata/shared/fixtures/traces"} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			n := d.Name()
			if strings.HasSuffix(n, ".expected.json") || strings.HasSuffix(n, ".md") || strings.HasPrefix(n, ".") {
				return nil
			}
			files = append(files, p)
			return nil
		})
	}
	if len(files) < 40 {
		t.Fatalf("only %d trace files found", len(files))
	}
	return files
}

// Every real trace makes a case that its own run passes, under the
// default metric, failed calls and all — unless the run holds arguments
// that are not JSON, which match no call, as its notes say.
func TestSnapshotPassesItsRun(t *testing.T) {
	for _, f := range traceFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		runs, err := snapshot.Read(f, "run", data, "")
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		results := grade(t, accept(t, runs), runs)
		for _, r := range runs {
			res := results[r.ID]
			s := snapshot.Take(r)
			notes := notesOf(s)
			bad := strings.Contains(notes, "not valid JSON")
			switch {
			case res == nil:
				t.Errorf("%s: no result for %s", f, r.ID)
			case res.Error != "":
				t.Errorf("%s: %s", r.Where(), res.Error)
			case !res.Success && !bad:
				t.Errorf("%s: the snapshot fails its own run: %s\nnotes:\n%s", r.Where(), res.Metrics[0].Reason, notes)
			case res.Success && bad:
				t.Errorf("%s: passes, though its notes say it cannot:\n%s", r.Where(), notes)
			}
		}
	}
}

// A run that failed and retried makes a case that expects the failure and
// the retry: it passes a run that fails and retries on other data, and
// fails one that gives up after the failure, or that never fails.
func TestSnapshotExpectsTheRetry(t *testing.T) {
	run := func(calls ...toolgrade.Call) []*snapshot.Run {
		return []*snapshot.Run{{ID: "c", Source: "c.json", Input: "q", Inputs: []any{"q"}, Calls: calls}}
	}
	get := func(output string) toolgrade.Call {
		return call(t, "list_charges", `{"email": "a@example.com"}`, output)
	}
	refund := func(id string) toolgrade.Call { return call(t, "refund", `{"charge_id": "`+id+`"}`, `{"ok": true}`) }
	cases := accept(t, run(failed(get(`"timeout"`)), get(`{"charge_id": "ch_1"}`), refund("ch_1")))
	for _, tt := range []struct {
		name   string
		run    []*snapshot.Run
		pass   bool
		reason string
	}{
		{"another outage, retried", run(failed(get(`"503"`)), get(`{"charge_id": "ch_2"}`), refund("ch_2")), true, ""},
		{"given up after the failure", run(failed(get(`"503"`))), false, "missing list_charges"},
		{"no failure", run(get(`{"charge_id": "ch_2"}`), refund("ch_2")), false, "(expected #0 to fail)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := grade(t, cases, tt.run)["c"]
			if r == nil || r.Success != tt.pass || !strings.Contains(r.Metrics[0].Reason, tt.reason) {
				t.Errorf("got %s", r.AppendJSON(nil))
			}
		})
	}
}
