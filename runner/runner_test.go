package runner_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/toolgrade/toolgrade/trace"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/runner"
)

// completion is a chat completion whose first choice is message (JSON).
func completion(message string) string {
	return `{"id":"chatcmpl-1","object":"chat.completion","model":"m","choices":[{"index":0,"message":` + message +
		`,"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`
}

// toolCalls is an assistant message calling the tools; each call is
// name + " " + arguments text.
func toolCalls(calls ...string) string {
	var tcs []string
	for i, c := range calls {
		name, args, _ := strings.Cut(c, " ")
		tcs = append(tcs, fmt.Sprintf(`{"id":"call_%d","type":"function","function":{"name":%q,"arguments":%q}}`, i+1, name, args))
	}
	return `{"role":"assistant","content":null,"refusal":null,"tool_calls":[` + strings.Join(tcs, ",") + `]}`
}

func text(s string) string { return fmt.Sprintf(`{"role":"assistant","content":%q}`, s) }

// A fake is a scripted model: each case (told apart by the text of its
// first user message) gets its replies in turn, one per step (a step is
// known by the assistant messages already in the request). A reply "!..."
// fails with that error.
type fake struct {
	mu       sync.Mutex
	script   map[string][]string
	requests []jsonvalue.Object
}

func (f *fake) Complete(_ context.Context, body []byte) (*runner.Reply, error) {
	v, err := jsonvalue.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("request is not JSON: %v", err)
	}
	req := v.(jsonvalue.Object)
	f.mu.Lock()
	f.requests = append(f.requests, req)
	f.mu.Unlock()
	msgs, _ := req.Get("messages")
	user, step := "", 0
	for _, m := range msgs.([]any) {
		mo := m.(jsonvalue.Object)
		role, _ := mo.Get("role")
		content, _ := mo.Get("content")
		switch {
		case role == "assistant":
			step++
		case role == "user" && user == "":
			user = fmt.Sprint(content)
		}
	}
	replies := f.script[user]
	if len(replies) == 0 {
		return nil, fmt.Errorf("no script for %q", user)
	}
	rep := replies[min(step, len(replies)-1)]
	if msg, ok := strings.CutPrefix(rep, "!"); ok {
		return nil, errors.New(msg)
	}
	return &runner.Reply{Body: []byte(rep)}, nil
}

func (f *fake) sent() []jsonvalue.Object {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.requests)
}

