package match

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/toolgrade/toolgrade"
	"pgregory.net/rapid"
)

// indexNames are tool names of every length index treats apart: under 4
// bytes, 4 to 7, 8 to 16, and over 16 with the same first and last
// eight bytes (which only comparing them whole tells apart), or the same
// words at another length.
// The first of them, of 4 to 16 bytes, take indexShort's path alone.
var indexNames = []string{
	"run_sql", "book", "lookup_user", "send_email", "abcdefgh", "abcdefghabcdefgh", "abcdabcd", "abcd",
	"a", "ab", "sql", "abcdefgh_abcdefgh", "abcdefghXabcdefgh", "delegate_to_sql_agent", "delegate_to_sql_agent_xg7c",
}

// TestIndexedGradeAgrees holds the graded path of a plain case through a
// nameIndex (names read once, rows of positive cells, forced pairs from
// them, misses explained by candidate sets) to the path that scores
// every pair of calls into a matrix, result for result, byte for byte,
// under generated options and plain cases.
func TestIndexedGradeAgrees(t *testing.T) {
	indexed := 0
	rapid.Check(t, func(t *rapid.T) {
		opts := Options{
			Args:        rapid.SampledFrom([]Mode{ArgsExact, ArgsExact, ArgsExact, ArgsPartial, ArgsContains, ArgsIgnore, ArgsFuzzy}).Draw(t, "args"),
			Output:      rapid.SampledFrom([]Output{OutputIgnore, OutputExact}).Draw(t, "output"),
			FailedCalls: rapid.SampledFrom([]FailedCalls{FailedRetry, FailedCount}).Draw(t, "failed"),
			Order:       rapid.SampledFrom([]Order{OrderAny, OrderAny, OrderInOrder, OrderExact}).Draw(t, "order"),
			Strict:      rapid.Bool().Draw(t, "strict"),

			NormalizeNames: rapid.Bool().Draw(t, "normalize"),
		}
		if opts.Order == OrderAny && rapid.IntRange(0, 4).Draw(t, "greedy") == 0 {
			opts.Pairing = PairingGreedy
		}
		if rapid.IntRange(0, 4).Draw(t, "override") == 0 {
			opts.ArgsOverrides = map[string]Mode{"run_sql": ArgsPartial, "send_email": ArgsExact}
		}
		m, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		pool := indexNames
		if rapid.Bool().Draw(t, "short") {
			pool = indexNames[:8]
		}
		names := rapid.SliceOfNDistinct(rapid.SampledFrom(pool), 1, 4, rapid.ID).Draw(t, "names")
		call := func(label string) toolgrade.Call {
			c := genCall(t, label)
			c.Name = rapid.SampledFrom(names).Draw(t, label+".name")
			return c
		}
		exp := make([]toolgrade.Call, rapid.IntRange(0, 8).Draw(t, "n"))
		for i := range exp {
			exp[i] = call(fmt.Sprint("expected", i))
			exp[i].Invalid, exp[i].ArgsRaw = false, "" // plain turns invalid expected calls away
		}
		got := make([]toolgrade.Call, rapid.IntRange(0, 10).Draw(t, "k"))
		for j := range got {
			got[j] = call(fmt.Sprint("called", j))
			if len(exp) > 0 && rapid.IntRange(0, 2).Draw(t, fmt.Sprint("copy", j)) == 0 {
				e := exp[rapid.IntRange(0, len(exp)-1).Draw(t, fmt.Sprint("of", j))]
				got[j].Name, got[j].Args = e.Name, e.Args
				if rapid.Bool().Draw(t, fmt.Sprint("near", j)) {
					got[j].Args = nearValue(t, e.Args)
				}
			}
		}
		c := &toolgrade.Case{Expected: exp, Called: got}
		if !m.plain(c) || !indexable(len(exp), len(got)) {
			return
		}
		indexed++
		var want, have toolgrade.MetricResult
		m.gradePlain(&want, c, nil)
		var ix nameIndex
		m.gradePlain(&have, c, &ix)
		if w, h := want.AppendJSON(nil), have.AppendJSON(nil); !bytes.Equal(w, h) {
			t.Fatalf("indexed:\n%s\nscored:\n%s", h, w)
		}
		for i := range exp {
			var cols uint64
			for j := range got {
				if m.name(&got[j]) == m.name(&exp[i]) {
					cols |= 1 << j
				}
			}
			if ix.cols[i] != cols && len(got) > 0 {
				t.Fatalf("cols[%d] = %b, want %b", i, ix.cols[i], cols)
			}
		}
	})
	if indexed < 50 {
		t.Errorf("only %d cases took the indexed path: the test compares too few", indexed)
	}
}
