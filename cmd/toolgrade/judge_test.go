package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/openai"
	"github.com/toolgrade/toolgrade/openai/openaitest"
)

const judgeKey = "sk-e2e-SECRET-7f3a9c1d"

// runWithEnv runs the program in-process with the given environment.
func runWithEnv(t *testing.T, env map[string]string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	m := &Main{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return env[k] }}
	err := m.Run(context.Background(), args)
	code := 0
	if err != nil {
		var exit *ExitError
		code = 2
		if errors.As(err, &exit) {
			code = exit.Code
		}
		errOut.WriteString(err.Error())
	}
	return code, out.String(), errOut.String()
}

const judgedCases = `{"id":"right","input":"What's the weather in Paris?","tools_called":[{"name":"get_weather","args":{"city":"Paris"}}],"expected_tools":[{"name":"get_weather","args":{"city":"Paris"}}],"available_tools":[{"name":"get_weather","description":"Weather for a city"},{"name":"send_email","description":"Send an email"}]}
{"id":"wrong","input":"Email Bob the report","tools_called":[{"name":"get_weather","args":{"city":"Bob"}}],"expected_tools":[{"name":"send_email","args":{"to":"Bob"}}],"available_tools":[{"name":"get_weather","description":"Weather for a city"},{"name":"send_email","description":"Send an email"}]}
{"id":"no-tools","input":"Say hi","tools_called":[],"expected_tools":[]}
`

// judgeServer is a fake API that says the email case chose the wrong
// tool, and everything else is right.
func judgeServer(t *testing.T) *openaitest.Server {
	srv := openaitest.NewServer(t)
	srv.Key = judgeKey
	srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		if strings.Contains(r.User, "Email Bob") {
			return openaitest.Reply{Content: `{"score": 0.25, "reason": "get_weather cannot send email"}`, PromptTokens: 1000, CompletionTokens: 100}
		}
		return openaitest.Reply{Content: `{"score": 1, "reason": "the right tool"}`, PromptTokens: 1000, CompletionTokens: 100}
	}
	return srv
}

func judgeArgs(srv *openaitest.Server, cacheDir string, more ...string) []string {
	return append([]string{"eval", "--judge-base-url", srv.BaseURL(), "--judge-model", "judge-1",
		"--judge-key-env", "TG_JUDGE_KEY", "--cache-dir", cacheDir}, more...)
}

var judgeEnv = map[string]string{"TG_JUDGE_KEY": judgeKey}

func parseResults(t *testing.T, out string) map[string]toolgrade.MetricResult {
	t.Helper()
	got := map[string]toolgrade.MetricResult{}
	for line := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		r, err := toolgrade.ParseResult([]byte(line))
		if err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		got[r.ID] = r.Metrics[0]
	}
	return got
}

func TestEvalToolSelectionJudge(t *testing.T) {
	srv := judgeServer(t)
	cases := writeFile(t, "cases.jsonl", judgedCases)
	cache := filepath.Join(t.TempDir(), "cache")
	reports := t.TempDir()
	args := judgeArgs(srv, cache, "--metric", "tool_selection", "--judge-input-price", "2", "--judge-output-price", "8",
		"--html", filepath.Join(reports, "r.html"), "--markdown", filepath.Join(reports, "r.md"), "--junit", filepath.Join(reports, "r.xml"), cases)

	code, out, stderr := runWithEnv(t, judgeEnv, "", args...)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (a case fails, one has no tools); stderr:\n%s", code, stderr)
	}
	t.Logf("stderr:\n%s", stderr)
	got := parseResults(t, out)
	if r := got["right"]; r.Score != 1 || !r.Success || r.Reason != "the right tool" || toolgrade.DetailOf[toolgrade.Usage](&r) == (toolgrade.Usage{}) || toolgrade.DetailOf[toolgrade.Usage](&r).Requests != 1 {
		t.Errorf("right: %+v", r)
	}
	if r := got["wrong"]; r.Score != 0.25 || r.Success || toolgrade.DetailOf[toolgrade.Components](&r)["tool_selection"] != 0.25 {
		t.Errorf("wrong: %+v", r)
	}
	if r := got["no-tools"]; !strings.Contains(r.Error, "needs the available tools") {
		t.Errorf("no-tools: %+v", r)
	}
	for _, want := range []string{
		"judge: 2 requests (0 from cache), 2000 prompt + 200 completion tokens",
		"judge cost: about $0.0056 for 2000 prompt + 200 completion tokens",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("summary lacks %q:\n%s", want, stderr)
		}
	}
	if n := srv.Hits("POST /v1/chat/completions"); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}

	// A re-run is served from the cache.
	code, out2, stderr2 := runWithEnv(t, judgeEnv, "", args...)
	if code != 1 || srv.Hits("POST /v1/chat/completions") != 2 {
		t.Errorf("re-run: exit %d, %d requests in all; want 1 and still 2", code, srv.Hits("POST /v1/chat/completions"))
	}
	if !strings.Contains(stderr2, "judge: 0 requests (2 from cache)") || strings.Contains(stderr2, "judge cost") {
		t.Errorf("re-run summary:\n%s", stderr2)
	}
	got2 := parseResults(t, out2)
	if r := got2["wrong"]; r.Score != 0.25 || toolgrade.DetailOf[toolgrade.Usage](&r).CachedRequests != 1 {
		t.Errorf("cached result %+v", got2["wrong"])
	}

	// --no-cache asks again.
	runWithEnv(t, judgeEnv, "", append(args[:len(args)-1:len(args)-1], "--no-cache", cases)...)
	if n := srv.Hits("POST /v1/chat/completions"); n != 4 {
		t.Errorf("--no-cache: %d requests in all, want 4", n)
	}

	assertNoKeyIn(t, judgeKey, out, stderr, out2, stderr2)
	assertNoKeyInFiles(t, judgeKey, cache)
	assertNoKeyInFiles(t, judgeKey, reports)
}

