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

// idOf draws an id as runs give them: a prefix, digits (some with
// leading zeros, some past 8 or 18), and now and then a tail that ends
// in no digit, or bytes that are not ASCII digits among the digits.
func idOf(t *rapid.T) string {
	prefix := rapid.SampledFrom([]string{"", "case-", "c", "case-00", "0", "line-", "abcdefg", "abcdefgh", "abcdefghi", "a.jsonl:line-", "é", "x/"}).Draw(t, "prefix")
	digits := rapid.StringOfN(rapid.RuneFrom([]rune("0123456789")), 0, 20, -1).Draw(t, "digits")
	id := prefix + digits
	switch rapid.IntRange(0, 9).Draw(t, "damage") {
	case 0:
		id += rapid.SampledFrom([]string{"a", "-", "/", ":", "\xff", "\x00"}).Draw(t, "tail")
	case 1:
		if len(digits) > 0 {
			i := len(prefix) + rapid.IntRange(0, len(digits)-1).Draw(t, "at")
			c := rapid.SampledFrom([]byte{'/', ':', '@', 'a', 0x3a, 0x2f, 0x40, 0xb0, 0x39 + 0x10}).Draw(t, "byte")
			id = id[:i] + string([]byte{c}) + id[i+1:]
		}
	}
	return id
}

// TestFindAgreesWithSplit: Find gives what Split and Of give, on ids of
// several prefixes in turn (so that the last series is sometimes
// another's), and leaves the set as they do.
func TestFindAgreesWithSplit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var found, split series.Set[uint32]
		for range rapid.IntRange(1, 50).Draw(t, "ids") {
			id := idOf(t)
			admit := rapid.Bool().Draw(t, "admit")
			s, num, ok := found.Find(id, admit)
			prefix, wantNum, wantOK := series.Split(id)
			var want *series.Series[uint32]
			if wantOK {
				want = split.Of(prefix, admit)
			}
			if ok != wantOK || ok && num != wantNum || (s == nil) != (want == nil) {
				t.Fatalf("Find(%q) = %v, %d, %v; Split and Of: %v, %d, %v", id, s != nil, num, ok, want != nil, wantNum, wantOK)
			}
			if s != nil && (s.Prefix != want.Prefix || found.Last() != split.Last()) {
				t.Fatalf("Find(%q): series %q (%d), want %q (%d)", id, s.Prefix, found.Last(), want.Prefix, split.Last())
			}
		}
		if len(found.List) != len(split.List) {
			t.Fatalf("%d series, want %d", len(found.List), len(split.List))
		}
	})
}

// FuzzFind: Find, on an id whose prefix is the last series', gives what
// Split gives.
func FuzzFind(f *testing.F) {
	for _, s := range [][2]string{{"case-17", "case-18"}, {"case-007", "case-0012"}, {"case-1", "case-01"}, {"0", "00"}, {"abcdefgh1", "abcdefgh123456789"}, {"x1", "x1234567890123456789"}, {"line-9", "line-9:"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, first, id string) {
		var set series.Set[uint64]
		set.Find(first, true)
		s, num, ok := set.Find(id, true)
		prefix, wantNum, wantOK := series.Split(id)
		if ok != wantOK || ok && (num != wantNum || s == nil || s.Prefix != prefix) {
			t.Fatalf("after %q, Find(%q) = %v, %d, %v; Split: %q, %d, %v", first, id, s != nil, num, ok, prefix, wantNum, wantOK)
		}
	})
}
