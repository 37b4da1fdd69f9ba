package toolgrade_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// sleepy scores a case by its ID's number after a random pause, so that
// workers finish out of order.
type sleepy struct{}

func (sleepy) Name() string    { return "sleepy" }
func (sleepy) Profile() string { return "test" }
func (sleepy) Grade(_ context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	time.Sleep(time.Duration(rand.IntN(200)) * time.Microsecond)
	n, _ := strconv.Atoi(c.ID)
	if n%7 == 3 {
		panic("boom on " + c.ID)
	}
	return toolgrade.MetricResult{Name: "sleepy", Profile: "test", Score: float64(n), Threshold: toolgrade.Float(0), Success: true}
}

type badRecord struct{ id string }

func (r badRecord) Decode() (*toolgrade.Case, error) {
	return &toolgrade.Case{ID: r.id}, errors.New("cases.jsonl:" + r.id + ": field input: broken")
}

func records(n int, bad func(i int) bool) iter.Seq2[toolgrade.Record, error] {
	return recordsOf(n, bad, func(id string) toolgrade.Record { return &toolgrade.Case{ID: id} })
}

// readRecord is a record as readers make them: not a case built in code,
// so that its case is graded into its batch's memory.
type readRecord struct{ id string }

func (r readRecord) Decode() (*toolgrade.Case, error) { return &toolgrade.Case{ID: r.id}, nil }

func recordsOf(n int, bad func(i int) bool, good func(id string) toolgrade.Record) iter.Seq2[toolgrade.Record, error] {
	return func(yield func(toolgrade.Record, error) bool) {
		for i := range n {
			rec := good(strconv.Itoa(i))
			if bad(i) {
				rec = badRecord{strconv.Itoa(i)}
			}
			if !yield(rec, nil) {
				return
			}
		}
	}
}

func TestEvaluateKeepsInputOrder(t *testing.T) {
	// Cases built in code and read, one metric and two: a batch of a run
	// with one metric holds its read records' metric results itself; each
	// result, kept past emit, keeps its own.
	kinds := []struct {
		name string
		good func(id string) toolgrade.Record
	}{
		{"built", func(id string) toolgrade.Record { return &toolgrade.Case{ID: id} }},
		{"read", func(id string) toolgrade.Record { return readRecord{id} }},
	}
	for _, kind := range kinds {
		for _, metrics := range [][]toolgrade.Metric{{sleepy{}}, {sleepy{}, constant{}}} {
			for _, workers := range []int{1, 2, 8} {
				t.Run(fmt.Sprintf("%s/metrics=%d/workers=%d", kind.name, len(metrics), workers), func(t *testing.T) {
					testEvaluateKeepsInputOrder(t, kind.good, metrics, workers)
				})
			}
		}
	}
}

func testEvaluateKeepsInputOrder(t *testing.T, good func(id string) toolgrade.Record, metrics []toolgrade.Metric, workers int) {
	const n = 500
	var got []toolgrade.Result
	err := toolgrade.Evaluate(context.Background(), recordsOf(n, func(i int) bool { return i%50 == 10 }, good),
		metrics, func(r *toolgrade.Result) error {
			got = append(got, *r)
			return nil
		}, toolgrade.Workers(workers))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("got %d results, want %d", len(got), n)
	}
	for i, r := range got {
		if r.ID != strconv.Itoa(i) {
			t.Fatalf("result %d has id %s: out of order", i, r.ID)
		}
		m := r.Metrics[0]
		switch {
		case i%50 == 10:
			if r.Error == "" || m.Error == "" || r.Success || !strings.Contains(r.Error, "field input") {
				t.Errorf("record %d: want a decode error result, got %+v", i, r)
			}
		case i%7 == 3:
			if !strings.Contains(m.Error, "boom on") || r.Success {
				t.Errorf("case %d: want the panic as an error result, got %+v", i, m)
			}
		default:
			if m.Error != "" || m.Score != float64(i) || !r.Success {
				t.Errorf("case %d: got %+v", i, m)
			}
		}
		if len(r.Metrics) != len(metrics) {
			t.Fatalf("case %d: %d metric results, want %d", i, len(r.Metrics), len(metrics))
		}
		for k, mr := range r.Metrics {
			if mr.Name != metrics[k].Name() {
				t.Errorf("case %d: metric result %d is %q, want %q", i, k, mr.Name, metrics[k].Name())
			}
		}
	}
}

