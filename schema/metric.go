package schema

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Options configure the schema metric ([New]). The JSON names are the keys
// of a metric entry with metric: schema.
type Options struct {
	// Threshold is the pass mark for the score (default 1: every call must
	// be valid, the natural gate for CI).
	Threshold *float64 `json:"threshold,omitempty"`
	// Weights override DeepFabric's weights for the overall component;
	// weights not given keep their defaults (0.40, 0.35, 0.25).
	Weights *Weights `json:"weights,omitempty"`
	// Tools are the run's tool definitions, used for cases that give no
	// available_tools of their own (the --tools file, the config's tools).
	Tools []toolgrade.Tool `json:"-"`
}

// Weights weigh the parts of the overall component, as DeepFabric's
// metric_weights do.
type Weights struct {
	ToolSelection     *float64 `json:"tool_selection,omitempty"`
	ParameterAccuracy *float64 `json:"parameter_accuracy,omitempty"`
	ExecutionSuccess  *float64 `json:"execution_success,omitempty"`
}

// DeepFabric's default weights.
const (
	DefaultToolSelectionWeight     = 0.40
	DefaultParameterAccuracyWeight = 0.35
	DefaultExecutionSuccessWeight  = 0.25
)

// Metric is the schema metric: it checks every call an agent made against
// the definitions of the tools it could call, with no expected calls
// needed.
//
// A call is valid when its tool is among the available tools (names
// compare exactly), its arguments are JSON, and they satisfy the tool's
// parameter schema (see [Validate]); a tool defined without a schema takes
// any arguments, and a call that records no arguments is checked as {}. The
// score is the share of valid calls; a case without calls scores 1 (there
// is nothing wrong to find) and the reason says so. The reason lists each
// problem with the call's index and name and, for schema violations, the
// argument's JSON Pointer and the message.
//
// The tools are the case's available_tools, or the run's tools
// ([Options.Tools]) when the case gives none. A case with neither, or whose
// definitions cannot be read, or whose called tool has a schema that is not
// valid JSON Schema, gets an error result: the fault is in the test data,
// not in the agent.
//
// When the case has expected calls, the result also carries DeepFabric's
// parts as components, generalized from DeepFabric's first-call-only
// check to every call:
//
//	tool_selection     = expected calls whose tool was called (as a multiset) / expected
//	parameter_accuracy = valid calls / calls made (0 when nothing was called)
//	execution_success  = expected calls met by a distinct valid call of the same tool / expected
//	overall            = the weighted sum (0.40, 0.35, 0.25 unless overridden)
//
// With one expected and one called call these are DeepFabric's flags,
// except that arguments are checked with full JSON Schema. The score stays
// the valid-call share; overall is only reported.
type Metric struct {
	threshold float64
	weights   [3]float64
	tools     []toolgrade.Tool
}

// New checks the options and returns the metric.
func New(opts Options) (*Metric, error) {
	m := &Metric{
		threshold: 1,
		weights:   [3]float64{DefaultToolSelectionWeight, DefaultParameterAccuracyWeight, DefaultExecutionSuccessWeight},
		tools:     opts.Tools,
	}
	var err error
	if m.threshold, err = toolgrade.Threshold(opts.Threshold, m.threshold); err != nil {
		return nil, err
	}
	if w := opts.Weights; w != nil {
		for i, p := range []*float64{w.ToolSelection, w.ParameterAccuracy, w.ExecutionSuccess} {
			if p != nil {
				m.weights[i] = *p
			}
		}
	}
	return m, nil
}

// Name returns "schema".
func (m *Metric) Name() string { return "schema" }

// Profile returns "default".
func (m *Metric) Profile() string { return "default" }

// CaseFields returns the fields the metric reads: the calls, the expected
// calls (for the components), and the tool definitions.
func (m *Metric) CaseFields() []string {
	return []string{"tools_called", "expected_tools", "available_tools"}
}

// A CallCheck is the verdict on one call.
type CallCheck struct {
	// Problem is empty for a valid call, else UnknownTool, InvalidJSON or
	// SchemaViolated.
	Problem string
	// Violations lists what breaks the schema (SchemaViolated only).
	Violations []Violation
}

// The problems a call can have.
const (
	UnknownTool    = "unknown tool"
	InvalidJSON    = "arguments are not valid JSON"
	SchemaViolated = "arguments do not fit the schema"
)

