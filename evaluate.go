package toolgrade

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A Record is one input item whose decoding is deferred, so that [Evaluate]
// can decode on its workers. Decode returns the case, or an error together
// with a case that has at least its ID set, so that the error result can
// name it. A *Case is a Record, whose values are converted as [Grade]
// converts them; any other Record must decode into the JSON value model,
// as the readers of package dataset do.
type Record interface {
	Decode() (*Case, error)
}

// Records gives cases built in code as the record stream [Evaluate] takes.
func Records(cases []*Case) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		for _, c := range cases {
			if !yield(c, nil) {
				return
			}
		}
	}
}

// An Option configures [Evaluate].
type Option interface{ apply(*evalOptions) }

type evalOptions struct {
	workers int
	checks  []func(*Case) error
	recycle bool // see EmitKeepsNothing
}

type optionFunc func(*evalOptions)

func (f optionFunc) apply(o *evalOptions) { f(o) }

// Workers sets how many cases are decoded and graded at once. The default is
// GOMAXPROCS; metrics that wait on the network (an LLM judge) want more.
// More than [MaxWorkers] count as MaxWorkers.
func Workers(n int) Option {
	return optionFunc(func(o *evalOptions) {
		if n > 0 {
			o.workers = min(n, MaxWorkers)
		}
	})
}

// CheckCases has each case a record decodes checked by check before it is
// graded, on Evaluate's workers, several at once: an error makes the
// case's result an error result, as a record that does not decode gives.
// check may add to the case's Warnings. Checks given in several options
// run in their order, up to the first error; a case that does not decode
// is not checked. It does what a wrapper of every record would do, without
// a wrapper for each: toolgrade eval checks a run file's failed runs
// (runner.CheckRun) and the fields of each case (dataset.Checker) so.
func CheckCases(check func(*Case) error) Option {
	return optionFunc(func(o *evalOptions) {
		if check != nil {
			o.checks = append(o.checks, check)
		}
	})
}

// MaxWorkers bounds the cases graded (or run) at once, whatever a flag or
// a config asks: each worker holds a goroutine and a few batches of
// cases, and a hundred million of them exhausted memory before grading
// began. A judge's concurrency, which workers wait on, is far below. The
// commands refuse more at start (--workers, --concurrency, a config's
// workers); the library counts more as MaxWorkers.
const MaxWorkers = 1024

// maxBatch bounds how many records a worker takes at once. Batches start
// at one record and double, so the first results appear at once and long
// runs pay the hand-off cost rarely. With the window (readAhead and
// gradedAhead) it bounds what the cases in flight keep alive: 192 records
// on two workers. Each batch is handed between the workers (taken under
// the run's lock, pulled through a coroutine switch, finished and emitted
// under the lock again): at 16 records, with six batches per worker in
// the window, a run on two Ps took 2-5% more CPU than at 32 records with
// three while other work shared the cores, and as much in a quiet spell
// (alternated runs on 200,000 small cases; bench/README.md).
const maxBatch = 32

// readAhead is how many batches per worker are read ahead of those taken.
const readAhead = 1

// gradedAhead is how many batches per worker may be graded ahead of the
// oldest one not emitted, beyond those read ahead: room for the other
// worker to go on while the emitting one waits for a collection by hand.
const gradedAhead = 2

// yieldEvery is how many batches a worker grades between offering its P to
// the scheduler (see run.work): 64 records, a quarter of a millisecond or
// so of work.
const yieldEvery = 2

