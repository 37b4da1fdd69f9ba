package judge_test

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/judge"
)

var update = flag.Bool("update", false, "rewrite golden files")

// fakeJudge answers with verdict, or err, and records the requests.
type fakeJudge struct {
	mu      sync.Mutex
	reqs    []judge.Request
	verdict func(judge.Request) (judge.Verdict, error)
}

func (f *fakeJudge) Judge(_ context.Context, r judge.Request) (judge.Verdict, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, r)
	f.mu.Unlock()
	return f.verdict(r)
}

func answer(score float64, reason string) *fakeJudge {
	return &fakeJudge{verdict: func(judge.Request) (judge.Verdict, error) {
		return judge.Verdict{Score: score, Reason: reason, Usage: toolgrade.Usage{PromptTokens: 100, CompletionTokens: 10, Requests: 1}}, nil
	}}
}

func failing(msg string) *fakeJudge {
	return &fakeJudge{verdict: func(judge.Request) (judge.Verdict, error) {
		return judge.Verdict{Usage: toolgrade.Usage{Requests: 1}}, errors.New(msg)
	}}
}

var tools = []any{
	jsonvalue.Object{{Key: "name", Value: "get_weather"}, {Key: "description", Value: "Weather for a city"}},
	jsonvalue.Object{{Key: "name", Value: "send_email"}, {Key: "description", Value: "Send an email"}},
}

func weatherCase() *toolgrade.Case {
	return &toolgrade.Case{
		ID:       "c1",
		Input:    "What's the weather in Paris?",
		Called:   []toolgrade.Call{{Name: "get_weather", Args: jsonvalue.Object{{Key: "city", Value: "Paris"}}}},
		Expected: []toolgrade.Call{{Name: "get_weather", Args: jsonvalue.Object{{Key: "city", Value: "Paris"}}}},
		Raw:      jsonvalue.Object{{Key: "available_tools", Value: tools}},
	}
}

func TestToolSelectionMetric(t *testing.T) {
	noTools := weatherCase()
	noTools.Raw = nil
	tests := []struct {
		name      string
		j         *fakeJudge
		c         *toolgrade.Case
		runTools  []toolgrade.Tool
		score     float64
		success   bool
		err       string
		wantAsked bool
	}{
		{"good", answer(1, "right tool"), weatherCase(), nil, 1, true, "", true},
		{"below threshold", answer(0.25, "mostly wrong"), weatherCase(), nil, 0.25, false, "", true},
		{"judge fails", failing("HTTP 500"), weatherCase(), nil, 0, false, "tool selection judge: HTTP 500", true},
		{"no tools", answer(1, ""), noTools, nil, 0, false, "needs the available tools", false},
		{"run's tools stand in", answer(0.75, "ok"), noTools, []toolgrade.Tool{{Name: "get_weather"}}, 0.75, true, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := judge.NewToolSelection(tt.j, tt.runTools, judge.Options{})
			if err != nil {
				t.Fatal(err)
			}
			r := m.Grade(context.Background(), tt.c)
			if asked := len(tt.j.reqs) > 0; asked != tt.wantAsked {
				t.Fatalf("judge asked: %v, want %v", asked, tt.wantAsked)
			}
			if tt.err != "" {
				if !strings.Contains(r.Error, tt.err) {
					t.Fatalf("Error = %q, want it to contain %q", r.Error, tt.err)
				}
				if tt.wantAsked && toolgrade.DetailOf[toolgrade.Usage](&r) == (toolgrade.Usage{}) {
					t.Error("a failed judgment lost its usage")
				}
				return
			}
			if r.Error != "" {
				t.Fatal(r.Error)
			}
			if r.Score != tt.score || r.Success != tt.success || toolgrade.DetailOf[toolgrade.Components](&r)["tool_selection"] != tt.score {
				t.Errorf("score %v success %v components %v; want %v %v", r.Score, r.Success, toolgrade.DetailOf[toolgrade.Components](&r), tt.score, tt.success)
			}
			if toolgrade.DetailOf[toolgrade.Usage](&r) == (toolgrade.Usage{}) || toolgrade.DetailOf[toolgrade.Usage](&r).Requests != 1 {
				t.Errorf("Usage = %+v, want one request", toolgrade.DetailOf[toolgrade.Usage](&r))
			}
			if tt.runTools != nil && !strings.Contains(tt.j.reqs[0].User, `"name":"get_weather"`) {
				t.Errorf("the run's tools are not in the prompt:\n%s", tt.j.reqs[0].User)
			}
		})
	}
}

