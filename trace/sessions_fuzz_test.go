package trace_test

import "testing"

// One fuzz target per session reader of issue 29's formats, each forcing
// its format (and detecting) on mutations of its samples and the seeds
// below; the properties are fuzzFormat's.

func FuzzPi(f *testing.F) {
	agentSeeds(f, "pi")
	fuzzFormat(f, "pi",
		"{\"type\":\"session\",\"version\":3,\"id\":\"s\",\"timestamp\":\"t\",\"cwd\":\"/\"}\n{\"type\":\"message\",\"id\":\"a\",\"parentId\":null,\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"toolCall\",\"id\":\"c\",\"name\":\"f\",\"arguments\":{}}]}}\n{\"type\":\"message\",\"id\":\"b\",\"parentId\":\"a\",\"message\":{\"role\":\"toolResult\",\"toolCallId\":\"c\",\"toolName\":\"f\",\"content\":[],\"isError\":true}}\n")
}

func FuzzOpenCode(f *testing.F) {
	agentSeeds(f, "opencode")
	fuzzFormat(f, "opencode",
		`{"info":{"id":"ses_1","projectID":"p"},"messages":[{"info":{"id":"msg_1","sessionID":"ses_1","role":"assistant"},"parts":[{"id":"prt_1","sessionID":"ses_1","messageID":"msg_1","type":"tool","callID":"c","tool":"bash","state":{"status":"error","input":{"command":"ls"},"error":"e"}}]}]}`)
}

func FuzzOpenHandsV1(f *testing.F) {
	agentSeeds(f, "openhands_v1")
	fuzzFormat(f, "openhands_v1",
		"{\"id\":\"a\",\"source\":\"agent\",\"kind\":\"ActionEvent\",\"tool_name\":\"t\",\"tool_call_id\":\"c\",\"tool_call\":{\"id\":\"c\",\"name\":\"t\",\"arguments\":\"{}\"}}\n{\"id\":\"o\",\"source\":\"environment\",\"kind\":\"ObservationEvent\",\"tool_name\":\"t\",\"tool_call_id\":\"c\",\"action_id\":\"a\",\"observation\":{\"content\":[],\"is_error\":true}}\n")
}

func FuzzMiniSWEAgent(f *testing.F) {
	agentSeeds(f, "mini_swe_agent")
	fuzzFormat(f, "mini_swe_agent",
		"[{\"role\":\"user\",\"content\":\"go\"},{\"role\":\"assistant\",\"content\":\"```bash\\nls\\n```\"},{\"role\":\"user\",\"content\":\"<returncode>1</returncode>\"}]",
		`{"info":{"config":{"model":{"action_regex":"<c>(.*)</c>"}}},"trajectory_format":"mini-swe-agent-1.1","messages":[{"role":"assistant","content":"<c>ls</c>"},{"role":"user","content":"x","extra":{"returncode":0}}]}`)
}

func FuzzCodexExecJSON(f *testing.F) {
	agentSeeds(f, "codex_exec_json")
	fuzzFormat(f, "codex_exec_json",
		"{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n{\"type\":\"item.started\",\"item\":{\"id\":\"i\",\"type\":\"mcp_tool_call\",\"server\":\"s\",\"tool\":\"t\",\"arguments\":{}}}\n{\"type\":\"item.completed\",\"item\":{\"id\":\"i\",\"type\":\"mcp_tool_call\",\"server\":\"s\",\"tool\":\"t\",\"arguments\":{},\"error\":{\"message\":\"e\"},\"status\":\"failed\"}}\n")
}

func FuzzClaudeAgentSDK(f *testing.F) {
	agentSeeds(f, "claude_agent_sdk")
	fuzzFormat(f, "claude_agent_sdk",
		"{\"id\":\"m\",\"direction\":\"received\",\"message\":{\"type\":\"assistant\",\"session_id\":\"s\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"mcp__c__f\",\"input\":{}}]}}}\n{\"type\":\"control_request\",\"request_id\":\"r\",\"request\":{\"subtype\":\"mcp_message\",\"server_name\":\"c\",\"message\":{\"method\":\"tools/call\",\"params\":{\"name\":\"f\",\"arguments\":{}}}}}\n")
}

func FuzzSmolagents(f *testing.F) {
	agentSeeds(f, "smolagents")
	fuzzFormat(f, "smolagents",
		`[{"task":"t","task_images":null},{"step_number":1,"tool_calls":[{"id":"c","type":"function","function":{"name":"python_interpreter","arguments":"print(1)"}}],"observations":"1","error":{"type":"E","message":"m"}}]`,
		`{"question":"q","intermediate_steps":[{"role":"user","content":[{"type":"text","text":"New task:\nq"}]},{"role":"tool-call","content":[{"type":"text","text":"Calling tools:\n[{'id': 'c', 'type': 'function', 'function': {'name': 'f', 'arguments': {'a': (1, True)}}}]"}]},{"role":"tool-response","content":"Observation:\n1"},{"role":"tool-response","content":[{"type":"text","text":"Error:\nError executing tool 'g' with arguments {'b': None}: E: m"}]}]}`)
}