// Evaluate decodes and grades every record with every metric on a bounded
// pool of workers, and calls emit once per record, in input order, one call
// at a time (never concurrently, though not always from the same
// goroutine).
//
// Results with the same id are trials of one case (see [Case.Trial]), so
// a case whose id an earlier case of the run has, but whose input,
// expected output or expected calls differ from that case's, is not
// graded as another trial of it: its result is an error, [ErrIDTaken].
//
// records yields (record, nil) for each input item; a record that fails to
// decode gives an error result and the run goes on. A (nil, err) pair is a
// fatal input error (an unreadable file): Evaluate stops reading, emits the
// results it has, and returns err. An error from emit stops the run and is
// returned. At most a few batches per worker are in flight, so memory does
// not grow with the input.
//
// When ctx is done, Evaluate stops and returns ctx's error; no result is
// emitted after that, so the cases in flight, graded under a canceled
// context ("context canceled" errors from a judge), are left out rather
// than reported as failures. The results emitted are those of the cases
// before them in the input.
func Evaluate(ctx context.Context, records iter.Seq2[Record, error], metrics []Metric, emit func(*Result) error, opts ...Option) error {
	o := evalOptions{workers: runtime.GOMAXPROCS(0)}
	for _, opt := range opts {
		opt.apply(&o)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Each worker may grade batches up to gradedAhead ahead of the oldest
	// one not emitted, beyond the batches read ahead for it.
	ahead, window := readAhead*o.workers, (readAhead+gradedAhead)*o.workers
	if o.workers == 1 {
		// A lone worker reads nothing ahead: it would wait for the next
		// records before grading those it holds, and an input that comes
		// slowly (cases piped as they are made) would see results late.
		ahead = 0
	}
	r := &run{ctx: ctx, metrics: metrics, checks: o.checks, emit: emit, cancel: cancel,
		batch: 1, ahead: ahead, queue: make([]*batch, 0, ahead), ready: make([]graded, window), taken: make([]atomic.Pointer[batch], window)}
	next, stop := iter.Pull(r.pulls(records))
	defer stop()
	r.next = next
	r.moved.L = &r.mu
	if o.recycle {
		r.recyclers = newRecyclers(o.workers)
	}
	var wg sync.WaitGroup
	for range o.workers {
		wg.Go(r.work)
	}
	wg.Wait()
	switch {
	case r.panicked != nil:
		panic(*r.panicked)
	case r.emitErr != nil:
		return r.emitErr
	case r.readErr != nil:
		return r.readErr
	}
	return ctx.Err()
}

// A run is the state [Evaluate]'s workers share. There is no reader or
// writer goroutine: a worker reads the next batches of records itself, and
// the worker that finishes the oldest batch not yet emitted emits it, and
// any finished after it. Handing batches between goroutines made them wait
// to be woken: on two cores, a sixth of the time one of them was idle.
//
// Batches are read ahead into a queue, a few per worker, so that a worker
// that reads (and waits on the kernel for the file's next block) leaves
// the others batches to grade. A worker with nothing to take (the queue is
// empty while another reads, the window of batches in flight is full, or
// the input is done) grades records of the batches other workers are
// grading, one at a time, oldest first: with cases that wait (on a judge),
// a worker alone on a batch of them would otherwise keep the judge's
// other slots idle while its batch lasts.
type run struct {
	ctx     context.Context
	cancel  context.CancelFunc
	metrics []Metric
	checks  []func(*Case) error // see CheckCases
	emit    func(*Result) error

	// Reading: the worker that set reading pulls records (next) into
	// queue, up to ahead batches, and alone uses next and batch.
	next    func() (pull, bool)
	batch   int // the size of the next batch
	ahead   int // the batches read ahead that a worker tops the queue up to
	reading bool
	queue   []*batch // read, not yet taken: the oldest first
	seq     int      // the number of the next batch read
	done    bool     // the input is done (or the run stops): nothing more is read
	readErr error

	// taken[seq%len(taken)] is batch seq while it is queued or graded, so
	// that idle workers can find it; as many slots as ready has.
	taken []atomic.Pointer[batch]

	// Emitting. A batch numbered seq waits in ready[seq%len(ready)] until
	// the batches before it are emitted; no batch is read that far ahead
	// of the oldest one not emitted (head).
	mu       sync.Mutex
	moved    sync.Cond // head moved, a batch was queued, or reading stopped
	ready    []graded
	head     int
	emitting bool // a worker is emitting; it will emit what is ready
	emitErr  error
	panicked *any // what emit panicked with
	// ids holds each id emitted with its case's digest; the emitting
	// worker alone uses it.
	ids idTable

	// Under EmitKeepsNothing, the workers' recyclers, and head as the
	// workers read it without the lock (see recycle.go); and the batches
	// emitted, for reuse (see run.retire); r.mu guards spent.
	recyclers recyclers
	emitted   atomic.Int64
	spent     []*batch
}

// A batch is records taken together. Each is graded by whichever worker
// claims it first: the one that took the batch, or an idle one.
type batch struct {
	seq  int
	recs []Record // in recsIn
	// metrics holds the records' metric results, len(run.metrics) a
	// record, in one allocation instead of one per record.
	metrics []MetricResult
	out     graded       // in resultsIn and digestsIn
	claimed atomic.Int64 // records claimed for grading
	graded  atomic.Int64 // records graded
	// holders counts the workers that may use the batch: the one that
	// takes it from the queue (counted as it is queued) and those that
	// help grade it (see run.help). Under EmitKeepsNothing a batch is
	// reused once emitted and held by none (see run.retire).
	holders atomic.Int32

	// A batch's records, results and digests are allocated with it.
	recsIn    [maxBatch]Record
	resultsIn [maxBatch]Result
	digestsIn [maxBatch]uint64
}

// A batchOne is a batch of a run with one metric, the usual run, with
// room for its records' metric results in the same allocation: one
// allocation a batch instead of two, and 6 KiB instead of the 2.25 and 4
// KiB the two were rounded up to.
type batchOne struct {
	batch
	metricsIn [maxBatch]MetricResult
}

// newBatch returns an empty batch with room for n records and their
// metric results.
func (r *run) newBatch(n int) *batch {
	if b := r.reuse(n); b != nil {
		return b
	}
	var b *batch
	if len(r.metrics) == 1 {
		one := new(batchOne)
		b = &one.batch
		b.metrics = one.metricsIn[:]
	} else {
		b = new(batch)
		b.metrics = make([]MetricResult, n*len(r.metrics))
	}
	b.recs = b.recsIn[:0:n]
	return b
}

func (r *run) work() {
	for {
		b := r.take()
		if b == nil {
			return
		}
		r.grade(b)
		seq := b.seq
		b.holders.Add(-1) // taken from the queue: b may be reused now
		// Workers that never block never enter the scheduler, and the
		// garbage collector's mark worker then waits for a P while write
		// barriers slow everything: offer it one now and then. Every 16
		// records was too often: each yield leaves the other P idle for a
		// moment.
		if seq%yieldEvery == yieldEvery-1 {
			runtime.Gosched()
		}
	}
}

// grade grades b's records until none is left to claim, and hands b in
// when it grades the last. It reports whether it graded any.
func (r *run) grade(b *batch) bool {
	var rc *jsonvalue.Recycler // taken at the first record claimed
	defer func() { r.recyclers.put(rc) }()
	for n := 0; ; n++ {
		i := int(b.claimed.Add(1)) - 1
		if i >= len(b.recs) {
			return n > 0
		}
		if rc == nil {
			rc = r.recyclers.take(int(r.emitted.Load()))
		}
		res := &b.out.results[i] // zero: a batch is new, or cleared (reuse)
		n := len(r.metrics)
		gradeRecord(r.ctx, b.recs[i], rc, b.seq, r.metrics, r.checks, b.metrics[i*n:(i+1)*n:(i+1)*n], res)
		if c := res.Case; c != nil && res.Error == "" {
			b.out.digests[i] = caseDigest(c)
		}
		if int(b.graded.Add(1)) == len(b.recs) {
			r.taken[b.seq%len(r.taken)].Store(nil)
			r.finish(b.seq, b.out)
		}
	}
}

// help grades what is left of the batches queued or taken, oldest first,
// and reports whether it graded any.
func (r *run) help() bool {
	r.mu.Lock()
	head := r.head
	r.mu.Unlock()
	for k := range r.taken {
		slot := &r.taken[(head+k)%len(r.taken)]
		b := slot.Load()
		if b == nil {
			continue
		}
		// b may have been emitted, and even reused, since it was loaded:
		// counted as a holder, it is graded only if it is (still, or
		// again) in flight (see run.retire).
		b.holders.Add(1)
		graded := slot.Load() == b && r.grade(b)
		b.holders.Add(-1)
		if graded {
			return true
		}
	}
	return false
}

// take returns the next batch of records to grade, reading more first
// when the queue runs low and no other worker reads; nil when the input
// is done and every batch is taken, or the run stops. A worker with
// nothing to take helps grade the batches in flight, and waits only when
// none has a record left to claim.
func (r *run) take() *batch {
	r.mu.Lock()
	helped := true // whether to try to help before waiting
	for {
		switch {
		case r.ctx.Err() != nil:
			r.done = true
			r.mu.Unlock()
			return nil
		case len(r.queue) > 0:
			b := r.queue[0]
			r.queue = r.queue[:copy(r.queue, r.queue[1:])]
			read := r.mayRead(r.ahead)
			r.mu.Unlock()
			if read {
				r.read()
			}
			return b
		case r.mayRead(max(r.ahead, 1)):
			r.mu.Unlock()
			r.read()
			r.mu.Lock()
			continue
		case r.done && !r.reading:
			r.mu.Unlock()
			for r.help() {
			}
			return nil
		}
		// Another worker reads, or the window is full: grade what is in
		// flight meanwhile, and wait only when nothing is left to claim.
		if helped {
			r.mu.Unlock()
			helped = r.help()
			r.mu.Lock()
			continue
		}
		r.moved.Wait()
		helped = true
	}
}

// mayRead reports whether the calling worker may read now, the queue
// holding fewer than upTo batches, and if so marks it as reading. r.mu is
// held.
func (r *run) mayRead(upTo int) bool {
	if r.reading || r.done || len(r.queue) >= upTo || r.seq-r.head >= len(r.ready) || r.emitErr != nil {
		return false
	}
	r.reading = true
	return true
}

// read reads a batch into the queue, and more until the queue holds
// r.ahead of them, the window of batches in flight is full, or the input
// is done. The caller
// set r.reading (mayRead); read clears it.
func (r *run) read() {
	for {
		p, ok := r.next()
		r.mu.Lock()
		if !ok || p.end {
			r.readErr, r.done = p.err, true
		}
		if b := p.batch; b != nil && len(b.recs) > 0 {
			b.seq = r.seq
			r.seq++
			r.batch = min(2*r.batch, maxBatch)
			n := len(b.recs)
			b.metrics = b.metrics[:n*len(r.metrics)]
			b.out = graded{results: b.resultsIn[:n], digests: b.digestsIn[:n], batch: b}
			b.holders.Add(1) // the worker that takes it from the queue
			r.taken[b.seq%len(r.taken)].Store(b)
			r.queue = append(r.queue, b)
		}
		r.reading = false
		more := r.mayRead(r.ahead)
		r.moved.Broadcast()
		r.mu.Unlock()
		if !more {
			return
		}
	}
}

// A pull is what the reading coroutine hands over at once (see
// run.pulls): a batch of records (nil or empty: none), and whether the
// input ends with them, with its fatal error if any.
type pull struct {
	batch *batch
	end   bool
	err   error
}

// pulls reads records in batches of r.batch (as it is when each batch
// starts: the reading worker sets it), so that the coroutine [Evaluate]
// pulls them through switches once a batch rather than once a record. A
// batch ends early, and the input with it, at a fatal error (a (nil, err)
// pair), and once ctx is done: as before each record, ctx is checked
// after each, so that a done run reads no more.
func (r *run) pulls(records iter.Seq2[Record, error]) iter.Seq[pull] {
	return func(yield func(pull) bool) {
		b := r.newBatch(r.batch)
		for rec, err := range records {
			if err != nil {
				yield(pull{batch: b, end: true, err: err})
				return
			}
			b.recs = append(b.recs, rec)
			switch {
			case r.ctx.Err() != nil:
				yield(pull{batch: b, end: true})
				return
			case len(b.recs) == cap(b.recs):
				if !yield(pull{batch: b}) {
					return
				}
				b = r.newBatch(r.batch)
			}
		}
		yield(pull{batch: b, end: true})
	}
}

// A graded batch is the results of a batch of records, each with the
// digest of its case (0: none, the record could not be read), for
// checkID. The digests travel beside the results, not in them, so that
// Result has no unexported field.
type graded struct {
	results []Result
	digests []uint64
	batch   *batch // whose arrays they are
}

// finish hands in the results of batch seq, and emits them, with those
// after them, if they are the oldest and no other worker is emitting.
func (r *run) finish(seq int, b graded) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ready[seq%len(r.ready)] = b
	if r.emitting {
		return
	}
	r.emitting = true
	for {
		slot := &r.ready[r.head%len(r.ready)]
		batch := *slot
		if batch.results == nil {
			break
		}
		*slot = graded{}
		if r.emitErr == nil { // else drop it: the run is stopping
			r.mu.Unlock()
			err := r.emitBatch(batch)
			r.retire(batch.batch)
			r.mu.Lock()
			if err != nil {
				r.emitErr = err
				r.cancel()
			} else if r.recyclers != nil && len(r.spent) < len(r.ready) {
				r.spent = append(r.spent, batch.batch) // see reuse
			}
		}
		r.head++
		r.emitted.Store(int64(r.head))
		r.moved.Broadcast()
	}
	r.emitting = false
}