func TestEvaluateStopsOnReadError(t *testing.T) {
	readErr := errors.New("disk on fire")
	recs := func(yield func(toolgrade.Record, error) bool) {
		for i := range 10 {
			if !yield(&toolgrade.Case{ID: strconv.Itoa(i)}, nil) {
				return
			}
		}
		yield(nil, readErr)
	}
	n := 0
	err := toolgrade.Evaluate(context.Background(), recs, []toolgrade.Metric{sleepy{}}, func(*toolgrade.Result) error {
		n++
		return nil
	})
	if !errors.Is(err, readErr) {
		t.Errorf("Evaluate error = %v, want %v", err, readErr)
	}
	if n != 10 {
		t.Errorf("emitted %d results before the read error, want 10", n)
	}
}

// TestEvaluateStopsReadingWhenDone: once the run's context is done, no
// record is read past the one in hand, in the middle of a batch or at its
// start.
func TestEvaluateStopsReadingWhenDone(t *testing.T) {
	for _, at := range []int{0, 1, 5, 40} {
		t.Run(strconv.Itoa(at), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			read := 0
			recs := func(yield func(toolgrade.Record, error) bool) {
				for i := range 100 {
					read++
					if i == at {
						cancel()
					}
					if !yield(&toolgrade.Case{ID: strconv.Itoa(i)}, nil) {
						return
					}
				}
			}
			err := toolgrade.Evaluate(ctx, recs, []toolgrade.Metric{sleepy{}}, func(*toolgrade.Result) error { return nil }, toolgrade.Workers(1))
			if !errors.Is(err, context.Canceled) {
				t.Errorf("Evaluate error = %v, want context.Canceled", err)
			}
			if read != at+1 {
				t.Errorf("read %d records, want %d", read, at+1)
			}
		})
	}
}

func TestEvaluateStopsOnEmitError(t *testing.T) {
	writeErr := errors.New("disk full")
	n := 0
	err := toolgrade.Evaluate(context.Background(), records(10000, func(int) bool { return false }),
		[]toolgrade.Metric{sleepy{}}, func(*toolgrade.Result) error {
			n++
			if n == 5 {
				return writeErr
			}
			return nil
		})
	if !errors.Is(err, writeErr) {
		t.Errorf("Evaluate error = %v, want %v", err, writeErr)
	}
	if n != 5 {
		t.Errorf("emit called %d times, want it to stop at 5", n)
	}
}

// stall holds up one case, so that the other workers run ahead.
type stall struct{}

func (stall) Name() string    { return "stall" }
func (stall) Profile() string { return "test" }
func (stall) Grade(_ context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	if c.ID == "40" {
		time.Sleep(50 * time.Millisecond)
	}
	return toolgrade.MetricResult{Name: "stall", Profile: "test", Score: 1}
}

func TestEvaluateBoundsRecordsInFlight(t *testing.T) {
	// While one case holds up a worker, the others must not read more than
	// a few batches ahead of what was emitted: memory must not grow with
	// the input.
	const workers, limit = 2, (1 + 2) * 2 * 32 // batches per worker (read ahead, graded ahead) × workers × batch size
	var read atomic.Int64                      // the reader and the emitter may be different goroutines
	emitted := 0
	counted := func(yield func(toolgrade.Record, error) bool) {
		for rec, err := range records(3000, func(int) bool { return false }) {
			read.Add(1)
			if !yield(rec, err) {
				return
			}
		}
	}
	var most int64
	err := toolgrade.Evaluate(context.Background(), counted, []toolgrade.Metric{stall{}}, func(*toolgrade.Result) error {
		emitted++
		most = max(most, read.Load()-int64(emitted))
		return nil
	}, toolgrade.Workers(workers))
	if err != nil {
		t.Fatal(err)
	}
	if most > limit {
		t.Errorf("%d records were read ahead of the last one emitted, want at most %d", most, limit)
	}
}

// TestEvaluateGradesBeforeReadingOn: the first result is emitted before
// the record after it is read, as when cases are piped in as they are
// made: no worker holds a graded-to-be batch while it waits for more input.
func TestEvaluateGradesBeforeReadingOn(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(strconv.Itoa(workers), func(t *testing.T) {
			first := make(chan struct{})
			late := false
			recs := func(yield func(toolgrade.Record, error) bool) {
				for i := range 3 {
					if i == 1 {
						select {
						case <-first:
						case <-time.After(3 * time.Second):
							late = true
						}
					}
					if !yield(&toolgrade.Case{ID: strconv.Itoa(i)}, nil) {
						return
					}
				}
			}
			err := toolgrade.Evaluate(context.Background(), recs, []toolgrade.Metric{stall{}}, func(r *toolgrade.Result) error {
				if r.ID == "0" {
					close(first)
				}
				return nil
			}, toolgrade.Workers(workers))
			if err != nil {
				t.Fatal(err)
			}
			if late {
				t.Error("the second record was read before the first result was emitted")
			}
		})
	}
}

