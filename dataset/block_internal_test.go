package dataset

import (
	"testing"

	"github.com/toolgrade/toolgrade"
)

// TestCaseBlocks holds the blocks a case and its calls are carved from to
// the slices make gave: n zero calls, with no room past them (the called
// and expected lists share the block, and an append to one must not write
// over the other), and, for a transcript, room for one turn or none.
func TestCaseBlocks(t *testing.T) {
	for n := range 20 {
		c, calls := newCase(n)
		tc, tcalls, turn := newTranscriptCase(n)
		for _, got := range []struct {
			name  string
			c     any
			calls int
			cap   int
			zero  bool
		}{
			{"newCase", c, len(calls), cap(calls), callsZero(calls)},
			{"newTranscriptCase", tc, len(tcalls), cap(tcalls), callsZero(tcalls)},
		} {
			if got.c == nil || got.calls != n || got.cap != n || !got.zero {
				t.Errorf("%s(%d): %d calls, room for %d, zero %v; want %d, %d, true", got.name, n, got.calls, got.cap, got.zero, n, n)
			}
		}
		if calls == nil {
			t.Errorf("newCase(%d): nil calls, want empty", n)
		}
		if len(turn) != 0 || cap(turn) > 1 {
			t.Errorf("newTranscriptCase(%d): turn room %d/%d, want none or one", n, len(turn), cap(turn))
		}
		if n <= 8 && cap(turn) != 1 {
			t.Errorf("newTranscriptCase(%d): no room for the user message's turn", n)
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
