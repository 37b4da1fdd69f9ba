package reliability

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/toolgrade/toolgrade/internal/sorting"
)

// DefaultBootstrap is how many bootstrap resamples a noise-aware
// comparison draws when Comparison.Resamples is not set.
const DefaultBootstrap = 2000

// trialSide is one run's trials, grouped by case id.
type trialSide struct {
	index map[string]int
	ids   []string
	cases [][]caseScore // per case, every trial's metrics, flattened with trial
	n     []int         // trials per case
}

// add adds a result of case id with its metrics' scores, and returns how
// many results of the case there are now.
func (t *trialSide) add(id string, sc []caseScore) int {
	if t.index == nil {
		t.index = map[string]int{}
	}
	i, ok := t.index[id]
	if !ok {
		i = len(t.ids)
		t.index[id] = i
		t.ids = append(t.ids, id)
		t.cases = append(t.cases, nil)
		t.n = append(t.n, 0)
	}
	t.n[i]++
	for _, s := range sc {
		s.trial = t.n[i]
		t.cases[i] = append(t.cases[i], s)
	}
	return t.n[i]
}

// count returns how many results of case id the run has.
func (t *trialSide) count(id string) int {
	if i, ok := t.index[id]; ok {
		return t.n[i]
	}
	return 0
}

func (t *trialSide) repeated() bool {
	return slices.ContainsFunc(t.n, func(n int) bool { return n > 1 })
}

// values returns a case's trial values of one metric: scores (an error
// counts 0) and verdicts (1 passed, 0 failed or erred).
func (t *trialSide) values(i int, metric string) (score, pass []float64) {
	for _, s := range t.cases[i] {
		if s.metric != metric {
			continue
		}
		v := s.score
		if s.err {
			v = 0
		}
		score = append(score, v)
		p := 0.0
		if s.verdict {
			p = 1
		}
		pass = append(pass, p)
	}
	return score, pass
}

// A MetricDelta is one metric's change between two runs with trials,
// paired over the cases found in both: the difference of the means over
// cases (new − base) with its bootstrap interval, for the mean score and
// the pass rate.
type MetricDelta struct {
	Label                     string
	Cases                     int
	Base, New                 float64 // mean score
	Delta, DeltaLo, DeltaHi   float64
	BasePass, NewPass         float64 // pass rate
	PassDelta, PassLo, PassHi float64
	// Regressed says the interval of the mean score's or the pass rate's
	// change lies wholly below −Tolerance.
	Regressed bool
}

// A CaseDelta is one case's change on one metric between runs with
// trials.
type CaseDelta struct {
	Case, Metric          string
	BaseTrials, NewTrials int
	BasePassed, NewPassed int
	BaseMean, NewMean     float64
	// P is the one-sided p-value of Fisher's exact test that the new
	// run passes the case less often than the base.
	P float64
	// Significant says P is below 1 − Confidence; Regressed that it
	// stays so after Holm's correction over every case and metric.
	Significant, Regressed bool
}

// Trials reports whether either run has repeated trials of a case, which
// makes the comparison noise-aware.
func (c *Comparison) Trials() bool { return c.baseTrials.repeated() || c.newTrials.repeated() }

func (c *Comparison) confidence() float64 { return confidence(c.Confidence) }

// labels lists the metric labels found in both runs, base order first.
func (c *Comparison) labels() []string {
	var out []string
	for _, m := range c.Metrics() {
		if m.Base != nil && m.New != nil {
			out = append(out, m.Label)
		}
	}
	return out
}

// resamples is the bootstrap's size.
func (c *Comparison) resamples() int {
	if c.Resamples <= 0 {
		return DefaultBootstrap
	}
	return c.Resamples
}

// paired calls f with the trial values of metric label of every case
// found in both runs that has the metric in both, in base order.
func (c *Comparison) paired(label string, f func(id string, baseScore, basePass, newScore, newPass []float64)) {
	for bi, id := range c.baseTrials.ids {
		ni, ok := c.newTrials.index[id]
		if !ok {
			continue
		}
		bs, bp := c.baseTrials.values(bi, label)
		ns, np := c.newTrials.values(ni, label)
		if len(bs) == 0 || len(ns) == 0 {
			continue
		}
		f(id, bs, bp, ns, np)
	}
}

