package toolgrade

import (
	"github.com/toolgrade/toolgrade/jsonvalue"
	"runtime"
	"testing"
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
