package reliability

import (
	"math"
)

// exactBudget bounds the work of the product over the passed trials in
// [PassAtK]: c(n−c) multiplications for every k of a case. Up to it (every
// case of up to 128 trials) pass@k keeps the form results files have always
// carried, to the last bit; past it the O(n) form takes over.
const exactBudget = 1 << 12

// PassAtK is the unbiased estimate of pass@k from n trials of which c
// passed: the chance that at least one of k trials drawn without
// replacement passes, 1 − C(n−c, k)/C(n, k) (Chen et al., 2021, the Codex
// paper). It is NaN when k is not in 1..n or c not in 0..n.
//
// C(n−c, k)/C(n, k) is computed as a product, which stays exact for large
// n: over the k drawn trials, ∏_{i<k} (n−c−i)/(n−i) (the chance that all k
// fail, pass^k of the failures), in O(k); or, when c(n−c) is at most 4096,
// over the passed trials, ∏_{i=n−c+1}^{n} (1 − k/i), in O(c), the form the
// figures have always been computed in (the two differ in the last bits).
func PassAtK(n, c, k int) float64 {
	if k < 1 || k > n || c < 0 || c > n {
		return math.NaN()
	}
	if n-c < k {
		return 1
	}
	if c*(n-c) > exactBudget {
		return 1 - PassHatK(n, n-c, k)
	}
	p := 1.0
	for i := n - c + 1; i <= n; i++ {
		p *= 1 - float64(k)/float64(i)
	}
	return 1 - p
}

// PassAtKs returns [PassAtK](n, c, k) for every k from 1 to n, in O(n)
// time (plus at most 4096 multiplications where PassAtK uses the product
// over the passed trials).
func PassAtKs(n, c int) []float64 {
	if n < 1 {
		return nil
	}
	out := make([]float64, n)
	if c < 0 || c > n {
		return nans(out)
	}
	if c*(n-c) <= exactBudget {
		for k := 1; k <= n; k++ {
			out[k-1] = PassAtK(n, c, k)
		}
		return out
	}
	none := PassHatKs(n, n-c) // all k fail
	for k := range out {
		out[k] = 1 - none[k]
	}
	return out
}

// PassHatK is the unbiased estimate of pass^k from n trials of which c
// passed: the chance that all of k trials drawn without replacement pass,
// C(c, k)/C(n, k) (Yao et al., 2024, τ-bench), computed as ∏_{i<k}
// (c−i)/(n−i). It is NaN when k is not in 1..n or c not in 0..n.
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

// PassHatKs returns [PassHatK](n, c, k) for every k from 1 to n, in O(n)
// time: each product is the one before times one factor, so every value
// is the very one PassHatK gives.
func PassHatKs(n, c int) []float64 {
	if n < 1 {
		return nil
	}
	out := make([]float64, n) // 0 for k > c
	if c < 0 || c > n {
		return nans(out)
	}
	p := 1.0
	for i := range c {
		p *= float64(c-i) / float64(n-i)
		out[i] = p
	}
	return out
}

// nans fills xs with NaN.
func nans(xs []float64) []float64 {
	for i := range xs {
		xs[i] = math.NaN()
	}
	return xs
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

// tCache remembers Student's t quantiles for one confidence level by
// degrees of freedom: every case with n trials needs the same one.
type tCache struct {
	conf float64
	q    []float64 // 0: not computed yet
}

func (c *tCache) quantile(conf float64, df int) float64 {
	if df >= 1024 {
		return tQuantile(0.5+conf/2, float64(df))
	}
	if c.conf != conf {
		c.conf = conf
		clear(c.q)
	}
	if df >= len(c.q) {
		c.q = append(c.q, make([]float64, df+1-len(c.q))...)
	}
	if c.q[df] == 0 {
		c.q[df] = tQuantile(0.5+conf/2, float64(df))
	}
	return c.q[df]
}

// sumsCI is [MeanCI] from the count, sum and sum of squares of the values,
// with t's quantiles from tq.
func sumsCI(n int, sum, sumSq, conf float64, tq *tCache) (mean, lo, hi float64) {
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	mean = sum / float64(n)
	if n < 2 {
		return mean, math.NaN(), math.NaN()
	}
	v := max(0, (sumSq-float64(n)*mean*mean)/float64(n-1))
	half := tq.quantile(conf, n-1) * math.Sqrt(v/float64(n))
	return mean, mean - half, mean + half
}