func mustCase(t *testing.T, js string) *toolgrade.Case {
	t.Helper()
	v, err := jsonvalue.ParseString(js)
	if err != nil {
		t.Fatal(err)
	}
	c, err := dataset.DecodeCase(v)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const weatherTools = `"available_tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}},{"name":"get_time","description":"Local time","input_schema":{"type":"object"}}]`

func callStrings(calls []toolgrade.Call) []string {
	var s []string
	for _, c := range calls {
		s = append(s, c.String())
	}
	return s
}

func kinds(r *runner.Run) []runner.ProblemKind {
	var k []runner.ProblemKind
	for _, p := range r.Problems {
		k = append(k, p.Kind)
	}
	return k
}

func TestRunReplies(t *testing.T) {
	tests := []struct {
		name     string
		input    string // the case's input (JSON) and anything else
		replies  []string
		opts     runner.Options
		calls    []string
		problems []runner.ProblemKind
		stop     runner.StopReason
		err      string
		// inCode builds the case in code, past the checks of package
		// dataset, as a Go caller may.
		inCode bool
	}{
		{
			name:    "one call",
			replies: []string{completion(toolCalls(`get_weather {"city":"Paris"}`))},
			calls:   []string{`get_weather({"city":"Paris"})`},
			stop:    runner.StopCalled,
		},
		{
			name:    "parallel calls",
			replies: []string{completion(toolCalls(`get_weather {"city":"Paris"}`, `get_time {}`))},
			calls:   []string{`get_weather({"city":"Paris"})`, `get_time({})`},
			stop:    runner.StopCalled,
		},
		{
			name:     "malformed arguments",
			replies:  []string{completion(toolCalls(`get_weather {"city": "Par`))},
			calls:    []string{`get_weather(<invalid JSON: "{\"city\": \"Par">)`},
			problems: []runner.ProblemKind{runner.InvalidArguments},
			stop:     runner.StopCalled,
		},
		{
			name:     "unknown tool",
			replies:  []string{completion(toolCalls(`get_stock {"symbol":"X"}`))},
			calls:    []string{`get_stock({"symbol":"X"})`},
			problems: []runner.ProblemKind{runner.UnknownTool},
			stop:     runner.StopCalled,
		},
		{
			name:     "refusal",
			replies:  []string{completion(`{"role":"assistant","content":null,"refusal":"I can't help with that."}`)},
			problems: []runner.ProblemKind{runner.Refusal},
			stop:     runner.StopAnswered,
		},
		{
			name:     "empty reply",
			replies:  []string{completion(`{"role":"assistant","content":""}`)},
			problems: []runner.ProblemKind{runner.EmptyReply},
			stop:     runner.StopAnswered,
		},
		{
			name:     "no choices",
			replies:  []string{`{"id":"x","choices":[]}`},
			problems: []runner.ProblemKind{runner.EmptyReply},
			stop:     runner.StopAnswered,
		},
		{
			name:    "an answer",
			replies: []string{completion(text("It is sunny."))},
			stop:    runner.StopAnswered,
		},
		{
			name:     "model error",
			replies:  []string{"!HTTP 500 Internal Server Error (after 5 attempts)"},
			problems: []runner.ProblemKind{runner.ModelError},
			stop:     runner.StopError,
			err:      "step 1: the model call failed: HTTP 500 Internal Server Error (after 5 attempts)",
		},
		{
			name:     "tool call without a name",
			replies:  []string{completion(`{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"arguments":"{}"}}]}`)},
			problems: []runner.ProblemKind{runner.MalformedReply},
			stop:     runner.StopError,
			err:      "step 1: the reply's tool calls are malformed",
		},
		{
			name:     "not a chat completion",
			replies:  []string{`[1, 2]`},
			problems: []runner.ProblemKind{runner.MalformedReply},
			stop:     runner.StopError,
			err:      "not a chat completion",
		},
		{
			name:     "hermes text",
			opts:     runner.Options{Protocol: "hermes"},
			replies:  []string{completion(text("<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"))},
			calls:    []string{`get_weather({"city":"Paris"})`},
			stop:     runner.StopCalled,
			problems: nil,
		},
		{
			name:    "pythonic text",
			opts:    runner.Options{Protocol: "pythonic"},
			replies: []string{completion(text("[get_weather(city='Paris'), get_time()]"))},
			calls:   []string{`get_weather({"city":"Paris"})`, `get_time({})`},
			stop:    runner.StopCalled,
		},
		{
			name:     "json text that does not parse",
			opts:     runner.Options{Protocol: "json"},
			replies:  []string{completion(text(`{"name": "get_weather", "arguments": {"city": `))},
			calls:    []string{`get_weather(<invalid JSON: "{\"name\": \"get_weather\", \"arguments\": {\"city\":">)`},
			problems: []runner.ProblemKind{runner.InvalidArguments},
			stop:     runner.StopCalled,
		},
		{
			name:    "a protocol still takes native calls",
			opts:    runner.Options{Protocol: "json"},
			replies: []string{completion(toolCalls(`get_time {}`))},
			calls:   []string{`get_time({})`},
			stop:    runner.StopCalled,
		},
		{
			name:     "no input",
			input:    `"expected_tools":[]`,
			problems: []runner.ProblemKind{runner.BadCase},
			stop:     runner.StopError,
			err:      "no input to send",
		},
		{
			name:     "bad tools",
			input:    `"input":"Weather?","available_tools":[{"name":"f","parameters":{"type":5}}]`,
			inCode:   true,
			problems: []runner.ProblemKind{runner.BadCase},
			stop:     runner.StopError,
			err:      "field available_tools",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input := tt.input
			if input == "" {
				input = `"input":"Weather?",` + weatherTools
			}
			var c *toolgrade.Case
			if tt.inCode {
				v, _ := jsonvalue.ParseString(`{"id":"c1",` + input + `}`)
				c = &toolgrade.Case{ID: "c1", Input: "Weather?", Raw: v.(jsonvalue.Object)}
			} else {
				c = mustCase(t, `{"id":"c1",`+input+`}`)
			}
			f := &fake{script: map[string][]string{"Weather?": tt.replies}}
			tt.opts.Model = "m"
			r, err := runner.New(f, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			run := r.Case(context.Background(), c)
			if diff := cmp.Diff(tt.calls, callStrings(run.Calls)); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, kinds(run)); diff != "" {
				t.Errorf("processing errors (-want +got):\n%s\n%+v", diff, run.Problems)
			}
			if run.Stop != tt.stop {
				t.Errorf("stop %q, want %q", run.Stop, tt.stop)
			}
			if tt.err == "" && run.Error != "" || !strings.Contains(run.Error, tt.err) {
				t.Errorf("error %q, want one containing %q", run.Error, tt.err)
			}
			if run.ID != "c1" {
				t.Errorf("id %q", run.ID)
			}
		})
	}
}

