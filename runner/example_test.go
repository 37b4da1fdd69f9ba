package runner_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/runner"
)

func Example() {
	// A Model answers request bodies; package openai's Client.CompleteJSON
	// does over HTTP. This one always calls get_weather.
	model := runner.ModelFunc(func(ctx context.Context, request []byte) (*runner.Reply, error) {
		return &runner.Reply{Body: []byte(`{"choices": [{"message": {"role": "assistant", "content": null,
			"tool_calls": [{"id": "call_1", "type": "function",
				"function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}}],
			"usage": {"prompt_tokens": 52, "completion_tokens": 9}}`)}, nil
	})
	r, err := runner.New(model, runner.Options{Model: "my-model"})
	if err != nil {
		fmt.Println(err)
		return
	}
	c := &toolgrade.Case{
		ID:    "c1",
		Input: "Weather in Paris?",
		// The tools to offer, in the case format's available_tools.
		Raw: jsonvalue.Object{{Key: "available_tools", Value: jsonvalue.MustFrom([]any{map[string]any{
			"name": "get_weather", "parameters": map[string]any{"type": "object"},
		}})}},
	}
	run := r.Case(context.Background(), c)
	fmt.Println(run.Stop, run.Calls, run.Usage.PromptTokens, len(run.Problems))

	// The run-file line is the case with the model's calls: toolgrade eval
	// grades it.
	line := string(run.AppendJSON(nil))
	fmt.Println(line[:strings.Index(line, `,"actual_output"`)])
	// Output:
	// called [get_weather({"city":"Paris"})] 52 0
	// {"id":"c1","input":"Weather in Paris?","available_tools":[{"name":"get_weather","parameters":{"type":"object"}}],"tools_called":[{"name":"get_weather","args":{"city":"Paris"},"id":"call_1"}]
}
