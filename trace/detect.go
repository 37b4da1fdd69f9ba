package trace

import (
	"fmt"
	"strings"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Detection looks at keys and element shapes only, never at finish
// reasons, and stops at the first element that settles the question.

// detect names the format of a decoded trace.
func detect(v any) (string, error) {
	var f string
	switch v := v.(type) {
	case jsonvalue.Object:
		f = detectObject(v)
	case []any:
		f = detectList(v)
	}
	if f == "" {
		return "", unrecognized(v)
	}
	return f, nil
}

func unrecognized(v any) error {
	return fmt.Errorf("%w: %s; want one of the formats %s", ErrUnknownFormat, describe(v), strings.Join(Formats(), ", "))
}

// detectObject names the format of a trace that is one JSON object.
func detectObject(o jsonvalue.Object) string {
	if f := detectAgentLog(o); f != "" {
		return f // agent CLI and framework logs (detect_agents.go)
	}
	switch {
	case o.Has("resourceSpans") || o.Has("resource_spans"):
		return spanFormat(o)
	case o.Has("resourceLogs") || o.Has("resource_logs"):
		return "otel_genai"
	case o.Has("traj"):
		return "tau_bench"
	case o.Has("initial_state") && hasAny(o, "user_scenario", "evaluation_criteria", "description"),
		o.Has("simulations") && o.Has("tasks"):
		return "tau2_bench"
	case o.Has("run_type") || runList(get(o, "runs")):
		return "langsmith"
	case o.Has("observations") || observationList(get(o, "data")):
		return "langfuse"
	case o.Has("calling") && o.Has("query"):
		return "seal_tools"
	case o.Has("python_function_calls") || o.Has("json_function_calls") || o.Has("python_function_name"),
		o.Has("query_dict") && o.Has("dataset"), len(o) == 2 && o.Has("query") && o.Has("reference"):
		return "nexusraven"
	case o.Has("conversations") && shareGPTTurns(get(o, "conversations")):
		return "sharegpt"
	case o.Has("result") && o.Has("id") && !o.Has("jsonrpc") && !o.Has("ground_truth"):
		return "bfcl_result"
	case o.Has("answer_generation") || (o.Has("tree") && o.Has("win")):
		return "toolbench"
	case o.Has("ground_truth"):
		return "bfcl"
	case o.Has("correct_answer") && o.Has("answers"):
		return "when2call"
	case o.Has("answers") && o.Has("query"):
		return "xlam"
	case hasAny(o, deepEvalKeys...):
		return "deepeval"
	case o.Has("jsonrpc"):
		return "mcp"
	case o.Has("choices"):
		return "openai_chat"
	case o.Has("candidates") || o.Has("contents"):
		return "gemini"
	}
	if str(o, "object") == "interaction" || interactionList(get(o, "steps")) || interactionList(get(o, "outputs")) ||
		interactionList(get(o, "input")) {
		return "gemini_interactions"
	}
	switch out := get(o, "output").(type) {
	case []any:
		return "openai_responses"
	case jsonvalue.Object:
		if out.Has("message") {
			return "bedrock_converse"
		}
	}
	if f := attributeFormat(o); f != "" {
		return f
	}
	if o.Has("attributes") {
		return spanFormat(o)
	}
	if msgs, ok := get(o, "messages").([]any); ok {
		if f := detectList(msgs); f != "" && f != "pythonic" {
			return f
		}
		return "openai_chat"
	}
	if _, ok := get(o, "input").([]any); ok {
		return "openai_responses"
	}
	if m := obj(o, "message"); m.Has("tool_plan") || (m.Has("role") && o.Has("finish_reason") && !o.Has("done")) {
		return "cohere_v2"
	}
	if m := obj(o, "message"); m.Has("role") {
		return "openai_chat" // Ollama /api/chat response
	}
	if f, _ := classify(o); f != "" {
		return f // one message, item, event or call
	}
	return ""
}

// deepEvalKeys mark DeepEval / Confident AI traces, goldens and test cases.
var deepEvalKeys = []string{"toolSpans", "baseSpans", "llmSpans", "agentSpans", "retrieverSpans",
	"toolsCalled", "tools_called", "expectedTools", "expected_tools"}

func hasAny(o jsonvalue.Object, keys ...string) bool {
	for _, k := range keys {
		if o.Has(k) {
			return true
		}
	}
	return false
}

// Strengths of an element's vote.
const (
	weak     = 1 // fits the format, and others too
	decisive = 2 // fits only this format
)

// detectList names the format of a trace that is a list: the first
// element that fits one format only decides; otherwise the weak votes do,
// and a list of plain chat messages (or no elements) is openai_chat.
func detectList(l []any) string {
	if len(l) == 0 {
		return "openai_chat"
	}
	strs := 0
	var weakVote string
	for _, e := range l {
		if _, ok := e.(string); ok {
			strs++
			continue
		}
		f, strength := classify(e)
		switch strength {
		case decisive:
			return f
		case weak:
			if weakVote == "" || weakRank[f] > weakRank[weakVote] {
				weakVote = f
			}
		}
	}
	if strs == len(l) {
		if _, err := parseCalls(l[0].(string)); err == nil {
			return "pythonic" // BFCL-style call strings
		}
		return ""
	}
	return weakVote
}

// weakRank orders weak votes: role "model" and type-less text blocks are
// rarer, and so more telling, than a plain chat message.
var weakRank = map[string]int{"openai_chat": 1, "bedrock_converse": 2, "gemini": 3, "deepeval": 0}

// classify says which format one element (a message, item, chunk, event,
// span or call) belongs to, and how surely.
func classify(v any) (string, int) {
	o, ok := v.(jsonvalue.Object)
	if !ok {
		return "", 0
	}
	if isClaudeRecord(o) && claudeFormat(o) == "" {
		// A record of either Claude format: a later one may tell which.
		return "claude_code", weak
	}
	if f := classifyAgentLog(o); f != "" {
		return f, decisive // agent CLI and framework records (detect_agents.go)
	}
	switch {
	case o.Has("jsonrpc"):
		return "mcp", decisive
	case o.Has("choices"):
		return "openai_chat", decisive
	case o.Has("candidates"):
		return "gemini", decisive
	case o.Has("resourceSpans") || o.Has("resource_spans") || o.Has("attributes"):
		return spanFormat(o), decisive
	case o.Has("resourceLogs") || o.Has("resource_logs"):
		return "otel_genai", decisive
	case cohereEvents[str(o, "type")] || o.Has("tool_plan"):
		return "cohere_v2", decisive
	case interactionEvent(o) || interactionOnlyTypes[str(o, "type")]:
		return "gemini_interactions", decisive
	case o.Has("run_type"):
		return "langsmith", decisive
	case isObservation(o):
		return "langfuse", decisive
	case o.Has("from") && o.Has("value"):
		return "sharegpt", decisive
	case o.Has("result") && o.Has("id") && !o.Has("jsonrpc") && len(o) <= 8 && !o.Has("role"):
		return "bfcl_result", decisive
	case o.Has("lc") && o.Has("kwargs"):
		return "langchain", decisive
	case hasAny(o, "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStart", "messageStop"):
		return "bedrock_converse", decisive
	}
	if f := attributeFormat(o); f != "" {
		return f, decisive
	}
	if t := str(o, "type"); t != "" {
		switch {
		case langChainKinds[langChainKind(t)] && (o.Has("content") || o.Has("data")):
			return "langchain", decisive
		case anthropicEvents[t]:
			return "anthropic_messages", decisive
		case strings.HasPrefix(t, "response."):
			return "openai_responses", decisive
		case responsesItemTypes[t]:
			return "openai_responses", decisive
		case t == "message":
			if f, _ := classifyBlocks(list(o, "content")); f == "anthropic_messages" {
				return f, decisive
			}
			if str(o, "role") == "assistant" && has(o, "stop_reason") {
				return "anthropic_messages", decisive
			}
			return "openai_responses", decisive
		}
	}
	if parts := list(o, "parts"); parts != nil {
		for _, p := range parts {
			po, ok := p.(jsonvalue.Object)
			switch {
			case !ok:
			case po.Has("type"):
				return "otel_genai", decisive
			case hasAny(po, "functionCall", "functionResponse", "function_call", "function_response", "text", "inlineData", "executableCode"):
				return "gemini", decisive
			}
		}
	}
	if !o.Has("role") {
		if o.Has("name") && hasAny(o, "inputParameters", "input_parameters", "args", "input", "arguments") {
			return "deepeval", weak // a bare tool-call object
		}
		return "", 0
	}
	if o.Has("requestor") {
		return "tau2_bench", decisive // τ²-bench tool messages say who asked
	}
	for _, tc := range list(o, "tool_calls") {
		switch {
		case has(tc, "requestor"):
			return "tau2_bench", decisive // τ²-bench ToolCall {"id", "name", "arguments", "requestor"}
		case isInspectCall(tc):
			return "inspect_ai", decisive
		case has(tc, "function") || has(tc, "custom"):
			return "openai_chat", decisive
		case has(tc, "args"):
			return "langchain", decisive
		}
	}
	if o.Has("function_call") || str(o, "role") == "function" {
		return "openai_chat", decisive
	}
	if f, strength := classifyBlocks(list(o, "content")); strength > 0 {
		return f, strength
	}
	if str(o, "role") == "model" {
		return "gemini", weak
	}
	return "openai_chat", weak
}

// classifyBlocks looks at a message's content blocks.
func classifyBlocks(blocks []any) (string, int) {
	vote := ""
	for _, bl := range blocks {
		o, ok := bl.(jsonvalue.Object)
		if !ok {
			continue
		}
		t := str(o, "type")
		switch {
		case t == "":
			if hasAny(o, "toolUse", "toolResult") {
				return "bedrock_converse", decisive
			}
			if o.Has("text") {
				vote = "bedrock_converse"
			}
		case anthropicBlockTypes[t] || strings.HasSuffix(t, "_tool_result"):
			return "anthropic_messages", decisive
		case t == "input_text" || t == "output_text" || t == "input_image" || t == "input_file" || t == "refusal":
			return "openai_responses", decisive
		}
	}
	if vote != "" {
		return vote, weak
	}
	return "", 0
}

var anthropicBlockTypes = map[string]bool{"tool_use": true, "tool_result": true, "server_tool_use": true,
	"mcp_tool_use": true, "thinking": true, "redacted_thinking": true}

var anthropicEvents = map[string]bool{"message_start": true, "message_delta": true, "message_stop": true,
	"content_block_start": true, "content_block_delta": true, "content_block_stop": true, "ping": true}

// responsesItems are the item types of the OpenAI Responses API that are
// not messages.
var responsesItemTypes = map[string]bool{
	"function_call": true, "function_call_output": true,
	"custom_tool_call": true, "custom_tool_call_output": true,
	"web_search_call": true, "file_search_call": true, "code_interpreter_call": true,
	"image_generation_call": true, "mcp_call": true, "mcp_list_tools": true,
	"mcp_approval_request": true, "mcp_approval_response": true,
	"computer_call": true, "computer_call_output": true,
	"local_shell_call": true, "local_shell_call_output": true,
	"shell_call": true, "shell_call_output": true,
	"apply_patch_call": true, "apply_patch_call_output": true,
	"reasoning": true, "item_reference": true,
	"tool_search_call": true, "tool_search_output": true, "program": true, "program_output": true,
}

// interactionOnlyTypes are Gemini Interactions step types no other format
// has.
var interactionOnlyTypes = map[string]bool{"function_result": true, "thought": true, "user_input": true,
	"model_output": true, "google_search_call": true, "google_search_result": true,
	"code_execution_call": true, "code_execution_result": true, "url_context_call": true, "url_context_result": true,
	"mcp_server_tool_call": true, "mcp_server_tool_result": true}

// interactionEvent says whether o is a Gemini Interactions stream event.
func interactionEvent(o jsonvalue.Object) bool {
	et, _ := get(o, "event_type").(string)
	return strings.HasPrefix(et, "interaction.") || strings.HasPrefix(et, "step.") || strings.HasPrefix(et, "content.")
}

// interactionList says whether v is a list holding an Interactions step
// no other format has.
func interactionList(v any) bool {
	l, _ := v.([]any)
	for _, e := range l {
		if interactionOnlyTypes[str(e, "type")] {
			return true
		}
		if items, ok := get(e, "content").([]any); ok && interactionList(items) {
			return true
		}
	}
	return false
}

// runList says whether v is a list of LangSmith runs.
func runList(v any) bool {
	l, _ := v.([]any)
	return len(l) > 0 && has(l[0], "run_type")
}

// observationList says whether v is a list of Langfuse traces or
// observations.
func observationList(v any) bool {
	l, _ := v.([]any)
	if len(l) == 0 {
		return false
	}
	o, _ := l[0].(jsonvalue.Object)
	return isObservation(o)
}

// isObservation says whether o is a Langfuse trace or observation.
func isObservation(o jsonvalue.Object) bool {
	return o.Has("observations") || (o.Has("type") && hasAny(o, "traceId", "parentObservationId") && o.Has("startTime"))
}

// shareGPTTurns says whether v is a list of ShareGPT turns.
func shareGPTTurns(v any) bool {
	l, _ := v.([]any)
	return len(l) > 0 && has(l[0], "from")
}

// attributeFormat recognizes a flat span attribute map by its keys.
func attributeFormat(o jsonvalue.Object) string {
	genAI := false
	for _, m := range o {
		switch {
		case isOpenInferenceKey(m.Key):
			return "openinference"
		case strings.HasPrefix(m.Key, "gen_ai."):
			genAI = true
		}
	}
	if genAI {
		return "otel_genai"
	}
	return ""
}

// detectText names the format of a plain-text trace, or "".
func detectText(s string) string {
	switch {
	case strings.Contains(s, "<functioncall>") || strings.Contains(s, "FUNCTION RESPONSE:"):
		return "glaive"
	case strings.Contains(s, "<tool_call>") || strings.Contains(s, "<tool_response>") ||
		strings.Contains(s, "<tools>") || strings.Contains(s, "<|im_start|>"):
		return "hermes"
	}
	if _, err := parseCalls(s); err == nil {
		return "pythonic"
	}
	return ""
}
