package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestMistakes: every mistake a new user makes gives a non-zero exit and
// a message that says what to do.
func TestMistakes(t *testing.T) {
	const (
		weather = `{"name":"get_weather","args":{"city":"Paris"}}`
		book    = `{"name":"book","args":{"id":1}}`
		email   = `{"name":"send_email","args":{"to":"a"}}`
	)
	result := func(id, score string, pass bool) string {
		p := "false"
		if pass {
			p = "true"
		}
		return `{"id":"` + id + `","success":` + p + `,"metrics":[{"name":"tool_correctness","profile":"default","score":` + score + `,"success":` + p + `,"threshold":0.5,"error":null}]}` + "\n"
	}
	typos := writeFile(t, "typos.jsonl", `{"id":"a","tool_called":[`+weather+`],"expected_tool":[`+weather+`]}`+"\n")
	chat := writeFile(t, "chat.json", `[{"role":"user","content":"Weather?"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},{"role":"tool","tool_call_id":"c1","content":"sun"},{"role":"assistant","content":"Sunny."}]`)
	body := writeFile(t, "body.json", `{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{}"}}]}}]}`)
	empty := writeFile(t, "empty.jsonl", "")
	missedBooking := writeFile(t, "missed.jsonl", `{"id":"m","tools_called":[`+weather+`,`+email+`],"expected_tools":[`+weather+`,`+book+`]}`+"\n")
	oneWrongOfFive := writeFile(t, "five.jsonl", `{"id":"w","tools_called":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"},{"name":"e","args":{"x":2}}],"expected_tools":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"},{"name":"e","args":{"x":1}}]}`+"\n")
	wrongArgs := writeFile(t, "args.jsonl", `{"id":"w","input":"q","tools_called":[{"name":"get_weather","args":{"city":"Rome"}}],"expected_tools":[`+weather+`]}`+"\n")
	meta := writeFile(t, "meta.jsonl", `{"id":"a","tools_called":[],"expected_tools":[],"category":"x"}`+"\n"+`{"id":"b","tools_called":[],"expected_tools":[],"category":"y","source":"z"}`+"\n")
	base := writeFile(t, "base.jsonl", result("a", "1", true)+result("b", "1", true)+result("gone", "1", true))
	flipped := writeFile(t, "flipped.jsonl", result("a", "1", true)+result("b", "0.45", false)+result("gone", "1", true))
	missing := writeFile(t, "missing.jsonl", result("a", "1", true)+result("b", "1", true))
	out := filepath.Join(t.TempDir(), "results.jsonl")

	for _, tt := range []struct {
		name string
		args []string
		code int
		want []string // in stdout + stderr
	}{
		{"misspelled fields", []string{"eval", typos}, 1, []string{"typos.jsonl:1: unknown field `tool_called`; did you mean `tools_called`?", "0 passed"}},
		{"a chat trace for a case file", []string{"eval", chat}, 1, []string{"4 trials (4 per case): 0 passed, 0 failed, 4 erred", "openai_chat", "agent_trajectory", "toolgrade extract"}},
		{"a response body for a case file", []string{"eval", body}, 1, []string{"a trace (openai_chat format), not a case", "toolgrade extract"}},
		{"an empty case file", []string{"eval", empty}, 2, []string{"no cases in", "--allow-empty"}},
		{"an empty case file, allowed", []string{"eval", "--allow-empty", empty}, 0, []string{"0 cases"}},
		{"compare a case file", []string{"compare", base, meta}, 2, []string{"meta.jsonl:1: not a toolgrade results file", "is a case", "toolgrade eval --out"}},
		{"compare an empty file", []string{"compare", base, empty}, 2, []string{"not a toolgrade results file", "no result lines"}},
		{"compare with a case missing", []string{"compare", base, missing}, 1, []string{"only in BASE (1): regressions", "gone", "1 case missing from NEW"}},
		{"compare with a case missing, allowed", []string{"compare", "--allow-missing", base, missing}, 0, []string{"no regression"}},
		{"compare pass to fail within tolerance", []string{"compare", "--allow-missing", "--tolerance", "0.6", base, flipped}, 1, []string{"regressed (1)", "b  tool_correctness  1.000 → 0.450  (-0.550)  passed, now fails", "1 from pass to fail"}},
		{"default threshold fails a missed call", []string{"eval", missedBooking}, 1, []string{"< 1.000", "missing book"}},
		{"default threshold fails one wrong call of five", []string{"eval", oneWrongOfFive}, 1, []string{"0.800 < 1.000", `x expected 1, got 2`}},
		{"deepeval says what it did not compare", []string{"eval", "--profile", "deepeval", wrongArgs}, 0, []string{`"score":1`, "arguments not compared (evaluation_params lacks input_parameters)"}},
		{"deepeval options from the command line", []string{"eval", "--profile", "deepeval", "--option", "evaluation_params=input_parameters", wrongArgs}, 1, []string{`"score":0`}},
		{"an option another profile spells differently", []string{"eval", "--profile", "deepeval", "--option", "args=exact", wrongArgs}, 2, []string{`unknown option "args"`, "under deepeval, set evaluation_params"}},
		{"a misspelled option", []string{"eval", "--profile", "axion", "--option", "check_parameter=true", wrongArgs}, 2, []string{`did you mean "check_parameters"?`}},
		{"a misspelled flag", []string{"eval", "--treshold", "0.5", wrongArgs}, 2, []string{"unknown flag --treshold; did you mean --threshold?"}},
		{"a misspelled profile", []string{"eval", "--profile", "axon", wrongArgs}, 2, []string{`unknown profile "axon"; did you mean "axion"?`}},
		{"an option given as a flag", []string{"eval", "--evaluation-params", "output", wrongArgs}, 2, []string{"--option evaluation_params=VALUE"}},
		{"extract without a file", []string{"extract"}, 2, []string{"extract: give a trace file, or - for standard input"}},
		{"compare with one file", []string{"compare", base}, 2, []string{"compare: give two results files"}},
		{"unknown fields are listed once with their counts", []string{"eval", meta}, 0, []string{"ignored fields", "category (2 cases), source (1 case)"}},
		{"--strict-fields makes them errors", []string{"eval", "--strict-fields", meta}, 1, []string{"unknown field `category`", "--strict-fields"}},
		{"eval names the files it wrote", []string{"eval", "--out", out, "--html", out + ".html", meta}, 0, []string{"wrote " + out + ", " + out + ".html"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, "", tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stdout+stderr, w) {
					t.Errorf("output lacks %q\nstdout: %s\nstderr: %s", w, stdout, stderr)
				}
			}
		})
	}
}
