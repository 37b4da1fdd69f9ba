package deepeval_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/deepeval"
	"github.com/toolgrade/toolgrade/compat/internal/conformance"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/judge"
)

// fixedJudge is a fake judge that always gives the same verdict, as the
// stubbed judge of the conformance data did.
type fixedJudge struct {
	score float64
	err   error
}

func (j fixedJudge) Judge(_ context.Context, req judge.Request) (judge.Verdict, error) {
	if req.Task != "tool_selection" {
		return judge.Verdict{}, fmt.Errorf("unexpected task %q", req.Task)
	}
	return judge.Verdict{Score: j.score, Reason: "fixed verdict"}, j.err
}

// TestDeepEvalConformance runs every line of deepeval.jsonl (the package's
// sample, and the shared corpus when present) through the profile, built
// from the line's config as a config file would build it. Judge lines get
// a fake judge returning the line's judge_score.
func TestDeepEvalConformance(t *testing.T) {
	conformance.Run(t, conformance.Suite{File: "deepeval.jsonl", Lines: 2069, Env: func(l conformance.Line) *config.Env {
		env := &config.Env{}
		if s, ok := l.Case.Get("judge_score"); ok {
			env.Judge = fixedJudge{score: jsonvalue.NumberFloat(s.(json.Number))}
		}
		return env
	}})
}