// emitBatch emits results in order up to the first error. A panic in emit
// is caught, so that the caller of Evaluate, not a worker, panics with it.
func (r *run) emitBatch(batch graded) (err error) {
	defer func() {
		if p := recover(); p != nil {
			r.panicked, err = new(any), errEmitPanicked
			*r.panicked = p
		}
	}()
	// The ids' slots in r.ids are far apart in memory: read together
	// first, their cache misses overlap instead of coming one a case.
	// Ids kept in series need no hash, and their entries are close.
	var places [maxBatch]idPlace
	for i := range batch.results {
		places[i] = r.ids.place(batch.results[i].ID)
	}
	r.ids.prefetch(places[:len(batch.results)])
	for i := range batch.results {
		if err := r.ctx.Err(); err != nil {
			return err // a case graded as the run was canceled is not a result
		}
		r.checkID(&batch.results[i], batch.digests[i], places[i])
		if err := r.emit(&batch.results[i]); err != nil {
			return err
		}
	}
	return nil
}

var errEmitPanicked = errors.New("emit panicked")

// Grade scores one case with every metric. Values of a case built in code
// (Go maps, ints, structs in Args, Output, Input, ...) are converted into
// the JSON value model first, into a copy: c is not changed. A value with
// no JSON form makes an error result whose Err is a *FieldError naming
// the field.
func Grade(ctx context.Context, c *Case, metrics ...Metric) Result {
	c, err := c.inModel()
	if err != nil {
		return ErrorResult(c.ID, err, metrics)
	}
	var r Result
	grade(ctx, c, metrics, nil, &r)
	return r
}

