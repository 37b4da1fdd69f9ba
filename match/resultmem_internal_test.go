package match

import (
	"fmt"
	"testing"

	"github.com/toolgrade/toolgrade"
)

// A result's memory holds at least the pairs and the missing and
// unexpected calls asked for, in lists that are never nil and never
// overlap: filling each to its capacity leaves the others as they were.
func TestNewResultMemHolds(t *testing.T) {
	for nm := range 11 {
		for ni := range 21 {
			for nd := range 4 {
				for _, details := range []bool{false, true} {
					need := resultNeeds{matches: nm, ints: ni, diffs: nd, details: details}
					t.Run(fmt.Sprint(need), func(t *testing.T) {
						mem := newResultMem(need)
						if mem.nums == nil || mem.matches == nil || mem.ints == nil {
							t.Fatalf("nil room: %+v", mem)
						}
						if len(mem.matches) != 0 || len(mem.ints) != 0 || len(mem.diffs) != 0 || len(mem.details) != 0 {
							t.Fatalf("room not empty: %+v", mem)
						}
						if cap(mem.matches) < nm || cap(mem.ints) < ni {
							t.Fatalf("room for %d pairs and %d calls, want %d and %d", cap(mem.matches), cap(mem.ints), nm, ni)
						}
						mem.nums[0], mem.nums[3] = 1, 2
						matches := mem.matches[:cap(mem.matches)]
						for i := range matches {
							matches[i] = toolgrade.Match{Expected: i, Called: -i, Score: 3}
						}
						ints := mem.ints[:cap(mem.ints)]
						for i := range ints {
							ints[i] = 7 + i
						}
						diffs := mem.diffs[:cap(mem.diffs)]
						for i := range diffs {
							diffs[i] = toolgrade.ArgDiff{Path: "p", Note: "n"}
						}
						details := mem.details[:cap(mem.details)]
						for i := range details {
							details[i] = NearMisses{}
						}
						if mem.nums[0] != 1 || mem.nums[3] != 2 {
							t.Errorf("figures overwritten: %v", *mem.nums)
						}
						for i, m := range matches {
							if m.Expected != i || m.Called != -i || m.Score != 3 || m.Diffs != nil {
								t.Errorf("pair %d overwritten: %+v", i, m)
							}
						}
						for i, n := range ints {
							if n != 7+i {
								t.Errorf("call %d overwritten: %d", i, n)
							}
						}
					})
				}
			}
		}
	}
}

// needs asks for room enough for the pairs, and for the missing and
// unexpected calls unpaired lists.
func TestResultNeeds(t *testing.T) {
	m, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for n := range 6 {
		for k := range 6 {
			for p := range min(n, k) + 1 {
				found := make([]toolgrade.Match, p)
				for i := range found {
					found[i] = toolgrade.Match{Expected: i, Called: i, Score: 1}
				}
				need := m.needs(n, k, found, nil)
				missing, unexpected := toolgrade.Unpaired(found, n, k)
				if need.matches < p || need.ints < len(missing)+len(unexpected) {
					t.Errorf("n=%d k=%d pairs=%d: %+v", n, k, p, need)
				}
				if near := min(len(missing), len(unexpected)); need.matches < p+near || need.diffs < near || near > 0 && !need.details {
					t.Errorf("n=%d k=%d pairs=%d: %+v, no room for %d near misses", n, k, p, need, near)
				}
			}
		}
	}
}
