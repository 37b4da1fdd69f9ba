package series_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/internal/series"
	"pgregory.net/rapid"
)

// TestSplit: an id is its prefix and its number spelled in decimal,
// leading zeros kept in the prefix.
func TestSplit(t *testing.T) {
	for _, tt := range []struct {
		id, prefix string
		num        uint64
		ok         bool
	}{
		{"case-17", "case-", 17, true},
		{"case-0", "case-", 0, true},
		{"case-007", "case-00", 7, true},
		{"case-000", "case-00", 0, true},
		{"42", "", 42, true},
		{"0", "", 0, true},
		{"a.jsonl:line-12#3", "a.jsonl:line-12#", 3, true},
		{"999999999999999999", "", 999_999_999_999_999_999, true},
		{"x1999999999999999999", "", 0, false}, // 19 digits
		{"x01999999999999999999", "", 0, false},
		{"", "", 0, false},
		{"case-", "", 0, false},
		{"case-1a", "", 0, false},
		{"é٣", "", 0, false}, // a digit, but not an ASCII one
	} {
		t.Run(tt.id, func(t *testing.T) {
			prefix, num, ok := series.Split(tt.id)
			if prefix != tt.prefix || num != tt.num || ok != tt.ok {
				t.Fatalf("Split(%q) = %q, %d, %v; want %q, %d, %v", tt.id, prefix, num, ok, tt.prefix, tt.num, tt.ok)
			}
		})
	}
}

// FuzzSplit: an id split is its prefix and its number in decimal, the
// prefix ending in no digit but leading zeros; an id not split ends in no
// digit, or in more than 18 after its leading zeros.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"case-17", "case-007", "0", "00", "", "x", "1999999999999999999", "999999999999999999", "x000000000000000000000001", "a1b2", "line-3#12"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		prefix, num, ok := series.Split(id)
		digits := len(id) - len(strings.TrimRight(id, "0123456789"))
		if !ok {
			if digits != 0 && len(strings.TrimLeft(id[len(id)-digits:], "0")) <= 18 {
				t.Fatalf("Split(%q) refused", id)
			}
			return
		}
		if prefix+strconv.FormatUint(num, 10) != id {
			t.Fatalf("Split(%q) = %q, %d", id, prefix, num)
		}
		if rest := strings.TrimRight(prefix, "0"); rest != "" && rest[len(rest)-1]-'0' <= 9 {
			t.Fatalf("Split(%q): prefix %q ends in a digit other than a leading zero", id, prefix)
		}
	})
}

// TestSeries: numbers near together, far apart, below the start and
// again: every entry set is found again, the array stays dense, a number
// refused stays spilled, and Fits promises only what Entry gives.
func TestSeries(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s series.Series[uint32]
		set := map[uint64]uint32{}
		var spilled []uint64
		next := rapid.Uint64().Draw(t, "start")
		for i := range rapid.IntRange(1, 2000).Draw(t, "numbers") {
			num := next + rapid.Uint64Range(0, 300).Draw(t, "ahead") - 100
			if rapid.IntRange(0, 20).Draw(t, "far") == 0 {
				num = rapid.Uint64().Draw(t, "anywhere")
			}
			fits := s.Fits(num)
			e := s.Entry(num)
			switch {
			case e == nil && fits:
				t.Fatalf("%d fits but has no entry", num)
			case e == nil:
				spilled = append(spilled, num)
			case e != nil && *e == 0:
				*e = uint32(i + 1)
				s.Held++
				set[num], next = *e, max(next, num+1)
			}
			if len(s.Entries) > max(64, 8*s.Held) {
				t.Fatalf("%d entries for %d ids", len(s.Entries), s.Held)
			}
		}
		for num, v := range set {
			if got := s.Get(num); got != v {
				t.Fatalf("%d: entry %d, want %d", num, got, v)
			}
		}
		for _, num := range spilled {
			if !s.Spilled(num) {
				t.Fatalf("%d had no entry and is not spilled", num)
			}
		}
	})
}

// TestSet: a Set keeps the first Max prefixes, finds each again, and
// Reset empties their series.
func TestSet(t *testing.T) {
	var set series.Set[uint64]
	for i := range series.Max + 1 {
		prefix := "p" + strconv.Itoa(i) + "-"
		s := set.Of(prefix, true)
		if i == series.Max {
			if s != nil {
				t.Fatalf("series %d of %d kept", i+1, series.Max)
			}
			break
		}
		*s.Entry(7) = 1
		s.Held++
		if set.Of(prefix, false) != s || set.Last() != i || set.Of("q"+prefix, false) != nil {
			t.Fatalf("%q not found again as series %d", prefix, i)
		}
	}
	if s := set.Of("p3-", false); s != &set.List[3] || set.Last() != 3 || s.Get(7) != 1 {
		t.Fatalf("p3- found as %p, series %d", s, set.Last())
	}
	set.Reset()
	if s := set.Of("p3-", false); s.Get(7) != 0 || s.Held != 0 || s.Spilled(7) {
		t.Fatalf("after Reset, p3- holds %+v", *s)
	}
}