// MaxCallPairs is the most pairs of an expected and a called call a case
// may have (its expected calls times its called calls): metrics compare
// every expected call with every called call, some in a matrix of that
// size, so a case past it is an error result rather than the end of the
// run (one case of 10⁶ calls a side asked for terabytes). Ten million
// pairs are 3,000 calls a side, or 10 expected calls against a million
// made.
const MaxCallPairs = 10_000_000

// grade is Grade for a case whose values are in the model, into r, which
// is zero. The metric results go into into when it has room for them.
// Results are written in place, not returned: a Result and its
// MetricResults, copied from one frame to the next, cost more than
// grading's bookkeeping; and r's members are set one by one, not as a
// whole Result built beside it and copied.
func grade(ctx context.Context, c *Case, metrics []Metric, into []MetricResult, r *Result) {
	if n, k := len(c.Expected), len(c.Called); n*k > MaxCallPairs {
		*r = ErrorResult(c.ID, fmt.Errorf("%d expected calls against %d calls made are %d pairs to compare, more than the %d a case may have: split the case, or grade its turns as cases of their own", n, k, n*k, MaxCallPairs), metrics)
		return
	}
	if len(into) != len(metrics) {
		into = make([]MetricResult, len(metrics))
	}
	r.ID, r.Success, r.Metrics, r.Case, r.Warnings = c.ID, true, into, c, c.Warnings
	for i, m := range metrics {
		mr := &into[i]
		gradeSafely(ctx, m, c, mr)
		if !mr.Verdict() {
			r.Success = false
		}
	}
}

