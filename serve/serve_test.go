package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/openai/openaitest"
)

// serve serves the request lines and returns the decoded response lines.
func serve(t *testing.T, requests ...string) []map[string]any {
	t.Helper()
	var stdout bytes.Buffer
	s := &Server{Workers: 2, Getenv: func(string) string { return "" }, Version: "v0.0.0-test"}
	if err := s.Serve(context.Background(), strings.NewReader(strings.Join(requests, "\n")), &stdout); err != nil {
		t.Fatalf("serve: %v", err)
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
		{"a list read as written is left to the metrics that read it so", `{"op":"evaluate","config":{"profile":"evalite"},"cases":[{"tools_called":[{"name":3}],"expected_tools":[{"name":3}]}]}`, func(t *testing.T, r map[string]any) {
			m := r["results"].([]any)[0].(map[string]any)["metrics"].([]any)[0].(map[string]any)
			if m["profile"] != "evalite" || m["score"] != 1.0 {
				t.Errorf("metric %v", m)
			}
		}},
		{"and is an error when another metric reads the calls", `{"op":"evaluate","config":[{"profile":"evalite"},{"profile":"axion"}],"cases":[{"tools_called":[{"name":3}],"expected_tools":[{"name":3}]}]}`, func(t *testing.T, r map[string]any) {
			res := r["results"].([]any)[0].(map[string]any)
			if e, _ := res["error"].(string); !strings.Contains(e, "cases[0]") || !strings.Contains(e, "tools_called[0].name") {
				t.Errorf("result %v", res)
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
		{"extract the records of a file", `{"op":"extract","trace":"{\"id\":\"p0\",\"result\":[{\"f\":\"{}\"}]}\n{\"id\":\"p1\",\"result\":[]}"}`, func(t *testing.T, r map[string]any) {
			recs, _ := r["result"].(map[string]any)["records"].([]any)
			if len(recs) != 2 || recs[0].(map[string]any)["id"] != "p0" || len(recs[0].(map[string]any)["calls"].([]any)) != 1 || recs[1].(map[string]any)["id"] != "p1" {
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
			if v, _ := r["result"].(map[string]any)["version"].(string); v != "v0.0.0-test" {
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

const judgeKey = "sk-serve-SECRET-41c2"

// judgeServer is a fake API that says the email case chose the wrong
// tool, and everything else is right.
func judgeServer(t *testing.T) *openaitest.Server {
	srv := openaitest.NewServer(t)
	srv.Key = judgeKey
	srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		if strings.Contains(r.User, "Email Bob") {
			return openaitest.Reply{Content: `{"score": 0.25, "reason": "get_weather cannot send email"}`}
		}
		return openaitest.Reply{Content: `{"score": 1, "reason": "the right tool"}`}
	}
	return srv
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
		{"judge without a model", `{"profile":"deepeval","judge":{"key_env":"TG_JUDGE_KEY","base_url":"` + srv.BaseURL() + `"}}`, 0, "no model"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout bytes.Buffer
			req := `{"op":"evaluate","config":` + tt.config + `,"cases":[` + c + `]}`
			s := &Server{Getenv: func(k string) string { return map[string]string{"TG_JUDGE_KEY": judgeKey}[k] },
				JudgeKeyEnvs: []string{"TG_JUDGE_KEY"}, JudgeBaseURLs: []string{srv.BaseURL()}}
			if err := s.Serve(context.Background(), strings.NewReader(req), &stdout); err != nil {
				t.Fatalf("serve: %v", err)
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

// A request's judge may use of the host only what the host allows: the
// variables a key is read from, the endpoints requests go to, the cache's
// place. Each refusal names the field and the flag that allows it.
func TestServeJudgeAllowed(t *testing.T) {
	srv := judgeServer(t)
	base := srv.BaseURL()
	env := map[string]string{"TG_JUDGE_KEY": judgeKey, "OPENAI_API_KEY": "sk-openai-0123456789", "AWS_SECRET_ACCESS_KEY": "aws-0123456789"}
	for _, tt := range []struct {
		name   string
		s      Server
		judge  string
		field  string
		reason string
	}{
		{"any variable", Server{JudgeBaseURLs: []string{base}}, `"key_env":"AWS_SECRET_ACCESS_KEY","base_url":"` + base + `"`, "config.judge.key_env", "--judge-key-env AWS_SECRET_ACCESS_KEY"},
		{"another allowed variable", Server{JudgeKeyEnvs: []string{"TG_JUDGE_KEY"}, JudgeBaseURLs: []string{base}}, `"key_env":"OPENAI_API_KEY","base_url":"` + base + `"`, "config.judge.key_env", "(TG_JUDGE_KEY)"},
		{"the default key to another endpoint", Server{}, `"base_url":"` + base + `"`, "config.judge.base_url", "(https://api.openai.com/v1)"},
		{"a look-alike host", Server{}, `"base_url":"https://api.openai.com.evil.example/v1"`, "config.judge.base_url", "--judge-base-url"},
		{"another scheme", Server{}, `"base_url":"http://api.openai.com/v1"`, "config.judge.base_url", "--judge-base-url"},
		{"another port", Server{}, `"base_url":"https://api.openai.com:8443/v1"`, "config.judge.base_url", "--judge-base-url"},
		{"climbing out", Server{JudgeBaseURLs: []string{base}, JudgeKeyEnvs: []string{"TG_JUDGE_KEY"}}, `"key_env":"TG_JUDGE_KEY","base_url":"` + base + `/../admin"`, "config.judge.base_url", "--judge-base-url"},
		{"a sibling path", Server{JudgeBaseURLs: []string{base}, JudgeKeyEnvs: []string{"TG_JUDGE_KEY"}}, `"key_env":"TG_JUDGE_KEY","base_url":"` + base + `x"`, "config.judge.base_url", "--judge-base-url"},
		{"a cache elsewhere", Server{JudgeBaseURLs: []string{base}, JudgeKeyEnvs: []string{"TG_JUDGE_KEY"}}, `"key_env":"TG_JUDGE_KEY","base_url":"` + base + `","cache_dir":"/etc"`, "config.judge.cache_dir", "--cache-dir"},
		{"batch", Server{JudgeBaseURLs: []string{base}, JudgeKeyEnvs: []string{"TG_JUDGE_KEY"}}, `"key_env":"TG_JUDGE_KEY","base_url":"` + base + `","batch":true`, "config.judge.batch", "one by one"},
		{"below an allowed root", Server{JudgeBaseURLs: []string{srv.URL}, JudgeKeyEnvs: []string{"TG_JUDGE_KEY"}, NoCache: true}, `"key_env":"TG_JUDGE_KEY","base_url":"` + base + `/"`, "", ""},
		{"allowed", Server{JudgeBaseURLs: []string{base + "/"}, JudgeKeyEnvs: []string{"TG_JUDGE_KEY"}, NoCache: true}, `"key_env":"TG_JUDGE_KEY","base_url":"` + base + `"`, "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.s
			s.Getenv = func(k string) string { return env[k] }
			var stdout bytes.Buffer
			req := `{"op":"evaluate","config":{"profile":"deepeval","judge":{"model":"m",` + tt.judge + `}},"cases":[{"input":"Email Bob","tools_called":[],"expected_tools":[],"available_tools":[{"name":"a"}]}]}`
			if err := s.Serve(context.Background(), strings.NewReader(req), &stdout); err != nil {
				t.Fatal(err)
			}
			var resp struct{ Error, Field string }
			json.Unmarshal(stdout.Bytes(), &resp)
			if resp.Field != tt.field || !strings.Contains(resp.Error, tt.reason) {
				t.Errorf("response %s; want field %q and %q", stdout.String(), tt.field, tt.reason)
			}
			if tt.field == "" && srv.Hits("POST /v1/chat/completions") == 0 {
				t.Error("the judge was not asked")
			}
		})
	}
}

// A judge that echoes the key, whole or in part, does not get it into a
// response.
func TestServeScrubsKey(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.Key = judgeKey
	srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply {
		return openaitest.Reply{Content: `{"score": 1, "reason": "your key is ` + judgeKey + `, \"` + judgeKey[:8] + `\" for short"}`}
	}
	s := &Server{Getenv: func(k string) string { return map[string]string{"TG_JUDGE_KEY": judgeKey}[k] },
		JudgeKeyEnvs: []string{"TG_JUDGE_KEY"}, JudgeBaseURLs: []string{srv.BaseURL()}, CacheDir: t.TempDir()}
	var stdout bytes.Buffer
	req := `{"op":"evaluate","config":{"profile":"deepeval","judge":{"model":"m","key_env":"TG_JUDGE_KEY","base_url":"` + srv.BaseURL() + `"}},"cases":[{"input":"hi","tools_called":[],"expected_tools":[],"available_tools":[{"name":"a"}]}]}`
	for range 2 { // asked, then from the cache
		stdout.Reset()
		if err := s.Serve(context.Background(), strings.NewReader(req), &stdout); err != nil {
			t.Fatal(err)
		}
		if out := stdout.String(); strings.Contains(out, judgeKey[:8]) || !strings.Contains(out, "your key is [redacted], \\\"[redacted]\\\" for short") {
			t.Errorf("response %s", out)
		}
	}
	if n := srv.Hits("POST /v1/chat/completions"); n != 1 {
		t.Errorf("%d requests, want 1 (the host's cache answers the second)", n)
	}
}

// A config is built once and reused by the requests that repeat it; the
// cache is bounded.
func TestServeReusesMetrics(t *testing.T) {
	s := &Server{}
	for i := range maxCachedConfigs + 3 {
		cfg := `{"profile":"default","threshold":0.` + strconv.Itoa(i+1) + `}`
		for range 2 {
			resp := s.handle(context.Background(), []byte(`{"op":"evaluate","config":`+cfg+`,"cases":[`+serveCase+`]}`))
			if !bytes.HasPrefix(resp, []byte(`{"results":[`)) {
				t.Fatalf("config %d: response %s", i, resp)
			}
		}
		if n := len(s.metrics); n < 1 || n > maxCachedConfigs {
			t.Fatalf("after config %d: %d cached configs, want 1..%d", i, n, maxCachedConfigs)
		}
	}
	if n := len(s.metrics); n != 3 {
		t.Errorf("%d cached configs after the cache was emptied, want 3", n)
	}
}

type failingIO struct{ err error }

func (f failingIO) Read([]byte) (int, error)  { return 0, f.err }
func (f failingIO) Write([]byte) (int, error) { return 0, f.err }

// A broken stream ends Serve with its error; the end of input does not.
func TestServeStreamErrors(t *testing.T) {
	broken := errors.New("broken pipe")
	s := &Server{}
	if err := s.Serve(context.Background(), failingIO{broken}, io.Discard); !errors.Is(err, broken) {
		t.Errorf("read error: got %v, want %v", err, broken)
	}
	if err := s.Serve(context.Background(), strings.NewReader(`{"op":"version"}`), failingIO{broken}); !errors.Is(err, broken) {
		t.Errorf("write error: got %v, want %v", err, broken)
	}
	if err := s.Serve(context.Background(), strings.NewReader(""), io.Discard); err != nil {
		t.Errorf("empty input: %v", err)
	}
}

// FuzzServe checks that any request line is answered by exactly one line,
// a JSON object that is no internal error.
func FuzzServe(f *testing.F) {
	for _, seed := range []string{
		`{"op":"version","id":[1,{"a":null}]}`,
		`{"op":"evaluate","cases":[` + serveCase + `]}`,
		`{"op":"evaluate","config":[{"profile":"bfcl"},{"metric":"tool_process","rules":[]}],"cases":[{"tools_called":[]},null,"x"]}`,
		`{"op":"evaluate","config":{"metrics":"x"},"cases":[],"offset":-1}`,
		`{"op":"evaluate","config":{"judge":1},"cases":[]}`,
		`{"op":"extract","trace":"data: {}\n\n","format":"openai_chat"}`,
		`{"op":"extract","trace":{"messages":[{"role":"assistant","tool_calls":[{"function":{"name":"f","arguments":"{"}}]}]}}`,
		`{"op":null}`, `[]`, `"op"`, `{`,
	} {
		f.Add(seed)
	}
	s := &Server{Workers: 1}
	f.Fuzz(func(t *testing.T, line string) {
		var out bytes.Buffer
		if err := s.Serve(context.Background(), strings.NewReader(strings.ReplaceAll(line, "\n", " ")), &out); err != nil {
			t.Fatal(err)
		}
		if strings.TrimSpace(line) == "" {
			return
		}
		resp := strings.TrimSuffix(out.String(), "\n")
		if strings.Contains(resp, "\n") {
			t.Fatalf("response is more than one line: %q", out.String())
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(resp), &v); err != nil {
			t.Fatalf("response %q is not a JSON object: %v", resp, err)
		}
		if e, _ := v["error"].(string); strings.HasPrefix(e, "internal error") {
			t.Fatalf("request %q: %s", line, e)
		}
	})
}

// A config request reads a config file as eval --config does, and gives
// it as JSON whose metrics and judge an evaluate request takes back.
func TestServeConfig(t *testing.T) {
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
	cases := write("cases/a.jsonl", serveCase+"\n")
	write("cases/b.txt", "not a case file\n")
	suite := write("suite.yaml", `# a suite
datasets: [cases/*.jsonl]
metrics:
  - name: strict
    threshold: 1
  - profile: deepeval
    evaluation_params: [input_parameters]
judge:
  model: m
  cache_dir: .cache
workers: 3
reports:
  out: results.jsonl
`)
	quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }

	out := serve(t, `{"op":"config","path":`+quote(suite)+`}`)
	res, _ := out[0]["result"].(map[string]any)
	if res == nil {
		t.Fatalf("response %v, want a result", out[0])
	}
	want := map[string]any{
		"metrics": []any{
			map[string]any{"name": "strict", "threshold": 1.0},
			map[string]any{"profile": "deepeval", "evaluation_params": []any{"input_parameters"}},
		},
		"judge":    map[string]any{"model": "m", "cache_dir": filepath.Join(dir, ".cache")},
		"datasets": []any{cases},
		"workers":  3.0,
		"reports":  map[string]any{"out": "results.jsonl"},
	}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("config result (-want +got):\n%s", diff)
	}

	// The metrics come back to evaluate as they are.
	metrics, _ := json.Marshal(map[string]any{"metrics": res["metrics"]})
	out = serve(t, `{"op":"evaluate","config":`+string(metrics)+`,"cases":[`+serveCase+`]}`)
	ms := out[0]["results"].([]any)[0].(map[string]any)["metrics"].([]any)
	if len(ms) != 2 || ms[0].(map[string]any)["name"] != "strict" || ms[1].(map[string]any)["score"] != 0.5 {
		t.Errorf("evaluate with the file's metrics: %v", out[0])
	}

	errorTests := []struct {
		name, file, text, want string
	}{
		{"missing file", "none.yaml", "", "none.yaml"},
		{"misspelled key", "typo.yaml", "metric: []\n", "metric: unknown key"},
		{"a dataset that names no file", "nofile.yaml", "datasets: [missing/*.jsonl]\n", "datasets[0]: no file matches"},
		{"a bad judge section", "judge.yaml", "judge: {modle: m}\n", "judge"},
	}
	for _, tt := range errorTests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, tt.file)
			if tt.text != "" {
				p = write(tt.file, tt.text)
			}
			r := serve(t, `{"op":"config","path":`+quote(p)+`}`)[0]
			e, _ := r["error"].(string)
			if f, _ := r["field"].(string); !strings.HasPrefix(f, "path") || !strings.Contains(e, tt.file) || !strings.Contains(e, tt.want) {
				t.Errorf("response %v, want an error on path naming %s and %q", r, tt.file, tt.want)
			}
		})
	}
	if r := serve(t, `{"op":"config"}`)[0]; r["field"] != "path" {
		t.Errorf("config without a path: %v", r)
	}

	// "datasets": false leaves them unread, so that a host with cases of
	// its own is not stopped by a pattern that names no file.
	nofile := write("nofile-metrics.yaml", "datasets: [missing/*.jsonl]\nmetrics: [{name: strict}]\n")
	r := serve(t, `{"op":"config","path":`+quote(nofile)+`,"datasets":false}`)[0]
	if res, _ := r["result"].(map[string]any); res == nil || res["datasets"] != nil || res["metrics"] == nil {
		t.Errorf(`config with "datasets":false: %v, want its metrics and no datasets`, r)
	}
	if r := serve(t, `{"op":"config","path":`+quote(nofile)+`,"datasets":"no"}`)[0]; r["field"] != "datasets" {
		t.Errorf(`config with "datasets":"no": %v, want an error on datasets`, r)
	}
}

// A request line past the budget is answered with an error naming it and
// is not held; the lines after it are served.
func TestServeLineBudget(t *testing.T) {
	s := &Server{MaxLine: 1 << 10}
	in := io.MultiReader(strings.NewReader(`{"op":"version","id":1}`+"\n"),
		io.LimitReader(zeroReader{}, 1<<20), // a line of a MiB of NULs
		strings.NewReader("\n"+`{"op":"version","id":3}`+"\n"))
	var out bytes.Buffer
	if err := s.Serve(context.Background(), in, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{
		`{"id":1,"result":{"version":""}}`,
		`{"error":"standard input:2: the line is larger than 1 KiB, the most toolgrade reads at once (--max-line-size raises it)"}`,
		`{"id":3,"result":{"version":""}}`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("responses:\n%s\nwant:\n%s", out.String(), strings.Join(want, "\n"))
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
