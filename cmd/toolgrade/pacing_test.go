package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgrade/toolgrade"
)

func gcSettings() (percent, limit uint64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

func TestPaceGC(t *testing.T) {
	percent0, limit0 := gcSettings()
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}

	t.Run("paced", func(t *testing.T) {
		pacer := paceGC(env(nil))
		if p, l := gcSettings(); p != gcTargetHeap/(4<<20)*100 || l != gcMemoryLimit {
			t.Errorf("GOGC %d, limit %d; want %d and %d before the first collection", p, l, gcTargetHeap/(4<<20)*100, gcMemoryLimit)
		}
		// After a collection GOGC follows the live heap (gcPace, tested
		// below; other tests of the package running at the same time make
		// it vary); the limit stays at least the goal and 5 MB (gcMemoryLimit
		// while the live heap is small).
		const leastLimit = gcTargetHeap + 5<<20
		first, _ := gcSettings()
		deadline := time.Now().Add(5 * time.Second)
		for {
			runtime.GC()
			time.Sleep(10 * time.Millisecond)
			if p, _ := gcSettings(); p != first || time.Now().After(deadline) {
				break
			}
		}
		if p, l := gcSettings(); p == first || p < 1 || l < leastLimit {
			t.Errorf("after collections GOGC %d, limit %d; want GOGC re-tuned (not %d, positive) and limit at least %d", p, l, first, leastLimit)
		}
		pacer.stop()
		if p, l := gcSettings(); p != percent0 || l != limit0 {
			t.Errorf("after restore GOGC %d, limit %d; want %d and %d", p, l, percent0, limit0)
		}
		runtime.GC() // a pending re-tune must not undo the restore
		time.Sleep(10 * time.Millisecond)
		if p, _ := gcSettings(); p != percent0 {
			t.Errorf("a collection after restore set GOGC to %d, want %d", p, percent0)
		}
		// grade stops the pacer after grading and again when it returns.
		prev := debug.SetGCPercent(int(percent0) + 7)
		pacer.stop()
		if p, _ := gcSettings(); p != percent0+7 {
			t.Errorf("a second stop set GOGC to %d, want %d left as it was", p, percent0+7)
		}
		debug.SetGCPercent(prev)
	})

	t.Run("GOGC set", func(t *testing.T) {
		pacer := paceGC(env(map[string]string{"GOGC": "100"}))
		if p, l := gcSettings(); p != percent0 || l != limit0 {
			t.Errorf("GOGC %d, limit %d; want them left at %d and %d", p, l, percent0, limit0)
		}
		if pacer != nil {
			t.Errorf("paceGC = %v, want nil: the collector left as it is", pacer)
		}
		pacer.stop()
	})

	t.Run("GOMEMLIMIT set", func(t *testing.T) {
		pacer := paceGC(env(map[string]string{"GOMEMLIMIT": "1GiB"}))
		if _, l := gcSettings(); l != limit0 {
			t.Errorf("limit %d; want it left at %d", l, limit0)
		}
		pacer.stop()
	})
}

func TestGCPace(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		name        string
		live, scan  uint64
		wantPercent int
		wantLimit   uint64
		wantHand    uint64
	}{
		{"little alive: collect by hand at 40 MB, the runtime at 48", 4 * mb, 4 * mb, 1100, 64 * mb, 40 * mb},
		{"16 MB alive", 16 * mb, 16 * mb, 200, 64 * mb, 40 * mb},
		{"more alive without pointers: still 48 MB, not by hand", 24 * mb, 4 * mb, 100, 53 * mb, 0},
		{"much alive without pointers: grow by 12 MB", 64 * mb, 4 * mb, 18, 81 * mb, 0},
		{"much alive to scan: double", 64 * mb, 32 * mb, 100, 133 * mb, 0},
		{"a scannable quarter: double", 64 * mb, 16 * mb, 100, 133 * mb, 0},
		{"a scannable quarter of a middling heap: double, the limit capped", 37 * mb, 10 * mb, 100, 80 * mb, 0},
		{"a scannable quarter of a small heap: room for idle pages", 20 * mb, 5 * mb, 100, 72 * mb, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, l, h := gcPace(tc.live, tc.scan)
			if p != tc.wantPercent || l != tc.wantLimit || h != tc.wantHand {
				t.Errorf("gcPace(%d MB, %d MB) = %d%%, %d MB, by hand at %d MB; want %d%%, %d MB, %d MB", tc.live/mb, tc.scan/mb, p, l/mb, h/mb, tc.wantPercent, tc.wantLimit/mb, tc.wantHand/mb)
			}
		})
	}
}

