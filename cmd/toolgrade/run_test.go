package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/shared"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/openai/openaitest"
)

// chatBody is a chat completion whose message is given as JSON.
func chatBody(message string) openaitest.Reply {
	return openaitest.Reply{Body: `{"id":"chatcmpl-x","object":"chat.completion","model":"m","choices":[{"index":0,"message":` +
		message + `,"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":3,"total_tokens":15}}`}
}

// callsMessage is an assistant message calling name(arguments text) for
// each pair.
func callsMessage(pairs ...string) string {
	var tcs []string
	for i := 0; i+1 < len(pairs); i += 2 {
		tcs = append(tcs, fmt.Sprintf(`{"id":"call_%d","type":"function","function":{"name":%q,"arguments":%q}}`, i/2+1, pairs[i], pairs[i+1]))
	}
	return `{"role":"assistant","content":null,"tool_calls":[` + strings.Join(tcs, ",") + `]}`
}

// lastUser is the text of the last user message of a request.
func lastUser(r *openaitest.ChatRequest) string {
	msgs, _ := r.Body["messages"].([]any)
	text := ""
	for _, m := range msgs {
		mo, _ := m.(map[string]any)
		if s, ok := mo["content"].(string); ok && mo["role"] == "user" {
			text = s
		}
	}
	return text
}

// fakeModel serves scripted replies by the first user message, each
// script's replies in turn (the last repeats).
type fakeModel struct {
	*openaitest.Server
	mu     sync.Mutex
	script map[string][]openaitest.Reply
	seen   map[string]int
}

func newFakeModel(t *testing.T, script map[string][]openaitest.Reply) *fakeModel {
	f := &fakeModel{Server: openaitest.NewServer(t), script: script, seen: map[string]int{}}
	f.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		f.mu.Lock()
		defer f.mu.Unlock()
		replies := f.script[r.User]
		if len(replies) == 0 {
			return openaitest.Reply{Status: 400, Body: `{"error":{"message":"no script for ` + r.User + `"}}`}
		}
		n := f.seen[r.User]
		f.seen[r.User]++
		return replies[min(n, len(replies)-1)]
	}
	return f
}

const runTools = `"available_tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}},{"type":"function","function":{"name":"get_time","parameters":{"type":"object","properties":{"tz":{"type":"string"}}}}}]`

