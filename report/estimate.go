package report

import (
	"math"
	"math/rand/v2"
	"slices"
)

// PassAtK is the unbiased estimate of pass@k from n trials of which c
// passed: the chance that at least one of k trials drawn without
// replacement passes, 1 − C(n−c, k)/C(n, k) (Chen et al., 2021, the Codex
// paper). It is computed as a product, which stays exact for large n. It
// is NaN when k is not in 1..n or c not in 0..n.
func PassAtK(n, c, k int) float64 {
	if k < 1 || k > n || c < 0 || c > n {
		return math.NaN()
	}
	if n-c < k {
		return 1
	}
	// C(n−c, k)/C(n, k) = ∏_{i=n−c+1}^{n} (1 − k/i)
	p := 1.0
	for i := n - c + 1; i <= n; i++ {
		p *= 1 - float64(k)/float64(i)
	}
	return 1 - p
}

// PassHatK is the unbiased estimate of pass^k from n trials of which c
// passed: the chance that all of k trials drawn without replacement pass,
// C(c, k)/C(n, k) (Yao et al., 2024, τ-bench). It is NaN when k is not
// in 1..n or c not in 0..n.
func PassHatK(n, c, k int) float64 {
	if k < 1 || k > n || c < 0 || c > n {
		return math.NaN()
	}
	if c < k {
		return 0
	}
	p := 1.0
	for i := 0; i < k; i++ {
		p *= float64(c-i) / float64(n-i)
	}
	return p
}

// Wilson is the Wilson score interval for a proportion: successes (which
// may be fractional, a mean of per-case rates times n) out of n, at the
// two-sided confidence level conf (0.95 for 95%). With n = 0 it is [0, 1].
func Wilson(successes float64, n int, conf float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	z := normalQuantile(0.5 + conf/2)
	nf := float64(n)
	p := successes / nf
	z2 := z * z
	center := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return max(0, center-half), min(1, center+half)
}

// MeanCI is the mean of xs with Student's t interval at confidence conf
// (two-sided). With fewer than two values the interval is unknown (NaN).
func MeanCI(xs []float64, conf float64) (mean, lo, hi float64) {
	n := len(xs)
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(n)
	if n < 2 {
		return mean, math.NaN(), math.NaN()
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / float64(n-1))
	half := tQuantile(0.5+conf/2, float64(n-1)) * sd / math.Sqrt(float64(n))
	return mean, mean - half, mean + half
}

// normalQuantile is the standard normal quantile function.
func normalQuantile(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }

// tQuantile is Student's t quantile with nu degrees of freedom, found by
// bisection on the distribution function.
func tQuantile(p, nu float64) float64 {
	if p <= 0.5 {
		return -tQuantile(1-p, nu)
	}
	lo, hi := 0.0, 1.0
	for tCDF(hi, nu) < p {
		hi *= 2
		if hi > 1e12 {
			return math.Inf(1)
		}
	}
	for range 200 {
		mid := (lo + hi) / 2
		if tCDF(mid, nu) < p {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo < 1e-12*max(1, hi) {
			break
		}
	}
	return (lo + hi) / 2
}

// tCDF is Student's t distribution function for t ≥ 0.
func tCDF(t, nu float64) float64 {
	return 1 - 0.5*regIncBeta(nu/(nu+t*t), nu/2, 0.5)
}

// regIncBeta is the regularized incomplete beta function I_x(a, b), by
// its continued fraction (Lentz's method).
func regIncBeta(x, a, b float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log(1-x))
	if x > (a+1)/(a+b+2) {
		return 1 - front*betaCF(1-x, b, a)/b
	}
	return front * betaCF(x, a, b) / a
}

func betaCF(x, a, b float64) float64 {
	const tiny = 1e-300
	nonzero := func(v float64) float64 {
		if math.Abs(v) < tiny {
			return tiny
		}
		return v
	}
	c, d := 1.0, 1/nonzero(1-(a+b)*x/(a+1))
	h := d
	// step applies one term aa of the fraction and returns its factor.
	step := func(aa float64) float64 {
		d = 1 / nonzero(1+aa*d)
		c = nonzero(1 + aa/c)
		return d * c
	}
	for m := 1; m <= 300; m++ {
		mf := float64(m)
		h *= step(mf * (b - mf) * x / ((a + 2*mf - 1) * (a + 2*mf)))
		del := step(-(a + mf) * (a + b + mf) * x / ((a + 2*mf) * (a + 2*mf + 1)))
		h *= del
		if math.Abs(del-1) < 1e-15 {
			break
		}
	}
	return h
}

// FlipRate is the chance that two of a case's n trials, drawn at random
// without replacement, disagree when c of them passed: 2c(n−c)/(n(n−1)).
// It does not depend on the order the trials ran in: 0 for a case that
// always or never passes, highest (n/(2(n−1))) when half its trials pass.
func FlipRate(n, c int) float64 {
	if n < 2 {
		return 0
	}
	return 2 * float64(c) * float64(n-c) / (float64(n) * float64(n-1))
}

// pairedBootstrap estimates a confidence interval for the mean over cases
// of new − base, resampling cases with replacement and, within each
// resampled case, its trials with replacement (a two-stage bootstrap).
// cases[i] holds the base and new trial values of case i. The seed makes
// the interval reproducible.
func pairedBootstrap(cases []pairedCase, conf float64, reps int, seed uint64) (diff, lo, hi float64) {
	n := len(cases)
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	for _, c := range cases {
		diff += meanOf(c.new) - meanOf(c.base)
	}
	diff /= float64(n)
	rng := rand.New(rand.NewPCG(seed, 0x746f6f6c67726164))
	stats := make([]float64, reps)
	for r := range stats {
		var sum float64
		for range n {
			c := cases[rng.IntN(n)]
			sum += resampleMean(rng, c.new) - resampleMean(rng, c.base)
		}
		stats[r] = sum / float64(n)
	}
	slices.Sort(stats)
	alpha := (1 - conf) / 2
	return diff, quantileSorted(stats, alpha), quantileSorted(stats, 1-alpha)
}

// A pairedCase is one case's trial values in the base and new runs.
type pairedCase struct{ base, new []float64 }

func meanOf(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func resampleMean(rng *rand.Rand, xs []float64) float64 {
	if len(xs) == 1 {
		return xs[0]
	}
	var s float64
	for range xs {
		s += xs[rng.IntN(len(xs))]
	}
	return s / float64(len(xs))
}

// quantileSorted is the q-quantile of sorted xs, interpolating linearly.
func quantileSorted(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	pos := q * float64(len(xs)-1)
	i := int(pos)
	if i >= len(xs)-1 {
		return xs[len(xs)-1]
	}
	f := pos - float64(i)
	return xs[i]*(1-f) + xs[i+1]*f
}
