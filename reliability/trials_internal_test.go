package reliability

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func metricResult(name string, score float64) toolgrade.MetricResult {
	th := 0.5
	return toolgrade.MetricResult{Name: name, Profile: "default", Score: score, Success: score >= th, Threshold: &th}
}

// TestTrialsMetricBlocks adds a metric to an earlier case's later trial:
// the case's metrics move, and no other case's change.
func TestTrialsMetricBlocks(t *testing.T) {
	var tr Trials
	tr.add(&toolgrade.Result{ID: "a", Success: true, Metrics: []toolgrade.MetricResult{metricResult("m1", 1), metricResult("m2", 1)}})
	tr.add(&toolgrade.Result{ID: "b", Metrics: []toolgrade.MetricResult{metricResult("m1", 0), metricResult("m2", 0)}})
	tr.add(&toolgrade.Result{ID: "a", Metrics: []toolgrade.MetricResult{metricResult("m1", 0), metricResult("m2", 1), metricResult("m3", 1)}})
	rel := tr.Suite(0.95, nil)
	got := map[string]string{}
	for _, c := range rel.PerCase {
		for _, m := range c.Metrics {
			got[c.ID+"/"+m.Name] = strconv.Itoa(m.Passed) + "/" + strconv.Itoa(m.Trials)
		}
	}
	want := map[string]string{"a/m1": "1/2", "a/m2": "2/2", "a/m3": "1/2", "b/m1": "0/1", "b/m2": "0/1"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s, want %s (all: %v)", k, got[k], v, got)
		}
	}
}

// TestTrialsPastOldCap groups cases met after 250,000 distinct ones, where
// results were once only counted.
func TestTrialsPastOldCap(t *testing.T) {
	var tr Trials
	r := toolgrade.Result{Success: true, Metrics: []toolgrade.MetricResult{metricResult("m", 1)}}
	const n = 250_010
	for i := range n {
		r.ID = strconv.Itoa(i)
		if c := tr.add(&r); c != nil {
			t.Fatalf("case %d: trials for a first trial", i)
		}
	}
	r.Success, r.Metrics = false, []toolgrade.MetricResult{metricResult("m", 0)}
	for _, i := range []int{0, 249_999, n - 1} {
		r.ID = strconv.Itoa(i)
		if c := tr.add(&r); c == nil || c.n != 2 || c.passed != 1 {
			t.Fatalf("case %d again: %+v, want 2 trials, 1 passed", i, c)
		}
	}
	if tr.n != n {
		t.Fatalf("%d cases, want %d", tr.n, n)
	}
	if testing.Short() {
		return
	}
	rel := tr.Suite(0.95, nil)
	if rel.Cases != n || rel.Trials != n+3 || rel.Passed != n-3 || len(rel.Flaky) != 3 || rel.Flaky[2].ID != strconv.Itoa(n-1) {
		t.Errorf("cases %d trials %d passed %d flaky %d", rel.Cases, rel.Trials, rel.Passed, len(rel.Flaky))
	}
}

// randomResults returns n results of cases drawn from ids distinct ones
// (long ids, ids generated from line numbers in two files), with random
// verdicts, errors, trial indexes, metrics (in any order, some twice in
// one result) and scores (0, −0, 1, fractions, out of range, NaN, and
// hundreds of others).
func randomResults(rng *rand.Rand, n, ids int) []*toolgrade.Result {
	scores := []float64{0, math.Copysign(0, -1), 1, 0.25, 1.0 / 3, 0.7, 1.5, -0.5, math.NaN()}
	names := []string{"m1", "m2", "m3"}
	var out []*toolgrade.Result
	for range n {
		k := rng.IntN(ids)
		r := &toolgrade.Result{ID: "case-" + strconv.Itoa(k), Success: rng.IntN(3) > 0}
		c := &toolgrade.Case{Raw: jsonvalue.Object{}}
		switch {
		case k%7 == 0:
			r.ID += strings.Repeat("é", 30+k%50) // past the small chunks below
		case k%5 == 0: // no id of its own: its key is its file's
			r.ID = "line-" + strconv.Itoa(k/10)
			c.Source = []string{"a.jsonl", "b.jsonl"}[k%2]
		}
		if k%5 != 0 || k%7 == 0 {
			c.Raw = append(c.Raw, jsonvalue.Member{Key: "id", Value: r.ID})
		}
		if rng.IntN(2) == 0 {
			c.Trial = 1 + rng.IntN(9)
		}
		r.Case = c
		if rng.IntN(20) == 0 {
			r.Error = "unreadable"
		}
		for range rng.IntN(4) {
			s := rng.Float64() // more distinct scores than a trials keeps
			if i := rng.IntN(2 * len(scores)); i < len(scores) {
				s = scores[i]
			}
			m := metricResult(names[rng.IntN(len(names))], s)
			if rng.IntN(2) == 0 {
				m.Profile = "strict"
			}
			if rng.IntN(10) == 0 {
				m.Error = "failed"
			}
			r.Metrics = append(r.Metrics, m)
		}
		out = append(out, r)
	}
	return out
}