// TestRunThenEval runs a small dataset through a fake model with every
// kind of reply, then grades the run file offline: the results must be
// the same, byte for byte.
func TestRunThenEval(t *testing.T) {
	retryNow := map[string]string{"Retry-After": "0"}
	srv := newFakeModel(t, map[string][]openaitest.Reply{
		"Weather in Paris?":       {chatBody(callsMessage("get_weather", `{"city":"Paris"}`))},
		"Paris and Rome?":         {chatBody(callsMessage("get_weather", `{"city":"Paris"}`, "get_weather", `{"city":"Rome"}`))},
		"Broken arguments":        {chatBody(callsMessage("get_weather", `{"city": "Par`))},
		"Unknown tool":            {chatBody(callsMessage("get_stock", `{"symbol":"ACME"}`))},
		"Refuse":                  {chatBody(`{"role":"assistant","content":null,"refusal":"I can't do that."}`)},
		"Always down":             {{Status: 500, Header: retryNow}},
		"Busy, then fine":         {{Status: 429, Header: retryNow}, {Status: 503, Header: retryNow}, chatBody(callsMessage("get_time", `{"tz":"CET"}`))},
		"Slow, then fine":         {{Hang: true}, chatBody(callsMessage("get_time", `{}`))},
		"Not a chat completion":   {{Body: `{"object":"error"}`}},
		"Plain answer, no calls!": {chatBody(`{"role":"assistant","content":"No tools needed."}`)},
	})
	lines := []string{
		`{"id":"ok","input":"Weather in Paris?",` + runTools + `,"expected_tools":[{"name":"get_weather","args":{"city":"Paris"}}]}`,
		`{"id":"parallel","input":"Paris and Rome?",` + runTools + `,"expected_tools":[{"name":"get_weather","args":{"city":"Rome"}},{"name":"get_weather","args":{"city":"Paris"}}]}`,
		`{"id":"bad-args","input":"Broken arguments",` + runTools + `,"expected_tools":[{"name":"get_weather","args":{"city":"Paris"}}]}`,
		`{"id":"unknown","input":"Unknown tool",` + runTools + `,"expected_tools":[{"name":"get_weather","args":{"city":"Paris"}}]}`,
		`{"id":"refusal","input":"Refuse",` + runTools + `,"expected_tools":[{"name":"get_weather","args":{"city":"Paris"}}]}`,
		`{"id":"down","input":"Always down",` + runTools + `,"expected_tools":[]}`,
		`{"id":"busy","input":"Busy, then fine",` + runTools + `,"expected_tools":[{"name":"get_time","args":{"tz":"CET"}}]}`,
		`{"id":"slow","input":"Slow, then fine",` + runTools + `,"expected_tools":[{"name":"get_time"}]}`,
		`{"id":"junk","input":"Not a chat completion",` + runTools + `,"expected_tools":[]}`,
		`{"id":"answer","input":"Plain answer, no calls!","expected_tools":[]}`,
		`{"id":"no-input","expected_tools":[]}`,
		`{"id": "broken json`,
	}
	dir := t.TempDir()
	cases := filepath.Join(dir, "cases.jsonl")
	if err := os.WriteFile(cases, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	record, live, offline := filepath.Join(dir, "run.jsonl"), filepath.Join(dir, "live.jsonl"), filepath.Join(dir, "offline.jsonl")
	code, _, stderr := run(t, "", "run", "--model", "test-model", "--base-url", srv.BaseURL(), "--no-cache",
		"--max-retries", "2", "--timeout", "300ms", "--record", record, "--out", live, cases)
	if code != 1 {
		t.Errorf("run: exit code %d, want 1 (cases fail); stderr:\n%s", code, stderr)
	}
	for _, want := range []string{
		"processing errors: 7 of 12 cases (58.3%): 2 bad_case, 1 invalid_arguments, 2 model_error, 1 refusal, 1 unknown_tool",
		"model: 12 cases, 10 requests (2 failed), 96 prompt + 24 completion tokens",
		"run file: " + record,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	code, _, stderr = run(t, "", "eval", "--out", offline, record)
	if code != 1 {
		t.Errorf("eval: exit code %d, want 1; stderr:\n%s", code, stderr)
	}
	liveData, offlineData := read(t, live), read(t, offline)
	if liveData != offlineData {
		t.Errorf("eval of the run file differs from the run:\n%s", lineDiff(liveData, offlineData))
	}

	results := map[string]toolgrade.Result{}
	for _, line := range strings.Split(strings.TrimSpace(liveData), "\n") {
		r, err := toolgrade.ParseResult([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		results[r.ID] = r
	}
	if len(results) != len(lines) {
		t.Errorf("%d results for %d cases", len(results), len(lines))
	}
	for id, want := range map[string]string{
		"ok": "pass", "parallel": "pass", "busy": "pass", "slow": "pass", "answer": "pass",
		"bad-args": "fail", "unknown": "fail", "refusal": "fail",
		"down":     "error:HTTP 500 Internal Server Error",
		"junk":     "error:not a valid chat completion",
		"no-input": "error:no input to send",
		"line-12":  "error:invalid JSON",
	} {
		r := results[id]
		got := "fail"
		switch {
		case r.Metrics[0].Error != "":
			got = "error:" + r.Metrics[0].Error
		case r.Success:
			got = "pass"
		}
		if wantErr, isErr := strings.CutPrefix(want, "error:"); isErr && !strings.Contains(got, wantErr) || !isErr && got != want {
			t.Errorf("%s: %s, want %s", id, got, want)
		}
	}
	if n := srv.Hits("POST /v1/chat/completions"); n != 17 {
		t.Errorf("%d requests, want 17 (6 answered at once, busy and slow after 2 and 1 retries, 3 attempts each for down and junk)", n)
	}
}

// TestRunMultiTurnAndCache feeds recorded outputs back, grades outputs
// too, and re-runs from the cache without a request.
func TestRunMultiTurnAndCache(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		msgs, _ := r.Body["messages"].([]any)
		switch len(msgs) {
		case 1:
			return chatBody(callsMessage("get_weather", `{"city":"Oslo"}`))
		case 3:
			last, _ := msgs[2].(map[string]any)
			if last["role"] != "tool" || last["tool_call_id"] != "call_1" || last["content"] != `{"sky":"snow"}` {
				return openaitest.Reply{Status: 400, Body: fmt.Sprintf(`{"error":{"message":"bad tool message %v"}}`, last)}
			}
			return chatBody(callsMessage("get_time", `{"tz":"CET"}`))
		}
		return chatBody(`{"role":"assistant","content":"Snowy, 9:00."}`)
	}
	cases := writeFile(t, "trip.jsonl", `{"id":"trip","input":"Trip to Oslo",`+runTools+`,"expected_tools":[`+
		`{"name":"get_weather","args":{"city":"Oslo"},"output":{"sky":"snow"}},{"name":"get_time","args":{"tz":"CET"},"output":"09:00"}]}`+"\n")
	record := filepath.Join(t.TempDir(), "trip.run.jsonl")
	args := []string{"run", "--model", "m", "--base-url", srv.BaseURL(), "--cache-dir", t.TempDir(), "--multi-turn",
		"--record", record, "--output", "exact", "--order", "in-order", "--temperature", "0", "--seed", "7", "--parallel-tool-calls=false", cases}
	code, stdout, stderr := run(t, "", args...)
	if code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, `"success":true`) || srv.Hits("POST /v1/chat/completions") != 3 {
		t.Errorf("results %s after %d requests", stdout, srv.Hits("POST /v1/chat/completions"))
	}
	data := read(t, record)
	for _, want := range []string{
		`"tools_called":[{"name":"get_weather","args":{"city":"Oslo"},"id":"call_1","output":{"sky":"snow"}},{"name":"get_time","args":{"tz":"CET"},"id":"call_1","output":"09:00"}]`,
		`"actual_output":"Snowy, 9:00."`,
		`"stop":"answered"`,
		`"temperature":0.0`,
		`"seed":7`,
		`"parallel_tool_calls":false`,
	} {
		if !strings.Contains(data, want) {
			t.Errorf("run file lacks %s:\n%s", want, data)
		}
	}
	code, stdout2, stderr := run(t, "", args...)
	if code != 0 || stdout2 != stdout || srv.Hits("POST /v1/chat/completions") != 3 {
		t.Errorf("re-run: exit %d, %d requests (want none new); stderr:\n%s", code, srv.Hits("POST /v1/chat/completions"), stderr)
	}
	if !strings.Contains(stderr, "0 requests (3 from the cache)") {
		t.Errorf("re-run summary: %s", stderr)
	}
}

func TestRunToolCallParser(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		if _, ok := r.Body["tools"]; ok || !strings.Contains(r.System, "Python list of the calls") {
			return openaitest.Reply{Status: 400, Body: `{"error":{"message":"this model has no tools; want them in the prompt"}}`}
		}
		return chatBody(`{"role":"assistant","content":"[get_weather(city='Paris')]"}`)
	}
	cases := writeFile(t, "cases.jsonl", `{"id":"p","input":"Weather in Paris?",`+runTools+`,"expected_tools":[{"name":"get_weather","args":{"city":"Paris"}}]}`+"\n")
	code, stdout, stderr := run(t, "", "run", "--model", "m", "--base-url", srv.BaseURL(), "--no-cache",
		"--tool-call-parser", "pythonic", "--record", filepath.Join(t.TempDir(), "r.jsonl"), cases)
	if code != 0 || !strings.Contains(stdout, `"success":true`) {
		t.Errorf("exit code %d, results %s; stderr:\n%s", code, stdout, stderr)
	}
}

func TestRunUsage(t *testing.T) {
	cases := writeFile(t, "cases.jsonl", `{"input":"x"}`+"\n")
	bfcl := writeFile(t, "BFCL_v4_simple_python.json", `{"id":"simple_python_0","question":[[{"role":"user","content":"x"}]],"function":[]}`+"\n")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"run", cases}, `"model" not set`},
		{[]string{"run", "--model", "m", "--base-url", "http://127.0.0.1:1/v1", "--tool-call-parser", "xml", cases}, `unknown tool-call protocol "xml"`},
		{[]string{"run", "--model", "m", "--base-url", "https://api.example.com/v1", cases}, "no API key for api.example.com: $OPENAI_API_KEY is empty"},
		{[]string{"run", "--model", "m", "--base-url", "ftp://x", "--key-env=", cases}, "want an http or https URL"},
		{[]string{"run", "--model", "m", "--key-env=", "--record", cases, cases}, "is the case file"},
		{[]string{"run", "--model", "m", "--key-env=", cases, bfcl}, "BFCL question files and other datasets"},
		{[]string{"run", "--model", "m", "--key-env=", "--profile", "nope", cases}, "nope"},
		{[]string{"run", "--model", "m", "--key-env=", filepath.Join(t.TempDir(), "missing.jsonl")}, "no such file"},
	}
	for _, tt := range tests {
		code, _, stderr := run(t, "", tt.args...)
		if code != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%q: exit code %d, stderr %q; want 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
}

