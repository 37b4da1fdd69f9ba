package report

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/toolgrade/toolgrade"
	"pgregory.net/rapid"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestEstimatorsByHand(t *testing.T) {
	tests := []struct {
		n, c, k int
		at, hat float64
	}{
		{5, 3, 1, 0.6, 0.6},
		{5, 3, 2, 1 - 1.0/10, 3.0 / 10}, // C(2,2)/C(5,2) = 1/10; C(3,2)/C(5,2) = 3/10
		{5, 3, 3, 1, 1.0 / 10},          // C(2,3) = 0; C(3,3)/C(5,3) = 1/10
		{5, 4, 3, 1, 4.0 / 10},
		{10, 0, 4, 0, 0},
		{10, 10, 4, 1, 1},
		{8, 2, 3, 1 - 20.0/56, 0}, // C(6,3)/C(8,3) = 20/56
		{1, 1, 1, 1, 1},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.n)+"/"+strconv.Itoa(tt.c)+"/"+strconv.Itoa(tt.k), func(t *testing.T) {
			if got := PassAtK(tt.n, tt.c, tt.k); !near(got, tt.at) {
				t.Errorf("pass@%d = %v, want %v", tt.k, got, tt.at)
			}
			if got := PassHatK(tt.n, tt.c, tt.k); !near(got, tt.hat) {
				t.Errorf("pass^%d = %v, want %v", tt.k, got, tt.hat)
			}
		})
	}
	for _, bad := range [][3]int{{5, 3, 0}, {5, 3, 6}, {5, 6, 1}, {5, -1, 1}, {0, 0, 1}} {
		if !math.IsNaN(PassAtK(bad[0], bad[1], bad[2])) || !math.IsNaN(PassHatK(bad[0], bad[1], bad[2])) {
			t.Errorf("n=%d c=%d k=%d: want NaN", bad[0], bad[1], bad[2])
		}
	}
}

// TestEstimatorsBruteForce enumerates every k-subset of n trials with c
// passes: pass@k is the share of subsets with a pass, pass^k the share
// where all pass.
func TestEstimatorsBruteForce(t *testing.T) {
	for n := 1; n <= 8; n++ {
		for c := 0; c <= n; c++ {
			for k := 1; k <= n; k++ {
				var subsets, some, all int
				for mask := 0; mask < 1<<n; mask++ {
					if popcount(mask) != k {
						continue
					}
					subsets++
					passes := popcount(mask & (1<<c - 1)) // trials 0..c-1 passed
					if passes > 0 {
						some++
					}
					if passes == k {
						all++
					}
				}
				if got, want := PassAtK(n, c, k), float64(some)/float64(subsets); !near(got, want) {
					t.Errorf("pass@%d n=%d c=%d = %v, want %v", k, n, c, got, want)
				}
				if got, want := PassHatK(n, c, k), float64(all)/float64(subsets); !near(got, want) {
					t.Errorf("pass^%d n=%d c=%d = %v, want %v", k, n, c, got, want)
				}
			}
		}
	}
}

func popcount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

func TestEstimatorProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 200).Draw(t, "n")
		c := rapid.IntRange(0, n).Draw(t, "c")
		rate := float64(c) / float64(n)
		if !near(PassAtK(n, c, 1), rate) || !near(PassHatK(n, c, 1), rate) {
			t.Fatalf("k=1: pass@1 %v, pass^1 %v, want the pass rate %v", PassAtK(n, c, 1), PassHatK(n, c, 1), rate)
		}
		for k := 2; k <= n; k++ {
			if PassHatK(n, c, k) > PassHatK(n, c, k-1)+1e-12 {
				t.Fatalf("pass^%d %v > pass^%d %v", k, PassHatK(n, c, k), k-1, PassHatK(n, c, k-1))
			}
			if PassAtK(n, c, k) < PassAtK(n, c, k-1)-1e-12 {
				t.Fatalf("pass@%d %v < pass@%d %v", k, PassAtK(n, c, k), k-1, PassAtK(n, c, k-1))
			}
			if v := PassAtK(n, c, k); v < 0 || v > 1 {
				t.Fatalf("pass@%d = %v out of [0, 1]", k, v)
			}
		}
	})
}

func TestWilsonByHand(t *testing.T) {
	// 8 of 10 at 95%: [0.4902, 0.9433] (Wilson 1927; Newcombe 1998).
	lo, hi := Wilson(8, 10, 0.95)
	if math.Abs(lo-0.4902) > 1e-4 || math.Abs(hi-0.9433) > 1e-4 {
		t.Errorf("Wilson(8, 10) = [%v, %v], want [0.4902, 0.9433]", lo, hi)
	}
	if lo, hi := Wilson(0, 0, 0.95); lo != 0 || hi != 1 {
		t.Errorf("Wilson(0, 0) = [%v, %v], want [0, 1]", lo, hi)
	}
}

// TestWilsonCoverage simulates 2,000 runs of a Bernoulli process with a
// known p: the 95% interval must cover p in 93–97% of them.
func TestWilsonCoverage(t *testing.T) {
	for _, tt := range []struct {
		p float64
		n int
	}{{0.3, 100}, {0.5, 60}, {0.7, 200}} {
		t.Run(strconv.FormatFloat(tt.p, 'g', -1, 64), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(42, uint64(tt.n)))
			covered := 0
			const runs = 2000
			for range runs {
				c := 0
				for range tt.n {
					if rng.Float64() < tt.p {
						c++
					}
				}
				if lo, hi := Wilson(float64(c), tt.n, 0.95); lo <= tt.p && tt.p <= hi {
					covered++
				}
			}
			if rate := float64(covered) / runs; rate < 0.93 || rate > 0.97 {
				t.Errorf("coverage %.3f, want 0.93–0.97", rate)
			}
		})
	}
}

