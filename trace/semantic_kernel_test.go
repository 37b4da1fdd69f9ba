package trace_test

import (
	"path/filepath"
	"testing"
)

func TestSemanticKernel(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name: ".NET: a call without plugin, a failed one, both result forms, an unknown item",
		input: "\uFEFF" + `[{"Role":{"Label":"user"},"Items":[{"$type":"TextContent","Text":"go"}]},
			{"Role":{"Label":"assistant"},"Items":[{"$type":"FunctionCallContent","Id":"a","FunctionName":"Now","Arguments":null},
				{"$type":"FunctionCallContent","Id":"b","PluginName":"Files","FunctionName":"Delete","Arguments":{"path":"x"}},
				{"$type":"HologramContent"}]},
			{"Role":{"Label":"tool"},"Items":[{"$type":"TextContent","Text":"12:00","Metadata":{"ChatCompletionsToolCall.Id":"a"}}]},
			{"Role":{"Label":"tool"},"Items":[{"$type":"TextContent","Text":"ignored","Metadata":{"ChatCompletionsToolCall.Id":"b"}},
				{"$type":"FunctionResultContent","CallId":"b","PluginName":"Files","FunctionName":"Delete","Result":"Error: Function call processing failed. Access denied."}]}]`,
		format: "semantic_kernel",
		calls: `[{"name":"Now","args":null,"id":"a","output":"12:00"},
			{"name":"Files-Delete","args":{"path":"x"},"id":"b","output":"Error: Function call processing failed. Access denied.","status":"error"}]`,
		skipped: []string{`[1].Items[2]: item of type "HologramContent"`},
	}, {
		name: ".NET with camelCase names, two turns",
		input: `[{"role":{"label":"user"},"items":[{"$type":"TextContent","text":"a"}]},
			{"role":{"label":"assistant"},"items":[{"$type":"FunctionCallContent","id":"a","pluginName":"P","functionName":"f","arguments":{}}]},
			{"role":{"label":"tool"},"items":[{"$type":"FunctionResultContent","callId":"a","functionName":"f","result":{"n":1}}]},
			{"role":{"label":"user"},"items":[{"$type":"TextContent","text":"b"}]},
			{"role":{"label":"assistant"},"items":[{"$type":"FunctionCallContent","id":"c","pluginName":"P","functionName":"g","arguments":{"k":"v"}}]}]`,
		format: "semantic_kernel",
		calls: `[{"name":"P-f","args":{},"id":"a","output":{"n":1},"turn":1},
			{"name":"P-g","args":{"k":"v"},"id":"c","output":null,"turn":2}]`,
	}, {
		name: "Python: arguments as text, a result by id",
		input: `{"messages":[{"content_type":"message","role":"assistant","items":[
				{"content_type":"function_call","id":"x","name":"math-add","function_name":"add","plugin_name":"math","arguments":"{\"a\": 1, \"b\": 2}"},
				{"content_type":"function_call","id":"y","function_name":"noop","arguments":"{"}]},
			{"content_type":"message","role":"tool","items":[{"content_type":"function_result","id":"x","result":"3","function_name":"add","plugin_name":"math"}]}]}`,
		format: "semantic_kernel",
		calls: `[{"name":"math-add","args":{"a":1,"b":2},"id":"x","output":"3"},
			{"name":"noop","args":null,"args_raw":"{","id":"y","output":null}]`,
		skipped: []string{},
	}})
}

func FuzzSemanticKernel(f *testing.F) {
	seedDir(f, filepath.Join("testdata", "semantic_kernel"))
	fuzzFormat(f, "semantic_kernel",
		`[{"Role":{"Label":"assistant"},"Items":[{"$type":"FunctionCallContent","Id":"a","PluginName":"p","FunctionName":"f","Arguments":{"x":1}}]},{"Role":{"Label":"tool"},"Items":[{"$type":"FunctionResultContent","CallId":"a","Result":"Error: no"}]}]`,
		`{"messages":[{"role":"assistant","items":[{"content_type":"function_call","id":"a","name":"f","arguments":"{}"}]}]}`)
}