// TestDeepEvalQuirks pins DeepEval's behaviours with hand-written cases.
func TestDeepEvalQuirks(t *testing.T) {
	args := []deepeval.Param{deepeval.ParamInputParameters}
	tests := []struct {
		name      string
		opts      deepeval.Options
		c         string
		score     float64
		err       string // a substring of the error, if one is wanted
		reason    string // a substring of the reason
		missing   []int
		unpaired  []int
		noVerdict bool
	}{
		{
			name:     "duplicates collapse by value",
			c:        `{"tools_called":[{"name":"A"},{"name":"A"}],"expected_tools":[{"name":"A"},{"name":"A"}]}`,
			score:    0.5,
			reason:   "already used",
			missing:  []int{1},
			unpaired: []int{1},
		},
		{
			name:  "collapse needs equal args",
			opts:  deepeval.Options{EvaluationParams: args},
			c:     `{"tools_called":[{"name":"A","args":{"x":1}},{"name":"A","args":{"x":2}}],"expected_tools":[{"name":"A","args":{"x":1}},{"name":"A","args":{"x":2}}]}`,
			score: 1,
		},
		{
			name:   "greedy takes the first highest, not the best pairing",
			opts:   deepeval.Options{EvaluationParams: args},
			c:      `{"tools_called":[{"name":"A","args":{"x":1,"y":1}},{"name":"A","args":{"x":1,"y":2}}],"expected_tools":[{"name":"A","args":{"x":1,"y":9}},{"name":"A","args":{"x":1,"y":1}}]}`,
			score:  0.5, // 0.5 + (0.5 against the second): (0.5+0.5)/2; optimal would be (0.5+1)/2
			reason: "earned 0.5",
		},
		{
			name:  "python equality: 1 == 1.0 == true",
			opts:  deepeval.Options{EvaluationParams: args},
			c:     `{"tools_called":[{"name":"A","args":{"a":1.0,"b":true}}],"expected_tools":[{"name":"A","args":{"a":1,"b":1}}]}`,
			score: 1,
		},
		{
			name:  "partial credit over the union of keys, nested",
			opts:  deepeval.Options{EvaluationParams: args},
			c:     `{"tools_called":[{"name":"A","args":{"a":1,"n":{"p":1,"q":2}}}],"expected_tools":[{"name":"A","args":{"a":1,"n":{"p":1,"q":3},"z":0}}]}`,
			score: 1.0/3 + 0.5/3,
		},
		{
			name: "null args against an object raise",
			opts: deepeval.Options{EvaluationParams: args},
			c:    `{"tools_called":[{"name":"A","args":{"k":1}}],"expected_tools":[{"name":"A"}]}`,
			err:  "AttributeError",
		},
		{
			name:  "null args are not compared under another name",
			opts:  deepeval.Options{EvaluationParams: args},
			c:     `{"tools_called":[{"name":"B","args":{"k":1}}],"expected_tools":[{"name":"A"}]}`,
			score: 0,
		},
		{
			name:  "exact match compares null args with ==",
			opts:  deepeval.Options{EvaluationParams: args, ShouldExactMatch: true},
			c:     `{"tools_called":[{"name":"A","args":{"k":1}}],"expected_tools":[{"name":"A"}]}`,
			score: 0,
		},
		{
			name: "null list",
			c:    `{"tools_called":null,"expected_tools":[]}`,
			err:  "MissingTestCaseParamsError",
		},
		{
			name:  "types differ in v4",
			c:     `{"tools_called":[{"name":"A","type":"mcp"}],"expected_tools":[{"name":"A"}]}`,
			score: 0,
		},
		{
			name:  "types ignored in multimodal",
			opts:  deepeval.Options{Variant: "multimodal"},
			c:     `{"tools_called":[{"name":"A","type":"mcp"}],"expected_tools":[{"name":"A"}]}`,
			score: 1,
		},
		{
			name:  "ordering: weighted LCS",
			opts:  deepeval.Options{ShouldConsiderOrdering: true},
			c:     `{"tools_called":[{"name":"A"},{"name":"C"},{"name":"B"}],"expected_tools":[{"name":"A"},{"name":"B"},{"name":"C"}]}`,
			score: 2.0 / 3,
		},
		{
			name:  "nothing expected, something called",
			c:     `{"tools_called":[{"name":"A"}],"expected_tools":[]}`,
			score: 0,
		},
		{
			name:  "both empty",
			c:     `{"tools_called":[],"expected_tools":[]}`,
			score: 1,
		},
		{
			name:  "multimodal: both empty scores 0",
			opts:  deepeval.Options{Variant: "multimodal"},
			c:     `{"tools_called":[],"expected_tools":[]}`,
			score: 0,
		},
		{
			name: "multimodal: ordering with nothing expected divides by zero",
			opts: deepeval.Options{Variant: "multimodal", ShouldConsiderOrdering: true},
			c:    `{"tools_called":[],"expected_tools":[]}`,
			err:  "ZeroDivisionError",
		},
		{
			name:  "multimodal: {} against {} scores 0",
			opts:  deepeval.Options{Variant: "multimodal", EvaluationParams: args},
			c:     `{"tools_called":[{"name":"A","args":{}}],"expected_tools":[{"name":"A","args":{}}]}`,
			score: 0,
		},
		{
			name:  "multimodal: six equal keys fall short of 1",
			opts:  deepeval.Options{Variant: "multimodal", EvaluationParams: args},
			c:     `{"tools_called":[{"name":"A","args":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}}],"expected_tools":[{"name":"A","args":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}}]}`,
			score: 0.9999999999999999, // six additions of 1/6
		},
		{
			name:   "strict mode zeroes",
			opts:   deepeval.Options{StrictMode: true},
			c:      `{"tools_called":[{"name":"A"}],"expected_tools":[{"name":"A"},{"name":"B"}]}`,
			score:  0,
			reason: "strict_mode",
		},
		{
			name:      "v4 null threshold scores only",
			opts:      deepeval.Options{NoThreshold: true},
			c:         `{"tools_called":[{"name":"A"}],"expected_tools":[{"name":"A"},{"name":"B"}]}`,
			score:     0.5,
			noVerdict: true,
		},
		{
			name: "v3 null threshold raises",
			opts: deepeval.Options{Variant: "v3", NoThreshold: true},
			c:    `{"tools_called":[],"expected_tools":[]}`,
			err:  "TypeError",
		},
		{
			name:   "available tools without a judge",
			c:      `{"tools_called":[{"name":"A"}],"expected_tools":[{"name":"A"}],"available_tools":[{"name":"A"}]}`,
			score:  1,
			reason: "no judge configured",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := deepeval.New(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			r := m.Grade(context.Background(), conformance.ParseCase(t, tt.c))
			if tt.err != "" {
				if !strings.Contains(r.Error, tt.err) {
					t.Fatalf("error %q, want %q (score %v)", r.Error, tt.err, r.Score)
				}
				return
			}
			if r.Error != "" {
				t.Fatalf("unexpected error %s", r.Error)
			}
			if r.Score != tt.score {
				t.Errorf("score %v, want %v (reason: %s)", r.Score, tt.score, r.Reason)
			}
			if !strings.Contains(r.Reason, tt.reason) {
				t.Errorf("reason %q lacks %q", r.Reason, tt.reason)
			}
			if tt.missing != nil && fmt.Sprint(r.Missing) != fmt.Sprint(tt.missing) {
				t.Errorf("missing %v, want %v", r.Missing, tt.missing)
			}
			if tt.unpaired != nil && fmt.Sprint(r.Unexpected) != fmt.Sprint(tt.unpaired) {
				t.Errorf("unexpected %v, want %v", r.Unexpected, tt.unpaired)
			}
			if (r.Threshold == nil) != tt.noVerdict {
				t.Errorf("threshold %v, want none: %v", r.Threshold, tt.noVerdict)
			}
		})
	}
}

func TestDeepEvalJudge(t *testing.T) {
	c := `{"input":"weather in Paris?","tools_called":[{"name":"A"}],"expected_tools":[{"name":"A"},{"name":"B"}],"available_tools":[{"name":"A"},{"name":"B"}]}`
	tests := []struct {
		name   string
		judge  fixedJudge
		strict bool
		score  float64
		err    bool
	}{
		{"judge lower", fixedJudge{score: 0.25}, false, 0.25, false},
		{"tool score lower", fixedJudge{score: 1}, false, 0.5, false},
		{"strict after min", fixedJudge{score: 1}, true, 0, false},
		{"judge error is an error result", fixedJudge{err: errors.New("rate limited")}, false, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := deepeval.New(deepeval.Options{StrictMode: tt.strict, Judge: tt.judge})
			if err != nil {
				t.Fatal(err)
			}
			r := m.Grade(context.Background(), conformance.ParseCase(t, c))
			if tt.err {
				if !strings.Contains(r.Error, "rate limited") {
					t.Fatalf("error %q, want the judge's", r.Error)
				}
				return
			}
			if r.Error != "" || r.Score != tt.score {
				t.Fatalf("score %v error %q, want %v", r.Score, r.Error, tt.score)
			}
			if toolgrade.DetailOf[toolgrade.Components](&r)["tool_selection"] != tt.judge.score || !strings.Contains(r.Reason, "fixed verdict") {
				t.Errorf("components %v reason %q", toolgrade.DetailOf[toolgrade.Components](&r), r.Reason)
			}
		})
	}
}