// TestRunBFCL runs a few entries of each BFCL Python category through a
// fake model that answers with the ground truth (dotted names sent as
// OpenAI accepts them), then grades the result files with toolgrade bfcl:
// every entry must be valid.
func TestRunBFCL(t *testing.T) {
	src := shared.Path(t, "conformance", "bfcl")
	data := t.TempDir()
	if err := os.Mkdir(filepath.Join(data, "possible_answer"), 0o755); err != nil {
		t.Fatal(err)
	}
	gold := map[string]string{} // question → reply message
	var questionFiles []string
	total := 0
	for _, cat := range []string{"simple_python", "multiple", "parallel", "parallel_multiple", "live_simple", "live_multiple", "live_parallel"} {
		name := "BFCL_v4_" + cat + ".json"
		answers := map[string]jsonvalue.Object{}
		for _, v := range firstLines(t, filepath.Join(src, "possible_answer", name), -1) {
			id, _ := v.Get("id")
			answers[id.(string)] = v
		}
		var qs, as []string
		for _, q := range firstLines(t, filepath.Join(src, name), 4) {
			id, _ := q.Get("id")
			a, ok := answers[id.(string)]
			question := bfclQuestion(q)
			if !ok || question == "" || gold[question] != "" {
				continue
			}
			gt, _ := a.Get("ground_truth")
			gold[question] = goldCalls(gt.([]any))
			qs = append(qs, string(jsonvalue.Append(nil, q)))
			as = append(as, string(jsonvalue.Append(nil, a)))
		}
		total += len(qs)
		path := filepath.Join(data, name)
		if err := os.WriteFile(path, []byte(strings.Join(qs, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(data, "possible_answer", name), []byte(strings.Join(as, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		questionFiles = append(questionFiles, path)
	}
	srv := openaitest.NewServer(t)
	srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		msg, ok := gold[lastUser(r)]
		if !ok {
			return openaitest.Reply{Status: 400, Body: `{"error":{"message":"unknown question"}}`}
		}
		tools, _ := r.Body["tools"].([]any)
		for _, tool := range tools {
			name, _ := tool.(map[string]any)["function"].(map[string]any)["name"].(string)
			if strings.Contains(name, ".") {
				return openaitest.Reply{Status: 400, Body: `{"error":{"message":"Invalid 'tools[0].function.name': string does not match pattern."}}`}
			}
		}
		return chatBody(msg)
	}
	out := t.TempDir()
	record := filepath.Join(out, "bfcl.run.jsonl")
	args := append([]string{"run", "--model", "m", "--base-url", srv.BaseURL(), "--no-cache", "--record", record, "--bfcl-out", filepath.Join(out, "results")}, questionFiles...)
	code, stdout, stderr := run(t, "", args...)
	if code != 0 {
		t.Fatalf("run: exit code %d\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, fmt.Sprintf("processing errors: 0 of %d cases", total)) {
		t.Errorf("stderr: %s", stderr)
	}
	code, stdout, stderr = run(t, "", "bfcl", "--data", data, "--results", filepath.Join(out, "results"))
	if code != 0 {
		t.Errorf("bfcl: exit code %d\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, row := range strings.Split(stdout, "\n") {
		if f := strings.Fields(row); len(f) == 4 && strings.HasSuffix(f[1], "%") && f[1] != "100.00%" {
			t.Errorf("category below 100%%: %s", row)
		}
	}
	if !strings.Contains(stdout, "live_parallel") || !strings.Contains(stdout, "simple_python") {
		t.Errorf("table lacks categories:\n%s", stdout)
	}
	// The run file holds the possible answers: eval grades it with the
	// bfcl profile as toolgrade bfcl does.
	code, stdout, stderr = run(t, "", "eval", "--profile", "bfcl", record)
	if code != 0 || strings.Count(stdout, `"success":true,"metrics"`) != total {
		t.Errorf("eval --profile bfcl: exit code %d\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// firstLines reads the first n JSON lines of a file (all for n < 0).
func firstLines(t *testing.T, path string, n int) []jsonvalue.Object {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	var out []jsonvalue.Object
	for sc.Scan() && (n < 0 || len(out) < n) {
		v, err := jsonvalue.Parse(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v.(jsonvalue.Object))
	}
	return out
}

// bfclQuestion is the last user message of an entry's single turn.
func bfclQuestion(q jsonvalue.Object) string {
	v, _ := q.Get("question")
	turns, _ := v.([]any)
	if len(turns) != 1 {
		return ""
	}
	text := ""
	for _, m := range turns[0].([]any) {
		mo := m.(jsonvalue.Object)
		role, _ := mo.Get("role")
		if c, ok := mo.Get("content"); ok && role == "user" {
			text, _ = c.(string)
		}
	}
	return text
}

// goldCalls is an assistant message making the ground truth's calls, with
// names as OpenAI takes them.
func goldCalls(gt []any) string {
	var pairs []string
	for _, call := range gt {
		for _, m := range call.(jsonvalue.Object) {
			pairs = append(pairs, strings.ReplaceAll(m.Key, ".", "_"), string(jsonvalue.Append(nil, goldArgs(m.Value.(jsonvalue.Object)))))
		}
	}
	return callsMessage(pairs...)
}

// goldArgs picks each parameter's first acceptable value, leaving it out
// when that is "" (BFCL's mark of an optional parameter); a dict value
// lists acceptable values per key in turn.
func goldArgs(params jsonvalue.Object) jsonvalue.Object {
	args := jsonvalue.Object{}
	for _, p := range params {
		v := p.Value.([]any)[0]
		if s, ok := v.(string); ok && s == "" {
			continue
		}
		if o, ok := v.(jsonvalue.Object); ok {
			v = goldArgs(o)
		}
		args = append(args, jsonvalue.Member{Key: p.Key, Value: v})
	}
	return args
}

// TestRunKeyStaysOut checks that the model's key is sent, and appears in
// no output, run file or cache entry, even when the server echoes it.
func TestRunKeyStaysOut(t *testing.T) {
	const key = "sk-run-secret-0123456789"
	srv := openaitest.NewServer(t)
	srv.Key = key
	srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		if r.User == "echo" {
			return openaitest.Reply{Status: 400, Body: `{"error":{"message":"bad key ` + key + `"}}`}
		}
		return chatBody(callsMessage("get_weather", `{"city":"Paris"}`))
	}
	dir := t.TempDir()
	cases := writeFile(t, "cases.jsonl", `{"id":"a","input":"hi",`+runTools+`}`+"\n"+`{"id":"b","input":"echo"}`+"\n")
	record, cache := filepath.Join(dir, "run.jsonl"), filepath.Join(dir, "cache")
	code, stderr := runWith(t, map[string]string{"MODEL_KEY": key}, "run", "--model", "m", "--base-url", srv.BaseURL(),
		"--key-env", "MODEL_KEY", "--cache-dir", cache, "--record", record, "--out", filepath.Join(dir, "out.jsonl"), cases)
	if code != 1 || !strings.Contains(stderr, "processing errors: 1 of 2 cases") {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
	if strings.Contains(stderr, key) {
		t.Errorf("the key is in stderr:\n%s", stderr)
	}
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(read(t, path), key) {
			t.Errorf("the key is in %s", path)
		}
		return nil
	})
}

// TestRunBFCLByShape runs BFCL entries from a file not named as BFCL names
// its files: they are detected by shape and recorded, but toolgrade bfcl
// could not find their data, so they are not graded.
func TestRunBFCLByShape(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		return chatBody(callsMessage("math_factorial", `{"number": 5}`))
	}
	questions := writeFile(t, "mine.jsonl", `{"id":"simple_python_1","question":[[{"role":"user","content":"5!?"}]],"function":[{"name":"math.factorial","parameters":{"type":"dict","properties":{"number":{"type":"integer"}}}}]}`+"\n")
	out := t.TempDir()
	code, _, stderr := run(t, "", "run", "--model", "m", "--base-url", srv.BaseURL(), "--no-cache",
		"--record", filepath.Join(out, "r.jsonl"), "--bfcl-out", out, questions)
	if code != 0 || !strings.Contains(stderr, "not graded") {
		t.Errorf("exit code %d; stderr:\n%s", code, stderr)
	}
	got := read(t, filepath.Join(out, "mine_result.json"))
	if !strings.HasPrefix(got, `{"id":"simple_python_1","result":[{"math.factorial":{"number":5}}],"input_token_count":12,"output_token_count":3,"latency":`) {
		t.Errorf("result file: %s", got)
	}
}
