package config_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/judge"
	"github.com/toolgrade/toolgrade/match"
)

func TestJudgeSettings(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       judge.Settings
		errorHas   string
	}{
		{name: "none", yaml: "workers: 2\n"},
		{name: "every key", yaml: `judge:
  base_url: http://localhost:8000/v1
  model: qwen2.5
  key_env: VLLM_KEY
  azure: true
  api_version: "2024-10-21"
  temperature: 0.2
  max_tokens: 300
  structured_output: false
  timeout: 45s
  concurrency: 4
  requests_per_minute: 500
  tokens_per_minute: 200000
  max_retries: 0
  cache_dir: cache
  no_cache: false
  batch: true
  batch_poll_interval: 10
  batch_max_polls: 6
  input_price: 0.4
  output_price: 1.6
`, want: judge.Settings{
			BaseURL: "http://localhost:8000/v1", Model: "qwen2.5", KeyEnv: "VLLM_KEY", Azure: true, APIVersion: "2024-10-21",
			Temperature: new(0.2), MaxTokens: 300, StructuredOutput: new(false),
			Timeout: judge.Duration(45 * time.Second), Concurrency: 4, RequestsPerMinute: 500, TokensPerMinute: 200000,
			MaxRetries: new(0), CacheDir: "/suite/cache", Batch: true,
			BatchPollInterval: judge.Duration(10 * time.Second), BatchMaxPolls: 6, InputPrice: 0.4, OutputPrice: 1.6,
		}},
		{name: "absolute cache dir", yaml: "judge:\n  cache_dir: /var/cache/tg\n", want: judge.Settings{CacheDir: "/var/cache/tg"}},
		{name: "unknown key", yaml: "judge:\n  modle: x\n", errorHas: `judge: unknown option "modle"`},
		{name: "bad duration", yaml: "judge:\n  timeout: soon\n", errorHas: `want a duration such as "30s"`},
		{name: "negative duration", yaml: "judge:\n  timeout: -5\n", errorHas: "want a duration"},
		{name: "not a mapping", yaml: "judge: gpt-4.1\n", errorHas: "judge: want a mapping"},
		{name: "empty config", yaml: "", errorHas: "the config is empty"},
		{name: "only comments", yaml: "# metrics to come\n", errorHas: "the config is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := config.Parse([]byte(tt.yaml))
			var got judge.Settings
			if err == nil {
				c.Dir = "/suite"
				got, err = c.JudgeSettings()
			}
			if tt.errorHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errorHas) {
					t.Fatalf("err = %v, want %q", err, tt.errorHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("settings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCost(t *testing.T) {
	u := toolgrade.Usage{PromptTokens: 2_000_000, CompletionTokens: 500_000}
	s := judge.Settings{InputPrice: 0.4, OutputPrice: 1.6}
	if c, ok := s.Cost(u); !ok || c != 1.6 {
		t.Errorf("Cost = %v, %v; want 1.6", c, ok)
	}
	if _, ok := (&judge.Settings{}).Cost(u); ok {
		t.Error("a cost without prices")
	}
}

type stubJudge struct{}

func (stubJudge) Judge(context.Context, judge.Request) (judge.Verdict, error) {
	return judge.Verdict{Score: 0.5}, nil
}

func TestJudgedMetrics(t *testing.T) {
	withJudge := &config.Env{Judge: stubJudge{}}
	tests := []struct {
		name     string
		entry    jsonvalue.Object
		env      *config.Env
		want     string // the metric's Go type
		errorHas string
	}{
		{"tool_selection", jsonvalue.Object{{Key: "metric", Value: "tool_selection"}}, withJudge, "*judge.ToolSelectionMetric", ""},
		{"argument_correctness", jsonvalue.Object{{Key: "metric", Value: "argument_correctness"}, {Key: "threshold", Value: jsonvalue.MustFrom(0.8)}},
			withJudge, "*judge.ArgumentCorrectnessMetric", ""},
		{"no judge", jsonvalue.Object{{Key: "metric", Value: "tool_selection"}}, nil, "", "metric tool_selection: needs a judge"},
		{"unknown option", jsonvalue.Object{{Key: "metric", Value: "argument_correctness"}, {Key: "order", Value: "any"}}, withJudge, "", `unknown option "order"`},
		{"native without a judge", jsonvalue.Object{}, nil, "*match.ToolCorrectness", ""},
		{"native with a judge", jsonvalue.Object{{Key: "strict", Value: true}}, withJudge, "*judge.MinToolSelection", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := config.Metric(tt.entry, tt.env)
			if tt.errorHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errorHas) {
					t.Fatalf("err = %v, want %q", err, tt.errorHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := typeName(m); got != tt.want {
				t.Errorf("metric is a %s, want %s", got, tt.want)
			}
		})
	}
}

func typeName(m toolgrade.Metric) string {
	switch m := m.(type) {
	case *judge.ToolSelectionMetric:
		return "*judge.ToolSelectionMetric"
	case *judge.ArgumentCorrectnessMetric:
		return "*judge.ArgumentCorrectnessMetric"
	case *match.ToolCorrectness:
		return "*match.ToolCorrectness"
	case *judge.MinToolSelection:
		if !m.Strict {
			return "*judge.MinToolSelection without strict"
		}
		return "*judge.MinToolSelection"
	}
	return "other"
}

// With a judge, the native metric takes the lower of its score and the
// judge's whenever the case lists available tools.
func TestNativeMetricWithJudge(t *testing.T) {
	m, err := config.Metric(jsonvalue.Object{}, &config.Env{Judge: stubJudge{}})
	if err != nil {
		t.Fatal(err)
	}
	c := &toolgrade.Case{
		Called:   []toolgrade.Call{{Name: "a"}},
		Expected: []toolgrade.Call{{Name: "a"}},
		Raw:      jsonvalue.Object{{Key: "available_tools", Value: []any{jsonvalue.Object{{Key: "name", Value: "a"}}}}},
	}
	r := m.Grade(context.Background(), c)
	if r.Score != 0.5 || toolgrade.DetailOf[toolgrade.Components](&r)["deterministic"] != 1 || toolgrade.DetailOf[toolgrade.Components](&r)["tool_selection"] != 0.5 {
		t.Errorf("score %v components %v", r.Score, toolgrade.DetailOf[toolgrade.Components](&r))
	}
	c.Raw = nil
	if r := m.Grade(context.Background(), c); r.Score != 1 || toolgrade.DetailOf[toolgrade.Components](&r) != nil {
		t.Errorf("without tools: score %v components %v", r.Score, toolgrade.DetailOf[toolgrade.Components](&r))
	}
}

func FuzzDuration(f *testing.F) {
	for _, s := range []string{`"30s"`, `45`, `1.5`, `"1m30s"`, `"-1s"`, `-2`, `null`, `"x"`, `1e400`, `1e300`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var d judge.Duration
		if d.UnmarshalJSON(b) == nil && d < 0 {
			t.Fatalf("UnmarshalJSON(%q) = %v", b, time.Duration(d))
		}
	})
}
