package report

import (
	"encoding/json"
	"math"
	"slices"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// DefaultConfidence is the confidence level of the intervals reports show
// when [Stats].Confidence is not set.
const DefaultConfidence = 0.95

// trials groups the results of each case by id: results with the same id
// are trials of one case. What it keeps per case holds no pointers (the
// garbage collector need not scan it) and is small: counts and sums, the
// key's bytes, and the verdicts only once a case has a second trial. It
// groups at most maxTrackedCases cases; see [Reliability].Untracked.
type trials struct {
	index   map[uint64]int32 // the key's hash → case
	collide map[string]int32 // keys whose hash another key had first
	keys    []byte           // every case's key, end to end
	cases   []caseTrials
	reps    []repeats      // the verdicts of cases with several trials
	extra   []metricTrials // metrics of a case beyond its first, in blocks
	metrics []metricName   // the metrics met, by index
	max     int            // the most trials of any case

	// Past maxTrackedCases, results of cases not already tracked are only
	// counted; lastKey notices when such a case repeats right away.
	untracked, untrackedFailed int
	untrackedRepeat            bool
	lastKey                    string
}

// maxTrackedCases bounds the distinct cases whose trials are grouped, to
// keep memory bounded on very large single-trial runs.
const maxTrackedCases = 250_000

type metricName struct{ name, profile string }

// caseTrials holds one case's trials.
type caseTrials struct {
	keyOff, keyLen int32 // the key in trials.keys
	idOff          int32 // where the id starts within the key
	n, passed      int32
	first          int32 // the first trial's index
	rep            int32 // index into trials.reps, or -1
	// m0 is the first metric; the others are extra[more : more+nm-1].
	m0        metricTrials
	more      int32
	nm        int32
	erred     bool // a record could not be read
	firstPass bool
}

type repeats struct {
	trial []int32
	pass  []bool
}

// metricTrials is one metric over a case's trials.
type metricTrials struct {
	metric     int32 // index into trials.metrics
	n, passed  int32 // trials that had the metric, and passed it
	scored     int32
	sum, sumSq float64
	outOfRange bool // a score outside [0, 1]
}

func (t *trials) key(c *caseTrials) string {
	return string(t.keys[c.keyOff : c.keyOff+c.keyLen])
}

func (t *trials) id(c *caseTrials) string {
	return string(t.keys[c.keyOff+c.idOff : c.keyOff+c.keyLen])
}

// metric returns the case's i-th metric.
func (t *trials) metric(c *caseTrials, i int) *metricTrials {
	if i == 0 {
		return &c.m0
	}
	return &t.extra[int(c.more)+i-1]
}

// findMetric returns the case's entry for metric mi, adding it if new. A
// case's extra metrics are added while it is the last case added (its
// first trial); a metric first met in a later trial of an earlier case
// moves its block to the end.
func (t *trials) findMetric(c *caseTrials, mi int32) *metricTrials {
	for i := range int(c.nm) {
		if m := t.metric(c, i); m.metric == mi {
			return m
		}
	}
	if c.nm == 0 {
		c.nm, c.m0 = 1, metricTrials{metric: mi}
		return &c.m0
	}
	if c.nm == 1 || int(c.more)+int(c.nm)-1 != len(t.extra) {
		start := int32(len(t.extra))
		if c.nm > 1 {
			t.extra = append(t.extra, t.extra[c.more:int(c.more)+int(c.nm)-1]...)
		}
		c.more = start
	}
	t.extra = append(t.extra, metricTrials{metric: mi})
	c.nm++
	return &t.extra[len(t.extra)-1]
}

func hashKey(key string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(key); i++ {
		h ^= uint64(key[i])
		h *= 1099511628211
	}
	return h
}

// lookup finds the case of key.
func (t *trials) lookup(key string) (int32, bool) {
	if i, ok := t.index[hashKey(key)]; ok {
		if t.key(&t.cases[i]) == key {
			return i, true
		}
		i, ok := t.collide[key]
		return i, ok
	}
	return 0, false
}

// trialKey is the key that groups a result with the other trials of its
// case: its id, or, for an id generated from a line number (a case
// without an id of its own), the id within its file, since such ids
// repeat across files.
func trialKey(r *toolgrade.Result) string {
	if c := r.Case; c != nil && c.Raw != nil && strings.HasPrefix(r.ID, "line-") {
		if id, _ := c.Raw.Get("id"); id == nil {
			return c.Source + "\x00" + r.ID
		}
	}
	return r.ID
}

// trialIndex reads the optional "trial" field of a case: a positive whole
// number, or 0 when absent or not one.
func trialIndex(r *toolgrade.Result) int {
	if r.Case == nil || r.Case.Raw == nil {
		return 0
	}
	v, _ := r.Case.Raw.Get("trial")
	n, ok := v.(json.Number)
	if !ok {
		return 0
	}
	f := jsonvalue.NumberFloat(n)
	if f < 1 || f != math.Trunc(f) || f > 1e9 {
		return 0
	}
	return int(f)
}

// reset empties t for reuse, keeping its memory: the results file's
// writer starts afresh at every case.
func (t *trials) reset() {
	clear(t.index)
	clear(t.collide)
	t.keys, t.cases, t.reps, t.extra = t.keys[:0], t.cases[:0], t.reps[:0], t.extra[:0]
	t.max, t.untracked, t.untrackedFailed, t.untrackedRepeat, t.lastKey = 0, 0, 0, false, ""
}

// add folds in one result and returns its case's trials (nil when the
// case is past maxTrackedCases). The pointer is valid until the next add.
func (t *trials) add(r *toolgrade.Result) *caseTrials {
	key := trialKey(r)
	if t.index == nil {
		t.index = map[uint64]int32{}
	}
	i, ok := t.lookup(key)
	if !ok {
		if len(t.cases) >= maxTrackedCases {
			t.untracked++
			if !r.Success {
				t.untrackedFailed++
			}
			if key == t.lastKey {
				t.untrackedRepeat = true
			}
			t.lastKey = strings.Clone(key)
			return nil
		}
		i = int32(len(t.cases))
		h := hashKey(key)
		if _, taken := t.index[h]; taken {
			if t.collide == nil {
				t.collide = map[string]int32{}
			}
			t.collide[strings.Clone(key)] = i
		} else {
			t.index[h] = i
		}
		t.cases = append(t.cases, caseTrials{keyOff: int32(len(t.keys)), keyLen: int32(len(key)),
			idOff: int32(len(key) - len(r.ID)), rep: -1})
		t.keys = append(t.keys, key...)
	}
	c := &t.cases[i]
	c.n++
	idx := int32(trialIndex(r))
	if idx == 0 {
		idx = c.n
	}
	switch c.n {
	case 1:
		c.first, c.firstPass = idx, r.Success
	case 2:
		c.rep = int32(len(t.reps))
		t.reps = append(t.reps, repeats{trial: []int32{c.first, idx}, pass: []bool{c.firstPass, r.Success}})
	default:
		rp := &t.reps[c.rep]
		rp.trial, rp.pass = append(rp.trial, idx), append(rp.pass, r.Success)
	}
	if r.Success {
		c.passed++
	}
	c.erred = c.erred || r.Error != ""
	t.max = max(t.max, int(c.n))
	for j := range r.Metrics {
		m := &r.Metrics[j]
		mi := int32(slices.IndexFunc(t.metrics, func(n metricName) bool { return n.name == m.Name && n.profile == m.Profile }))
		if mi < 0 {
			t.metrics = append(t.metrics, metricName{strings.Clone(m.Name), strings.Clone(m.Profile)})
			mi = int32(len(t.metrics) - 1)
		}
		mt := t.findMetric(c, mi)
		mt.n++
		if m.Verdict() {
			mt.passed++
		}
		if m.Error == "" {
			mt.scored++
			mt.sum += m.Score
			mt.sumSq += m.Score * m.Score
			mt.outOfRange = mt.outOfRange || m.Score < 0 || m.Score > 1
		}
	}
	return c
}

// Reliability is what a run's repeated trials say about each case and the
// suite. Cases are grouped by id: every result with the same id is a trial
// of that case. Intervals are at Confidence: Wilson score intervals for
// pass rates, Student's t intervals for mean scores.
type Reliability struct {
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
	Metrics []MetricReliability
	// Untracked counts the results left out of these figures: those of
	// cases met after the first 250,000 distinct ones, which are not
	// grouped, to keep memory bounded; UntrackedFailed of them failed.
	// UntrackedRepeat says one of them repeated the case before it.
	Untracked, UntrackedFailed int
	UntrackedRepeat            bool
	// Flaky are the cases whose verdict differs between trials, the most
	// often flipping first.
	Flaky []CaseReliability
	// PerCase is every case, in the order first seen.
	PerCase []CaseReliability
}

// MetricReliability is one metric across the suite's trials.
type MetricReliability struct {
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
	Gate                 *toolgrade.PassK
	GateFailed           int // cases failing the gate
}

// CaseReliability is one case across its trials.
type CaseReliability struct {
	ID       string
	Trials   int
	Passed   int    // trials the case passed
	Trial    []int  // each trial's index, in the order they came
	Verdicts []bool // each trial's verdict, in the same order
	FlipRate float64
	Pass     bool // the case's verdict over its trials (see [Reliability].Passed)
	Metrics  []CaseMetricReliability

	key string // the case's key (see trialKey)
}

// CaseMetricReliability is one metric's figures for one case.
type CaseMetricReliability struct {
	Name, Profile            string
	Trials, Passed           int
	PassRate, PassLo, PassHi float64 // Wilson interval over the trials
	PassAtK, PassHatK        []float64
	Mean, MeanLo, MeanHi     float64 // t interval over the scored trials
	Gate                     *toolgrade.PassK
	Pass                     bool // passed the gate, or every trial without one
}

func (t *trials) caseReliability(c *caseTrials, conf float64, gates map[string]toolgrade.PassK) CaseReliability {
	n := int(c.n)
	id, key := t.id(c), ""
	if c.idOff == 0 {
		key = id
	} else {
		key = t.key(c)
	}
	cr := CaseReliability{ID: id, key: key, Trials: n, Passed: int(c.passed), FlipRate: FlipRate(n, int(c.passed)), Pass: !c.erred}
	if n == 1 {
		cr.Trial, cr.Verdicts = []int{int(c.first)}, []bool{c.firstPass}
	} else {
		rp := &t.reps[c.rep]
		cr.Verdicts = rp.pass
		for _, x := range rp.trial {
			cr.Trial = append(cr.Trial, int(x))
		}
	}
	for i := range int(c.nm) {
		mt := t.metric(c, i)
		// A trial without the metric counts as failing it.
		p := int(mt.passed)
		name := t.metrics[mt.metric]
		m := CaseMetricReliability{Name: name.name, Profile: name.profile, Trials: n, Passed: p, PassRate: float64(p) / float64(n)}
		m.PassLo, m.PassHi = Wilson(float64(p), n, conf)
		for k := 1; k <= n; k++ {
			m.PassAtK = append(m.PassAtK, PassAtK(n, p, k))
			m.PassHatK = append(m.PassHatK, PassHatK(n, p, k))
		}
		m.Mean, m.MeanLo, m.MeanHi = sumsCI(int(mt.scored), mt.sum, mt.sumSq, conf)
		if !mt.outOfRange && !math.IsNaN(m.MeanLo) {
			m.MeanLo, m.MeanHi = max(0, m.MeanLo), min(1, m.MeanHi)
		}
		if g, ok := gates[Label(name.name, name.profile)]; ok {
			m.Gate = &g
			m.Pass = n >= g.K && PassHatK(n, p, g.K) >= g.Min-scoreEpsilon
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

// sumsCI is [MeanCI] from the count, sum and sum of squares of the values.
func sumsCI(n int, sum, sumSq, conf float64) (mean, lo, hi float64) {
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	mean = sum / float64(n)
	if n < 2 {
		return mean, math.NaN(), math.NaN()
	}
	v := max(0, (sumSq-float64(n)*mean*mean)/float64(n-1))
	half := tQuantile(0.5+conf/2, float64(n-1)) * math.Sqrt(v/float64(n))
	return mean, mean - half, mean + half
}

// reliability computes the figures; nil when no case has more than one
// trial and no gate is set.
func (t *trials) reliability(conf float64, gates map[string]toolgrade.PassK) *Reliability {
	if t.max < 2 && !t.untrackedRepeat && len(gates) == 0 {
		return nil
	}
	if conf <= 0 || conf >= 1 {
		conf = DefaultConfidence
	}
	rel := &Reliability{Confidence: conf, Cases: len(t.cases), MinTrials: math.MaxInt}
	type agg struct {
		m            MetricReliability
		rates, means []float64
		atK, hatK    []float64
		cases        int
	}
	var aggs []*agg
	rel.Untracked, rel.UntrackedFailed, rel.UntrackedRepeat = t.untracked, t.untrackedFailed, t.untrackedRepeat
	for i := range t.cases {
		cr := t.caseReliability(&t.cases[i], conf, gates)
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
	}
	if rel.MinTrials == math.MaxInt {
		rel.MinTrials = 0
	}
	for _, cr := range rel.PerCase {
		for _, m := range cr.Metrics {
			i := slices.IndexFunc(aggs, func(a *agg) bool { return a.m.Name == m.Name && a.m.Profile == m.Profile })
			if i < 0 {
				aggs = append(aggs, &agg{m: MetricReliability{Name: m.Name, Profile: m.Profile, Gate: m.Gate},
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
	slices.SortStableFunc(rel.Flaky, func(a, b CaseReliability) int { return cmpFloat(b.FlipRate, a.FlipRate) })
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