// noiseFigures are the bootstrap's and Fisher's figures, which Noise and
// Regression both need: the bootstrap runs once for the settings they
// were computed with.
type noiseFigures struct {
	key     noiseKey
	metrics []MetricDelta
	cases   []CaseDelta
}

type noiseKey struct {
	tolerance, confidence float64
	seed                  uint64
	resamples             int
}

func (c *Comparison) figures() *noiseFigures {
	key := noiseKey{c.Tolerance, c.confidence(), c.Seed, c.resamples()}
	if c.noise == nil || c.noise.key != key {
		c.noise = &noiseFigures{key: key, metrics: c.metricDeltas(), cases: c.caseDeltas()}
	}
	return c.noise
}

// Noise is the comparison of two runs with trials (see [Comparison.Noise]).
type Noise struct {
	// Confidence, Resamples and Seed are the settings the figures were
	// computed with, defaults filled in.
	Confidence float64
	Resamples  int
	Seed       uint64
	// Base and New sum up each run's trials.
	Base, New TrialCount
	// Metrics are each metric's paired change, with bootstrap intervals
	// over cases and trials.
	Metrics []MetricDelta
	// Cases are, per case and metric found in both runs, the cases whose
	// pass rate fell, each with its Fisher exact p-value; the most
	// significant first.
	Cases []CaseDelta
	// Tests is how many tests Holm's correction is over: every metric of
	// every case of the base.
	Tests int
	// Flaky are the cases of the new run whose verdict differs between
	// trials, the most often flipping first.
	Flaky []FlakyCase
	// OnlyBase and OnlyNew are the ids of the cases found in one run only.
	OnlyBase, OnlyNew []string
}

// A TrialCount sums up one run's trials: its distinct cases and the
// fewest and most trials of a case (0 without cases).
type TrialCount struct{ Cases, Min, Max int }

func (t *trialSide) counts() TrialCount {
	if len(t.n) == 0 {
		return TrialCount{}
	}
	return TrialCount{Cases: len(t.n), Min: slices.Min(t.n), Max: slices.Max(t.n)}
}

// Noise returns the noise-aware comparison, for runs with trials: each
// metric's paired change with bootstrap intervals (seeded by Seed, so
// that the same input gives the same intervals), the cases whose pass
// rate fell with their p-values, and the flaky cases of the new run.
func (c *Comparison) Noise() Noise {
	f := c.figures()
	return Noise{Confidence: f.key.confidence, Resamples: f.key.resamples, Seed: f.key.seed,
		Base: c.baseTrials.counts(), New: c.newTrials.counts(),
		Metrics: slices.Clone(f.metrics), Cases: slices.Clone(f.cases), Tests: c.holmTests(),
		Flaky: c.flaky(), OnlyBase: c.onlyBaseIDs(), OnlyNew: c.onlyNewIDs()}
}

func (c *Comparison) metricDeltas() []MetricDelta {
	conf := c.confidence()
	reps := c.resamples()
	var out []MetricDelta
	for li, label := range c.labels() {
		var sc, pc []pairedCase
		c.paired(label, func(_ string, bs, bp, ns, np []float64) {
			sc = append(sc, pairedCase{base: bs, new: ns})
			pc = append(pc, pairedCase{base: bp, new: np})
		})
		d := MetricDelta{Label: label, Cases: len(sc)}
		if len(sc) == 0 {
			d.Delta, d.DeltaLo, d.DeltaHi, d.PassDelta, d.PassLo, d.PassHi = math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()
			out = append(out, d)
			continue
		}
		for i := range sc {
			d.Base += meanOf(sc[i].base)
			d.New += meanOf(sc[i].new)
			d.BasePass += meanOf(pc[i].base)
			d.NewPass += meanOf(pc[i].new)
		}
		n := float64(len(sc))
		d.Base, d.New, d.BasePass, d.NewPass = d.Base/n, d.New/n, d.BasePass/n, d.NewPass/n
		seed := c.Seed + uint64(li)*2
		d.Delta, d.DeltaLo, d.DeltaHi = pairedBootstrap(sc, conf, reps, seed)
		d.PassDelta, d.PassLo, d.PassHi = pairedBootstrap(pc, conf, reps, seed+1)
		tol := c.Tolerance + scoreEpsilon
		d.Regressed = d.DeltaHi < -tol || d.PassHi < -tol
		out = append(out, d)
	}
	return out
}

