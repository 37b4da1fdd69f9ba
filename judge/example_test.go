package judge_test

import (
	"context"
	"fmt"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/judge"
)

// A judge is anything that answers a prompt; package openai provides one
// over any OpenAI-compatible endpoint. Here a stand-in always says 0.75.
type constantJudge float64

func (s constantJudge) Judge(context.Context, judge.Request) (judge.Verdict, error) {
	return judge.Verdict{Score: float64(s), Reason: "one call too many"}, nil
}

func ExampleToolSelectionMetric() {
	m, err := judge.NewToolSelection(constantJudge(0.75), nil, judge.Options{})
	if err != nil {
		panic(err)
	}
	r := m.Grade(context.Background(), &toolgrade.Case{
		Input:  "What's the weather in Paris?",
		Called: []toolgrade.Call{{Name: "get_weather"}, {Name: "get_time"}},
		// The tools the agent had, as the case's record gives them.
		Raw: jsonvalue.Object{{Key: "available_tools", Value: []any{jsonvalue.Object{{Key: "name", Value: "get_weather"}}}}},
	})
	fmt.Println(r.Score, r.Success, r.Reason)
	// Output: 0.75 true one call too many
}

func ExampleParseVerdict() {
	v, err := judge.ParseVerdict("Sure!\n```json\n{\"score\": 0.5, \"reason\": \"a needed tool is missing\"}\n```")
	fmt.Println(v.Score, v.Reason, err)
	// Output: 0.5 a needed tool is missing <nil>
}