// With a judge, the native metric takes the lower of its score and the
// judge's on cases with available tools.
func TestEvalNativeMetricWithJudge(t *testing.T) {
	srv := judgeServer(t)
	srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		return openaitest.Reply{Content: `{"score": 0.5, "reason": "a needed tool is missing"}`}
	}
	cases := writeFile(t, "cases.jsonl", judgedCases)
	code, out, stderr := runWithEnv(t, judgeEnv, "", judgeArgs(srv, t.TempDir(), cases)...)
	if code != 1 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	got := parseResults(t, out)
	if r := got["right"]; r.Score != 0.5 || toolgrade.DetailOf[toolgrade.Components](&r)["deterministic"] != 1 || toolgrade.DetailOf[toolgrade.Components](&r)["tool_selection"] != 0.5 ||
		!strings.Contains(r.Reason, "tool selection (judge) 0.5: a needed tool is missing") {
		t.Errorf("right: %+v", r)
	}
	if r := got["wrong"]; r.Score != 0 || toolgrade.DetailOf[toolgrade.Components](&r)["tool_selection"] != 0.5 {
		t.Errorf("wrong: %+v", r)
	}
	if r := got["no-tools"]; r.Score != 1 || toolgrade.DetailOf[toolgrade.Components](&r) != nil || toolgrade.DetailOf[toolgrade.Usage](&r) != (toolgrade.Usage{}) {
		t.Errorf("no-tools (no judge without tools): %+v", r)
	}
	if n := srv.Hits("POST /v1/chat/completions"); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

func TestEvalArgumentCorrectness(t *testing.T) {
	srv := judgeServer(t)
	srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		_, call, _ := strings.Cut(r.User, "Call to grade:\n")
		if strings.Contains(call, `"city":"Bob"`) {
			return openaitest.Reply{Content: `{"score": 0, "reason": "Bob is not a city"}`}
		}
		return openaitest.Reply{Content: `{"score": 1, "reason": "fine"}`}
	}
	cases := writeFile(t, "cases.jsonl", judgedCases)
	_, out, stderr := runWithEnv(t, judgeEnv, "", judgeArgs(srv, t.TempDir(), "--metric", "argument_correctness", cases)...)
	got := parseResults(t, out)
	if got["right"].Score != 1 || got["wrong"].Score != 0 || got["no-tools"].Score != 1 {
		t.Errorf("scores %v %v %v; stderr:\n%s", got["right"].Score, got["wrong"].Score, got["no-tools"].Score, stderr)
	}
	if !strings.Contains(got["wrong"].Reason, "call #0 get_weather: no: Bob is not a city") {
		t.Errorf("reason %q", got["wrong"].Reason)
	}
}

// A judgment that fails is an error result for its case; the run goes on.
func TestEvalJudgeFailure(t *testing.T) {
	srv := judgeServer(t)
	srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		if strings.Contains(r.User, "Email Bob") {
			return openaitest.Reply{Content: "I cannot decide."}
		}
		return openaitest.Reply{Content: `{"score": 1, "reason": "ok"}`}
	}
	cases := writeFile(t, "cases.jsonl", judgedCases)
	code, out, _ := runWithEnv(t, judgeEnv, "", judgeArgs(srv, t.TempDir(), "--metric", "tool_selection", cases)...)
	got := parseResults(t, out)
	if code != 1 || got["right"].Score != 1 || !strings.Contains(got["wrong"].Error, "tool selection judge: judge reply has no JSON verdict") {
		t.Errorf("exit %d, results %+v", code, got)
	}
	if !strings.Contains(out, `"id":"wrong","success":false,"metrics":[{"name":"tool_selection","profile":"default","score":null`) {
		t.Errorf("the failed judgment is not an error result:\n%s", out)
	}
}

