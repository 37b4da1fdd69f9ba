package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
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
		names := rapid.SliceOfN(alikeName, 1, 200).Draw(t, "names")
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

// TestLookUpToolsAgreesWithTool: lookUpTools, which finds a tool without
// calling tool, gives each call of generated cases the counts tool gives
// its name, and counts them as tool's counts would be.
func TestLookUpToolsAgreesWithTool(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		calls := func(label string) []toolgrade.Call { return drawCalls(t, alikeName, label) }
		var fast, plain Stats
		for range rapid.IntRange(1, 30).Draw(t, "cases") {
			c := &toolgrade.Case{Expected: calls("expected"), Called: calls("called")}
			fast.lookUpTools(c)
			for _, call := range c.Expected {
				plain.tool(call.Name).Expected++
			}
			for _, call := range c.Called {
				plain.tool(call.Name).Called++
			}
			for i, call := range c.Expected {
				if got, tc := fast.expectedTools[i], plain.tool(call.Name); got.Name != call.Name || *got != *tc {
					t.Fatalf("expected call %d (%q): counts %+v, want %+v", i, call.Name, *got, *tc)
				}
			}
			for j, call := range c.Called {
				if got, tc := fast.calledTools[j], plain.tool(call.Name); got.Name != call.Name || *got != *tc {
					t.Fatalf("called call %d (%q): counts %+v, want %+v", j, call.Name, *got, *tc)
				}
			}
			if len(fast.expectedTools) != len(c.Expected) || len(fast.calledTools) != len(c.Called) {
				t.Fatalf("%d and %d tools for %d and %d calls", len(fast.expectedTools), len(fast.calledTools), len(c.Expected), len(c.Called))
			}
		}
		if len(fast.tools) != len(plain.tools) {
			t.Fatalf("%d tools, want %d", len(fast.tools), len(plain.tools))
		}
		for i := range fast.tools {
			if *fast.tools[i] != *plain.tools[i] {
				t.Fatalf("tool %d: %+v, want %+v", i, *fast.tools[i], *plain.tools[i])
			}
		}
	})
}

// alikeName draws names alike but for one byte, at any place, of any
// length around the tool table's 4-, 8- and 16-byte cases.
var alikeName = rapid.Custom(func(t *rapid.T) string {
	n := rapid.IntRange(0, 40).Draw(t, "len")
	b := []byte(strings.Repeat("a", n))
	if n > 0 {
		b[rapid.IntRange(0, n-1).Draw(t, "at")] = rapid.SampledFrom([]byte("ab\x00\xff")).Draw(t, "byte")
	}
	return string(b)
})

// TestCountUnpairedAgreesWithStandIns: countUnpaired, which compares
// calls' tools by their counts, counts generated cases' unpaired calls
// as standIns sorts them (stand-ins, failed stand-ins, missed calls,
// extra calls), indexes out of range and names alike after
// NormalizeToolName included.
func TestCountUnpairedAgreesWithStandIns(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.SampledFrom([]string{"a", "b", "get_weather", "get_weather_ab12", "get_weather_zz99", "lookup", "lookup_x1y2"})
		calls := func(label string) []toolgrade.Call { return drawCalls(t, name, label) }
		var fast, plain Stats
		for range rapid.IntRange(1, 20).Draw(t, "cases") {
			c := &toolgrade.Case{Expected: calls("expected"), Called: calls("called")}
			index := rapid.IntRange(-1, 7)
			m := &toolgrade.MetricResult{
				Missing:    rapid.SliceOfNDistinct(index, 0, 6, rapid.ID[int]).Draw(t, "missing"),
				Unexpected: rapid.SliceOfNDistinct(index, 0, 6, rapid.ID[int]).Draw(t, "unexpected"),
			}
			failed := slices.Sorted(slices.Values(rapid.SliceOfNDistinct(rapid.IntRange(0, 6), 0, 4, rapid.ID[int]).Draw(t, "failed")))

			fast.lookUpTools(c)
			fast.countUnpaired(m, c, failed)

			plain.lookUpTools(c)
			stands, missing, extra := standIns(m, c, nil, nil, nil)
			for _, p := range stands {
				if slices.Contains(failed, p.called) {
					plain.expectedTools[p.expected].Failed++
				} else {
					plain.expectedTools[p.expected].WrongArgs++
				}
			}
			for _, i := range missing {
				plain.expectedTools[i].Missed++
			}
			for _, j := range extra {
				plain.calledTools[j].Extra++
			}
		}
		got, _ := fast.Tools()
		want, _ := plain.Tools()
		if !slices.Equal(got, want) {
			t.Fatalf("counts\n%+v\nwant\n%+v", got, want)
		}
	})
}

// drawCalls draws up to six calls with names drawn from name.
func drawCalls(t *rapid.T, name *rapid.Generator[string], label string) []toolgrade.Call {
	var cs []toolgrade.Call
	for _, n := range rapid.SliceOfN(name, 0, 6).Draw(t, label) {
		cs = append(cs, toolgrade.Call{Name: n})
	}
	return cs
}