func TestToolSelectionPromptHasTheCase(t *testing.T) {
	j := answer(1, "")
	c := weatherCase()
	c.Called = append(c.Called, toolgrade.Call{Name: "send_email", ArgsRaw: "{broken", Invalid: true})
	if _, err := judge.ToolSelection(context.Background(), j, c); err != nil {
		t.Fatal(err)
	}
	r := j.reqs[0]
	if r.PromptVersion != judge.ToolSelectionPrompt || r.Task != "tool_selection" {
		t.Errorf("request %q %q", r.Task, r.PromptVersion)
	}
	for _, want := range []string{
		"What's the weather in Paris?",    // the input
		`"description":"Send an email"`,   // the available tools
		`#0 get_weather {"city":"Paris"}`, // the calls
		"#1 send_email {broken (arguments are not valid JSON)",
	} {
		if !strings.Contains(r.User, want) {
			t.Errorf("prompt lacks %q:\n%s", want, r.User)
		}
	}
}

func TestArgumentCorrectnessMetric(t *testing.T) {
	c := weatherCase()
	c.Called = []toolgrade.Call{
		{Name: "get_weather", Args: jsonvalue.Object{{Key: "city", Value: "Paris"}}},
		{Name: "get_weather", Args: jsonvalue.Object{{Key: "city", Value: "Lyon"}}},
		{Name: "send_email", Args: jsonvalue.Object{}},
	}
	// The judge says no to the call on Lyon.
	byCall := &fakeJudge{verdict: func(r judge.Request) (judge.Verdict, error) {
		_, call, _ := strings.Cut(r.User, "Call to grade:\n")
		if strings.Contains(call, "Lyon") {
			return judge.Verdict{Score: 0, Reason: "wrong city", Usage: toolgrade.Usage{Requests: 1}}, nil
		}
		return judge.Verdict{Score: 1, Reason: "fine", Usage: toolgrade.Usage{Requests: 1}}, nil
	}}
	m, err := judge.NewArgumentCorrectness(byCall, nil, judge.Options{Threshold: toolgrade.Float(0.7)})
	if err != nil {
		t.Fatal(err)
	}
	r := m.Grade(context.Background(), c)
	if r.Error != "" {
		t.Fatal(r.Error)
	}
	if len(byCall.reqs) != 3 {
		t.Fatalf("asked %d times, want once per call", len(byCall.reqs))
	}
	if r.Score != 2.0/3 || r.Success {
		t.Errorf("score %v success %v, want 2/3 and a fail at 0.7", r.Score, r.Success)
	}
	if toolgrade.DetailOf[toolgrade.Components](&r)["call[1]"] != 0 || toolgrade.DetailOf[toolgrade.Components](&r)["call[0]"] != 1 || toolgrade.DetailOf[toolgrade.Components](&r)["call[2]"] != 1 {
		t.Errorf("components %v", toolgrade.DetailOf[toolgrade.Components](&r))
	}
	if !strings.Contains(r.Reason, "call #1 get_weather: no: wrong city") {
		t.Errorf("reason %q", r.Reason)
	}
	if toolgrade.DetailOf[toolgrade.Usage](&r) == (toolgrade.Usage{}) || toolgrade.DetailOf[toolgrade.Usage](&r).Requests != 3 {
		t.Errorf("usage %+v, want 3 requests", toolgrade.DetailOf[toolgrade.Usage](&r))
	}
	if byCall.reqs[0].PromptVersion != judge.ArgumentCorrectnessPrompt {
		t.Errorf("prompt version %q", byCall.reqs[0].PromptVersion)
	}

	t.Run("no calls", func(t *testing.T) {
		j := answer(0, "")
		m, _ := judge.NewArgumentCorrectness(j, nil, judge.Options{})
		c := weatherCase()
		c.Called = nil
		r := m.Grade(context.Background(), c)
		if r.Score != 1 || !r.Success || len(j.reqs) != 0 || toolgrade.DetailOf[toolgrade.Usage](&r) != (toolgrade.Usage{}) {
			t.Errorf("score %v success %v asked %d usage %v; want 1, true, 0, nil", r.Score, r.Success, len(j.reqs), toolgrade.DetailOf[toolgrade.Usage](&r))
		}
	})
	t.Run("judge fails", func(t *testing.T) {
		m, _ := judge.NewArgumentCorrectness(failing("timeout"), nil, judge.Options{})
		r := m.Grade(context.Background(), c)
		if !strings.Contains(r.Error, "call #0 get_weather: timeout") || toolgrade.DetailOf[toolgrade.Usage](&r) == (toolgrade.Usage{}) {
			t.Errorf("error %q usage %v", r.Error, toolgrade.DetailOf[toolgrade.Usage](&r))
		}
	})
}

