package state_test

import (
	"context"
	"fmt"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/state"
)

// Compare the database an agent left with the one the gold actions
// produce: timestamps are ignored, totals may differ by rounding, and the
// agent cancelled the wrong order.
func Example() {
	metric, err := state.New(state.Options{
		Ignore: []string{"$..updated_at"},
		Rules: state.Rules{
			{Key: "$.orders[*].total", Value: jsonvalue.Object{{Key: "tol", Value: jsonvalue.MustFrom(0.01)}}},
		},
	})
	if err != nil {
		panic(err)
	}
	val := func(s string) any { v, _ := jsonvalue.ParseString(s); return v }
	c := &toolgrade.Case{
		// The states, under the record's expected_state and final_state.
		Raw: jsonvalue.Object{{Key: "expected_state", Value: val(`{"orders": [
			{"id": "#W1", "status": "cancelled", "total": 54.04, "updated_at": "2026-03-05T10:00:00Z"},
			{"id": "#W2", "status": "pending", "total": 12.5}]}`)},
			{Key: "final_state", Value: val(`{"orders": [
			{"id": "#W1", "status": "pending", "total": 54.04},
			{"id": "#W2", "status": "cancelled", "total": 12.500001, "updated_at": "2026-03-05T10:00:07Z"}]}`)}},
	}
	r := metric.Grade(context.Background(), c)
	fmt.Printf("score %.2f, passed %v\n", r.Score, r.Success)
	diffs := toolgrade.DetailOf[toolgrade.Diffs](&r)
	for _, d := range diffs {
		fmt.Printf("%s: expected %s, got %s\n", d.Path, jsonvalue.Format(d.Expected), jsonvalue.Format(d.Got))
	}
	fmt.Println(r.Reason)
	// Output:
	// score 0.67, passed false
	// $.orders[0].status: expected "cancelled", got "pending"
	// $.orders[1].status: expected "pending", got "cancelled"
	// state differs at 2 of 6 values: $.orders[0].status expected "cancelled", got "pending"; $.orders[1].status expected "pending", got "cancelled"
}