// gradeRecord decodes (with rc, if set: rec is of batch seq), checks and
// grades rec into r, which is zero.
func gradeRecord(ctx context.Context, rec Record, rc *jsonvalue.Recycler, seq int, metrics []Metric, checks []func(*Case) error, into []MetricResult, r *Result) {
	c, err := decodeSafely(rec, rc, seq, checks)
	if err != nil {
		id := ""
		if c != nil {
			id = c.ID
		}
		*r = ErrorResult(id, err, metrics)
		return
	}
	if ctx.Err() != nil {
		*r = ErrorResult(c.ID, ctx.Err(), metrics)
		return
	}
	if _, built := rec.(*Case); built {
		*r = Grade(ctx, c, metrics...) // built in code: may hold Go values
		return
	}
	// Readers decode into the value model (see Record), so the check that
	// Grade makes, a walk over every value, is spared on every case read.
	grade(ctx, c, metrics, into, r)
}

// ErrorResult is the result of a case that could not be read: every metric
// carries the error.
func ErrorResult(id string, err error, metrics []Metric) Result {
	r := Result{ID: id, Error: cutText(err.Error()), Err: err, Metrics: make([]MetricResult, len(metrics))}
	for i, m := range metrics {
		r.Metrics[i] = MetricResult{Name: m.Name(), Profile: m.Profile()}
		r.Metrics[i].Fail(err)
		r.Metrics[i].Error = r.Error
	}
	return r
}

