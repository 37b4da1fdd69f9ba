package trace_test

import (
	"path/filepath"
	"testing"
)

func TestVercelAISteps(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name: "a v5 step: an invalid call and a failed one; a preliminary output is not the result",
		input: `{"content":[
				{"type":"tool-call","toolCallId":"a","toolName":"search","input":"{\"q\":","invalid":true,"error":{}},
				{"type":"tool-error","toolCallId":"a","toolName":"search","input":"{\"q\":","error":"Invalid input for tool search"},
				{"type":"tool-call","toolCallId":"b","toolName":"render","input":{"page":1}},
				{"type":"tool-result","toolCallId":"b","toolName":"render","input":{"page":1},"output":{"done":false},"preliminary":true},
				{"type":"tool-result","toolCallId":"b","toolName":"render","input":{"page":1},"output":{"done":true}}],
			"finishReason":"tool-calls","usage":{"inputTokens":3,"outputTokens":4}}`,
		format: "vercel_ai_steps",
		calls: `[{"name":"search","args":null,"args_raw":"{\"q\":","id":"a","output":"Invalid input for tool search","status":"error"},
			{"name":"render","args":{"page":1},"id":"b","output":{"done":true}}]`,
		skipped: []string{},
	}, {
		name: "v4 steps as a list (not Gemini CLI messages); request messages open turns",
		input: `[{"stepType":"initial","text":"","toolCalls":[{"type":"tool-call","toolCallId":"c1","toolName":"getWeather","args":{"city":"Oslo"}}],
				"toolResults":[{"type":"tool-result","toolCallId":"c1","toolName":"getWeather","args":{"city":"Oslo"},"result":"-3"}],"finishReason":"tool-calls",
				"request":{"messages":[{"role":"user","content":"Oslo?"}]},"response":{"messages":[]}},
			{"stepType":"tool-result","text":"","toolCalls":[{"type":"tool-call","toolCallId":"c2","toolName":"getWeather","args":{"city":"Bergen"}}],"toolResults":[],"finishReason":"tool-calls",
				"request":{"messages":[{"role":"user","content":"Oslo?"},{"role":"assistant","content":"-3 there"},{"role":"user","content":"Bergen?"}]}}]`,
		format: "vercel_ai_steps",
		calls: `[{"name":"getWeather","args":{"city":"Oslo"},"id":"c1","output":"-3","turn":1},
			{"name":"getWeather","args":{"city":"Bergen"},"id":"c2","output":null,"turn":2}]`,
	}, {
		name: "a call awaiting approval; an unknown part is skipped",
		input: `{"steps":[{"content":[{"type":"tool-approval-request","approvalId":"p1","toolCall":{"type":"tool-call","toolCallId":"d","toolName":"deploy","input":{"env":"prod"}}},
				{"type":"hologram"}],"finishReason":"tool-calls",
				"response":{"messages":[{"role":"assistant","content":[{"type":"tool-call","toolCallId":"d","toolName":"deploy","input":{"env":"prod"}},{"type":"tool-approval-request","approvalId":"p1","toolCallId":"d"}]}]}}],
			"output":{"name":"not a call","args":{}}}`,
		format:  "vercel_ai_steps",
		calls:   `[{"name":"deploy","args":{"env":"prod"},"id":"d","output":null}]`,
		skipped: []string{`steps[0].content[1]: content part of type "hologram"`},
	}, {
		name:    "one response message",
		input:   `{"role":"tool","content":[{"type":"tool-result","toolCallId":"x","toolName":"f","output":{"type":"error-json","value":{"code":7}}}]}`,
		format:  "vercel_ai_steps",
		calls:   `[]`,
		skipped: []string{`content[0]: tool result for unknown call id "x"`},
	}})
}

func TestVercelAIUI(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name: "UIMessages: a call still streaming, a provider's tool, an unknown part; user messages open turns",
		input: `[{"id":"1","role":"user","parts":[{"type":"text","text":"a"}]},
			{"id":"2","role":"assistant","parts":[{"type":"tool-search","toolCallId":"s1","state":"output-available","providerExecuted":true,"input":{"q":"x"},"output":[]},
				{"type":"tool-draft","toolCallId":"d1","state":"input-streaming","input":{"tit":null}},{"type":"hologram"}]},
			{"id":"3","role":"user","parts":[{"type":"text","text":"b"}]},
			{"id":"4","role":"assistant","parts":[{"type":"tool-send","toolCallId":"m1","state":"output-available","preliminary":true,"input":{},"output":"sending"}]}]`,
		format: "vercel_ai_steps",
		calls: `[{"name":"search","args":{"q":"x"},"id":"s1","output":[],"turn":1},
			{"name":"draft","args":{"tit":null},"id":"d1","output":null,"turn":1},
			{"name":"send","args":{},"id":"m1","output":null,"turn":2}]`,
		types:   []string{"search", "", ""},
		skipped: []string{`[1].parts[2]: part of type "hologram"`},
	}, {
		name: "fullStream parts: pieces of a call, its error, a denial, an unknown part",
		input: `{"type":"start"}
{"type":"tool-input-start","id":"c1","toolCallId":"c1","toolName":"f"}
{"type":"tool-input-delta","id":"c1","toolCallId":"c1","delta":"{}"}
{"type":"tool-call","toolCallId":"c1","toolName":"f","input":{}}
{"type":"tool-error","toolCallId":"c1","toolName":"f","input":{},"error":"boom"}
{"type":"tool-call","toolCallId":"c2","toolName":"g","input":{"a":1}}
{"type":"tool-output-denied","toolCallId":"c2","toolName":"g"}
{"type":"hologram"}
{"type":"finish","finishReason":"tool-calls"}`,
		format: "vercel_ai_steps",
		calls: `[{"name":"f","args":{},"id":"c1","output":"boom","status":"error"},
			{"name":"g","args":{"a":1},"id":"c2","output":{"type":"tool-output-denied","toolCallId":"c2","toolName":"g"},"status":"error"}]`,
		skipped: []string{`line 8: stream part of type "hologram"`},
	}})
}

func FuzzVercelAISteps(f *testing.F) {
	seedDir(f, filepath.Join("testdata", "vercel_ai_steps"))
	fuzzFormat(f, "vercel_ai_steps",
		`{"steps":[{"content":[{"type":"tool-call","toolCallId":"a","toolName":"f","input":"{"}],"finishReason":"tool-calls"}]}`,
		`[{"role":"assistant","content":[{"type":"tool-call","toolCallId":"a","toolName":"f","args":{}}]},{"role":"tool","content":[{"type":"tool-result","toolCallId":"a","toolName":"f","result":1,"isError":true}]}]`)
}