// TestMeanCICoverage checks the t interval the same way, on normal data.
func TestMeanCICoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	covered := 0
	const runs = 2000
	xs := make([]float64, 10)
	for range runs {
		for i := range xs {
			xs[i] = 0.5 + 0.2*rng.NormFloat64()
		}
		if _, lo, hi := MeanCI(xs, 0.95); lo <= 0.5 && 0.5 <= hi {
			covered++
		}
	}
	if rate := float64(covered) / runs; rate < 0.93 || rate > 0.97 {
		t.Errorf("coverage %.3f, want 0.93–0.97", rate)
	}
	if q := tQuantile(0.975, 4); math.Abs(q-2.776445) > 1e-5 {
		t.Errorf("t(0.975, 4) = %v, want 2.776445", q)
	}
	if q := tQuantile(0.975, 1); math.Abs(q-12.7062) > 1e-3 {
		t.Errorf("t(0.975, 1) = %v, want 12.7062", q)
	}
}

func TestFisherLess(t *testing.T) {
	// 5/5 then 0/5: only that table, 1/C(10,5).
	if p := fisherLess(5, 5, 0, 5); !near(p, 1.0/252) {
		t.Errorf("p = %v, want 1/252", p)
	}
	if p := fisherLess(3, 5, 3, 5); p < 0.5 {
		t.Errorf("no change: p = %v, want ≥ 0.5", p)
	}
}

// synthetic writes a run of cases × trials, case i passing with
// probability p(i), scores 1 or 0.
func synthetic(rng *rand.Rand, cases, trials int, p func(int) float64) []toolgrade.Result {
	th := 0.5
	var out []toolgrade.Result
	for i := range cases {
		for range trials {
			pass := rng.Float64() < p(i)
			s := 0.0
			if pass {
				s = 1
			}
			out = append(out, toolgrade.Result{ID: "case-" + strconv.Itoa(i), Success: pass,
				Metrics: []toolgrade.MetricResult{{Name: "tool_correctness", Profile: "default", Score: s, Success: pass, Threshold: &th}}})
		}
	}
	return out
}

func compareRuns(base, new []toolgrade.Result, seed uint64) *Comparison {
	c := &Comparison{Seed: seed, Resamples: 400}
	for i := range base {
		c.AddBase(&base[i])
	}
	for i := range new {
		c.AddNew(&new[i])
	}
	return c
}

func TestCompareTrials(t *testing.T) {
	// Cases of varied difficulty, as real suites have.
	p := func(i int) float64 { return []float64{0.95, 0.8, 0.6, 0.9, 0.5}[i%5] }
	t.Run("injected regression is flagged", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 2))
		base := synthetic(rng, 40, 8, p)
		// The first 12 cases break: they now pass one time in ten.
		new := synthetic(rng, 40, 8, func(i int) float64 {
			if i < 12 {
				return 0.1
			}
			return p(i)
		})
		c := compareRuns(base, new, 1)
		if !c.Trials() || !c.Regression() {
			t.Fatalf("regression not flagged: %+v", c.MetricDeltas())
		}
		worse := 0
		for _, d := range c.CaseDeltas() {
			n, _ := strconv.Atoi(d.Case[len("case-"):])
			if d.Regressed && n >= 12 {
				t.Errorf("unchanged case %s regressed after correction (p=%v)", d.Case, d.P)
			}
			if d.Significant && n < 12 {
				worse++
			}
		}
		if worse == 0 {
			t.Errorf("no broken case named among %+v", c.CaseDeltas())
		}
	})
	t.Run("pure noise is rarely flagged", func(t *testing.T) {
		const reps = 100
		flagged := 0
		for r := range reps {
			rng := rand.New(rand.NewPCG(uint64(r), 99))
			base := synthetic(rng, 30, 5, p)
			new := synthetic(rng, 30, 5, p)
			if compareRuns(base, new, uint64(r)).Regression() {
				flagged++
			}
		}
		if flagged > 8 { // 5% expected; allow for the bootstrap's small-sample slack
			t.Errorf("noise flagged as a regression in %d of %d repetitions", flagged, reps)
		}
		t.Logf("noise flagged in %d of %d repetitions", flagged, reps)
	})
}

// TestCompareTrialsFigures: the noise figures WriteText and Regression
// share follow the results added and the settings after they were
// first computed.
func TestCompareTrialsFigures(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	p := func(int) float64 { return 0.9 }
	base, new := synthetic(rng, 10, 4, p), synthetic(rng, 10, 4, p)
	c := compareRuns(base, new, 1)
	if c.Regression() {
		t.Fatal("no change flagged as a regression")
	}
	before := c.MetricDeltas()[0]
	c.Seed = 2
	if d := c.MetricDeltas()[0]; d.DeltaLo == before.DeltaLo && d.DeltaHi == before.DeltaHi {
		t.Errorf("another seed, the same interval [%v, %v]", d.DeltaLo, d.DeltaHi)
	}
	// Every case now fails every new trial once more, many times over.
	for i := range 10 {
		for range 20 {
			r := toolgrade.Result{ID: "case-" + strconv.Itoa(i),
				Metrics: []toolgrade.MetricResult{{Name: "tool_correctness", Profile: "default", Threshold: toolgrade.Float(0.5)}}}
			c.AddNew(&r)
		}
	}
	if !c.Regression() {
		t.Errorf("results added after the figures were computed are not counted: %+v", c.MetricDeltas())
	}
}
