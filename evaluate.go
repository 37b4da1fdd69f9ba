package toolgrade

import (
	"context"
	"fmt"
	"iter"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
)

// A Record is one input item whose decoding is deferred, so that [Evaluate]
// can decode on its workers. Decode returns the case, or an error together
// with a case that has at least its ID set, so that the error result can
// name it. A *Case is a Record.
type Record interface {
	Decode() (*Case, error)
}

// An Option configures [Evaluate].
type Option interface{ apply(*evalOptions) }

type evalOptions struct {
	workers int
}

type optionFunc func(*evalOptions)

func (f optionFunc) apply(o *evalOptions) { f(o) }

// Workers sets how many cases are decoded and graded at once. The default is
// GOMAXPROCS; metrics that wait on the network (an LLM judge) want more.
func Workers(n int) Option {
	return optionFunc(func(o *evalOptions) {
		if n > 0 {
			o.workers = n
		}
	})
}

// maxBatch bounds how many records travel to a worker together. Batches
// start at one record and double, so the first results appear at once and
// long runs pay the hand-off cost rarely. It also bounds what the cases in
// flight keep alive (a few batches per worker): at 16, a few megabytes,
// while the hand-off still costs well under 1% of grading.
const maxBatch = 16

// Evaluate decodes and grades every record with every metric on a bounded
// pool of workers, and calls emit once per record, in input order, from a
// single goroutine.
//
// records yields (record, nil) for each input item; a record that fails to
// decode gives an error result and the run goes on. A (nil, err) pair is a
// fatal input error (an unreadable file): Evaluate stops reading, emits the
// results it has, and returns err. An error from emit stops the run and is
// returned. At most a few batches per worker are in flight, so memory does
// not grow with the input.
func Evaluate(ctx context.Context, records iter.Seq2[Record, error], metrics []Metric, emit func(*Result) error, opts ...Option) error {
	o := evalOptions{workers: runtime.GOMAXPROCS(0)}
	for _, opt := range opts {
		opt.apply(&o)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type batch struct {
		recs    []Record
		results []Result
		done    chan struct{}
	}
	jobs := make(chan *batch, o.workers)
	order := make(chan *batch, 4*o.workers)

	var wg sync.WaitGroup
	for range o.workers {
		wg.Go(func() {
			for b := range jobs {
				b.results = make([]Result, len(b.recs))
				for i, rec := range b.recs {
					b.results[i] = gradeRecord(ctx, rec, metrics)
				}
				close(b.done)
			}
		})
	}

	var readErr error
	go func() {
		defer close(jobs)
		defer close(order)
		size := 1
		cur := &batch{done: make(chan struct{})}
		send := func() bool {
			b := cur
			cur = &batch{recs: make([]Record, 0, size), done: make(chan struct{})}
			select {
			case order <- b:
			case <-ctx.Done():
				return false
			}
			select {
			case jobs <- b:
				return true
			case <-ctx.Done():
				close(b.done) // the writer is gone or will skip it
				return false
			}
		}
		for rec, err := range records {
			if err != nil {
				readErr = err
				break
			}
			if ctx.Err() != nil {
				return
			}
			cur.recs = append(cur.recs, rec)
			if len(cur.recs) >= size {
				if !send() {
					return
				}
				size = min(2*size, maxBatch)
			}
		}
		if len(cur.recs) > 0 {
			send()
		}
	}()

	var emitErr error
	for b := range order {
		if emitErr != nil {
			continue // drain so that the reader can finish
		}
		<-b.done
		for i := range b.results {
			if err := emit(&b.results[i]); err != nil {
				emitErr = err
				cancel()
				break
			}
		}
	}
	wg.Wait()
	if emitErr != nil {
		return emitErr
	}
	if readErr != nil {
		return readErr
	}
	return ctx.Err()
}

// Grade scores one case with every metric.
func Grade(ctx context.Context, c *Case, metrics []Metric) Result {
	r := Result{ID: c.ID, Success: true, Metrics: make([]MetricResult, len(metrics)), Case: c}
	for i, m := range metrics {
		r.Metrics[i] = gradeSafely(ctx, m, c)
		if !r.Metrics[i].Verdict() {
			r.Success = false
		}
	}
	return r
}

func gradeRecord(ctx context.Context, rec Record, metrics []Metric) Result {
	c, err := decodeSafely(rec)
	if err != nil {
		id := ""
		if c != nil {
			id = c.ID
		}
		return ErrorResult(id, err.Error(), metrics)
	}
	if ctx.Err() != nil {
		return ErrorResult(c.ID, ctx.Err().Error(), metrics)
	}
	return Grade(ctx, c, metrics)
}

// ErrorResult is the result of a case that could not be read: every metric
// carries the error.
func ErrorResult(id, msg string, metrics []Metric) Result {
	r := Result{ID: id, Error: msg, Metrics: make([]MetricResult, len(metrics))}
	for i, m := range metrics {
		r.Metrics[i] = MetricResult{Name: m.Name(), Profile: m.Profile(), Error: msg}
	}
	return r
}

func decodeSafely(rec Record) (c *Case, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error decoding the case: %v\n%s", p, debug.Stack())
		}
	}()
	return rec.Decode()
}

