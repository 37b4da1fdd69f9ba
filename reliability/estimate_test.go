package reliability

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

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

// productPassAtK is pass@k as it was computed before PassAtKs, as the
// product over the passed trials, each k on its own: O(n²) for every k of
// a case. The figures are checked against it. (pass^k keeps its product,
// which PassHatKs extends one factor at a time; TestPassKsEveryK holds
// the two together.)
func productPassAtK(n, c, k int) float64 {
	if n-c < k {
		return 1
	}
	p := 1.0
	for i := n - c + 1; i <= n; i++ {
		p *= 1 - float64(k)/float64(i)
	}
	return 1 - p
}

// exactPassAtK is 1 − C(n−c, k)/C(n, k), exactly.
func exactPassAtK(n, c, k int) *big.Rat {
	var a, b big.Int
	q := new(big.Rat).SetFrac(a.Binomial(int64(n-c), int64(k)), b.Binomial(int64(n), int64(k)))
	return q.Sub(big.NewRat(1, 1), q)
}

// TestPassKsEveryK checks that the figures for every k at once are, to
// the last bit, those for each k alone.
func TestPassKsEveryK(t *testing.T) {
	for _, n := range []int{1, 2, 5, 64, 65, 128, 129, 300, 1000} {
		for c := 0; c <= n; c += max(1, n/37) {
			at, hat := PassAtKs(n, c), PassHatKs(n, c)
			if len(at) != n || len(hat) != n {
				t.Fatalf("n=%d c=%d: %d and %d figures, want %d", n, c, len(at), len(hat), n)
			}
			for k := 1; k <= n; k++ {
				if a, b := at[k-1], PassAtK(n, c, k); math.Float64bits(a) != math.Float64bits(b) {
					t.Fatalf("n=%d c=%d: PassAtKs[%d] = %v, PassAtK = %v", n, c, k-1, a, b)
				}
				if a, b := hat[k-1], PassHatK(n, c, k); math.Float64bits(a) != math.Float64bits(b) {
					t.Fatalf("n=%d c=%d: PassHatKs[%d] = %v, PassHatK = %v", n, c, k-1, a, b)
				}
			}
		}
	}
	if PassAtKs(0, 0) != nil || PassHatKs(0, 0) != nil {
		t.Error("figures for no trials")
	}
	// More passes than trials (two metrics of one name in a result): NaN
	// for every k, as for each k alone.
	for _, c := range []int{-1, 4} {
		for i, fs := range [][]float64{PassAtKs(3, c), PassHatKs(3, c)} {
			if len(fs) != 3 || slices.ContainsFunc(fs, func(f float64) bool { return !math.IsNaN(f) }) {
				t.Errorf("%d of 3 trials passed: figures %d are %v, want 3 NaN", c, i, fs)
			}
		}
	}
}

// TestPassKsAgainstProducts holds pass@k to the product it replaces: to
// the last bit up to 4096
// multiplications (every case of up to 128 trials, which results files
// print in full), and beyond within 1e-12 and the same at the precision
// reports print (a percentage with one decimal, a score with three)
// unless the exact value lies on the rounding boundary.
func TestPassKsAgainstProducts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.OneOf(rapid.IntRange(1, 130), rapid.IntRange(129, 5000)).Draw(t, "n")
		c := rapid.IntRange(0, n).Draw(t, "c")
		k := rapid.IntRange(1, n).Draw(t, "k")
		got, want := PassAtK(n, c, k), productPassAtK(n, c, k)
		if c*(n-c) <= 4096 { // every case of up to 128 trials
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("pass@%d n=%d c=%d = %v, the product gives %v", k, n, c, got, want)
			}
			return
		}
		if math.Abs(got-want) > 1e-12 {
			t.Fatalf("pass@%d n=%d c=%d = %v, the product gives %v", k, n, c, got, want)
		}
		for _, p := range []struct {
			scale float64
			prec  int
		}{{100, 1}, {1, 3}} {
			g, w := strconv.FormatFloat(p.scale*got, 'f', p.prec, 64), strconv.FormatFloat(p.scale*want, 'f', p.prec, 64)
			if g == w {
				continue
			}
			// A tie: the exact value is half a unit of the last digit
			// from both.
			exact, _ := exactPassAtK(n, c, k).Float64()
			unit := math.Pow(10, -float64(p.prec))
			gf, _ := strconv.ParseFloat(g, 64)
			if math.Abs(math.Abs(p.scale*exact-gf)-unit/2) > 1e-9 {
				t.Fatalf("pass@%d n=%d c=%d prints %s, the product %s (exact %v)", k, n, c, g, w, exact)
			}
		}
	})
}

// TestPassAtKExact checks pass@k against the exact fraction where the
// products over the passed trials and over the drawn ones part.
func TestPassAtKExact(t *testing.T) {
	for _, tt := range [][3]int{{200, 100, 50}, {1000, 500, 3}, {5000, 10, 4000}, {100_000, 50_000, 7}} {
		n, c, k := tt[0], tt[1], tt[2]
		exact, _ := exactPassAtK(n, c, k).Float64()
		if got := PassAtK(n, c, k); math.Abs(got-exact) > 1e-13 {
			t.Errorf("pass@%d n=%d c=%d = %v, want %v", k, n, c, got, exact)
		}
	}
}

// BenchmarkPassKs is every k of one case: time per trial stays flat as the
// trials grow a hundredfold (it grew with n when each k cost O(n)).
func BenchmarkPassKs(b *testing.B) {
	for _, n := range []int{1000, 10_000, 100_000} {
		b.Run("trials="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				PassAtKs(n, n/2)
				PassHatKs(n, n/2)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/trial")
		})
	}
}
