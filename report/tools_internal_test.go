package report

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestToolFindsEachName: Stats.tool gives one ToolCounts per distinct
// name, whatever the names' lengths and the bytes they share (the table
// compares names of up to 16 bytes by their first and last eight), as a
// map by name would, and keeps them in first-seen order.
func TestToolFindsEachName(t *testing.T) {
	// Every name of up to 40 bytes that differs from a run of "a" in
	// one byte, and that run: each its own tool.
	var s Stats
	seen := map[*ToolCounts]string{}
	for n := range 41 {
		for at := -1; at < n; at++ {
			b := []byte(strings.Repeat("a", n))
			if at >= 0 {
				b[at] = 'b'
			}
			tc := s.tool(string(b))
			if other, ok := seen[tc]; ok {
				t.Fatalf("%q and %q have one tool", b, other)
			}
			seen[tc] = string(b)
			if s.tool(string(b)) != tc {
				t.Fatalf("%q has two tools", b)
			}
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		// Names alike but for one byte, at any place, of any length
		// around the table's 4-, 8- and 16-byte cases.
		name := rapid.Custom(func(t *rapid.T) string {
			n := rapid.IntRange(0, 40).Draw(t, "len")
			b := []byte(strings.Repeat("a", n))
			if n > 0 {
				b[rapid.IntRange(0, n-1).Draw(t, "at")] = rapid.SampledFrom([]byte("ab\x00\xff")).Draw(t, "byte")
			}
			return string(b)
		})
		names := rapid.SliceOfN(name, 1, 200).Draw(t, "names")
		var s Stats
		want := map[string]*ToolCounts{}
		var order []string
		for _, n := range names {
			got := s.tool(n)
			if got.Name != n {
				t.Fatalf("tool(%q) has name %q", n, got.Name)
			}
			if w, ok := want[n]; ok && w != got {
				t.Fatalf("tool(%q) gave two counts", n)
			} else if !ok {
				want[n] = got
				order = append(order, n)
			}
		}
		if len(s.tools) != len(order) {
			t.Fatalf("%d tools for %d names", len(s.tools), len(order))
		}
		for i, tc := range s.tools {
			if tc.Name != order[i] {
				t.Fatalf("tool %d is %q, want %q", i, tc.Name, order[i])
			}
		}
	})
}
