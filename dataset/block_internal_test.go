package dataset

import (
	"fmt"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/poison"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// TestCaseBlocks holds the blocks a case and its calls are taken from to
// the slices make gave: n zero calls, with no room past them (the called
// and expected lists are apart, and an append to one must not write over
// anything), and, for a transcript, room for one turn; fresh or, with a
// recycler, reused (poisoned when released) as documents are released.
func TestCaseBlocks(t *testing.T) {
	t.Cleanup(poison.Set(true))
	for _, rc := range []*jsonvalue.Recycler{nil, jsonvalue.NewRecycler()} {
		for i := range 2000 {
			n, transcript := i%20, i%3 == 0
			if rc != nil {
				rc.Mark(i)
				rc.Release(i - 3)
				if _, err := rc.ParseString(fmt.Sprintf(`{"id":"c%d","input":"x"}`, i)); err != nil {
					t.Fatal(err)
				}
			}
			c, calls, turn := newCase(rc, n, transcript)
			if c == nil || c.ID != "" || c.Input != nil || c.Called != nil {
				t.Fatalf("newCase(%d): case %+v, want zero", n, c)
			}
			if calls == nil || len(calls) != n || cap(calls) != n || !callsZero(calls) {
				t.Fatalf("newCase(%d): %d calls, room for %d, zero %v; want %d, %d, true", n, len(calls), cap(calls), callsZero(calls), n, n)
			}
			if transcript && (len(turn) != 0 || cap(turn) != 1 || turn[:1][0] != (toolgrade.Turn{})) || !transcript && turn != nil {
				t.Fatalf("newCase(%d, transcript %v): turn room %d/%d", n, transcript, len(turn), cap(turn))
			}
			// Written as decoding writes them: a later case's blocks must
			// not read them.
			c.ID, c.Input = "case", "input"
			for j := range calls {
				calls[j] = toolgrade.Call{Name: "f", Args: "a", Turn: 1}
			}
			if transcript {
				turn[:1][0].Input = "turn"
			}
		}
	}
}

func callsZero(calls []toolgrade.Call) bool {
	for i := range calls {
		if calls[i].Name != "" || calls[i].Args != nil || calls[i].Turn != 0 {
			return false
		}
	}
	return true
}