func TestEvalJudgeUsageErrors(t *testing.T) {
	srv := judgeServer(t)
	cases := writeFile(t, "cases.jsonl", judgedCases)
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"no key", nil, judgeArgs(srv, t.TempDir(), "--judge-base-url", "https://judge.example.com/v1", cases), "no API key in $TG_JUDGE_KEY"},
		{"judged metric without judge", nil, []string{"eval", "--metric", "tool_selection", cases}, "metric tool_selection: needs a judge"},
		{"batch without judge", nil, []string{"eval", "--judge-batch", cases}, "--judge-batch: no judge configured"},
		{"batch without cache", judgeEnv, judgeArgs(srv, t.TempDir(), "--judge-batch", "--no-cache", cases), "batch mode needs the cache"},
		{"bad config key", nil, []string{"eval", "--config", writeFile(t, "c.yaml", "judge:\n  model: m\n  temprature: 0\n"), cases},
			`judge: unknown option "temprature"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runWithEnv(t, tt.env, "", tt.args...)
			if code != 2 || out != "" || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, out, stderr, tt.want)
			}
		})
	}
	if n := srv.Hits("POST /v1/chat/completions"); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// The judge section of a config works like the flags, and flags win.
func TestEvalJudgeConfig(t *testing.T) {
	srv := judgeServer(t)
	cases := writeFile(t, "cases.jsonl", judgedCases)
	cfg := writeFile(t, "toolgrade.yaml", `metrics:
  - metric: tool_selection
judge:
  base_url: `+srv.BaseURL()+`
  model: from-config
  key_env: TG_JUDGE_KEY
  cache_dir: cache
  temperature: 0.1
`)
	code, out, stderr := runWithEnv(t, judgeEnv, "", "eval", "--config", cfg, "--judge-model", "from-flag", cases)
	if code != 1 || parseResults(t, out)["wrong"].Score != 0.25 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	r := srv.Chats()[0]
	if r.Model != "from-flag" || r.Body["temperature"] != 0.1 {
		t.Errorf("model %q temperature %v", r.Model, r.Body["temperature"])
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(cfg), "cache")); err != nil {
		t.Errorf("cache_dir is not taken from the config's directory: %v", err)
	}
}

// Batch mode from standard input: a first pass collects the requests, one
// batch answers them, and the results come from the cache.
func TestEvalJudgeBatch(t *testing.T) {
	srv := judgeServer(t)
	srv.BatchPolls = 1
	cache := filepath.Join(t.TempDir(), "cache")
	args := judgeArgs(srv, cache, "--metric", "tool_selection", "--judge-batch", "--batch-poll-interval", "1ms", "-")
	code, out, stderr := runWithEnv(t, judgeEnv, judgedCases, args...)
	if code != 1 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	t.Logf("stderr:\n%s", stderr)
	got := parseResults(t, out)
	if r := got["right"]; len(got) != 3 || r.Score != 1 || got["wrong"].Score != 0.25 || toolgrade.DetailOf[toolgrade.Usage](&r).CachedRequests != 1 {
		t.Errorf("results %+v", got)
	}
	if srv.Hits("POST /v1/chat/completions") != 0 || srv.Hits("POST /v1/batches") != 1 || srv.Hits("POST /v1/files") != 1 {
		t.Errorf("requests: %d sync, %d batches, %d uploads", srv.Hits("POST /v1/chat/completions"), srv.Hits("POST /v1/batches"), srv.Hits("POST /v1/files"))
	}
	for _, want := range []string{
		"toolgrade: judge batch batch_2: created for 2 requests",
		"toolgrade: judge batch batch_2: completed, 2 of 2 done",
		"judge batch: 2 requests, 2000 prompt + 200 completion tokens",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	// Again: nothing left to batch.
	code, out2, stderr2 := runWithEnv(t, judgeEnv, judgedCases, args...)
	if code != 1 || out2 != out || srv.Hits("POST /v1/batches") != 1 {
		t.Errorf("re-run: exit %d, %d batches; stderr:\n%s", code, srv.Hits("POST /v1/batches"), stderr2)
	}
	assertNoKeyIn(t, judgeKey, out, stderr, out2, stderr2)
	assertNoKeyInFiles(t, judgeKey, cache)
}

func TestPromptsCommand(t *testing.T) {
	code, out, stderr := run(t, "", "prompts")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"=== tool_selection (version tool_selection/v1)",
		"=== argument_correctness (version argument_correctness/v1)",
		`Answer with a JSON object only: {"score"`,
		"<the case's input>",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func assertNoKeyIn(t *testing.T, key string, outputs ...string) {
	t.Helper()
	for i, o := range outputs {
		if strings.Contains(o, key) {
			t.Errorf("output %d contains the API key", i)
		}
	}
}

func assertNoKeyInFiles(t *testing.T, key, dir string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		data, err := os.ReadFile(p)
		if err == nil && bytes.Contains(data, []byte(key)) {
			t.Errorf("%s contains the API key", p)
		}
		return err
	})
	if err != nil || n == 0 {
		t.Errorf("no cache files checked under %s: %v", dir, err)
	}
}

// unwritableCache is a cache directory in which no entry can be stored:
// each two-digit subdirectory an entry goes to is a file.
func unwritableCache(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "cache")
	os.MkdirAll(dir, 0o755)
	for i := range 256 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("%02x", i)), nil, 0o644)
	}
	return dir
}

// judgedCaseLines returns n judged cases, each asking its own prompt.
func judgedCaseLines(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"id":"c%d","input":"question %d","tools_called":[{"name":"get_weather","args":{"city":"Paris"}}],"available_tools":[{"name":"get_weather","description":"Weather for a city"}]}`+"\n", i, i)
	}
	return b.String()
}

