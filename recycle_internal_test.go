package toolgrade

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"testing"

	"github.com/toolgrade/toolgrade/internal/poison"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// TestRecyclersOnePerProcessor: a run with more workers than processors
// holds a recycler for each processor, not each worker, and the grade
// calls beyond them decode without one instead of waiting for one.
func TestRecyclersOnePerProcessor(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	rs := newRecyclers(procs + 30)
	if len(rs) != procs {
		t.Fatalf("%d recyclers for %d processors", len(rs), procs)
	}
	var taken []*jsonvalue.Recycler
	for range procs {
		rc := rs.take(0)
		if rc == nil {
			t.Fatal("no recycler while some are free")
		}
		taken = append(taken, rc)
	}
	if rc := rs.take(0); rc != nil {
		t.Fatal("a recycler beyond one per processor")
	}
	rs.put(taken[0])
	if rc := rs.take(0); rc != taken[0] {
		t.Fatal("the recycler put back is not taken again")
	}
	if rc := newRecyclers(1).take(0); rc == nil {
		t.Fatal("no recycler for a lone worker")
	}
	var none recyclers
	if rc := none.take(0); rc != nil {
		t.Fatal("a recycler in a run that reuses nothing")
	}
	none.put(nil)
}

// An idRecord decodes into a case whose id is its number.
type idRecord int

func (r idRecord) Decode() (*Case, error) { return &Case{ID: strconv.Itoa(int(r))}, nil }

// echoMetric gives the case's id as its reason, now and then letting
// other goroutines run, so that workers help each other.
type echoMetric string

func (m echoMetric) Name() string    { return string(m) }
func (m echoMetric) Profile() string { return "default" }
func (m echoMetric) Grade(_ context.Context, c *Case) MetricResult {
	if n, _ := strconv.Atoi(c.ID); n%3 == 0 {
		runtime.Gosched()
	}
	return MetricResult{Name: string(m), Profile: "default", Score: 1, Reason: c.ID}
}

// TestBatchesReusedOnceFree grades many records on many workers under
// EmitKeepsNothing, with released memory poisoned: every result emitted
// is its record's, whole, though the batches are reused (see run.retire),
// with one metric and with two. Run it under -race: a batch reused while
// a worker still holds it shows as a race.
func TestBatchesReusedOnceFree(t *testing.T) {
	t.Cleanup(poison.Set(true))
	for _, metrics := range [][]Metric{{echoMetric("a")}, {echoMetric("a"), echoMetric("b")}} {
		t.Run(fmt.Sprint(len(metrics)), func(t *testing.T) {
			const n = 50000 // 1,563 batches; 192 in flight at most
			records := func(yield func(Record, error) bool) {
				for i := range n {
					if !yield(idRecord(i), nil) {
						return
					}
				}
			}
			next := 0
			seen := map[*Result]bool{}
			err := Evaluate(context.Background(), records, metrics, func(r *Result) error {
				seen[r] = true
				want := strconv.Itoa(next)
				next++
				if r.ID != want || r.Error != "" || len(r.Metrics) != len(metrics) || r.Case == nil || r.Case.ID != want {
					return fmt.Errorf("result %s: %+v", want, r)
				}
				for i, m := range r.Metrics {
					if m.Name != metrics[i].Name() || m.Reason != want {
						return fmt.Errorf("result %s, metric %d: %+v", want, i, m)
					}
				}
				return nil
			}, Workers(64), EmitKeepsNothing())
			if err != nil {
				t.Fatal(err)
			}
			if next != n {
				t.Fatalf("%d results of %d", next, n)
			}
			if len(seen) > n/2 { // 192 batches in flight at most, more under -race
				t.Errorf("%d results at %d addresses: batches were not reused", n, len(seen))
			}
		})
	}
}
