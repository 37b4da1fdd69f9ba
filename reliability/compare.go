package reliability

import (
	"slices"
	"strconv"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/sorting"
)

// A Comparison compares the results of two runs over the same cases: a
// base (the baseline) and a new run. Feed it every base result with
// [Comparison.AddBase], then every new result with [Comparison.AddNew];
// report.WriteComparison writes it for a terminal.
//
// Cases are matched by id, the n-th result with an id in one run with the
// n-th in the other (so that runs over files without ids, whose generated
// ids repeat across files, still pair up; repeated ids are the trials of
// a case), and metrics by name and profile. Cases and metrics present in
// only one run are listed.
//
// A regression is
//   - a case whose score on a metric fell by more than Tolerance (an error
//     where the base had a score counts as a fall);
//   - a case run once in each run that passed a metric in the base and
//     fails it in the new run, whatever Tolerance says;
//   - a case of the base missing from the new run, unless AllowMissing;
//   - a metric of the base that no result of the new run has (renamed,
//     or dropped from the config), unless AllowMissing;
//   - a metric whose mean score, or pass rate, fell by more than Tolerance.
//
// An improvement is a case whose score rose by more than Tolerance, or that
// went from an error to a score.
//
// When the runs' cases differ, each metric's mean and pass rate are taken
// over the cases both runs have ([Comparison.Common]), so that a mean is
// never compared with one over other cases. When a metric was graded at
// another threshold in the new run ([Comparison.Thresholds]), verdicts
// are still compared as they are, and each change from pass to fail
// carries both thresholds ([CaseChange.BaseThreshold]). Results do not
// record a metric's other options, so a change of those cannot be told.
type Comparison struct {
	// Tolerance is how far a score or a mean may fall before it counts as
	// a regression; 0 (the default) counts any fall.
	Tolerance float64
	// AllowMissing accepts cases and metrics of the base that the new run
	// lacks.
	AllowMissing bool
	// Confidence is the level at which a change must be significant to
	// count when a run has repeated trials of a case (default
	// [DefaultConfidence]); Seed seeds the bootstrap and Resamples sets
	// its size (default [DefaultBootstrap]).
	Confidence float64
	Seed       uint64
	Resamples  int

	// baseTrials and newTrials group each run's results by id; they also
	// number a case's results for pairing.
	baseTrials, newTrials trialSide
	noise                 *noiseFigures // noise.go; nil until asked for, and after an Add

	base            map[caseKey][]caseScore
	baseOrder       []caseKey
	onlyNew         []caseKey
	baseSum, newSum toolgrade.Summary
	regressed       []CaseChange
	improved        []CaseChange
	// Each metric's summary over the cases both runs have, in each run,
	// by label; and the metrics' differing thresholds.
	commonBase, commonNew map[string]*toolgrade.MetricSummary
	common                int
	thresholds            []ThresholdChange
	// flipped are the changes from pass to fail within the tolerance:
	// regressions when the case ran once in each run.
	flipped []CaseChange
}

type caseKey struct {
	id string
	n  int // occurrence of the id in its run, from 1
}

func (k caseKey) String() string {
	if k.n == 1 {
		return k.id
	}
	return k.id + " (#" + strconv.Itoa(k.n) + ")"
}

type caseScore struct {
	metric    string // label
	score     float64
	threshold *float64
	err       bool
	pass      bool // a verdict of success
	verdict   bool // passed, or scored without a threshold (MetricResult.Verdict)
	trial     int
}

// A CaseChange is one case's score on one metric in both runs.
type CaseChange struct {
	Case, Metric    string
	Base, New       float64
	BaseErr, NewErr bool // the metric erred in that run
	// PassToFail says the case passed the metric in the base run and
	// fails it (or errs) in the new one.
	PassToFail bool
	// BaseThreshold and NewThreshold are the metric's thresholds in each
	// run (nil: none), to tell a change of verdict that a change of
	// threshold made.
	BaseThreshold, NewThreshold *float64

	key caseKey
}

// Delta is the change in score; an error counts as 0.
func (c CaseChange) Delta() float64 {
	b, n := c.Base, c.New
	if c.BaseErr {
		b = 0
	}
	if c.NewErr {
		n = 0
	}
	return n - b
}

func scores(r *toolgrade.Result) []caseScore {
	out := make([]caseScore, len(r.Metrics))
	for i := range r.Metrics {
		m := &r.Metrics[i]
		out[i] = caseScore{metric: Label(m.Name, m.Profile), score: m.Score, threshold: m.Threshold, err: m.Error != "",
			pass: m.Error == "" && m.Threshold != nil && m.Success, verdict: m.Verdict()}
	}
	return out
}