func TestNewMetricsCheckOptions(t *testing.T) {
	if _, err := judge.NewToolSelection(nil, nil, judge.Options{}); err == nil {
		t.Error("NewToolSelection without a judge succeeded")
	}
	if _, err := judge.NewArgumentCorrectness(answer(1, ""), nil, judge.Options{Threshold: toolgrade.Float(1.5)}); err == nil {
		t.Error("threshold 1.5 accepted")
	}
}

// fixedMetric returns its result for every case.
type fixedMetric struct{ r toolgrade.MetricResult }

func (f fixedMetric) Name() string    { return "tool_correctness" }
func (f fixedMetric) Profile() string { return "default" }
func (f fixedMetric) Grade(context.Context, *toolgrade.Case) toolgrade.MetricResult {
	return f.r
}

func TestMinToolSelection(t *testing.T) {
	inner := fixedMetric{toolgrade.MetricResult{Name: "tool_correctness", Profile: "default", Score: 0.8, Success: true,
		Threshold: toolgrade.Float(0.5), Reason: "all 1 expected calls matched"}}
	noTools := weatherCase()
	noTools.Raw = jsonvalue.Object{{Key: "available_tools", Value: []any{}}}
	tests := []struct {
		name    string
		inner   fixedMetric
		j       *fakeJudge
		strict  bool
		c       *toolgrade.Case
		score   float64
		success bool
		err     string
		asked   bool
	}{
		{"judge lower", inner, answer(0.25, "unsuited"), false, weatherCase(), 0.25, false, "", true},
		{"judge higher", inner, answer(1, "fine"), false, weatherCase(), 0.8, true, "", true},
		{"strict zeroes", inner, answer(0.75, ""), true, weatherCase(), 0, false, "", true},
		{"no tools: no judge", inner, answer(0, ""), false, noTools, 0.8, true, "", false},
		{"judge fails", inner, failing("bad reply"), false, weatherCase(), 0, false, "tool selection judge: bad reply", true},
		{"inner error wins", fixedMetric{toolgrade.MetricResult{Error: "bad case"}}, answer(0, ""), false, weatherCase(), 0, false, "bad case", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &judge.MinToolSelection{Metric: tt.inner, Judge: tt.j, Strict: tt.strict}
			if m.Name() != "tool_correctness" || m.Profile() != "default" {
				t.Errorf("name %q profile %q", m.Name(), m.Profile())
			}
			r := m.Grade(context.Background(), tt.c)
			if asked := len(tt.j.reqs) > 0; asked != tt.asked {
				t.Errorf("judge asked %v, want %v", asked, tt.asked)
			}
			if tt.err != "" {
				if !strings.Contains(r.Error, tt.err) {
					t.Fatalf("Error %q, want %q", r.Error, tt.err)
				}
				return
			}
			if r.Error != "" {
				t.Fatal(r.Error)
			}
			if r.Score != tt.score || r.Success != tt.success {
				t.Errorf("score %v success %v, want %v %v", r.Score, r.Success, tt.score, tt.success)
			}
			if tt.asked {
				v, _ := tt.j.verdict(judge.Request{})
				if toolgrade.DetailOf[toolgrade.Components](&r)["deterministic"] != 0.8 || toolgrade.DetailOf[toolgrade.Components](&r)["tool_selection"] != v.Score {
					t.Errorf("components %v", toolgrade.DetailOf[toolgrade.Components](&r))
				}
				if !strings.Contains(r.Reason, "all 1 expected calls matched; tool selection (judge) ") {
					t.Errorf("reason %q", r.Reason)
				}
				if toolgrade.DetailOf[toolgrade.Usage](&r) == (toolgrade.Usage{}) || toolgrade.DetailOf[toolgrade.Usage](&r).Requests != 1 {
					t.Errorf("usage %+v", toolgrade.DetailOf[toolgrade.Usage](&r))
				}
			}
		})
	}
}

// The prompts are golden: a change to their text shows here, and must come
// with a new version (the version is part of every cache key).
func TestPromptsGolden(t *testing.T) {
	var b strings.Builder
	seen := map[string]bool{}
	for _, p := range judge.Prompts() {
		if seen[p.Version] {
			t.Errorf("version %s used twice", p.Version)
		}
		seen[p.Version] = true
		b.WriteString("=== " + p.Task + " " + p.Version + "\n--- system\n" + p.System + "\n--- user\n" + p.User + "\n")
	}
	golden := filepath.Join("testdata", "prompts.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("prompts differ from %s (if the text changed on purpose, bump the prompt's version and run go test -update):\n%s", golden, b.String())
	}
}
