package report

import (
	"bufio"
	"io"
	"math"
	"strconv"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/reliability"
)

// JSONL returns a Writer of the result contract: one line of JSON per
// result, in input order (see [toolgrade.Result.AppendJSON]). Lines are
// buffered; Finish flushes them.
//
// Trials add two fields. A result whose case carries a "trial" index
// repeats it as "trial". When consecutive results share an id (trials of
// one case, as toolgrade run --trials writes them), the last of them gets
// a "reliability" object with the figures over those trials (see
// [reliability.Case]); its "trials" says how many. Only the current case is
// held, so memory stays flat. Results whose ids do not repeat are written
// exactly as before.
func JSONL(w io.Writer) Writer { return &jsonlReport{w: bufio.NewWriterSize(w, 64<<10)} }

type jsonlReport struct {
	w *bufio.Writer
	// trials holds the current case's consecutive trials, once it has
	// more than one: most cases have one, and grouping it cost more than
	// writing its line.
	trials reliability.Trials
	// first is what trials need of the current case's first trial, until
	// a second comes (see keep).
	first firstTrial

	// The current case, how many trials of it came in a row, and whether
	// its last line is written but for its end (see Add).
	groupKey string
	groupLen int
	held     bool
}

func (j *jsonlReport) Add(r *toolgrade.Result) error {
	key := r.ID
	n := 1
	if j.held && key == j.groupKey {
		if j.groupLen == 1 {
			first := j.first.result()
			j.trials.Add(&first)
		}
		n = j.trials.Add(r)
		if _, err := j.w.WriteString("}\n"); err != nil { // the trial before ends
			return err
		}
	} else {
		if err := j.flush(); err != nil {
			return err
		}
		j.keep(r)
	}
	// The line is written into the writer's buffer, but for its closing
	// brace, which the next result's case decides: the figures over the
	// trials go before the last trial's.
	buf := j.w.AvailableBuffer()
	if cap(buf) < minLineRoom {
		if err := j.w.Flush(); err != nil {
			return err
		}
		buf = j.w.AvailableBuffer()
	}
	line := r.AppendJSON(buf)
	line = line[:len(line)-1]
	if n := reliability.TrialIndex(r); n > 0 {
		line = strconv.AppendInt(append(line, `,"trial":`...), int64(n), 10)
	}
	j.groupKey, j.groupLen, j.held = key, n, true
	_, err := j.w.Write(line)
	return err
}

// minLineRoom is the room in the writer's buffer a line is written into:
// a longer line is written through a buffer of its own.
const minLineRoom = 4 << 10

// A firstTrial is what trials read of a case's first trial, kept in case
// a second follows: most cases have one, and copying their metric results
// whole cost more than this.
type firstTrial struct {
	id, err  string
	success  bool
	trial    int
	hasCase  bool
	metrics  []firstMetric
	results  []toolgrade.MetricResult // result's scratch
	caseHere toolgrade.Case           // result's case
}

// A firstMetric is what makes a metric's verdict, its score and its name.
type firstMetric struct {
	name, profile, err string
	score              float64
	success, verdict   bool // verdict: the metric has a threshold
}

// keep copies what trials read of r, the first trial of a case: r is not
// the writer's to hold.
func (j *jsonlReport) keep(r *toolgrade.Result) {
	f := &j.first
	f.id, f.err, f.success, f.hasCase = r.ID, r.Error, r.Success, r.Case != nil
	if r.Case != nil {
		f.trial = r.Case.Trial
	}
	if cap(f.metrics) < len(r.Metrics) {
		f.metrics = make([]firstMetric, len(r.Metrics))
	}
	f.metrics = f.metrics[:len(r.Metrics)]
	for i := range f.metrics {
		m, k := &r.Metrics[i], &f.metrics[i]
		k.name, k.profile, k.err = m.Name, m.Profile, m.Error
		k.score, k.success, k.verdict = m.Score, m.Success, m.Threshold != nil
	}
}