// decodeSafely decodes rec and checks its case, turning a panic into an
// error.
func decodeSafely(rec Record, rc *jsonvalue.Recycler, seq int, checks []func(*Case) error) (c *Case, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error decoding the case: %v\n%s", p, debug.Stack())
		}
	}()
	c, err = decodeRecord(rec, rc, seq)
	if err != nil || c == nil {
		return c, err
	}
	for _, check := range checks {
		if err := check(c); err != nil {
			return c, err
		}
	}
	return c, nil
}

// gradeSafely grades c with m into r, turning a panic in the metric into
// an error result, so that one bad case cannot end a run, and so does a
// result whose details would break its line (a detail named like a core
// member, or two of a name); it bounds the result's text.
func gradeSafely(ctx context.Context, m Metric, c *Case, r *MetricResult) {
	defer func() {
		if p := recover(); p != nil {
			*r = MetricResult{Name: m.Name(), Profile: m.Profile()}
			r.Fail(fmt.Errorf("internal error in metric %s: %v\n%s", m.Name(), p, debug.Stack()))
		}
		if len(r.Reason) > MaxTextBytes || len(r.Error) > MaxTextBytes {
			r.Reason, r.Error = cutText(r.Reason), cutText(r.Error)
		}
	}()
	// *r's first access below is a read (its nil check). A fresh page read
	// first is mapped to the kernel's zero page, and the write that follows
	// must flush the other cores' TLBs: written first, it is not (about
	// 300 flushes fewer in a run of 200,000 cases on two cores).
	r.Score = 0
	*r = m.Grade(ctx, c)
	if len(r.Details) > 0 {
		if err := r.checkDetails(); err != nil {
			*r = MetricResult{Name: r.Name, Profile: r.Profile}
			r.Fail(fmt.Errorf("internal error: %w", err))
		}
	}
}

// MaxTextBytes bounds the reason and the error of a metric's result:
// they may carry text from outside (a judge's reply, a tool's output),
// which would otherwise be copied whole into every report. Longer text is
// cut, and says how much was left out.
const MaxTextBytes = 64 << 10

// cutText cuts s to MaxTextBytes, at a character's start.
func cutText(s string) string {
	if len(s) <= MaxTextBytes {
		return s
	}
	n := MaxTextBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + fmt.Sprintf("… (%d more bytes not shown)", len(s)-n)
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

// metricIndex is the index of m's metric in s.Metrics, -1 for none.
func (s *Summary) metricIndex(m *MetricResult) int {
	for i := range s.Metrics {
		if ms := &s.Metrics[i]; ms.Name == m.Name && ms.Profile == m.Profile {
			return i
		}
	}
	return -1
}

// A MetricSummary aggregates one metric's results.
type MetricSummary struct {
	Name    string
	Profile string
	Count   int // results scored (not erred)
	Errors  int
	Passed  int // results with a verdict that passed, or no verdict
	// Means over scored results; the P/R/F1 means cover results that
	// report them (PRFCount counts those).
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
		idx := s.metricIndex(m)
		if idx < 0 {
			s.Metrics = append(s.Metrics, MetricSummary{Name: m.Name, Profile: m.Profile})
			idx = len(s.Metrics) - 1
		}
		ms := &s.Metrics[idx]
		if len(m.Details) > 0 { // usage is a detail: most results have none
			s.Usage.Add(DetailOf[Usage](m))
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