// gradeSafely turns a panic in a metric into an error result, so that one
// bad case cannot end a run.
func gradeSafely(ctx context.Context, m Metric, c *Case) (r MetricResult) {
	defer func() {
		if p := recover(); p != nil {
			r = MetricResult{Name: m.Name(), Profile: m.Profile(),
				Error: fmt.Sprintf("internal error in metric %s: %v\n%s", m.Name(), p, debug.Stack())}
		}
	}()
	return m.Grade(ctx, c)
}

// Summary aggregates results per metric.
type Summary struct {
	Cases  int // results seen
	Passed int // results with Success
	Errors int // results with an error in any metric
	// Metrics has one entry per metric name, in first-seen order.
	Metrics []MetricSummary
	Usage   Usage
}

// A MetricSummary aggregates one metric's results.
type MetricSummary struct {
	Name    string
	Profile string
	Count   int // results scored (not erred)
	Errors  int
	Passed  int // results with a verdict that passed, or no verdict
	// Means over scored results; the P/R/F1 means cover results that
	// report them (Scored counts those).
	Score, Precision, Recall, F1 float64
	PRFCount                     int
}

// Add folds one result into the summary.
func (s *Summary) Add(r *Result) {
	s.Cases++
	if r.Success {
		s.Passed++
	}
	erred := false
	for i := range r.Metrics {
		m := &r.Metrics[i]
		idx := slices.IndexFunc(s.Metrics, func(ms MetricSummary) bool { return ms.Name == m.Name && ms.Profile == m.Profile })
		if idx < 0 {
			s.Metrics = append(s.Metrics, MetricSummary{Name: m.Name, Profile: m.Profile})
			idx = len(s.Metrics) - 1
		}
		ms := &s.Metrics[idx]
		if m.Usage != nil {
			s.Usage.Add(*m.Usage)
		}
		if m.Error != "" {
			ms.Errors++
			erred = true
			continue
		}
		// Running means keep precision over millions of results.
		ms.Count++
		ms.Score += (m.Score - ms.Score) / float64(ms.Count)
		if m.Verdict() {
			ms.Passed++
		}
		if m.Precision != nil && m.Recall != nil && m.F1 != nil {
			ms.PRFCount++
			n := float64(ms.PRFCount)
			ms.Precision += (*m.Precision - ms.Precision) / n
			ms.Recall += (*m.Recall - ms.Recall) / n
			ms.F1 += (*m.F1 - ms.F1) / n
		}
	}
	if erred || r.Error != "" {
		s.Errors++
	}
}
