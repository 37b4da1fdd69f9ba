package report_test

import (
	"context"
	"os"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/match"
	"github.com/toolgrade/toolgrade/report"
)

// Grade cases and write the summary a terminal shows; JUnit, Markdown,
// HTML and JSON Lines writers take the same place.
func ExampleText() {
	metric, err := match.New(match.Options{})
	if err != nil {
		panic(err)
	}
	paris := jsonvalue.MustFrom(map[string]any{"city": "Paris"})
	cases := []*toolgrade.Case{
		{ID: "right", Expected: []toolgrade.Call{{Name: "get_weather", Args: paris}}, Called: []toolgrade.Call{{Name: "get_weather", Args: paris}}},
		{ID: "silent", Expected: []toolgrade.Call{{Name: "get_weather", Args: paris}}},
	}
	records := func(yield func(toolgrade.Record, error) bool) {
		for _, c := range cases {
			if !yield(c, nil) {
				return
			}
		}
	}

	var stats report.Stats
	summary := report.Text(os.Stdout)
	err = toolgrade.Evaluate(context.Background(), records, []toolgrade.Metric{metric}, func(r *toolgrade.Result) error {
		stats.Add(r)
		return summary.Add(r)
	})
	if err != nil {
		panic(err)
	}
	if err := summary.Finish(&stats); err != nil {
		panic(err)
	}
	// Output:
	// 2 cases: 1 passed, 1 failed
	//
	// ┌──────────────────┬─────────┬───────┬───────┬───────────┬───────────┬────────┬───────┬────────┐
	// │ metric           │ profile │ cases │ mean  │ pass rate │ precision │ recall │ f1    │ errors │
	// ├──────────────────┼─────────┼───────┼───────┼───────────┼───────────┼────────┼───────┼────────┤
	// │ tool_correctness │ default │     2 │ 0.500 │     50.0% │     0.500 │  0.500 │ 0.500 │      0 │
	// └──────────────────┴─────────┴───────┴───────┴───────────┴───────────┴────────┴───────┴────────┘
	//
	// ┌─────────────┬──────────┬────────┬────────┬───────┬────────────┬────────┐
	// │ tool        │ expected │ called │ missed │ extra │ wrong args │ failed │
	// ├─────────────┼──────────┼────────┼────────┼───────┼────────────┼────────┤
	// │ get_weather │        2 │      1 │      1 │     0 │          0 │      0 │
	// └─────────────┴──────────┴────────┴────────┴───────┴────────────┴────────┘
	// missed, extra, wrong args and failed as paired by tool_correctness
	//
	// worst cases:
	//   silent
	//     tool_correctness 0.000 < 1.000: missing get_weather({"city":"Paris"}) (expected #0)
}