func TestDeepEvalOptions(t *testing.T) {
	tests := []struct {
		entry string
		err   string
	}{
		{`{"profile":"deepeval","threshold":null}`, ""},
		{`{"profile":"deepeval","variant":"v5"}`, "variant"},
		{`{"profile":"deepeval","evaluation_params":["args"]}`, "evaluation_params"},
		{`{"profile":"deepeval","threshold":"high"}`, "threshold"},
		{`{"profile":"deepeval","should_consider_order":true}`, "unknown option"},
	}
	for _, tt := range tests {
		t.Run(tt.entry, func(t *testing.T) {
			v, err := jsonvalue.ParseString(tt.entry)
			if err != nil {
				t.Fatal(err)
			}
			_, err = config.Metric(v.(jsonvalue.Object), nil)
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("error %v, want %q", err, tt.err)
			}
		})
	}
}

// A config's threshold reads as the same options a Go program would set:
// a number is Threshold, null is NoThreshold, none is DeepEval's default.
func TestDeepEvalThresholdJSON(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want deepeval.Options
	}{
		{`{}`, deepeval.Options{}},
		{`{"threshold":0.75}`, deepeval.Options{Threshold: toolgrade.Float(0.75)}},
		{`{"threshold":null}`, deepeval.Options{NoThreshold: true}},
		{`{"threshold": null, "strict_mode": true}`, deepeval.Options{NoThreshold: true, StrictMode: true}},
	} {
		t.Run(tt.in, func(t *testing.T) {
			var got deepeval.Options
			if err := json.Unmarshal([]byte(tt.in), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(deepeval.Options{}, "Judge")); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
	for _, bad := range []string{`{"threshold":"x"}`, `{"treshold":0.5}`} {
		var o deepeval.Options
		if err := json.Unmarshal([]byte(bad), &o); err == nil {
			t.Errorf("%s read without an error", bad)
		}
	}
}

// FuzzDeepEval checks that any case gives a score in [0, 1] or an error,
// never a panic, in every mode and variant.
func FuzzDeepEval(f *testing.F) {
	f.Add(`{"tools_called":[{"name":"A","args":{"x":{"y":1}},"output":[1]}],"expected_tools":[{"name":"A","args":{"x":{"y":true}}},{"name":"A"}]}`)
	f.Add(`{"tools_called":null,"expected_tools":[{"name":"A","type":"mcp"}],"available_tools":[{}]}`)
	f.Add(`{"tools_called":[{"name":"A","args":{}},{"name":"A","args":{}}],"expected_tools":[{"name":"A","args":{}}]}`)
	var metrics []*deepeval.Metric
	for _, variant := range []deepeval.Variant{"v4", "v3", "multimodal"} {
		for _, mode := range []deepeval.Options{{}, {ShouldConsiderOrdering: true}, {ShouldExactMatch: true}} {
			mode.Variant, mode.EvaluationParams, mode.Judge = variant, []deepeval.Param{deepeval.ParamInputParameters, deepeval.ParamOutput}, fixedJudge{score: 0.5}
			m, err := deepeval.New(mode)
			if err != nil {
				f.Fatal(err)
			}
			metrics = append(metrics, m)
		}
	}
	f.Fuzz(func(t *testing.T, js string) {
		v, err := jsonvalue.ParseString(js)
		if err != nil {
			return
		}
		c, err := dataset.DecodeCase(v)
		if err != nil {
			return
		}
		for _, m := range metrics {
			r := m.Grade(context.Background(), c)
			// Multimodal's repeated 1/n additions can exceed 1 by an ulp.
			if r.Error == "" && !(r.Score >= 0 && r.Score <= 1+1e-9) {
				t.Fatalf("score %v", r.Score)
			}
		}
	})
}

// FuzzDeepEvalThreshold checks that the options read any threshold JSON
// without panicking, and that a number reads as that pass mark.
func FuzzDeepEvalThreshold(f *testing.F) {
	for _, s := range []string{"null", "0.5", "1e3", `"x"`, "[]", "-0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var o deepeval.Options
		if json.Unmarshal([]byte(`{"threshold":`+s+`}`), &o) != nil {
			return
		}
		var f *float64
		if json.Unmarshal([]byte(s), &f) == nil && f != nil && (o.Threshold == nil || *o.Threshold != *f) {
			t.Fatalf("threshold %s read as %v", s, o.Threshold)
		}
		if _, err := deepeval.New(o); err != nil {
			t.Fatalf("threshold %s: %v", s, err)
		}
	})
}
