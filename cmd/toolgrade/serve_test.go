package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// serve runs "toolgrade serve" over the request lines and returns the
// decoded response lines.
func serve(t *testing.T, requests ...string) []map[string]any {
	t.Helper()
	var stdout, stderr bytes.Buffer
	m := &Main{Stdin: strings.NewReader(strings.Join(requests, "\n")), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }}
	if err := m.Run(context.Background(), []string{"serve", "--workers", "2"}); err != nil {
		t.Fatalf("serve: %v (stderr %s)", err, stderr.String())
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n") {
		if line == "" {
			continue
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("response %q is not JSON: %v", line, err)
		}
		out = append(out, v)
	}
	return out
}

const serveCase = `{"id":"w","tools_called":[{"name":"get_weather","args":{"city":"Paris"}}],"expected_tools":[{"name":"get_weather","args":{"city":"Paris"}},{"name":"send_email"}]}`

func TestServe(t *testing.T) {
	tests := []struct {
		name    string
		request string
		check   func(t *testing.T, r map[string]any)
	}{
		{"evaluate default metric", `{"id":1,"op":"evaluate","cases":[` + serveCase + `]}`, func(t *testing.T, r map[string]any) {
			if r["id"] != 1.0 {
				t.Errorf("id %v, want 1", r["id"])
			}
			res := r["results"].([]any)[0].(map[string]any)
			m := res["metrics"].([]any)[0].(map[string]any)
			if res["id"] != "w" || m["recall"] != 0.5 || m["precision"] != 1.0 {
				t.Errorf("result %v", res)
			}
		}},
		{"evaluate a peer profile", `{"op":"evaluate","config":{"metrics":[{"profile":"deepeval","evaluation_params":["input_parameters"]}]},"cases":[` + serveCase + `]}`, func(t *testing.T, r map[string]any) {
			m := r["results"].([]any)[0].(map[string]any)["metrics"].([]any)[0].(map[string]any)
			if m["profile"] != "deepeval" || m["score"] != 0.5 {
				t.Errorf("metric %v", m)
			}
		}},
		{"config as one entry", `{"op":"evaluate","config":{"profile":"axion"},"cases":[` + serveCase + `]}`, func(t *testing.T, r map[string]any) {
			m := r["results"].([]any)[0].(map[string]any)["metrics"].([]any)[0].(map[string]any)
			if m["profile"] != "axion" {
				t.Errorf("metric %v", m)
			}
		}},
		{"bad case is an error result naming case and field", `{"op":"evaluate","offset":10,"cases":[` + serveCase + `,{"tools_called":[{"name":3}],"expected_tools":[]},7]}`, func(t *testing.T, r map[string]any) {
			res := r["results"].([]any)
			if len(res) != 3 {
				t.Fatalf("%d results, want 3", len(res))
			}
			bad := res[1].(map[string]any)
			if bad["id"] != "case-11" || !strings.Contains(bad["error"].(string), "cases[1]") || !strings.Contains(bad["error"].(string), "tools_called[0].name") {
				t.Errorf("bad case result %v", bad)
			}
			if e, _ := res[2].(map[string]any)["error"].(string); !strings.Contains(e, "cases[2]") {
				t.Errorf("non-object case error %q", e)
			}
		}},
		{"cases are checked as eval checks them", `{"op":"evaluate","cases":[{"id":"t","tools_caled":[]},{"id":"n"},{"id":"p","tools_called":[],"expected_tools":[],"process":[]}]}`, func(t *testing.T, r map[string]any) {
			res := r["results"].([]any)
			if len(res) != 3 {
				t.Fatalf("%d results, want 3", len(res))
			}
			for i, want := range []string{"did you mean `tools_called`?", "nothing to grade"} {
				if e, _ := res[i].(map[string]any)["error"].(string); !strings.Contains(e, "cases["+strconv.Itoa(i)+"]") || !strings.Contains(e, want) {
					t.Errorf("case %d: error %q, want %q", i, e, want)
				}
			}
			if w, _ := res[2].(map[string]any)["warnings"].([]any); len(w) != 1 || !strings.Contains(w[0].(string), "field process is not graded") {
				t.Errorf("case 2: warnings %v, want process not graded", w)
			}
		}},
		{"unknown profile names the field", `{"id":"x","op":"evaluate","config":[{"profile":"nope"}],"cases":[]}`, func(t *testing.T, r map[string]any) {
			if r["field"] != "config[0].profile" || r["id"] != "x" {
				t.Errorf("response %v", r)
			}
		}},
		{"cases must be a list", `{"op":"evaluate","cases":{}}`, func(t *testing.T, r map[string]any) {
			if r["field"] != "cases" {
				t.Errorf("response %v", r)
			}
		}},
		{"invalid JSON", `{"op":`, func(t *testing.T, r map[string]any) {
			if !strings.Contains(r["error"].(string), "not valid JSON") {
				t.Errorf("response %v", r)
			}
		}},
		{"unknown op", `{"op":"dance"}`, func(t *testing.T, r map[string]any) {
			if r["field"] != "op" {
				t.Errorf("response %v", r)
			}
		}},
		{"misspelled key beside metrics", `{"op":"evaluate","config":{"metrics":[{}],"judgee":{}},"cases":[]}`, func(t *testing.T, r map[string]any) {
			if r["field"] != "config.judgee" {
				t.Errorf("response %v", r)
			}
		}},
		{"misspelled key", `{"op":"extract","trace":[],"fromat":"openai_chat"}`, func(t *testing.T, r map[string]any) {
			if r["field"] != "fromat" || !strings.Contains(r["error"].(string), `did you mean "format"?`) {
				t.Errorf("response %v", r)
			}
		}},
		{"unknown key", `{"op":"version","x":1}`, func(t *testing.T, r map[string]any) {
			if r["field"] != "x" {
				t.Errorf("response %v", r)
			}
		}},
		{"extract a decoded trace", `{"op":"extract","trace":[{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]},{"role":"tool","tool_call_id":"c1","content":"ok"}]}`, func(t *testing.T, r map[string]any) {
			res := r["result"].(map[string]any)
			calls := res["calls"].([]any)
			if len(calls) != 1 || calls[0].(map[string]any)["name"] != "f" || calls[0].(map[string]any)["output"] != "ok" {
				t.Errorf("result %v", res)
			}
		}},
		{"extract from text", `{"op":"extract","trace":"[{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"g\",\"arguments\":\"{}\"}}]}]"}`, func(t *testing.T, r map[string]any) {
			if calls := r["result"].(map[string]any)["calls"].([]any); len(calls) != 1 {
				t.Errorf("response %v", r)
			}
		}},
		{"extract an unreadable trace", `{"op":"extract","trace":{"what":1}}`, func(t *testing.T, r map[string]any) {
			if r["field"] != "trace" {
				t.Errorf("response %v", r)
			}
		}},
		{"extract with an unknown format", `{"op":"extract","trace":[],"format":"nope"}`, func(t *testing.T, r map[string]any) {
			if r["field"] != "format" {
				t.Errorf("response %v", r)
			}
		}},
		{"version", `{"op":"version"}`, func(t *testing.T, r map[string]any) {
			if _, ok := r["result"].(map[string]any)["version"].(string); !ok {
				t.Errorf("response %v", r)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := serve(t, tt.request)
			if len(out) != 1 {
				t.Fatalf("%d responses, want 1", len(out))
			}
			tt.check(t, out[0])
		})
	}
}

// TestServeGoesOn checks that bad requests do not end the process: every
// line gets its response, in order, and blank lines are skipped.
func TestServeGoesOn(t *testing.T) {
	out := serve(t,
		`{"id":1,"op":"evaluate","cases":[`+serveCase+`]}`,
		`not json`,
		``,
		`[1,2]`,
		`{"id":2,"op":"evaluate","cases":[42]}`,
		`{"id":3,"op":"evaluate","cases":[`+serveCase+`]}`,
	)
	if len(out) != 5 {
		t.Fatalf("%d responses, want 5: %v", len(out), out)
	}
	if out[0]["id"] != 1.0 || out[1]["error"] == nil || out[2]["error"] == nil || out[3]["id"] != 2.0 || out[4]["id"] != 3.0 {
		t.Errorf("responses %v", out)
	}
	if out[4]["results"] == nil {
		t.Errorf("last response %v, want results", out[4])
	}
}

// A request's config may name a judge, as a config file's judge section
// does: the deepeval profile's tool selection then asks it.
func TestServeJudge(t *testing.T) {
	srv := judgeServer(t)
	c := `{"id":"e","input":"Email Bob the weather","tools_called":[{"name":"get_weather","args":{}}],"expected_tools":[{"name":"get_weather","args":{}}],"available_tools":[{"name":"get_weather","description":"weather"},{"name":"send_email","description":"email"}]}`
	judge := `{"model":"judge-1","base_url":"` + srv.BaseURL() + `","key_env":"TG_JUDGE_KEY","no_cache":true}`
	for _, tt := range []struct {
		name, config string
		score        float64
		errPart      string
	}{
		{"judged", `{"metrics":[{"profile":"deepeval"}],"judge":` + judge + `}`, 0.25, ""},
		{"one entry beside the judge", `{"profile":"deepeval","judge":` + judge + `}`, 0.25, ""},
		{"no judge: deterministic", `{"profile":"deepeval"}`, 1, ""},
		{"judge not an object", `{"profile":"deepeval","judge":"gpt"}`, 0, "config.judge"},
		{"judge without a model", `{"profile":"deepeval","judge":{"base_url":"` + srv.BaseURL() + `"}}`, 0, "no model"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			req := `{"op":"evaluate","config":` + tt.config + `,"cases":[` + c + `]}`
			m := &Main{Stdin: strings.NewReader(req), Stdout: &stdout, Stderr: &stderr,
				Getenv: func(k string) string { return judgeEnv[k] }}
			if err := m.Run(context.Background(), []string{"serve"}); err != nil {
				t.Fatalf("serve: %v (stderr %s)", err, stderr.String())
			}
			var resp struct {
				Error   string `json:"error"`
				Field   string `json:"field"`
				Results []struct {
					Metrics []struct {
						Score  *float64 `json:"score"`
						Reason string   `json:"reason"`
					} `json:"metrics"`
				} `json:"results"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &resp); err != nil {
				t.Fatalf("response %q: %v", stdout.String(), err)
			}
			if tt.errPart != "" {
				if !strings.Contains(resp.Error+" "+resp.Field, tt.errPart) {
					t.Errorf("response %s, want an error naming %q", stdout.String(), tt.errPart)
				}
				return
			}
			if resp.Error != "" || len(resp.Results) != 1 || resp.Results[0].Metrics[0].Score == nil {
				t.Fatalf("response %s", stdout.String())
			}
			if got := *resp.Results[0].Metrics[0].Score; got != tt.score {
				t.Errorf("score %v, want %v (reason: %s)", got, tt.score, resp.Results[0].Metrics[0].Reason)
			}
		})
	}
}