// AddBase adds a result of the base run.
func (c *Comparison) AddBase(r *toolgrade.Result) {
	c.baseSum.Add(r)
	c.noise = nil
	sc := scores(r)
	k := caseKey{r.ID, c.baseTrials.add(r.ID, sc)}
	if c.base == nil {
		c.base = map[caseKey][]caseScore{}
	}
	c.base[k] = sc
	c.baseOrder = append(c.baseOrder, k)
}

// AddNew adds a result of the new run; every base result must have been
// added before.
func (c *Comparison) AddNew(r *toolgrade.Result) {
	c.newSum.Add(r)
	c.noise = nil
	sc := scores(r)
	k := caseKey{r.ID, c.newTrials.add(r.ID, sc)}
	base, ok := c.base[k]
	if !ok {
		c.onlyNew = append(c.onlyNew, k)
		return
	}
	delete(c.base, k) // what remains is only in the base run
	c.common++
	c.commonBase = addCommon(c.commonBase, base)
	c.commonNew = addCommon(c.commonNew, sc)
	for _, s := range sc {
		i := slices.IndexFunc(base, func(b caseScore) bool { return b.metric == s.metric })
		if i < 0 {
			continue
		}
		b := base[i]
		ch := CaseChange{Case: k.String(), Metric: s.metric, Base: b.score, New: s.score, BaseErr: b.err, NewErr: s.err,
			PassToFail: b.pass && !s.pass, BaseThreshold: b.threshold, NewThreshold: s.threshold, key: k}
		if !b.err && !s.err && !SameThreshold(b.threshold, s.threshold) {
			c.addThreshold(s.metric, b.threshold, s.threshold)
		}
		switch d := ch.Delta(); {
		case b.err && s.err:
		case !b.err && s.err, d < -c.Tolerance-scoreEpsilon:
			c.regressed = append(c.regressed, ch)
		case ch.PassToFail:
			c.flipped = append(c.flipped, ch)
		case b.err && !s.err, d > c.Tolerance+scoreEpsilon:
			c.improved = append(c.improved, ch)
		}
	}
}

// addCommon adds one case's scores to the per-metric summaries of the
// cases both runs have.
func addCommon(sums map[string]*toolgrade.MetricSummary, scores []caseScore) map[string]*toolgrade.MetricSummary {
	if sums == nil {
		sums = map[string]*toolgrade.MetricSummary{}
	}
	for _, s := range scores {
		m := sums[s.metric]
		if m == nil {
			m = &toolgrade.MetricSummary{}
			sums[s.metric] = m
		}
		if s.err {
			m.Errors++
			continue
		}
		m.Count++
		m.Score += (s.score - m.Score) / float64(m.Count)
		if s.verdict {
			m.Passed++
		}
	}
	return sums
}

// A ThresholdChange is a metric graded at one threshold in the base run
// and at another in the new one (nil: no threshold), on Cases cases.
type ThresholdChange struct {
	Metric    string
	Base, New *float64
	Cases     int
}

func (c *Comparison) addThreshold(metric string, base, next *float64) {
	for i := range c.thresholds {
		t := &c.thresholds[i]
		if t.Metric == metric && SameThreshold(t.Base, base) && SameThreshold(t.New, next) {
			t.Cases++
			return
		}
	}
	c.thresholds = append(c.thresholds, ThresholdChange{Metric: metric, Base: base, New: next, Cases: 1})
}

// Thresholds lists the metrics graded at other thresholds in the new
// run than in the base, over the cases both have, in the order found.
func (c *Comparison) Thresholds() []ThresholdChange { return slices.Clone(c.thresholds) }