// waiting grades a case by waiting until workers cases wait with it, as a
// metric waiting on a judge with that many requests in flight would, or
// until patience runs out (a stranded case: fewer were graded at once).
type waiting struct {
	workers  int
	mu       sync.Mutex
	arrived  int
	wave     chan struct{}
	stranded atomic.Int64
}

func (*waiting) Name() string    { return "waiting" }
func (*waiting) Profile() string { return "test" }
func (w *waiting) Grade(context.Context, *toolgrade.Case) toolgrade.MetricResult {
	w.mu.Lock()
	if w.wave == nil {
		w.wave = make(chan struct{})
	}
	wave := w.wave
	if w.arrived++; w.arrived == w.workers {
		close(wave)
		w.wave, w.arrived = nil, 0
	}
	w.mu.Unlock()
	select {
	case <-wave:
	case <-time.After(3 * time.Second):
		w.stranded.Add(1)
	}
	return toolgrade.MetricResult{Name: "waiting", Profile: "test", Score: 1}
}

func TestEvaluateKeepsWaitingWorkersBusy(t *testing.T) {
	// Cases that wait (on a judge) are graded one per worker while any
	// wait: batches of them, graded one after another, left workers idle.
	const workers, n = 8, 40
	m := &waiting{workers: workers}
	err := toolgrade.Evaluate(context.Background(), records(n, func(int) bool { return false }),
		[]toolgrade.Metric{m}, func(*toolgrade.Result) error { return nil }, toolgrade.Workers(workers))
	if err != nil {
		t.Fatal(err)
	}
	if s := m.stranded.Load(); s != 0 {
		t.Errorf("%d of %d cases waited for %d to be graded with them in vain", s, n, workers)
	}
}

func TestEvaluateEmitPanicReachesCaller(t *testing.T) {
	defer func() {
		if p := recover(); p != "emit broke" {
			t.Errorf("recovered %v, want the panic from emit", p)
		}
	}()
	toolgrade.Evaluate(context.Background(), records(1000, func(int) bool { return false }),
		[]toolgrade.Metric{sleepy{}}, func(r *toolgrade.Result) error {
			if r.ID == "100" {
				panic("emit broke")
			}
			return nil
		})
	t.Error("Evaluate returned, want it to panic")
}

func TestSummary(t *testing.T) {
	var s toolgrade.Summary
	one := 1.0
	for _, r := range []toolgrade.Result{
		{ID: "a", Success: true, Metrics: []toolgrade.MetricResult{{Name: "m", Profile: "p", Score: 1, Threshold: &one, Success: true, Precision: &one, Recall: &one, F1: &one}}},
		{ID: "b", Metrics: []toolgrade.MetricResult{{Name: "m", Profile: "p", Score: 0.5, Threshold: &one}}},
		{ID: "c", Error: "bad", Metrics: []toolgrade.MetricResult{{Name: "m", Profile: "p", Error: "bad"}}},
	} {
		s.Add(&r)
	}
	if s.Cases != 3 || s.Passed != 1 || s.Errors != 1 {
		t.Errorf("summary = %+v", s)
	}
	m := s.Metrics[0]
	if m.Count != 2 || m.Errors != 1 || m.Passed != 1 || m.Score != 0.75 || m.PRFCount != 1 || m.F1 != 1 {
		t.Errorf("metric summary = %+v", m)
	}
}

