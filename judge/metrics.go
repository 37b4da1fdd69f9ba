package judge

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
)

// DefaultThreshold is the pass mark of the judged metrics when none is set.
const DefaultThreshold = 0.5

// Options configure the judged metrics. The JSON names are the keys of a
// metric entry in a config file.
type Options struct {
	// Threshold is the pass mark (default 0.5).
	Threshold *float64 `json:"threshold,omitempty"`
}

func (o Options) threshold() (float64, error) {
	return toolgrade.Threshold(o.Threshold, DefaultThreshold)
}

// ToolSelectionMetric asks the judge whether the tools called were the
// best choice among the available tools, for the case's input, on a
// 0 / 0.25 / 0.5 / 0.75 / 1 rubric (see [Prompts]). Its score is the
// judge's; Components["tool_selection"] repeats it and Reason gives the
// judge's reason.
//
// A case that lists no available tools, and a run that gives none for it,
// is an error result: there is nothing to choose among. So is a failed
// judgment; it never becomes a score.
type ToolSelectionMetric struct {
	judge     Judge
	tools     []toolgrade.Tool
	threshold float64
}

// NewToolSelection returns the tool_selection metric. tools, if any, stand
// in for the available tools of cases that list none.
func NewToolSelection(j Judge, tools []toolgrade.Tool, o Options) (*ToolSelectionMetric, error) {
	if j == nil {
		return nil, errNoJudge
	}
	t, err := o.threshold()
	if err != nil {
		return nil, err
	}
	return &ToolSelectionMetric{judge: j, tools: tools, threshold: t}, nil
}

// Name returns "tool_selection".
func (m *ToolSelectionMetric) Name() string { return "tool_selection" }

// Profile returns "default".
func (m *ToolSelectionMetric) Profile() string { return "default" }

// CaseFields returns the fields the judge is shown: the input, the tool
// definitions and the calls.
func (m *ToolSelectionMetric) CaseFields() []string {
	return []string{"input", "available_tools", "tools_called"}
}

// Grade asks the judge about c.
func (m *ToolSelectionMetric) Grade(ctx context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile(), Threshold: toolgrade.Float(m.threshold)}
	c = withTools(c, m.tools)
	if !hasTools(schema.Definitions(c)) {
		r.Error = "tool_selection needs the available tools: give available_tools in the case, or --tools"
		return r
	}
	v, err := ToolSelection(ctx, m.judge, c)
	setUsage(&r, v.Usage)
	if err != nil {
		r.Error = "tool selection judge: " + err.Error()
		return r
	}
	r.Score = v.Score
	r.Success = r.Score >= m.threshold
	r.SetDetail(toolgrade.Components{"tool_selection": v.Score})
	r.Reason = v.Reason
	return r
}

// ArgumentCorrectnessMetric asks the judge, call by call, whether each
// call's arguments are right for the case's input, as DeepEval's
// ArgumentCorrectnessMetric does: one request and one verdict per call,
// and the score is the share of verdicts that are not "no". A verdict is
// "no" when the judge scores the call below 0.5 (the prompt asks for 0 or
// 1). A case without calls scores 1 and asks nothing.
// Components["call[i]"] holds the verdict on call i.
//
// A case's calls are asked about at once, as many as the judge answers
// at once (see [Judge]), in the order of the calls; verdicts and reasons
// keep that order whatever order the replies come in.
//
// A failed judgment on any call makes the case an error result: the
// failure of the first call that failed, in the order of the calls, with
// the usage of the requests up to it, as if they had been asked one after
// another. Calls after it are no longer asked, and those being asked are
// cancelled (a reply that came is cached all the same).
type ArgumentCorrectnessMetric struct {
	judge     Judge
	tools     []toolgrade.Tool
	threshold float64
}

// NewArgumentCorrectness returns the argument_correctness metric. tools,
// if any, stand in for the available tools of cases that list none.
func NewArgumentCorrectness(j Judge, tools []toolgrade.Tool, o Options) (*ArgumentCorrectnessMetric, error) {
	if j == nil {
		return nil, errNoJudge
	}
	t, err := o.threshold()
	if err != nil {
		return nil, err
	}
	return &ArgumentCorrectnessMetric{judge: j, tools: tools, threshold: t}, nil
}

// Name returns "argument_correctness".
func (m *ArgumentCorrectnessMetric) Name() string { return "argument_correctness" }

// Profile returns "default".
func (m *ArgumentCorrectnessMetric) Profile() string { return "default" }

// CaseFields returns the fields the judge is shown: the input, the tool
// definitions and the calls.
func (m *ArgumentCorrectnessMetric) CaseFields() []string {
	return []string{"input", "available_tools", "tools_called"}
}

