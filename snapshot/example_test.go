package snapshot_test

import (
	"fmt"

	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/snapshot"
)

// Snapshot a run in which cancel_order passes the id find_order returned,
// the time of the request and an idempotency key: the id becomes a from
// rule, the time and the key are not compared, and the email the user
// gave stays as recorded.
func Example() {
	trace := `[
 {"role": "user", "content": "Cancel my latest order, I'm ana@example.com"},
 {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "find_order", "arguments": "{\"email\": \"ana@example.com\"}"}}]},
 {"role": "tool", "tool_call_id": "c1", "content": "{\"order\": {\"id\": \"W8127731\"}}"},
 {"role": "assistant", "tool_calls": [{"id": "c2", "type": "function", "function": {"name": "cancel_order", "arguments": "{\"order_id\": \"W8127731\", \"requested_at\": \"2025-03-06T14:30:12Z\", \"idempotency_key\": \"k-93f1\"}"}}]},
 {"role": "tool", "tool_call_id": "c2", "content": "cancelled"}]`
	runs, err := snapshot.Read("cancel.json", "cancel", []byte(trace), "")
	if err != nil {
		panic(err)
	}
	s := snapshot.Take(runs[0])
	for _, n := range s.Notes {
		fmt.Println(n)
	}
	exp, _ := s.Case.Get("expected_tools")
	fmt.Printf("%s\n", jsonvalue.Append(nil, exp.([]any)[1]))
	// Output:
	// #1 cancel_order order_id: from find_order.output.order.id: returned by find_order (#0) at output.order.id
	// #1 cancel_order requested_at: ignore: an ISO 8601 date-time found nowhere earlier (recorded "2025-03-06T14:30:12Z")
	// #1 cancel_order idempotency_key: ignore: an idempotency key found nowhere earlier (recorded "k-93f1")
	// {"name":"cancel_order","args":{"order_id":"W8127731","requested_at":"2025-03-06T14:30:12Z","idempotency_key":"k-93f1"},"status":"ok","rules":{"order_id":{"from":"find_order.output.order.id"},"requested_at":{"ignore":true},"idempotency_key":{"ignore":true}}}
}