// TestEvaluateSharedIDs: results with one id are trials of one case, so a
// case that shares an earlier case's id but not what it asks or expects
// is an error, wherever it comes; trials that spell the same values
// otherwise are trials.
func TestEvaluateSharedIDs(t *testing.T) {
	call := func(name string, args string) toolgrade.Call {
		c := toolgrade.Call{Name: name}
		if args != "" {
			v, err := jsonvalue.ParseString(args)
			if err != nil {
				t.Fatal(err)
			}
			c.Args = v
		}
		return c
	}
	weather := func(input, args string) *toolgrade.Case {
		return &toolgrade.Case{ID: "c1", Input: input, Expected: []toolgrade.Call{call("get_weather", args)}}
	}
	tests := []struct {
		name  string
		cases []*toolgrade.Case
		taken []bool // per result: an ErrIDTaken error
	}{
		{"trials", []*toolgrade.Case{weather("Paris?", `{"city":"Paris","days":1}`), weather("Paris?", `{"days":1.0,"city":"Paris"}`)}, []bool{false, false}},
		{"other input", []*toolgrade.Case{weather("Paris?", `{"city":"Paris"}`), weather("Berlin?", `{"city":"Paris"}`)}, []bool{false, true}},
		{"other expected calls", []*toolgrade.Case{weather("Weather?", `{"city":"Paris"}`), weather("Weather?", `{"city":"Berlin"}`)}, []bool{false, true}},
		{"other numbers, exactly", []*toolgrade.Case{weather("Weather?", `{"n":1e400}`), weather("Weather?", `{"n":2e400}`)}, []bool{false, true}},
		{"other strings that were one", []*toolgrade.Case{weather("\xed\xa0\x80", `{}`), weather("\xed\xaf\xbf", `{}`)}, []bool{false, true}},
		{"no expected calls", []*toolgrade.Case{{ID: "c1", Input: "a"}, {ID: "c1", Input: "a", Expected: []toolgrade.Call{call("f", "")}}}, []bool{false, true}},
		{"apart in the input", []*toolgrade.Case{weather("a", ""), {ID: "c2"}, weather("a", ""), {ID: "c2", Input: "b"}, weather("b", "")}, []bool{false, false, false, true, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []toolgrade.Result
			err := toolgrade.Evaluate(context.Background(), toolgrade.Records(tt.cases), []toolgrade.Metric{sleepy{}}, func(r *toolgrade.Result) error {
				got = append(got, *r)
				return nil
			}, toolgrade.Workers(2))
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range got {
				taken := errors.Is(r.Err, toolgrade.ErrIDTaken)
				if taken != tt.taken[i] {
					t.Errorf("result %d: error %q, want the id taken: %v", i, r.Error, tt.taken[i])
				}
				if taken && (r.Success || r.Metrics[0].Error == "" || !strings.Contains(r.Error, `id "`+r.ID+`" is the id of another case`)) {
					t.Errorf("result %d: %+v", i, r)
				}
			}
		})
	}
}

// waiter waits on the context for case "20", as a judge's request does,
// and errs when it is canceled.
type waiter struct{ reached chan struct{} }

func (waiter) Name() string    { return "waiter" }
func (waiter) Profile() string { return "test" }
func (w waiter) Grade(ctx context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	if c.ID == "20" {
		close(w.reached)
		<-ctx.Done()
		return toolgrade.MetricResult{Name: "waiter", Profile: "test", Error: ctx.Err().Error()}
	}
	return toolgrade.MetricResult{Name: "waiter", Profile: "test", Score: 1}
}

// TestEvaluateLeavesOutCasesInFlight: once the context is canceled, no
// result is emitted: the cases graded under the cancellation are left
// out, not reported as errors.
func TestEvaluateLeavesOutCasesInFlight(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	w := waiter{reached: make(chan struct{})}
	go func() {
		<-w.reached
		cancel()
	}()
	var ids []string
	err := toolgrade.Evaluate(ctx, records(1000, func(int) bool { return false }), []toolgrade.Metric{w}, func(r *toolgrade.Result) error {
		if r.Metrics[0].Error != "" {
			t.Errorf("case %s emitted with %q", r.ID, r.Metrics[0].Error)
		}
		ids = append(ids, r.ID)
		return nil
	}, toolgrade.Workers(4))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Evaluate error = %v, want context.Canceled", err)
	}
	for i, id := range ids {
		if id != strconv.Itoa(i) {
			t.Fatalf("results %v are not the cases before the one in flight, in order", ids)
		}
	}
	if len(ids) > 20 {
		t.Errorf("%d results, want at most the 20 before the case in flight", len(ids))
	}
}

