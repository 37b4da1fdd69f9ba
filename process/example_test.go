package process_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/process"
)

// Check τ-bench-style policies: the user's confirmation before each
// action that changes their orders, nothing after a hand-off to a human,
// at most one exchange; the case adds a rule of its own against loops.
func Example() {
	var opts process.Options
	err := json.Unmarshal([]byte(`{"rules": [
		{"before": ["confirm_with_user", ["cancel_pending_order", "modify_pending_order_*", "exchange_delivered_order_items"]]},
		{"never_after": {"transfer_to_human_agents": "*"}},
		{"at_most": {"exchange_delivered_order_items": 1}}
	]}`), &opts)
	if err != nil {
		panic(err)
	}
	metric, err := process.New(opts)
	if err != nil {
		panic(err)
	}
	val := func(s string) any { v, _ := jsonvalue.ParseString(s); return v }
	c := &toolgrade.Case{
		Called: []toolgrade.Call{
			{Name: "find_user_id_by_email", Args: val(`{"email": "sara@example.com"}`)},
			{Name: "confirm_with_user", Args: val(`{"action": "exchange"}`)},
			{Name: "exchange_delivered_order_items", Args: val(`{"order_id": "#W2378156"}`)},
			{Name: "exchange_delivered_order_items", Args: val(`{"order_id": "#W2378156"}`)},
			{Name: "transfer_to_human_agents", Args: val(`{"summary": "exchange failed twice"}`)},
		},
		// The case's own rules, under its process field.
		Raw: jsonvalue.Object{{Key: "process", Value: val(`["no_repeat"]`)}},
	}
	r := metric.Grade(context.Background(), c)
	fmt.Printf("score %.2f, passed %v\n", r.Score, r.Success)
	checks := toolgrade.DetailOf[process.RuleChecks](&r)
	for _, rc := range checks {
		if rc.Kept {
			fmt.Printf("kept:   %s\n", rc.Rule)
		} else {
			fmt.Printf("broken: %s at %v: %s\n", rc.Rule, rc.Breaches, rc.Reason)
		}
	}
	// Output:
	// score 0.25, passed false
	// broken: before: [confirm_with_user, [cancel_pending_order, modify_pending_order_*, exchange_delivered_order_items]] at [3]: exchange_delivered_order_items (#3) has no confirm_with_user since exchange_delivered_order_items (#2)
	// kept:   never_after: {transfer_to_human_agents: "*"}
	// broken: at_most: {exchange_delivered_order_items: 1} at [3]: 2 calls to exchange_delivered_order_items (#2, #3), at most 1
	// broken: no_repeat: true at [3]: exchange_delivered_order_items (#3) repeats #2 with the same arguments
}