func TestPacerCollects(t *testing.T) {
	var emitted int
	emit := func(*toolgrade.Result) error { emitted++; return nil }
	emitN := func(f func(*toolgrade.Result) error, n int) {
		for range n {
			if err := f(&toolgrade.Result{}); err != nil {
				t.Fatal(err)
			}
		}
	}

	t.Run("GOGC set: emit as it is", func(t *testing.T) {
		var pacer *gcPacer
		emitted = 0
		emitN(pacer.collecting(emit), 3)
		if emitted != 3 {
			t.Errorf("emitted %d results, want 3", emitted)
		}
	})

	pacer := paceGC(func(string) string { return "" })
	defer pacer.stop()
	collecting := pacer.collecting(emit)
	t.Run("below the hand goal", func(t *testing.T) {
		pacer.hand.Store(1 << 50)
		before := pacer.collections
		emitted = 0
		emitN(collecting, 10*gcCheckEvery)
		if n := pacer.collections - before; n != 0 || emitted != 10*gcCheckEvery {
			t.Errorf("%d collections by hand, %d results emitted; want none and %d", n, emitted, 10*gcCheckEvery)
		}
	})
	t.Run("past the hand goal", func(t *testing.T) {
		// The pacer's tuning after a collection (other tests', or the
		// last try's) may set the goal back: try again then.
		n, cycles := 0, uint64(0)
		for try := 0; try < 5 && n == 0; try++ {
			pacer.cycles.Store(collections())
			pacer.hand.Store(1) // any heap is past it
			before, cyclesBefore := pacer.collections, collections()
			emitted = 0
			emitN(collecting, gcCheckEvery)
			n, cycles = pacer.collections-before, collections()-cyclesBefore
			if emitted != gcCheckEvery {
				t.Errorf("%d results emitted, want %d", emitted, gcCheckEvery)
			}
		}
		if n != 1 || cycles < 1 {
			t.Errorf("%d collections by hand, %d done; want 1, and at least 1 done", n, cycles)
		}
	})
	t.Run("a collection since the goal was set", func(t *testing.T) {
		pacer.cycles.Store(0) // as if the runtime had collected since
		pacer.hand.Store(1)
		before := pacer.collections
		emitN(collecting, gcCheckEvery)
		if n := pacer.collections - before; n != 0 {
			t.Errorf("%d collections by hand, want none: the heap's objects still count what the last one freed", n)
		}
	})
}

// TestPacerHoldsWorkers holds the workers' check (waiting) to wait while a
// collection by hand marks, and to go on once it ends.
func TestPacerHoldsWorkers(t *testing.T) {
	var none *gcPacer
	if err := toolgrade.Evaluate(t.Context(), toolgrade.Records([]*toolgrade.Case{{ID: "a"}}), nil,
		func(*toolgrade.Result) error { return nil }, none.waiting()); err != nil {
		t.Fatalf("without a pacer: %v", err)
	}
	pacer := paceGC(func(string) string { return "" })
	defer pacer.stop()
	waited := func() chan struct{} {
		done := make(chan struct{})
		go func() {
			_ = pacer.wait(nil)
			close(done)
		}()
		return done
	}
	pacer.held.Store(true)
	done := waited()
	select {
	case <-done:
		t.Fatal("a worker went on while a collection held it")
	case <-time.After(20 * time.Millisecond):
	}
	// The collection holds them too (the goroutine watching sees it while
	// the collecting one waits for the marking), and lets them go on.
	var seen atomic.Bool
	stop := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if pacer.held.Load() {
				seen.Store(true)
			}
			runtime.Gosched()
		}
	}()
	pacer.held.Store(false)
	pacer.collect()
	close(stop)
	<-watched
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a worker still waits after the collection")
	}
	if !seen.Load() {
		t.Error("the workers were not held while the collection marked")
	}
	if pacer.held.Load() {
		t.Error("the workers are still held after the collection")
	}
	select {
	case <-waited():
	case <-time.After(5 * time.Second):
		t.Fatal("a worker waits with no collection")
	}
}

// collections returns the collections done.
func collections() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