// A case with more pairs of calls than MaxCallPairs is an error result
// that no metric grades; a case at the budget is graded.
func TestMaxCallPairs(t *testing.T) {
	for _, tt := range []struct {
		n, k   int
		graded bool
	}{
		{1000, 10000, true},
		{1000, 10001, false},
		{2, 5_000_001, false},
	} {
		c := &toolgrade.Case{ID: "big", Expected: make([]toolgrade.Call, tt.n), Called: make([]toolgrade.Call, tt.k)}
		r := toolgrade.Grade(context.Background(), c, sleepy{})
		want := fmt.Sprintf("%d expected calls against %d calls made are %d pairs to compare, more than the 10000000 a case may have", tt.n, tt.k, tt.n*tt.k)
		if tt.graded != (r.Error == "") || !tt.graded && !strings.HasPrefix(r.Error, want) {
			t.Errorf("%d × %d calls: error %q, want graded %v", tt.n, tt.k, r.Error, tt.graded)
		}
	}
}

// talker gives a reason and an error of the text it holds.
type talker string

func (talker) Name() string    { return "talker" }
func (talker) Profile() string { return "test" }
func (t talker) Grade(_ context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	return toolgrade.MetricResult{Name: "talker", Profile: "test", Reason: string(t), Error: string(t)}
}

// A metric's reason and error longer than MaxTextBytes are cut at a
// character's start, saying how much was left out; shorter ones are kept.
func TestMaxTextBytes(t *testing.T) {
	short := strings.Repeat("é", toolgrade.MaxTextBytes/2)
	long := "a" + strings.Repeat("é", toolgrade.MaxTextBytes)
	for _, tt := range []struct{ text, want string }{
		{short, short},
		{long, long[:toolgrade.MaxTextBytes-1] + fmt.Sprintf("… (%d more bytes not shown)", len(long)-toolgrade.MaxTextBytes+1)},
	} {
		r := toolgrade.Grade(context.Background(), &toolgrade.Case{ID: "c"}, talker(tt.text))
		if m := r.Metrics[0]; m.Reason != tt.want || m.Error != tt.want {
			t.Errorf("a text of %d bytes became %d bytes ending %q", len(tt.text), len(m.Reason), m.Reason[len(m.Reason)-40:])
		}
	}
}

// Workers past MaxWorkers count as MaxWorkers: a hundred million of them
// grade the cases instead of exhausting memory first.
func TestWorkersBounded(t *testing.T) {
	n := 0
	err := toolgrade.Evaluate(context.Background(), records(10, func(int) bool { return true }), []toolgrade.Metric{sleepy{}}, func(*toolgrade.Result) error {
		n++
		return nil
	}, toolgrade.Workers(100_000_000))
	if err != nil || n != 10 {
		t.Errorf("Evaluate = %v, %d results; want 10", err, n)
	}
}

// TestEvaluateCheckCases: checks see each case that decodes, in their
// order up to the first error, which makes the case an error result
// naming it; a case that does not decode is not checked, and a check's
// panic is an error result, not the end of the run.
func TestEvaluateCheckCases(t *testing.T) {
	var seen sync.Map
	first := func(c *toolgrade.Case) error {
		seen.Store(c.ID, true)
		switch c.ID {
		case "1":
			return errors.New("first says no")
		case "4":
			panic("check panicked")
		}
		c.Warnings = append(c.Warnings, "checked")
		return nil
	}
	second := func(c *toolgrade.Case) error {
		if c.ID == "1" {
			t.Error("the second check ran after the first's error")
		}
		if c.ID == "2" {
			return errors.New("second says no")
		}
		return nil
	}
	var got []string
	err := toolgrade.Evaluate(context.Background(), records(6, func(i int) bool { return i == 3 }), []toolgrade.Metric{constant{}},
		func(r *toolgrade.Result) error {
			msg, _, _ := strings.Cut(r.Error, "\n") // a panic's error goes on with the stack
			got = append(got, fmt.Sprintf("%s %q %q", r.ID, msg, r.Warnings))
			return nil
		}, toolgrade.CheckCases(first), toolgrade.CheckCases(nil), toolgrade.CheckCases(second))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := seen.Load("3"); ok {
		t.Error("a case that did not decode was checked")
	}
	want := []string{
		`0 "" ["checked"]`,
		`1 "first says no" []`,
		`2 "second says no" []`,
		`3 "cases.jsonl:3: field input: broken" []`,
		`4 "internal error decoding the case: check panicked" []`,
		`5 "" ["checked"]`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("results:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// constant scores every case 1.
type constant struct{}

func (constant) Name() string    { return "constant" }
func (constant) Profile() string { return "test" }
func (constant) Grade(context.Context, *toolgrade.Case) toolgrade.MetricResult {
	return toolgrade.MetricResult{Name: "constant", Profile: "test", Score: 1, Threshold: toolgrade.Float(1), Success: true}
}
