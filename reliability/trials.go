package reliability

import (
	"slices"
	"strings"

	"github.com/toolgrade/toolgrade"
)

// Trials groups results by case id: results with the same id are trials
// of one case, wherever they come in the input. Feed it every result with
// [Trials.Add]; [Trials.Suite] and [Trials.Case] give the figures. The
// zero value is ready to use.
//
// It keeps, per case, what the figures need and no more: its trials'
// indexes and verdicts, and per metric the counts and the sums of the
// scores and their squares (about 150 bytes for a case with one metric
// and a short id; bench/README.md has the figures).
type Trials struct {
	byID  map[string]int32 // a case's index in cases
	cases []caseTrials     // in the order first seen

	later   []laterTrial   // the cases' trials after their first
	extra   []metricTrials // metrics of a case beyond its first, in blocks
	metrics []metricName   // the metrics met, by index
	max     int            // the most trials of any case

	tq tCache // Student's t quantiles, by degrees of freedom (estimate.go)
}

type metricName struct{ name, profile string }

// caseTrials is one case's trials.
type caseTrials struct {
	id        string
	n, passed int32
	first     int32 // the first trial's index
	last      int32 // the latest trial in Trials.later, or -1
	// m0 is the first metric; the others are extra[more : more+nm-1].
	m0        metricTrials
	more      int32
	nm        int32
	erred     bool // a record could not be read
	firstPass bool
}

// laterTrial is a trial of a case after its first: its index and
// verdict, and the trial before it in Trials.later (-1: the first).
type laterTrial struct {
	trial, prev int32
	pass        bool
}

// metricTrials is one metric over a case's trials.
type metricTrials struct {
	metric     int32 // index into Trials.metrics
	n, passed  int32 // trials that had the metric, and passed it
	scored     int32
	sum, sumSq float64
	outOfRange bool // a score outside [0, 1]
}

// Add folds in one result and returns how many trials its case has had.
func (t *Trials) Add(r *toolgrade.Result) int {
	if t.byID == nil {
		t.byID = map[string]int32{}
	}
	ci, ok := t.byID[r.ID]
	if !ok {
		// The id shares the memory its input line was read into; a copy
		// keeps only the id alive.
		id := strings.Clone(r.ID)
		ci = int32(len(t.cases))
		t.byID[id] = ci
		t.cases = append(t.cases, caseTrials{id: id, last: -1})
	}
	c := &t.cases[ci]
	c.n++
	idx := int32(TrialIndex(r))
	if idx == 0 {
		idx = c.n
	}
	if c.n == 1 {
		c.first, c.firstPass = idx, r.Success
	} else {
		t.later = append(t.later, laterTrial{trial: idx, prev: c.last, pass: r.Success})
		c.last = int32(len(t.later) - 1)
	}
	if r.Success {
		c.passed++
	}
	c.erred = c.erred || r.Error != ""
	t.max = max(t.max, int(c.n))
	for j := range r.Metrics {
		m := &r.Metrics[j]
		t.addMetric(c, t.metricIndex(j, m), m.Verdict(), m.Error == "", m.Score)
	}
	return int(c.n)
}

// Reset empties t for reuse, keeping its memory (a results file's writer
// starts afresh at every case).
func (t *Trials) Reset() {
	clear(t.byID)
	t.max = 0
	t.cases, t.later, t.extra = t.cases[:0], t.later[:0], t.extra[:0]
}

// metric returns the case's i-th metric.
func (t *Trials) metric(c *caseTrials, i int) *metricTrials {
	if i == 0 {
		return &c.m0
	}
	return &t.extra[int(c.more)+i-1]
}

// findMetric returns the case's entry for metric mi, adding it if new. A
// case's extra metrics are added while it is the last case added (its
// first trial); a metric first met in a later trial of an earlier case
// moves its block to the end.
func (t *Trials) findMetric(c *caseTrials, mi int32) *metricTrials {
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

// addMetric folds one trial's result for metric mi into the case.
func (t *Trials) addMetric(c *caseTrials, mi int32, verdict, scored bool, score float64) {
	mt := t.findMetric(c, mi)
	mt.n++
	if verdict {
		mt.passed++
	}
	if scored {
		mt.scored++
		mt.sum += score
		mt.sumSq += score * score
		mt.outOfRange = mt.outOfRange || score < 0 || score > 1
	}
}

// metricIndex returns the index of m's metric, adding it if new; j is m's
// position in its result, where the same metric usually was before.
func (t *Trials) metricIndex(j int, m *toolgrade.MetricResult) int32 {
	if j < len(t.metrics) && t.metrics[j].name == m.Name && t.metrics[j].profile == m.Profile {
		return int32(j)
	}
	mi := slices.IndexFunc(t.metrics, func(n metricName) bool { return n.name == m.Name && n.profile == m.Profile })
	if mi < 0 {
		t.metrics = append(t.metrics, metricName{strings.Clone(m.Name), strings.Clone(m.Profile)})
		mi = len(t.metrics) - 1
	}
	return int32(mi)
}

// TrialIndex is the index of a result's trial (see [toolgrade.Case.Trial]),
// 0 when its case gives none.
func TrialIndex(r *toolgrade.Result) int {
	if r.Case == nil {
		return 0
	}
	return r.Case.Trial
}
