package snapshot_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/snapshot"
)

// longRun is a long agent session: n calls, each returning a record of
// 20 ids and amounts and a page of text, and passing on ids earlier calls
// returned, a time and a key.
func longRun(n int) *snapshot.Run {
	page := strings.Repeat("lorem ipsum 12 dolor sit amet ", 200)
	r := &snapshot.Run{ID: "long", Source: "long.json", Format: "openai_chat", Input: "go", Inputs: []any{"go"}}
	for i := range n {
		var out, args strings.Builder
		fmt.Fprintf(&out, `{"page": %q, "items": [`, page)
		for k := range 20 {
			if k > 0 {
				out.WriteByte(',')
			}
			fmt.Fprintf(&out, `{"id": "IT%05d%02d", "amount": %d.5}`, i, k, 1000+i*20+k)
		}
		out.WriteString("]}")
		fmt.Fprintf(&args, `{"id": "IT%05d%02d", "other": "IT%05d%02d", "at": "2025-03-06T14:%02d:00Z", "idempotency_key": "k%d"}`,
			i/2, i%20, i/3, (i+7)%20, i%60, i)
		a, _ := jsonvalue.ParseString(args.String())
		o, _ := jsonvalue.ParseString(out.String())
		r.Calls = append(r.Calls, toolgrade.Call{Name: fmt.Sprintf("tool_%d", i%5), Args: a, Output: o, Status: toolgrade.StatusOK, Turn: 1})
	}
	return r
}

func BenchmarkTake(b *testing.B) {
	r := longRun(300)
	for b.Loop() {
		snapshot.Take(r)
	}
}