// Check checks calls against tools and returns one verdict per call. The
// error names a tool whose schema is not valid JSON Schema.
func Check(tools []toolgrade.Tool, calls []toolgrade.Call) ([]CallCheck, error) {
	byName := make(map[string]*toolgrade.Tool, len(tools))
	for i := range tools {
		if _, dup := byName[tools[i].Name]; !dup { // the first definition wins
			byName[tools[i].Name] = &tools[i]
		}
	}
	out := make([]CallCheck, len(calls))
	for i := range calls {
		c := &calls[i]
		t, ok := byName[c.Name]
		switch {
		case !ok:
			out[i].Problem = UnknownTool
		case c.Invalid:
			out[i].Problem = InvalidJSON
		case t.Parameters != nil:
			args := c.Args
			if args == nil {
				args = jsonvalue.Object{}
			}
			vs, err := Validate(t.Parameters, args)
			if err != nil {
				return nil, fmt.Errorf("tool %q: parameters: %w", t.Name, err)
			}
			if len(vs) > 0 {
				out[i] = CallCheck{Problem: SchemaViolated, Violations: vs}
			}
		}
	}
	return out, nil
}

// Grade checks the case's calls.
func (m *Metric) Grade(_ context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile(), Threshold: toolgrade.Float(m.threshold)}
	tools := m.tools
	if defs := Definitions(c); defs != nil {
		var err error
		if tools, err = Parse(defs); err != nil {
			r.Fail(toolgrade.InField("available_tools", err))
			return r
		}
	} else if tools == nil {
		r.Error = "no tool definitions to check calls against: the case has no available_tools and the run has no tools (--tools, or tools: in the config)"
		return r
	}
	checks, err := Check(tools, c.Called)
	if err != nil {
		r.Fail(err)
		return r
	}
	valid := 0
	var problems []string
	for i, ch := range checks {
		call := &c.Called[i]
		switch ch.Problem {
		case "":
			valid++
		case UnknownTool:
			problems = append(problems, fmt.Sprintf("call %d %s: unknown tool (available: %s)", i, call.Name, toolNames(tools)))
		case InvalidJSON:
			problems = append(problems, fmt.Sprintf("call %d %s: %s: %s", i, call.Name, ch.Problem, strconv.Quote(shorten(call.ArgsRaw, 60))))
		default:
			for _, v := range ch.Violations {
				problems = append(problems, fmt.Sprintf("call %d %s: args%s: %s", i, call.Name, v.Pointer, v.Message))
			}
		}
	}
	if n := len(c.Called); n == 0 {
		r.Score = 1
		r.Reason = "no calls to check"
	} else {
		r.Score = float64(valid) / float64(n)
		r.Reason = fmt.Sprintf("%d of %d calls valid", valid, n)
		if len(problems) > 0 {
			r.Reason += "; " + strings.Join(problems, "; ")
		}
	}
	r.Success = r.Score >= m.threshold
	if len(c.Expected) > 0 {
		r.SetDetail(m.parts(c, checks))
	}
	return r
}

// parts computes DeepFabric's components (see [Metric]).
func (m *Metric) parts(c *toolgrade.Case, checks []CallCheck) toolgrade.Components {
	called := map[string]int{} // calls per tool
	validCalls := map[string]int{}
	valid := 0
	for i, ch := range checks {
		called[c.Called[i].Name]++
		if ch.Problem == "" {
			validCalls[c.Called[i].Name]++
			valid++
		}
	}
	selected, executed := 0, 0
	for _, e := range c.Expected {
		if called[e.Name] > 0 {
			called[e.Name]--
			selected++
		}
		if validCalls[e.Name] > 0 {
			validCalls[e.Name]--
			executed++
		}
	}
	n := float64(len(c.Expected))
	p := toolgrade.Components{
		"tool_selection":     float64(selected) / n,
		"parameter_accuracy": 0,
		"execution_success":  float64(executed) / n,
	}
	if len(checks) > 0 {
		p["parameter_accuracy"] = float64(valid) / float64(len(checks))
	}
	p["overall"] = p["tool_selection"]*m.weights[0] + p["parameter_accuracy"]*m.weights[1] + p["execution_success"]*m.weights[2]
	return p
}

func toolNames(tools []toolgrade.Tool) string {
	const max = 10
	names := make([]string, 0, min(len(tools), max))
	for i, t := range tools {
		if i == max {
			names = append(names, fmt.Sprintf("and %d more", len(tools)-max))
			break
		}
		names = append(names, t.Name)
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-3]) + "..."
}
