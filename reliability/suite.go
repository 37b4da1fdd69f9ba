package reliability

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/toolgrade/toolgrade/internal/sorting"
)

// A Suite is what a run's repeated trials say about each case and the
// suite. Cases are grouped by id: every result with the same id is a trial
// of that case. Intervals are at Confidence: Wilson score intervals for
// pass rates, Student's t intervals for mean scores.
type Suite struct {
	Confidence float64
	Cases      int // distinct cases
	Trials     int // results
	// MinTrials and MaxTrials bound the trials per case; suite figures
	// for pass@k and pass^k go up to MinTrials, so that every case has
	// an estimate for each k.
	MinTrials, MaxTrials int
	// Passed counts the cases that passed: with a pass_k gate, by the
	// gate; otherwise only a case that passed every trial.
	Passed  int
	Metrics []Metric
	// Flaky are the cases whose verdict differs between trials, the most
	// often flipping first.
	Flaky []Case
	// PerCase is every case, in the order first seen.
	PerCase []Case
}

// Metric is one metric across the suite's trials.
type Metric struct {
	Name, Profile string
	Cases, Trials int
	// PassRate is the mean over cases of each case's pass rate over its
	// trials; its interval is Wilson's over the cases (the cases are the
	// sample: a case's trials are not independent draws from the suite).
	PassRate, PassLo, PassHi float64
	// PassAtK[k-1] and PassHatK[k-1] are the means over cases of the
	// unbiased per-case estimates, for k = 1..MinTrials.
	PassAtK, PassHatK []float64
	// Mean is the mean over cases of each case's mean score; its interval
	// is Student's t over the cases, clipped to [0, 1]. NaN when no trial
	// was scored.
	Mean, MeanLo, MeanHi float64
	Flaky                int // cases whose verdict on this metric differs between trials
	Gate                 *PassK
	GateFailed           int // cases failing the gate
}

// Case is one case across its trials.
type Case struct {
	ID       string
	Trials   int
	Passed   int    // trials the case passed
	Trial    []int  // each trial's index, in the order they came
	Verdicts []bool // each trial's verdict, in the same order
	FlipRate float64
	Pass     bool // the case's verdict over its trials (see [Suite].Passed)
	Metrics  []CaseMetric
}

// CaseMetric is one metric's figures for one case.
type CaseMetric struct {
	Name, Profile            string
	Trials, Passed           int
	PassRate, PassLo, PassHi float64 // Wilson interval over the trials
	PassAtK, PassHatK        []float64
	Mean, MeanLo, MeanHi     float64 // t interval over the scored trials
	Gate                     *PassK
	Pass                     bool // passed the gate, or every trial without one
}

// confidence is conf, or DefaultConfidence when conf is not a level.
func confidence(conf float64) float64 {
	if conf <= 0 || conf >= 1 {
		return DefaultConfidence
	}
	return conf
}

// Case returns the figures of the case with this id over its trials, at
// confidence conf, with the pass_k gates by metric label (see [Label]);
// false when no result had the id.
func (t *Trials) Case(id string, conf float64, gates map[string]PassK) (Case, bool) {
	ref, ok := t.refOf(id)
	if !ok {
		return Case{}, false
	}
	return t.caseAt(ref, confidence(conf), gates), true
}

// caseAt returns the figures of the case whose record is at ref.
func (t *Trials) caseAt(ref uint64, conf float64, gates map[string]PassK) Case {
	rec := t.record(ref)
	if rec[0]&recRepeated != 0 {
		return t.caseFigures(&t.cases[binary.LittleEndian.Uint32(rec[1:])], conf, gates)
	}
	// A case with one trial is replayed from its record for the time it
	// takes to read it.
	mark := len(t.extra)
	c := t.replay(ref)
	cf := t.caseFigures(&c, conf, gates)
	t.extra = t.extra[:mark]
	return cf
}

func (t *Trials) caseFigures(c *caseTrials, conf float64, gates map[string]PassK) Case {
	n := int(c.n)
	cr := Case{ID: t.idOf(c.ref), Trials: n, Passed: int(c.passed), FlipRate: FlipRate(n, int(c.passed)), Pass: !c.erred}
	cr.Trial, cr.Verdicts = make([]int, n), make([]bool, n)
	cr.Trial[0], cr.Verdicts[0] = int(c.first), c.firstPass
	for i, j := n-1, c.last; i > 0; i, j = i-1, t.later[j].prev {
		cr.Trial[i], cr.Verdicts[i] = int(t.later[j].trial), t.later[j].pass
	}
	for i := range int(c.nm) {
		mt := t.metric(c, i)
		// A trial without the metric counts as failing it.
		p := int(mt.passed)
		name := t.metrics[mt.metric]
		m := CaseMetric{Name: name.name, Profile: name.profile, Trials: n, Passed: p, PassRate: float64(p) / float64(n)}
		m.PassLo, m.PassHi = Wilson(float64(p), n, conf)
		m.PassAtK, m.PassHatK = PassAtKs(n, p), PassHatKs(n, p)
		m.Mean, m.MeanLo, m.MeanHi = sumsCI(int(mt.scored), mt.sum, mt.sumSq, conf, &t.tq)
		if !mt.outOfRange && !math.IsNaN(m.MeanLo) {
			m.MeanLo, m.MeanHi = max(0, m.MeanLo), min(1, m.MeanHi)
		}
		if g, ok := gates[Label(name.name, name.profile)]; ok {
			m.Gate = &g
			m.Pass = g.Passes(n, p)
		} else {
			m.Pass = p == n
		}
		cr.Pass = cr.Pass && m.Pass
		cr.Metrics = append(cr.Metrics, m)
	}
	if c.nm == 0 {
		cr.Pass = cr.Pass && cr.Passed == n
	}
	return cr
}

