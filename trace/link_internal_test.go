package trace

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"pgregory.net/rapid"
)

// linkByID is the search by id of builder.linked as it was before it
// stopped at the first unanswered call once it had found one: the
// oracle of TestLinkedByID. It returns the call the result goes to (or
// -1), whether several awaiting calls share the id, and whether an
// answered call has it.
func linkByID(b *builder, id string) (k int, shared, seen bool) {
	k = -1
	for j := len(b.calls) - 1; j >= b.floor; j-- {
		if b.calls[j].ID != id {
			continue
		}
		if b.answered[j] {
			if k >= 0 {
				break
			}
			seen = true
			continue
		}
		shared = shared || k >= 0
		k = j
	}
	return k, shared, seen
}

// TestLinkedByID holds linked's search by id to the full scan (linkByID)
// on generated sequences of calls, results with ids old and new, and
// records: each result goes to the same call, with the same note.
func TestLinkedByID(t *testing.T) {
	ids := []string{"a", "b", "c", ""}
	rapid.Check(t, func(t *rapid.T) {
		var b builder
		for i := range rapid.IntRange(0, 40).Draw(t, "steps") {
			switch rapid.IntRange(0, 5).Draw(t, "step") {
			case 0, 1:
				b.add(nil, toolgrade.Call{Name: "f", ID: rapid.SampledFrom(ids).Draw(t, "call id")})
			case 2:
				b.record(i, "")
			default:
				id := rapid.SampledFrom(ids[:3]).Draw(t, "result id")
				k, shared, seen := linkByID(&b, id)
				before := append([]bool(nil), b.answered...)
				notes := len(b.notes)
				output := fmt.Sprint("result ", i)
				ok := b.linked(id, "", output, false)
				if k >= 0 {
					if !ok || before[k] || !b.answered[k] || b.calls[k].Output != output {
						t.Fatalf("result %q: want call %d answered (calls %v, answered before %v)", id, k, b.calls, before)
					}
				} else if seen && !ok {
					t.Fatalf("result %q: a call answered has the id, and linked says no", id)
				}
				noted := slices.ContainsFunc(b.notes, func(n string) bool { return strings.Contains(n, strconv.Quote(id)) })
				if shared && !noted || !shared && len(b.notes) > notes {
					t.Fatalf("result %q: shared %v, notes %q", id, shared, b.notes)
				}
			}
		}
	})
}