func (c *Comparison) caseDeltas() []CaseDelta {
	alpha := 1 - c.confidence()
	var out []CaseDelta
	for _, label := range c.labels() {
		c.paired(label, func(id string, bs, bp, ns, np []float64) {
			d := CaseDelta{Case: id, Metric: label, BaseTrials: len(bp), NewTrials: len(np),
				BasePassed: int(math.Round(meanOf(bp) * float64(len(bp)))), NewPassed: int(math.Round(meanOf(np) * float64(len(np)))),
				BaseMean: meanOf(bs), NewMean: meanOf(ns)}
			if float64(d.NewPassed)/float64(d.NewTrials) >= float64(d.BasePassed)/float64(d.BaseTrials) {
				return
			}
			d.P = fisherLess(d.BasePassed, d.BaseTrials, d.NewPassed, d.NewTrials)
			d.Significant = d.P < alpha
			out = append(out, d)
		})
	}
	sorting.Stable(out, func(a, b CaseDelta) int { return cmpFloat(a.P, b.P) })
	// Holm's step-down correction over every case and metric tested.
	tests := c.holmTests()
	for i := range out {
		if out[i].P >= alpha/float64(max(1, tests-i)) {
			break
		}
		out[i].Regressed = true
	}
	return out
}

// holmTests is the number of tests Holm's correction is over: every
// metric of every case of the base.
func (c *Comparison) holmTests() int { return len(c.labels()) * len(c.baseTrials.ids) }

// fisherLess is the one-sided p-value of Fisher's exact test that the
// second sample's pass rate is below the first's: the chance, with the
// margins fixed, that the second passes c2 times or fewer.
func fisherLess(c1, n1, c2, n2 int) float64 {
	total, passes := n1+n2, c1+c2
	lnC := func(n, k int) float64 {
		a, _ := math.Lgamma(float64(n + 1))
		b, _ := math.Lgamma(float64(k + 1))
		d, _ := math.Lgamma(float64(n - k + 1))
		return a - b - d
	}
	denom := lnC(total, passes)
	var p float64
	for x := max(0, passes-n1); x <= c2; x++ {
		p += math.Exp(lnC(n2, x) + lnC(n1, passes-x) - denom)
	}
	return min(1, p)
}

// A FlakyCase is a case whose verdict differs between its trials.
type FlakyCase struct {
	ID             string
	Passed, Trials int
	FlipRate       float64
}

// flaky lists the cases whose verdict differs between trials in the new
// run, the most often flipping first. A trial passes when every metric
// in it does.
func (c *Comparison) flaky() []FlakyCase {
	var out []FlakyCase
	for i, id := range c.newTrials.ids {
		n := c.newTrials.n[i]
		failed := make([]bool, n+1) // by trial, from 1
		p := n
		for _, s := range c.newTrials.cases[i] {
			if !s.verdict && !failed[s.trial] {
				failed[s.trial] = true
				p--
			}
		}
		if p > 0 && p < n {
			out = append(out, FlakyCase{ID: id, Passed: p, Trials: n, FlipRate: FlipRate(n, p)})
		}
	}
	sorting.Stable(out, func(a, b FlakyCase) int { return cmpFloat(b.FlipRate, a.FlipRate) })
	return out
}

// trialRegression is Regression for runs with trials (a metric missing
// from the new run is checked before).
func (c *Comparison) trialRegression() bool {
	if !c.AllowMissing && len(c.onlyBaseIDs()) > 0 {
		return true
	}
	f := c.figures()
	if slices.ContainsFunc(f.metrics, func(d MetricDelta) bool { return d.Regressed }) {
		return true
	}
	return slices.ContainsFunc(f.cases, func(d CaseDelta) bool { return d.Regressed })
}

// onlyBaseIDs lists the case ids of the base that the new run lacks.
func (c *Comparison) onlyBaseIDs() []string {
	var out []string
	for _, id := range c.baseTrials.ids {
		if _, ok := c.newTrials.index[id]; !ok {
			out = append(out, id)
		}
	}
	return out
}

func (c *Comparison) onlyNewIDs() []string {
	var out []string
	for _, id := range c.newTrials.ids {
		if _, ok := c.baseTrials.index[id]; !ok {
			out = append(out, id)
		}
	}
	return out
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