// Grade asks the judge about each call of c.
func (m *ArgumentCorrectnessMetric) Grade(ctx context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile(), Threshold: toolgrade.Float(m.threshold)}
	if len(c.Called) == 0 {
		r.Score, r.Success, r.Reason = 1, true, "no calls to grade"
		return r
	}
	c = withTools(c, m.tools)
	p := newArgumentPrompts(c)
	verdicts, failed, err := askAll(ctx, m.judge, len(c.Called), p.request)
	var u toolgrade.Usage
	if err != nil {
		for _, v := range verdicts[:failed+1] {
			u.Add(v.Usage)
		}
		r = toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile(), Threshold: r.Threshold,
			Error: fmt.Sprintf("argument judge, call #%d %s: %v", failed, c.Called[failed].Name, err)}
		setUsage(&r, u)
		return r
	}
	comps := make(toolgrade.Components, len(c.Called))
	reasons := make([]string, len(c.Called))
	yes := 0
	for i, v := range verdicts {
		u.Add(v.Usage)
		comps["call["+strconv.Itoa(i)+"]"] = v.Score
		verdict := "no"
		if v.Score >= 0.5 {
			verdict = "yes"
			yes++
		}
		reasons[i] = fmt.Sprintf("call #%d %s: %s: %s", i, c.Called[i].Name, verdict, v.Reason)
	}
	r.SetDetail(comps)
	setUsage(&r, u)
	r.Score = float64(yes) / float64(len(c.Called))
	r.Success = r.Score >= m.threshold
	r.Reason = strings.Join(reasons, "; ")
	return r
}

// MinToolSelection adds the judge's tool-selection verdict to a
// deterministic tool-correctness metric: when the case lists available
// tools (or Tools stand in for them), the judge rates the selection and
// the score becomes the lower of the two, as DeepEval's
// ToolCorrectnessMetric does. Without available tools the wrapped result
// is returned as it is.
//
// Components["deterministic"] holds the wrapped score and
// Components["tool_selection"] the judge's; success is re-decided against
// the wrapped result's threshold. A failed judgment makes the result an
// error, never a silent 0 or 1.
type MinToolSelection struct {
	toolgrade.Metric
	Judge Judge
	// Tools stand in for the available tools of cases that list none.
	Tools []toolgrade.Tool
	// Strict turns a combined score below 1 into 0, as the wrapped
	// metric's strict mode does for its own score.
	Strict bool
}

// CaseFields returns the fields the wrapped metric reads, and those the
// judge is shown.
func (m *MinToolSelection) CaseFields() []string {
	fields := slices.Clone(toolgrade.CaseFields(m.Metric))
	for _, f := range []string{"input", "available_tools", "tools_called"} {
		if !slices.Contains(fields, f) {
			fields = append(fields, f)
		}
	}
	return fields
}

// Grade grades c with the wrapped metric, then asks the judge.
func (m *MinToolSelection) Grade(ctx context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	r := m.Metric.Grade(ctx, c)
	if r.Error != "" {
		return r
	}
	c = withTools(c, m.Tools)
	if !hasTools(schema.Definitions(c)) {
		return r
	}
	v, err := ToolSelection(ctx, m.Judge, c)
	setUsage(&r, v.Usage)
	if err != nil {
		r.Error = "tool selection judge: " + err.Error()
		return r
	}
	inner := toolgrade.DetailOf[toolgrade.Components](&r)
	comps := make(toolgrade.Components, len(inner)+2)
	maps.Copy(comps, inner)
	comps["deterministic"], comps["tool_selection"] = r.Score, v.Score
	r.SetDetail(comps)
	r.Score = min(r.Score, v.Score)
	if m.Strict && r.Score < 1 {
		r.Score = 0
	}
	if r.Threshold != nil {
		r.Success = r.Score >= *r.Threshold
	}
	judged := "tool selection (judge) " + strconv.FormatFloat(v.Score, 'g', -1, 64)
	if v.Reason != "" {
		judged += ": " + v.Reason
	}
	if r.Reason == "" {
		r.Reason = judged
	} else {
		r.Reason += "; " + judged
	}
	return r
}

// withTools returns c, or a copy of it whose record gives tools as its
// available_tools when c lists none.
func withTools(c *toolgrade.Case, tools []toolgrade.Tool) *toolgrade.Case {
	if len(tools) == 0 || hasTools(schema.Definitions(c)) {
		return c
	}
	list := make([]any, len(tools))
	for i, t := range tools {
		obj := jsonvalue.Object{{Key: "name", Value: t.Name}}
		if t.Description != "" {
			obj = append(obj, jsonvalue.Member{Key: "description", Value: t.Description})
		}
		if t.Parameters != nil {
			obj = append(obj, jsonvalue.Member{Key: "parameters", Value: t.Parameters})
		}
		list[i] = obj
	}
	cc := *c
	cc.Raw = slices.Clone(c.Raw)
	cc.Raw.Set("available_tools", list)
	return &cc
}

// setUsage makes u r's usage detail; a zero u, when nothing was asked,
// leaves none.
func setUsage(r *toolgrade.MetricResult, u toolgrade.Usage) {
	if u == (toolgrade.Usage{}) {
		r.Details = slices.DeleteFunc(slices.Clone(r.Details), func(d toolgrade.Detail) bool { return d.Member() == u.Member() })
		return
	}
	r.SetDetail(u)
}
