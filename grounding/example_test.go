package grounding_test

import (
	"context"
	"fmt"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/grounding"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Find the argument values an agent invented: the order id it looked up is
// grounded by the lookup's output, the email address it used is found
// nowhere.
func Example() {
	metric, err := grounding.New(grounding.Options{})
	if err != nil {
		panic(err)
	}
	val := func(s string) any { v, _ := jsonvalue.ParseString(s); return v }
	c := &toolgrade.Case{
		Input: "Cancel my most recent order and email me the confirmation",
		Called: []toolgrade.Call{
			{Name: "list_orders", Args: val(`{"limit": 1}`), Output: val(`[{"order_id": "#W2378156", "total": 1299.5}]`)},
			{Name: "cancel_order", Args: val(`{"order_id": "#W2378156", "refund": 1299.5}`)},
			{Name: "send_email", Args: val(`{"to": "customer@example.com", "subject": "Order cancelled"}`)},
		},
	}
	r := metric.Grade(context.Background(), c)
	fmt.Printf("score %.2f, passed %v\n", r.Score, r.Success)
	diffs := toolgrade.DetailOf[toolgrade.Diffs](&r)
	for _, d := range diffs {
		fmt.Printf("%s = %s: %s\n", d.Path, jsonvalue.Format(d.Got), d.Note)
	}
	fmt.Println(r.Reason)
	// Output:
	// score 0.67, passed false
	// #2 send_email.to = "customer@example.com": not in the input, earlier tool outputs or the tool's schema
	// 2 of 3 checked values grounded; likely invented: #2 send_email.to "customer@example.com" (not in the input, earlier tool outputs or the tool's schema)
}
