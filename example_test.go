package toolgrade_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/deepeval"
	"github.com/toolgrade/toolgrade/match"
)

// A case built in code takes plain Go values: maps, ints, structs.
func ExampleGrade() {
	metric, err := match.New(match.Options{Order: match.OrderInOrder})
	if err != nil {
		panic(err)
	}
	type email struct {
		To      string `json:"to"`
		Subject string `json:"subject"`
	}
	c := &toolgrade.Case{
		ID: "weather-then-email",
		Expected: []toolgrade.Call{
			{Name: "get_weather", Args: map[string]any{"city": "Madrid", "days": 1}},
			{Name: "send_email", Args: email{To: "ana@example.com", Subject: "Weather"}},
		},
		Called: []toolgrade.Call{
			{Name: "get_weather", Args: map[string]any{"days": 1.0, "city": "Madrid"}},
			{Name: "send_email", Args: map[string]string{"to": "ana@example.com", "subject": "Rain"}},
		},
	}
	r := toolgrade.Grade(context.Background(), c, metric)
	m := r.Metrics[0]
	fmt.Printf("%s %.2f\n", m.Name, m.Score)
	misses := toolgrade.DetailOf[match.NearMisses](&m)
	for _, near := range misses {
		for _, d := range near.Diffs {
			fmt.Printf("%s: expected %v, got %v\n", d.Path, d.Expected, d.Got)
		}
	}
	// Output:
	// tool_correctness 0.50
	// subject: expected Weather, got Rain
}

// A peer's profile is built from its own package, with typed options.
func ExampleGrade_profile() {
	metric, err := deepeval.New(deepeval.Options{
		EvaluationParams: []deepeval.Param{deepeval.ParamInputParameters},
		Threshold:        toolgrade.Float(0.7),
	})
	if err != nil {
		panic(err)
	}
	r := toolgrade.Grade(context.Background(), &toolgrade.Case{
		Expected: []toolgrade.Call{{Name: "search", Args: map[string]any{"q": "go"}}},
		Called:   []toolgrade.Call{{Name: "search", Args: map[string]any{"q": "go"}}},
	}, metric)
	fmt.Println(r.Metrics[0].Profile, r.Metrics[0].Score, r.Success)
	// Output: deepeval 1 true
}

// Constructors say which option was wrong in a way code can read.
func ExampleOptionError() {
	_, err := match.New(match.Options{Order: "sideways"})
	var oe *toolgrade.OptionError
	if errors.As(err, &oe) {
		fmt.Println(oe.Option, oe.Value, oe.Allowed)
	}
	// Output: order sideways [any in-order exact]
}