// TestTrialsAgreeCaseByCase checks the grouping against the simplest one:
// every case's figures from a run with its trials interleaved with other
// cases' are its figures from a run of its trials alone. The keys' hashes
// collide (only eight values), and records cross many small chunks.
func TestTrialsAgreeCaseByCase(t *testing.T) {
	gates := map[string]PassK{"m2 (strict)": {K: 2, Min: 0.5}}
	for _, tc := range []struct {
		name    string
		hash    func(string) uint64
		chunk   int
		tagHome uint
		flat    bool
	}{
		{"own hash", nil, 0, 0, true},
		{"colliding", func(s string) uint64 { return uint64(len(s)%8) * 0x9E3779B97F4A7C15 }, 0, 0, true},
		{"same tag", func(s string) uint64 { return uint64(len(s) % 8) }, 64, 0, true},
		{"small chunks", nil, 100, 0, true},
		{"rehashed as it grows", nil, 0, 4, true},
		{"series", nil, 0, 0, false},
		{"series and colliding", func(s string) uint64 { return uint64(len(s)%8) * 0x9E3779B97F4A7C15 }, 100, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			for round := range 12 {
				results := randomResults(rng, 1+rng.IntN(600), 1+rng.IntN(300))
				tr := Trials{hash: tc.hash, chunkMax: tc.chunk, tagHome: tc.tagHome, flat: tc.flat}
				byKey := map[string][]*toolgrade.Result{}
				for _, r := range results {
					tr.add(r)
					byKey[r.ID] = append(byKey[r.ID], r)
				}
				rel := tr.Suite(0.9, gates)
				if rel.Cases != len(byKey) || len(rel.PerCase) != len(byKey) {
					t.Fatalf("round %d: %d cases, want %d", round, rel.Cases, len(byKey))
				}
				for _, got := range rel.PerCase {
					var alone Trials
					for _, r := range byKey[got.ID] {
						alone.Add(r)
					}
					want := alone.Suite(0.9, gates).PerCase[0]
					if g, w := caseText(got), caseText(want); g != w {
						t.Fatalf("round %d, case %q:\n got %s\nwant %s", round, got.ID, g, w)
					}
					if c, _ := tr.Case(got.ID, 0.9, gates); caseText(c) != caseText(got) {
						t.Fatalf("round %d, case %q: Case gives\n%s\nSuite\n%s", round, got.ID, caseText(c), caseText(got))
					}
				}
			}
		})
	}
}

// caseText prints every field of c, NaN as NaN and gates by value.
func caseText(c Case) string {
	var gates []PassK
	c.Metrics = slices.Clone(c.Metrics)
	for i := range c.Metrics {
		if g := c.Metrics[i].Gate; g != nil {
			gates = append(gates, *g)
			c.Metrics[i].Gate = nil
		}
	}
	return fmt.Sprintf("%+v gates %+v", c, gates)
}

// TestTrialsFirstTrialReplayed checks that a case's first trial read back
// from its record sums as the trial itself: scores exactly, verdicts,
// errors and its index.
func TestTrialsFirstTrialReplayed(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, s := range []float64{0, negZero, 1, 0.1, 1.0 / 3, -0.5, 2, math.Inf(1), math.NaN(), math.SmallestNonzeroFloat64} {
		for _, erred := range []bool{false, true} {
			var tr Trials
			m := metricResult("m", s)
			if erred {
				m.Error = "failed"
			}
			r := &toolgrade.Result{ID: "x", Success: s == 1, Case: &toolgrade.Case{Trial: 7}, Metrics: []toolgrade.MetricResult{m}}
			if erred {
				r.Error = "unreadable"
			}
			tr.add(r)
			c := tr.add(&toolgrade.Result{ID: "x", Metrics: []toolgrade.MetricResult{metricResult("m", 0.5)}})
			mt := &c.m0
			want := metricTrials{n: 2, scored: 2, sum: 0 + s + 0.5, sumSq: 0 + s*s + 0.25, outOfRange: s < 0 || s > 1}
			if m.Verdict() {
				want.passed++
			}
			want.passed++ // the second trial's 0.5 meets its threshold
			if erred {
				want.scored, want.sum, want.sumSq, want.outOfRange = 1, 0.5, 0.25, false
			}
			if g, w := fmt.Sprintf("%+v", *mt), fmt.Sprintf("%+v", want); g != w || math.Signbit(mt.sum) != math.Signbit(want.sum) {
				t.Errorf("score %v, erred %v: %s, want %s", s, erred, g, w)
			}
			if c.first != 7 || c.firstPass != (s == 1) || c.erred != erred || tr.later[c.last].trial != 2 {
				t.Errorf("score %v: first trial %d passed %v erred %v, second %d", s, c.first, c.firstPass, c.erred, tr.later[c.last].trial)
			}
		}
	}
}

// TestTrialsReset checks that a reset trials forgets every case.
func TestTrialsReset(t *testing.T) {
	var tr Trials
	for i := range 3 {
		for _, id := range []string{"a", "b", "a"} {
			tr.add(&toolgrade.Result{ID: id, Success: true})
		}
		if rel := tr.Suite(0.95, nil); rel.Cases != 2 || rel.Trials != 3 {
			t.Fatalf("round %d: %d cases, %d trials", i, rel.Cases, rel.Trials)
		}
		tr.Reset()
	}
}