// argumentCaseLines returns n cases of calls calls each, every call with
// arguments of its own, so that each asks its own argument_correctness
// prompt.
func argumentCaseLines(n, calls int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"id":"c%d","input":"weather in %d cities","tools_called":[`, i, calls)
		for k := range calls {
			if k > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"name":"get_weather","args":{"city":"city %d-%d"}}`, i, k)
		}
		b.WriteString(`],"available_tools":[{"name":"get_weather","description":"Weather for a city"}]}` + "\n")
	}
	return b.String()
}

// The judge has concurrency requests in flight whenever that many wait:
// 40 judged prompts at the default concurrency of 8 go in five waves of 8,
// one request at a time or after a batch that answered none, whether they
// are 40 cases' tool_selection prompts or the argument_correctness
// prompts of 5 cases of 8 calls. (Workers that each graded a batch of
// cases one after another, and a case's calls asked about one after
// another, left some of the judge's slots idle.) A batch that answers
// takes every prompt, and nothing is then sent one by one.
func TestEvalKeepsJudgeBusy(t *testing.T) {
	const prompts, concurrency = 40, openai.DefaultConcurrency
	dir := t.TempDir()
	for _, metric := range []struct{ name, cases string }{
		{"tool_selection", judgedCaseLines(prompts)},
		{"argument_correctness", argumentCaseLines(prompts/8, 8)},
	} {
		in := filepath.Join(dir, metric.name+".jsonl")
		if err := os.WriteFile(in, []byte(metric.cases), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name    string
			args    []string
			batched int // prompts the batch answers
		}{
			{"one by one", nil, 0},
			{"batch left unanswered", []string{"--judge-batch", "--batch-poll-interval", "1ms"}, 0},
			{"batch", []string{"--judge-batch", "--batch-poll-interval", "1ms"}, prompts},
		} {
			t.Run(metric.name+"/"+tc.name, func(t *testing.T) {
				srv := openaitest.NewServer(t)
				srv.Key = judgeKey
				srv.BatchEnd = openaitest.BatchFailed
				if tc.batched > 0 {
					srv.BatchEnd = openaitest.BatchCompleted
				}
				srv.Together = concurrency
				args := judgeArgs(srv, filepath.Join(t.TempDir(), "cache"), append(tc.args, "--metric", metric.name, "--quiet", in)...)
				if code, _, stderr := runWithEnv(t, judgeEnv, "", args...); code != 0 {
					t.Fatalf("exit %d; stderr:\n%s", code, stderr)
				}
				inBatch := 0
				for _, r := range srv.Chats() {
					if r.InBatch {
						inBatch++
					}
				}
				if want := prompts - tc.batched; tc.batched > 0 {
					if requests := srv.Hits("POST /v1/chat/completions"); inBatch != tc.batched || requests != want {
						t.Errorf("%d prompts in the batch, %d sent one by one; want %d, %d", inBatch, requests, tc.batched, want)
					}
					return
				}
				requests := srv.Hits("POST /v1/chat/completions")
				if requests != prompts || srv.MostInFlight() != concurrency || srv.Stranded() != 0 {
					t.Errorf("%d requests, at most %d in flight, %d stranded waiting for %d together; want %d requests, %d in flight, none stranded",
						requests, srv.MostInFlight(), srv.Stranded(), concurrency, prompts, concurrency)
				}
			})
		}
	}
}
