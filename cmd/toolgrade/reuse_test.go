package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/internal/poison"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"pgregory.net/rapid"
)

// Every test of the command runs with the memory eval reuses poisoned as
// it is released (see toolgrade.EmitKeepsNothing): a report that kept a
// case's values past its result's emit would show the poison.
func init() { poison.On = true }

// TestEvalReuseChangesNothing grades generated cases with the memory of
// their values reused and without, into every report, and compares every
// byte. The cases span many generations of the parser's memory and many
// batches of the run, with repeated ids (trials), so that what a report
// keeps past a result's emit would be overwritten, with poison, before
// the report is written.
func TestEvalReuseChangesNothing(t *testing.T) {
	dir := t.TempDir()
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		n := rapid.IntRange(200, 600).Draw(t, "cases")
		for i := range n {
			id := fmt.Sprintf("case-%d", rapid.IntRange(0, n).Draw(t, "id"))
			if i%7 == 0 {
				id = fmt.Sprintf("case-%d", i) // most ids are new: rows and worst cases vary
			}
			called := `"tools_called":` + genCalls(t, "called")
			if i%5 == 3 { // a transcript: its case and turn are blocks of their own
				called = `"agent_trajectory":` + genChat(t)
			}
			fmt.Fprintf(&b, `{"id":%q,"input":%s,%s,"expected_tools":%s}`+"\n",
				id, jsonvalue.Append(nil, genValue(2).Draw(t, "input")), called, genCalls(t, "expected"))
		}
		cases := filepath.Join(dir, "cases.jsonl")
		if err := os.WriteFile(cases, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		workers := rapid.SampledFrom([]string{"2", "64"}).Draw(t, "workers") // 64: batches held by helpers
		with := evalEveryReport(t, dir, cases, workers, true)
		without := evalEveryReport(t, dir, cases, workers, false)
		for name, w := range without {
			if with[name] != w {
				t.Fatalf("%s differs with memory reused:\n%s", name, lineDiff(w, with[name]))
			}
		}
	})
}

var dates = regexp.MustCompile(`[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9:.]+Z?|[0-9.]+m?s\b`)

// evalEveryReport grades cases into every report, with the memory of the
// cases' values reused or not, on as many workers as given, and returns each output, times left out.
func evalEveryReport(t *rapid.T, dir, cases, workers string, reuse bool) map[string]string {
	defer func(was bool) { reuseCases = was }(reuseCases)
	reuseCases = reuse
	out := map[string]string{}
	names := []string{"results.jsonl", "report.html", "report.xml", "report.md"}
	var p [4]string
	for i, name := range names {
		p[i] = filepath.Join(dir, name)
		os.Remove(p[i])
	}
	var stdout, stderr bytes.Buffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }}
	err := m.Run(context.Background(), []string{"eval", "--exit-zero", "--workers", workers, "--out", p[0], "--html", p[1], "--junit", p[2], "--markdown", p[3], cases})
	out["error"], out["stdout"], out["stderr"] = fmt.Sprint(err), stdout.String(), dates.ReplaceAllString(stderr.String(), "T")
	for i, name := range names {
		data, err := os.ReadFile(p[i])
		if err != nil {
			t.Fatal(err)
		}
		out[name] = dates.ReplaceAllString(string(data), "T")
	}
	return out
}

func genCalls(t *rapid.T, label string) string {
	calls := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) string {
		name := rapid.SampledFrom([]string{"search", "book_flight", "get_weather", "send_mail", "lookup"}).Draw(t, "name")
		return fmt.Sprintf(`{"name":%q,"args":%s}`, name, jsonvalue.Append(nil, genObject(3).Draw(t, "args")))
	}), 0, 6).Draw(t, label)
	return "[" + strings.Join(calls, ",") + "]"
}

// genChat generates a chat transcript: a user message, then calls and
// their results.
func genChat(t *rapid.T) string {
	msgs := []string{`{"role":"user","content":"book it"}`}
	for i := range rapid.IntRange(0, 5).Draw(t, "chat calls") {
		name := rapid.SampledFrom([]string{"search", "book_flight", "lookup"}).Draw(t, "name")
		args := string(jsonvalue.Append(nil, string(jsonvalue.Append(nil, genObject(2).Draw(t, "args")))))
		msgs = append(msgs, fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[{"id":"c%d","type":"function","function":{"name":%q,"arguments":%s}}]}`, i, name, args),
			fmt.Sprintf(`{"role":"tool","tool_call_id":"c%d","content":"done"}`, i))
	}
	return "[" + strings.Join(msgs, ",") + "]"
}

// genValue generates a JSON value nested up to depth levels.
func genValue(depth int) *rapid.Generator[any] {
	return rapid.Custom(func(t *rapid.T) any {
		kinds := 4
		if depth > 0 {
			kinds = 6
		}
		switch rapid.IntRange(0, kinds-1).Draw(t, "kind") {
		case 0:
			return rapid.SampledFrom([]string{"Paris", "a \"quoted\" word", "line\nbreak", "naïve", ""}).Draw(t, "string")
		case 1:
			return json.Number(strconv.Itoa(rapid.IntRange(-5, 5000).Draw(t, "number")))
		case 2:
			return rapid.Bool().Draw(t, "bool")
		case 3:
			return nil
		case 4:
			return genObject(depth-1).Draw(t, "object")
		}
		return rapid.SliceOfN(genValue(depth-1), 0, 4).Draw(t, "array")
	})
}

func genObject(depth int) *rapid.Generator[any] {
	return rapid.Custom(func(t *rapid.T) any {
		keys := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"from", "to", "date", "q", "limit", "opts"}), 0, 4, rapid.ID).Draw(t, "keys")
		obj := jsonvalue.Object{}
		for _, k := range keys {
			obj = append(obj, jsonvalue.Member{Key: k, Value: genValue(depth).Draw(t, k)})
		}
		return obj
	})
}
