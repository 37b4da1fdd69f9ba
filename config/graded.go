package config

import "github.com/toolgrade/toolgrade/jsonvalue"

// NotGraded names the case fields that none of the metric entries reads,
// each with what would read it, so that a case file's checker
// (dataset.Checker.NotGraded) can warn that a field given is not graded.
func NotGraded(entries []jsonvalue.Object) map[string]string {
	has := map[string]bool{}
	for _, e := range entries {
		metric, profile := "tool_correctness", "default"
		if v, _ := e.Get("metric"); v != nil {
			metric, _ = v.(string)
		}
		if v, _ := e.Get("profile"); v != nil {
			profile, _ = v.(string)
		}
		has[metric] = true
		if metric == "tool_correctness" && profile == "default" || metric == "grounding" {
			has["turns"] = true // graded turn by turn; the turns' inputs ground values
		}
	}
	out := map[string]string{}
	if !has["tool_process"] {
		out["process"] = "no metric checks process rules (add a metric entry with metric: tool_process)"
	}
	if !has["state_match"] {
		for _, f := range []string{"expected_state", "final_state", "state_rules"} {
			out[f] = "no metric compares states (add a metric entry with metric: state_match)"
		}
	}
	if !has["turns"] {
		out["turns"] = "only the default profile's tool_correctness grades turn by turn; the turns' calls are graded as one list"
	}
	return out
}
