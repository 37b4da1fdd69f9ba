package reliability

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/series"
	"pgregory.net/rapid"
)

// numberedKeys draws a run's keys: prefixes and numbers in order, out of
// order, far apart, repeated, with leading zeros, and more prefixes than
// the series keep, among keys that end in no number.
func numberedKeys(t *rapid.T) []string {
	prefixes := rapid.SliceOfN(rapid.SampledFrom([]string{"case-", "", "a.jsonl:line-", "b.jsonl:line-", "line-3#", "case-0", "id", "x"}), 1, 4).Draw(t, "prefixes")
	for i := range []int{0, 2, 2 * series.Max}[rapid.IntRange(0, 2).Draw(t, "more prefixes")] {
		prefixes = append(prefixes, "p"+strconv.Itoa(i)+"-")
	}
	n := rapid.IntRange(1, 3000).Draw(t, "keys")
	next := make([]uint64, len(prefixes))
	for i := range next {
		next[i] = rapid.Uint64Range(0, 1<<20).Draw(t, "start")
	}
	var keys []string
	for range n {
		k := rapid.IntRange(0, len(prefixes)-1).Draw(t, "prefix")
		var num uint64
		switch rapid.IntRange(0, 11).Draw(t, "how") {
		case 0: // anywhere
			num = rapid.Uint64Range(0, math.MaxUint64).Draw(t, "num")
		case 1: // near
			num = next[k] - min(next[k], rapid.Uint64Range(0, 300).Draw(t, "back"))
		case 2: // ahead
			num = next[k] + rapid.Uint64Range(0, 500).Draw(t, "ahead")
		case 3, 4: // a key seen before
			if len(keys) > 0 {
				keys = append(keys, keys[rapid.IntRange(0, len(keys)-1).Draw(t, "again")])
				continue
			}
		case 5: // no number
			keys = append(keys, prefixes[k]+"z")
			continue
		default: // the next
			num = next[k]
		}
		next[k] = max(next[k], num+1)
		key := prefixes[k] + strconv.FormatUint(num, 10)
		if rapid.IntRange(0, 20).Draw(t, "zeros") == 0 {
			key = prefixes[k] + "00" + strconv.FormatUint(num, 10)
		}
		keys = append(keys, key)
	}
	return keys
}

// TestTrialsSeriesAgree holds the series to the table alone: every Add
// returns the same, and the figures of the run and of every case (and of
// keys never added) are the same.
func TestTrialsSeriesAgree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := numberedKeys(t)
		small := rapid.Bool().Draw(t, "small chunks")
		var fast, flat Trials
		fast.chunkMax = map[bool]int{true: 100}[small]
		flat.chunkMax, flat.flat = fast.chunkMax, true
		for i, key := range keys {
			th := 0.5
			score := float64(i%5) / 4
			r := &toolgrade.Result{ID: key, Success: score >= th, Case: &toolgrade.Case{Trial: i % 3},
				Metrics: []toolgrade.MetricResult{{Name: "m", Profile: "default", Score: score, Success: score >= th, Threshold: &th}}}
			if a, b := fast.Add(r), flat.Add(r); a != b {
				t.Fatalf("result %d (%q): %d trials, the table alone %d", i, key, a, b)
			}
		}
		gates := map[string]PassK{"m": {K: 2, Min: 0.5}}
		if a, b := suiteText(fast.Suite(0.9, gates)), suiteText(flat.Suite(0.9, gates)); a != b {
			t.Fatalf("suite:\n%s\nthe table alone:\n%s", a, b)
		}
		for _, key := range append(keys, "case-1", "case-99999999", "", "case-", "zz9") {
			a, okA := fast.Case(key, 0.9, gates)
			b, okB := flat.Case(key, 0.9, gates)
			if okA != okB || caseText(a) != caseText(b) {
				t.Fatalf("case %q: %v %s\nthe table alone: %v %s", key, okA, caseText(a), okB, caseText(b))
			}
		}
		fast.Reset()
		if n := fast.Add(&toolgrade.Result{ID: keys[0]}); n != 1 {
			t.Fatalf("after Reset, %q has %d trials", keys[0], n)
		}
	})
}

// suiteText prints a suite, its cases by caseText.
func suiteText(s *Suite) string {
	if s == nil {
		return "nil"
	}
	var b strings.Builder
	for _, c := range s.PerCase {
		b.WriteString(caseText(c) + "\n")
	}
	c := *s
	c.PerCase, c.Flaky, c.Metrics = nil, nil, slices.Clone(c.Metrics)
	for i := range c.Metrics {
		if g := c.Metrics[i].Gate; g != nil {
			fmt.Fprintf(&b, "gate %+v\n", *g)
			c.Metrics[i].Gate = nil
		}
	}
	fmt.Fprintf(&b, "%+v flaky %d", c, len(s.Flaky))
	return b.String()
}