// result is the kept trial as the result trials read.
func (f *firstTrial) result() toolgrade.Result {
	f.results = f.results[:0]
	for _, m := range f.metrics {
		k := toolgrade.MetricResult{Name: m.name, Profile: m.profile, Score: m.score, Success: m.success, Error: m.err}
		if m.verdict {
			k.Threshold = &zeroThreshold
		}
		f.results = append(f.results, k)
	}
	r := toolgrade.Result{ID: f.id, Success: f.success, Error: f.err, Metrics: f.results}
	if f.hasCase {
		f.caseHere.Trial = f.trial
		r.Case = &f.caseHere
	}
	return r
}

// zeroThreshold stands for a kept metric's threshold: only whether it
// has one counts (see toolgrade.MetricResult.Verdict).
var zeroThreshold float64

// flush ends the current case's last line, with the case's figures when
// it has had more than one trial.
func (j *jsonlReport) flush() error {
	if !j.held {
		return nil
	}
	b := j.w.AvailableBuffer()
	if j.groupLen > 1 {
		cr, _ := j.trials.Case(j.groupKey, reliability.DefaultConfidence, nil)
		b = appendReliability(append(b, `,"reliability":`...), &cr, reliability.DefaultConfidence)
		j.trials.Reset()
	}
	j.held = false
	_, err := j.w.Write(append(b, '}', '\n'))
	return err
}

func (j *jsonlReport) Finish(*Stats) error {
	if err := j.flush(); err != nil {
		return err
	}
	return j.w.Flush()
}

func appendNums(b []byte, fs []float64) []byte {
	b = append(b, '[')
	for i, f := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonvalue.AppendFloat(b, f)
	}
	return append(b, ']')
}

// appendReliability writes a case's figures over its trials:
//
//	{"trials":5,"passed":3,"flip_rate":0.6,"confidence":0.95,
//	 "metrics":[{"name":..,"profile":..,"trials":5,"passed":3,
//	   "pass_rate":0.6,"pass_rate_ci":[lo,hi],"pass_at_k":[..],
//	   "pass_hat_k":[..],"mean_score":0.7,"mean_score_ci":[lo,hi]}]}
//
// pass_at_k[k-1] and pass_hat_k[k-1] are the unbiased estimates for k =
// 1..trials; pass_rate_ci is Wilson's interval, mean_score_ci Student's t
// (null with fewer than two scored trials).
func appendReliability(b []byte, c *reliability.Case, conf float64) []byte {
	b = append(b, `{"trials":`...)
	b = strconv.AppendInt(b, int64(c.Trials), 10)
	b = append(b, `,"passed":`...)
	b = strconv.AppendInt(b, int64(c.Passed), 10)
	b = append(b, `,"flip_rate":`...)
	b = jsonvalue.AppendFloat(b, c.FlipRate)
	b = append(b, `,"confidence":`...)
	b = jsonvalue.AppendFloat(b, conf)
	b = append(b, `,"metrics":[`...)
	for i, m := range c.Metrics {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = jsonvalue.AppendString(b, m.Name)
		b = append(b, `,"profile":`...)
		b = jsonvalue.AppendString(b, m.Profile)
		b = append(b, `,"trials":`...)
		b = strconv.AppendInt(b, int64(m.Trials), 10)
		b = append(b, `,"passed":`...)
		b = strconv.AppendInt(b, int64(m.Passed), 10)
		b = append(b, `,"pass_rate":`...)
		b = jsonvalue.AppendFloat(b, m.PassRate)
		b = append(b, `,"pass_rate_ci":`...)
		b = appendNums(b, []float64{m.PassLo, m.PassHi})
		b = append(b, `,"pass_at_k":`...)
		b = appendNums(b, m.PassAtK)
		b = append(b, `,"pass_hat_k":`...)
		b = appendNums(b, m.PassHatK)
		b = append(b, `,"mean_score":`...)
		b = jsonvalue.AppendFloat(b, m.Mean)
		b = append(b, `,"mean_score_ci":`...)
		if math.IsNaN(m.MeanLo) {
			b = append(b, "null"...)
		} else {
			b = appendNums(b, []float64{m.MeanLo, m.MeanHi})
		}
		b = append(b, '}')
	}
	return append(b, ']', '}')
}