func TestRequests(t *testing.T) {
	temp, seed, parallel := 0.0, int64(42), true
	tests := []struct {
		name string
		c    string
		opts runner.Options
		// want maps paths into the first request (key, or key.index.key)
		// to the JSON of their value; "-" for absent.
		want map[string]string
	}{
		{
			name: "native tools and settings",
			c:    `{"input":"Weather?",` + weatherTools + `}`,
			opts: runner.Options{Temperature: &temp, MaxTokens: 100, Seed: &seed, ToolChoice: "required", ParallelToolCalls: &parallel},
			want: map[string]string{
				"model":                        `"m"`,
				"messages":                     `[{"role":"user","content":"Weather?"}]`,
				"tools.0":                      `{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}}`,
				"tools.1.function.name":        `"get_time"`,
				"tools.1.function.description": `"Local time"`,
				"tool_choice":                  `"required"`,
				"parallel_tool_calls":          `true`,
				"temperature":                  `0.0`,
				"max_tokens":                   `100`,
				"seed":                         `42`,
			},
		},
		{
			name: "defaults send no settings",
			c:    `{"input":"Weather?"}`,
			opts: runner.Options{ToolChoice: "auto"},
			want: map[string]string{"tools": "-", "tool_choice": "-", "temperature": "-", "max_tokens": "-", "seed": "-", "parallel_tool_calls": "-"},
		},
		{
			name: "multimodal parts",
			c:    `{"input":[{"type":"text","text":"What is this?"},{"type":"image_url","image_url":{"url":"https://example.com/cat.png"}}]}`,
			want: map[string]string{"messages": `[{"role":"user","content":[{"type":"text","text":"What is this?"},{"type":"image_url","image_url":{"url":"https://example.com/cat.png"}}]}]`},
		},
		{
			name: "chat messages",
			c:    `{"input":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}]}`,
			want: map[string]string{"messages": `[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}]`},
		},
		{
			name: "tool names OpenAI rejects are mapped",
			c:    `{"input":"x","available_tools":[{"name":"math.factorial","parameters":{"type":"dict","properties":{"n":{"type":"integer"}}}}],"tool_choice":"x"}`,
			opts: runner.Options{ToolChoice: "math.factorial"},
			want: map[string]string{
				"tools.0.function.name":       `"math_factorial"`,
				"tools.0.function.parameters": `{"type":"object","properties":{"n":{"type":"integer"}}}`,
				"tool_choice":                 `{"type":"function","function":{"name":"math_factorial"}}`,
			},
		},
		{
			name: "a text protocol describes the tools in the system prompt",
			c:    `{"input":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}],` + weatherTools + `}`,
			opts: runner.Options{Protocol: "hermes"},
			want: map[string]string{"tools": "-", "messages.0.role": `"system"`, "messages.1": `{"role":"user","content":"Hi"}`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fake{}
			tt.opts.Model = "m"
			r, err := runner.New(runner.ModelFunc(func(ctx context.Context, b []byte) (*runner.Reply, error) {
				v, _ := jsonvalue.Parse(b)
				f.requests = append(f.requests, v.(jsonvalue.Object))
				return &runner.Reply{Body: []byte(completion(text("ok")))}, nil
			}), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			c := mustCase(t, tt.c)
			run := r.Case(context.Background(), c)
			if run.Error != "" {
				t.Fatal(run.Error)
			}
			req := f.sent()[0]
			for path, want := range tt.want {
				got, ok := at(req, path)
				switch {
				case want == "-" && ok:
					t.Errorf("%s sent: %s", path, jsonvalue.Append(nil, got))
				case want != "-" && !ok:
					t.Errorf("%s not sent", path)
				case want != "-" && string(jsonvalue.Append(nil, got)) != want:
					t.Errorf("%s = %s, want %s", path, jsonvalue.Append(nil, got), want)
				}
			}
			if tt.opts.Protocol != "" {
				sys, _ := at(req, "messages.0.content")
				for _, part := range []string{"<tools>", `"name":"get_weather"`, "<tool_call>", "Be brief."} {
					if !strings.Contains(sys.(string), part) {
						t.Errorf("system prompt lacks %q:\n%s", part, sys)
					}
				}
			}
		})
	}
}

// at walks a dotted path of keys and list indexes.
func at(v any, path string) (any, bool) {
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case jsonvalue.Object:
			var ok bool
			if v, ok = x.Get(k); !ok {
				return nil, false
			}
		case []any:
			var i int
			if _, err := fmt.Sscan(k, &i); err != nil || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

func TestMultiTurn(t *testing.T) {
	const cs = `{"id":"m1","input":"Plan my trip",` + weatherTools + `,
		"expected_tools":[{"name":"get_weather","args":{"city":"Paris"},"output":{"sky":"rain"}},
		                  {"name":"get_weather","args":{"city":"Rome"},"output":"sun"},
		                  {"name":"get_time","output":"09:00"}]}`
	tests := []struct {
		name     string
		protocol trace.Protocol
		replies  []string
		maxSteps int
		calls    []string // with outputs
		stop     runner.StopReason
		notes    int
		fedBack  func(t *testing.T, second jsonvalue.Object)
	}{
		{
			name: "native",
			replies: []string{
				completion(toolCalls(`get_weather {"city":"Rome"}`, `get_weather {"city":"Paris"}`)),
				completion(toolCalls(`get_time {}`)),
				completion(text("Take an umbrella in Paris.")),
			},
			calls: []string{`get_weather({"city":"Rome"}) -> "sun"`, `get_weather({"city":"Paris"}) -> {"sky":"rain"}`, `get_time({}) -> "09:00"`},
			stop:  runner.StopAnswered,
			fedBack: func(t *testing.T, second jsonvalue.Object) {
				msgs, _ := second.Get("messages")
				want := `[{"role":"user","content":"Plan my trip"},` +
					`{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Rome\"}"}},{"id":"call_2","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},` +
					`{"role":"tool","tool_call_id":"call_1","content":"sun"},` +
					`{"role":"tool","tool_call_id":"call_2","content":"{\"sky\":\"rain\"}"}]`
				if got := string(jsonvalue.Append(nil, msgs)); got != want {
					t.Errorf("second request's messages\n got %s\nwant %s", got, want)
				}
			},
		},
		{
			name:     "step limit",
			replies:  []string{completion(toolCalls(`get_weather {"city":"Oslo"}`))},
			maxSteps: 3,
			calls:    []string{`get_weather({"city":"Oslo"}) -> {"sky":"rain"}`, `get_weather({"city":"Oslo"}) -> "sun"`, `get_weather({"city":"Oslo"})`},
			stop:     runner.StopMaxSteps,
			notes:    1,
		},
		{
			name:     "hermes",
			protocol: "hermes",
			replies: []string{
				completion(text(`<tool_call>{"name": "get_time", "arguments": {}}</tool_call>`)),
				completion(text("It is nine.")),
			},
			calls: []string{`get_time({}) -> "09:00"`},
			stop:  runner.StopAnswered,
			fedBack: func(t *testing.T, second jsonvalue.Object) {
				last, _ := at(second, "messages.3")
				want := `{"role":"user","content":"<tool_response>\n{\"name\":\"get_time\",\"content\":\"09:00\"}\n</tool_response>"}`
				if got := string(jsonvalue.Append(nil, last)); got != want {
					t.Errorf("fed back %s, want %s", got, want)
				}
				prev, _ := at(second, "messages.2")
				if got := string(jsonvalue.Append(nil, prev)); got != `{"role":"assistant","content":"<tool_call>{\"name\": \"get_time\", \"arguments\": {}}</tool_call>"}` {
					t.Errorf("assistant turn resent as %s, want its text", got)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fake{script: map[string][]string{"Plan my trip": tt.replies}}
			r, _ := runner.New(f, runner.Options{Model: "m", MultiTurn: true, MaxSteps: tt.maxSteps, Protocol: tt.protocol})
			run := r.Case(context.Background(), mustCase(t, cs))
			var got []string
			for _, c := range run.Calls {
				s := c.String()
				if c.Output != nil {
					s += " -> " + string(jsonvalue.Append(nil, c.Output))
				}
				got = append(got, s)
			}
			if diff := cmp.Diff(tt.calls, got); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			if run.Stop != tt.stop || len(run.Notes) != tt.notes || run.Error != "" || len(run.Problems) > 0 {
				t.Errorf("stop %q, notes %q, error %q, problems %v", run.Stop, run.Notes, run.Error, run.Problems)
			}
			if len(run.Steps) != len(f.sent()) {
				t.Errorf("%d steps recorded, %d requests sent", len(run.Steps), len(f.sent()))
			}
			if tt.fedBack != nil {
				tt.fedBack(t, f.sent()[1])
			}
		})
	}
}

func TestRunKeepsOrder(t *testing.T) {
	var cases []string
	script := map[string][]string{}
	for i := range 50 {
		q := fmt.Sprintf("q%d", i)
		cases = append(cases, fmt.Sprintf(`{"id":"c%d","input":%q}`, i, q))
		if i%7 == 3 {
			script[q] = []string{"!boom"}
		} else {
			script[q] = []string{completion(text(q))}
		}
	}
	cases = append(cases[:10], append([]string{`{"id": "broken", "input": `}, cases[10:]...)...)
	src := dataset.Reader("cases.jsonl", strings.NewReader(strings.Join(cases, "\n")), dataset.JSONL)
	r, _ := runner.New(&fake{script: script}, runner.Options{Model: "m", Workers: 4})
	var ids []string
	var tally runner.Tally
	err := r.Run(context.Background(), src, func(run *runner.Run) error {
		ids = append(ids, run.ID)
		tally.Add(run)
		if run.Error == "" && run.Text != "q"+strings.TrimPrefix(run.ID, "c") {
			t.Errorf("%s got the reply %q", run.ID, run.Text)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := range 50 {
		if i == 10 {
			want = append(want, "line-11")
		}
		want = append(want, fmt.Sprintf("c%d", i))
	}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("ids out of order (-want +got):\n%s", diff)
	}
	if tally.Cases != 51 || tally.WithErrors != 8 || tally.Kinds[runner.ModelError] != 7 || tally.Kinds[runner.BadCase] != 1 {
		t.Errorf("tally %+v", tally)
	}
}

func TestRunStops(t *testing.T) {
	src := dataset.Reader("cases.jsonl", strings.NewReader(`{"input":"a"}`+"\n"+`{"input":"b"}`+"\n"), dataset.JSONL)
	r, _ := runner.New(&fake{script: map[string][]string{"a": {completion(text("x"))}, "b": {completion(text("y"))}}}, runner.Options{Model: "m"})
	stop := errors.New("disk full")
	n := 0
	err := r.Run(context.Background(), src, func(*runner.Run) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("error %v after %d runs, want the emit error after 1", err, n)
	}
	unreadable := func(yield func(toolgrade.Record, error) bool) {
		yield(&toolgrade.Case{ID: "a", Input: "a"}, nil)
		yield(nil, errors.New("read error"))
	}
	n = 0
	err = r.Run(context.Background(), unreadable, func(*runner.Run) error { n++; return nil })
	if err == nil || err.Error() != "read error" || n != 1 {
		t.Errorf("error %v after %d runs, want the read error after 1", err, n)
	}
}

func TestNewChecks(t *testing.T) {
	f := &fake{}
	for _, o := range []runner.Options{{}, {Model: "m", Protocol: "xml"}, {Model: "m", MaxSteps: -1}} {
		if _, err := runner.New(f, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	if _, err := runner.New(nil, runner.Options{Model: "m"}); err == nil {
		t.Error("no model: no error")
	}
}

// toolServer is a fake live tool server: "echo" answers its arguments,
// "boom" reports a failure, "secret" exists but is off the allow-list.
type toolServer struct{ sessions int }

func (s *toolServer) Tools(context.Context) ([]toolgrade.Tool, error) {
	return []toolgrade.Tool{{Name: "echo"}, {Name: "boom"}, {Name: "secret"}}, nil
}

func (s *toolServer) Session(context.Context) (toolgrade.ToolSession, error) {
	s.sessions++
	return toolSession{}, nil
}

type toolSession struct{}

func (toolSession) Close() error { return nil }

func (toolSession) Call(_ context.Context, name string, args any) (toolgrade.ToolResult, error) {
	if name == "boom" {
		return toolgrade.ToolResult{Text: "it broke", IsError: true}, nil
	}
	return toolgrade.ToolResult{Output: args, Text: string(jsonvalue.Append(nil, args))}, nil
}

// TestRunOnToolServer: calls run on the server in one session per case;
// a call that fails, or is not run, is answered with why and marked
// failed, and the run goes on.
func TestRunOnToolServer(t *testing.T) {
	srv := &toolServer{}
	tools, _ := srv.Tools(context.Background())
	f := &fake{script: map[string][]string{"go": {
		completion(toolCalls(`echo {"a":1}`, `boom {}`, `secret {}`, `nope {}`, `echo {"a":`)),
		completion(text("done")),
	}}}
	r, err := runner.New(f, runner.Options{Model: "m", Server: srv, Tools: tools, AllowTools: []string{"echo", "boom", "nope"}})
	if err != nil {
		t.Fatal(err)
	}
	run := r.Case(context.Background(), mustCase(t, `{"id":"c","input":"go"}`))
	var got []string
	for _, c := range run.Calls {
		got = append(got, fmt.Sprintf("%s %s %s", c.Name, c.Status, jsonvalue.Format(c.Output)))
	}
	want := []string{
		`echo ok {"a":1}`,
		`boom error null`,
		`secret error "Error: the tool \"secret\" may not run here (not on the allow-list)"`,
		`nope error "Error: no such tool \"nope\" on the server"`,
		`echo error "Error: not run: arguments are not valid JSON"`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if srv.sessions != 1 {
		t.Errorf("%d sessions, want 1", srv.sessions)
	}
	if len(run.Notes) != 4 || !strings.Contains(run.Notes[0], "the tool reported an error: it broke") {
		t.Errorf("notes %q, want the failure and the three calls not run", run.Notes)
	}
}

// A case built in code is written whole: its own fields, then those of its
// record (process rules, states), so that eval grades the run file as it
// would the case; run as trials, each line carries its trial.
func TestRunFileOfCaseBuiltInCode(t *testing.T) {
	r, _ := runner.New(&fake{script: map[string][]string{"hi": {completion(text("done"))}}}, runner.Options{Model: "m"})
	c := &toolgrade.Case{ID: "a", Trial: 2, Input: "hi", Raw: jsonvalue.Object{{Key: "process", Value: jsonvalue.MustFrom([]any{"no_repeat"})}}}
	line := string(r.Case(context.Background(), c).AppendJSON(nil))
	if want := `{"id":"a","trial":2,"input":"hi","process":["no_repeat"],"tools_called":[]`; !strings.HasPrefix(line, want) {
		t.Errorf("line\n%s\nwant it to start with\n%s", line, want)
	}
	var lines []string
	err := r.Run(context.Background(), runner.Trials(toolgrade.Records([]*toolgrade.Case{c}), 2), func(run *runner.Run) error {
		lines = append(lines, string(run.AppendJSON(nil)))
		return nil
	})
	if err != nil || len(lines) != 2 || !strings.HasPrefix(lines[1], `{"id":"a","input":"hi","process":["no_repeat"],"trial":2,`) {
		t.Errorf("error %v, lines\n%s", err, strings.Join(lines, "\n"))
	}
}
