package config

import (
	"slices"

	"github.com/toolgrade/toolgrade"
)

// gradedFields are the case fields that are there only for some metrics
// to grade, each with what to tell a case that sets one when none of the
// run's metrics reads it ([toolgrade.CaseFields]); the case would
// otherwise pass as if it had been checked. Fields every case has (the
// input, the calls, the tools) are not among them.
var gradedFields = []struct {
	fields []string
	why    string
}{
	{[]string{"process"}, "no metric checks process rules (add a metric entry with metric: tool_process)"},
	{[]string{"expected_state", "final_state", "state_rules"}, "no metric compares states (add a metric entry with metric: state_match)"},
	{[]string{"turns"}, "only the default profile's tool_correctness grades turn by turn; the turns' calls are graded as one list"},
	{[]string{"output"}, "only the mastra and promptfoo profiles read a raw output (add a metric entry with profile: mastra or promptfoo)"},
	{[]string{"input_messages"}, "only the mastra profile's tool-call accuracy scorer reads a run's input messages"},
	{[]string{"value", "trace"}, "only the promptfoo profile reads an assertion's value and trace (add a metric entry with profile: promptfoo)"},
}

// NotGraded maps the case fields that are there only for some metrics to
// grade, and that none of metrics reads, to what would read them: the
// NotGraded of a dataset.Checker, so that a case that sets one is warned.
func NotGraded(metrics []toolgrade.Metric) map[string]string {
	out := map[string]string{}
	for _, g := range gradedFields {
		for _, f := range g.fields {
			if !slices.ContainsFunc(metrics, func(m toolgrade.Metric) bool { return slices.Contains(toolgrade.CaseFields(m), f) }) {
				out[f] = g.why
			}
		}
	}
	return out
}