// each calls f with every record's ref, in the order the cases were first
// seen.
func (t *Trials) each(f func(ref uint64)) {
	for k, chunk := range t.chunks {
		for p := 0; p < len(chunk); p += recordLen(chunk[p:]) {
			f(uint64(k)<<posBits | uint64(p))
		}
	}
}

// Suite returns the figures of every case and metric at confidence conf
// (DefaultConfidence when it is not between 0 and 1), with the pass_k
// gates by metric label (see [Label]). It is nil when no case has more
// than one trial and no gate is set, so that single-trial runs report as
// they always have.
func (t *Trials) Suite(conf float64, gates map[string]PassK) *Suite {
	if t.max < 2 && len(gates) == 0 {
		return nil
	}
	conf = confidence(conf)
	rel := &Suite{Confidence: conf, Cases: t.n, MinTrials: math.MaxInt, PerCase: make([]Case, 0, t.n)}
	type agg struct {
		m            Metric
		rates, means []float64
		atK, hatK    []float64
	}
	var aggs []*agg
	t.each(func(ref uint64) {
		cr := t.caseAt(ref, conf, gates)
		rel.Trials += cr.Trials
		rel.MinTrials = min(rel.MinTrials, cr.Trials)
		rel.MaxTrials = max(rel.MaxTrials, cr.Trials)
		if cr.Pass {
			rel.Passed++
		}
		rel.PerCase = append(rel.PerCase, cr)
		if cr.Passed > 0 && cr.Passed < cr.Trials {
			rel.Flaky = append(rel.Flaky, cr)
		}
	})
	if rel.MinTrials == math.MaxInt {
		rel.MinTrials = 0
	}
	for _, cr := range rel.PerCase {
		for _, m := range cr.Metrics {
			i := slices.IndexFunc(aggs, func(a *agg) bool { return a.m.Name == m.Name && a.m.Profile == m.Profile })
			if i < 0 {
				aggs = append(aggs, &agg{m: Metric{Name: m.Name, Profile: m.Profile, Gate: m.Gate},
					atK: make([]float64, rel.MinTrials), hatK: make([]float64, rel.MinTrials)})
				i = len(aggs) - 1
			}
			a := aggs[i]
			a.m.Cases++
			a.m.Trials += m.Trials
			a.rates = append(a.rates, m.PassRate)
			if !math.IsNaN(m.Mean) {
				a.means = append(a.means, m.Mean)
			}
			for k := 1; k <= rel.MinTrials && k <= len(m.PassAtK); k++ {
				a.atK[k-1] += m.PassAtK[k-1]
				a.hatK[k-1] += m.PassHatK[k-1]
			}
			if m.Passed > 0 && m.Passed < m.Trials {
				a.m.Flaky++
			}
			if m.Gate != nil && !m.Pass {
				a.m.GateFailed++
			}
		}
	}
	for _, a := range aggs {
		m := a.m
		m.PassRate = meanOf(a.rates)
		m.PassLo, m.PassHi = Wilson(m.PassRate*float64(m.Cases), m.Cases, conf)
		for k := range a.atK {
			a.atK[k] /= float64(m.Cases)
			a.hatK[k] /= float64(m.Cases)
		}
		m.PassAtK, m.PassHatK = a.atK, a.hatK
		m.Mean, m.MeanLo, m.MeanHi = scoreCI(a.means, conf)
		rel.Metrics = append(rel.Metrics, m)
	}
	sorting.Stable(rel.Flaky, func(a, b Case) int { return cmpFloat(b.FlipRate, a.FlipRate) })
	return rel
}

// scoreCI is MeanCI with the interval clipped to the range scores take,
// [0, 1], where all the values lie in it.
func scoreCI(xs []float64, conf float64) (mean, lo, hi float64) {
	mean, lo, hi = MeanCI(xs, conf)
	if slices.ContainsFunc(xs, func(x float64) bool { return x < 0 || x > 1 }) || math.IsNaN(lo) {
		return mean, lo, hi
	}
	return mean, max(0, lo), min(1, hi)
}

func meanOf(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