// SameThreshold reports whether two thresholds (nil: none) are equal.
func SameThreshold(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// Common is the number of cases both runs have; when either run has
// cases the other lacks, [Comparison.Metrics] summarizes these only.
func (c *Comparison) Common() int { return c.common }

// Partial reports whether either run has cases the other lacks.
func (c *Comparison) Partial() bool { return len(c.onlyNew) > 0 || len(c.base) > 0 }

// Regressed returns the case changes that are regressions: the cases
// that went from pass to fail first, then the largest fall first.
func (c *Comparison) Regressed() []CaseChange {
	out := slices.Clone(c.regressed)
	for _, ch := range c.flipped {
		if c.baseTrials.count(ch.key.id) == 1 && c.newTrials.count(ch.key.id) == 1 {
			out = append(out, ch)
		}
	}
	sorting.Stable(out, func(a, b CaseChange) int {
		if a.PassToFail != b.PassToFail {
			if a.PassToFail {
				return -1
			}
			return 1
		}
		return cmpFloat(a.Delta(), b.Delta())
	})
	return out
}

// Improved returns the case changes that are improvements, the largest
// rise first.
func (c *Comparison) Improved() []CaseChange {
	out := slices.Clone(c.improved)
	sorting.Stable(out, func(a, b CaseChange) int { return cmpFloat(b.Delta(), a.Delta()) })
	return out
}

// A MetricChange is one metric's summary in both runs; Base or New is nil
// when the metric is absent from that run.
type MetricChange struct {
	Label     string
	Base, New *toolgrade.MetricSummary
}

// Regressed reports whether the metric's mean, or its pass rate, fell by
// more than tolerance.
func (m MetricChange) Regressed(tolerance float64) bool {
	if m.Base == nil || m.New == nil {
		return false
	}
	if m.Base.Count > 0 && m.New.Score-m.Base.Score < -tolerance-scoreEpsilon {
		return true
	}
	return m.Base.Count+m.Base.Errors > 0 && m.New.Count+m.New.Errors > 0 &&
		m.PassDelta() < -tolerance-scoreEpsilon
}

// PassDelta is the change in pass rate (passed over scored and erred
// cases; 0 without any) from the base run to the new one. Both runs must
// have the metric.
func (m MetricChange) PassDelta() float64 { return rate(m.New) - rate(m.Base) }

// Metrics returns each metric's summary in both runs, base order first.
// When either run has cases the other lacks ([Comparison.Partial]), each
// summary is over the cases both have (a metric with none among them has
// an empty one); Base or New is nil only for a metric the run lacks.
func (c *Comparison) Metrics() []MetricChange {
	var out []MetricChange
	find := func(label string) int {
		return slices.IndexFunc(out, func(m MetricChange) bool { return m.Label == label })
	}
	partial := c.Partial()
	pick := func(m *toolgrade.MetricSummary, common map[string]*toolgrade.MetricSummary) *toolgrade.MetricSummary {
		if !partial {
			return m
		}
		if s := common[Label(m.Name, m.Profile)]; s != nil {
			return &toolgrade.MetricSummary{Name: m.Name, Profile: m.Profile, Count: s.Count, Score: s.Score, Passed: s.Passed, Errors: s.Errors}
		}
		return &toolgrade.MetricSummary{Name: m.Name, Profile: m.Profile}
	}
	for i := range c.baseSum.Metrics {
		m := &c.baseSum.Metrics[i]
		out = append(out, MetricChange{Label: Label(m.Name, m.Profile), Base: pick(m, c.commonBase)})
	}
	for i := range c.newSum.Metrics {
		m := &c.newSum.Metrics[i]
		if j := find(Label(m.Name, m.Profile)); j >= 0 {
			out[j].New = pick(m, c.commonNew)
		} else {
			out = append(out, MetricChange{Label: Label(m.Name, m.Profile), New: pick(m, c.commonNew)})
		}
	}
	return out
}

// OnlyBase and OnlyNew list the cases found in one run only.
func (c *Comparison) OnlyBase() []string {
	var out []string
	for _, k := range c.baseOrder {
		if _, ok := c.base[k]; ok {
			out = append(out, k.String())
		}
	}
	return out
}

// OnlyNew lists the cases found in the new run only.
func (c *Comparison) OnlyNew() []string {
	var out []string
	for _, k := range c.onlyNew {
		out = append(out, k.String())
	}
	return out
}

// Regression reports whether the new run regressed beyond the tolerance.
//
// When either run has repeated trials of a case, a regression is instead
// a change significant at Confidence: a metric whose mean score or pass
// rate fell with its whole bootstrap interval below −Tolerance, or a case
// whose pass rate fell significantly after Holm's correction; a case of
// the base missing from the new run still counts unless AllowMissing.
func (c *Comparison) Regression() bool {
	if !c.AllowMissing && len(c.MissingMetrics()) > 0 {
		return true
	}
	if c.Trials() {
		return c.trialRegression()
	}
	if len(c.Regressed()) > 0 || !c.AllowMissing && len(c.OnlyBase()) > 0 {
		return true
	}
	for _, m := range c.Metrics() {
		if m.Regressed(c.Tolerance) {
			return true
		}
	}
	return false
}

// MissingMetrics lists the metrics of the base run that no result of the
// new run has.
func (c *Comparison) MissingMetrics() []string {
	var out []string
	for _, m := range c.Metrics() {
		if m.New == nil {
			out = append(out, m.Label)
		}
	}
	return out
}

func rate(m *toolgrade.MetricSummary) float64 {
	if n := m.Count + m.Errors; n > 0 {
		return float64(m.Passed) / float64(n)
	}
	return 0
}
