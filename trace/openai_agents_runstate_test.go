package trace_test

import (
	"strings"
	"testing"
)

// runStateJS is a JavaScript RunState holding one call of outer (id
// "o1") and, under pendingAgentToolRuns, the given nested run as JSON
// text.
func runStateJS(nested string) string {
	return `{"$schemaVersion":"1.2","currentAgent":{"name":"Outer"},"originalInput":"go",
		"generatedItems":[{"type":"tool_call_item","rawItem":{"type":"function_call","callId":"o1","name":"outer","arguments":"{\"q\":1}"},"agent":{"name":"Outer"}}],
		"pendingAgentToolRuns":{"outer:o1":` + nested + `}}`
}

func TestOpenAIAgentsRunStateNested(t *testing.T) {
	innerJS := `{"$schemaVersion":"1.2","currentAgent":{"name":"Inner"},"originalInput":"q=1",` +
		`"generatedItems":[{"type":"tool_call_item","rawItem":{"type":"function_call","callId":"i1","name":"lookup","arguments":"{}"},"agent":{"name":"Inner"}},` +
		`{"type":"tool_call_output_item","rawItem":{"type":"function_call_result","callId":"i1","name":"lookup","output":"found"},"agent":{"name":"Inner"}}],` +
		`"currentStep":{"type":"next_step_interruption","data":{"interruptions":[{"type":"tool_approval_item","rawItem":{"type":"function_call","callId":"i2","name":"send","arguments":"{\"to\":\"x\"}"},"agent":{"name":"Inner"},"toolName":"send"}]}}}`
	runFormatTests(t, []formatTest{{
		name:   "a nested JavaScript run as JSON text: its calls after the outer call, a pending one without result",
		input:  runStateJS(quoteJSON(innerJS)),
		format: "openai_agents_runstate",
		calls: `[{"name":"outer","args":{"q":1},"id":"o1","output":null},
			{"name":"lookup","args":{},"id":"i1","output":"found"},
			{"name":"send","args":{"to":"x"},"id":"i2","output":null}]`,
		skipped: []string{},
	}, {
		name: "a nested Python run as agent_run_state; the outer run's interruptions",
		input: `{"$schemaVersion":"1.4","current_agent":{"name":"Outer"},"original_input":"go",
			"generated_items":[{"type":"tool_call_item","raw_item":{"type":"function_call","call_id":"o1","name":"outer","arguments":"{}"},"agent":{"name":"Outer"}}],
			"current_step":{"type":"next_step_interruption","data":{"interruptions":[{"type":"tool_approval_item","raw_item":{"type":"function_call","call_id":"i1","name":"wipe","arguments":"{}"},"agent":{"name":"Inner"},"tool_name":"wipe"}]}},
			"last_processed_response":{"new_items":[],"tools_used":["outer"],"functions":[{"tool_call":{"type":"function_call","call_id":"o1","name":"outer","arguments":"{}"},"tool":{"name":"outer"},
				"agent_run_state":{"$schemaVersion":"1.4","current_agent":{"name":"Inner"},"original_input":"x","generated_items":[
					{"type":"tool_approval_item","raw_item":{"type":"function_call","call_id":"i1","name":"wipe","arguments":"{}"},"agent":{"name":"Inner"}}]}}]}}`,
		format: "openai_agents_runstate",
		calls: `[{"name":"outer","args":{},"id":"o1","output":null},
			{"name":"wipe","args":{},"id":"i1","output":null}]`,
	}, {
		name:    "a pending run that is no RunState is skipped",
		input:   runStateJS(`"[1, 2]"`),
		format:  "openai_agents_runstate",
		calls:   `[{"name":"outer","args":{"q":1},"id":"o1","output":null}]`,
		skipped: []string{`pendingAgentToolRuns.outer:o1: pending agent tool run that is a JSON array of 2 items (integer), not a RunState`},
	}, {
		name: "approval records are no calls",
		input: `{"$schemaVersion":"1.18","currentAgent":{"name":"A"},"originalInput":"x","generatedItems":[],"modelResponses":[],
			"context":{"approvals":{},"functionApprovals":[{"agentIdentity":"A","approvals":{"[\"bare\",\"f\"]":{"approved":true,"rejected":["c2"]}}}],
			"approvalInvocations":[{"agentIdentity":"A","invocations":{"c1":"{\"caller\":{\"type\":\"direct\"},\"payload\":{\"format\":\"json\",\"value\":{}},\"toolName\":\"[\\\"bare\\\",\\\"f\\\"]\",\"type\":\"function_call\"}"},"approvals":{}}]},
			"completedToolInvocations":[{"agentIdentity":"A","invocations":{"c1":"{\"toolName\":\"f\",\"type\":\"function_call\",\"payload\":{}}"}}]}`,
		format:  "openai_agents_runstate",
		calls:   `[]`,
		skipped: []string{},
	}})
}

// TestOpenAIAgentsRunStateNestingBudget: runs nested deeper than the
// budget are skipped and reported, not read without end.
func TestOpenAIAgentsRunStateNestingBudget(t *testing.T) {
	run := `{"$schemaVersion":"1.2","currentAgent":{"name":"A"},"originalInput":"x","generatedItems":[]}`
	for range 10 {
		run = runStateJS(quoteJSON(run))
	}
	runFormatTests(t, []formatTest{{
		name:    "ten runs deep",
		input:   run,
		format:  "openai_agents_runstate",
		calls:   `[{"name":"outer","args":{"q":1},"id":"o1","output":null}]`,
		skipped: []string{`pendingAgentToolRuns.outer:o1` + strings.Repeat(`.pendingAgentToolRuns.outer:o1`, 8) + `: agent tool run nested more than 8 deep`},
	}})
}

// quoteJSON returns s as a JSON string.
func quoteJSON(s string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			sb.WriteByte('\\')
			sb.WriteRune(r)
		case '\n':
			sb.WriteString(`\n`)
		case '\t':
			sb.WriteString(`\t`)
		default:
			sb.WriteRune(r)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}
