package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"

	"github.com/toolgrade/toolgrade"
)

// gcTargetHeap is the heap size at which a grading run collects garbage,
// as long as what it keeps alive is small beside it. Each collection
// costs the marking of what is alive and write barriers while it marks:
// at 32 MB the collections of a run of 50,000 small cases took 7.5% of
// its instructions, at 48 MB 5.7%, at 64 MB 5.1%.
const gcTargetHeap = 48 << 20

// gcHandHeap is the heap (its objects, live and dead) at which a grading
// run collects garbage by hand (see gcPacer.collecting), as long as what
// it keeps alive is small beside it: before the runtime's own collection
// at gcTargetHeap would start, which is then left for runs that emit
// their results too seldom to look at the heap in time.
const gcHandHeap = gcTargetHeap - 8<<20

// gcMemoryLimit is the memory a grading run returns idle pages to the
// system to stay under, as long as what it keeps alive is small beside it.
// It sits close above gcTargetHeap: a long run otherwise keeps freed pages
// up to the limit, and its peak memory grows past a short run's (by a
// third with a limit twice the target). It was 8 MB above until runs
// collected by hand: the heap goal the runtime derives from such a limit
// (the limit less what is not heap, some 11 MB) started its collections
// before the hand did.
const gcMemoryLimit = gcTargetHeap + 16<<20

// gcMemoryCeiling is the most memory limit a run whose heap doubles
// between collections is given beyond its goal and 5 MB (see gcPace).
const gcMemoryCeiling = 80 << 20

// gcSmallLive is the most a live heap can be for a run to collect at
// gcTargetHeap whatever it holds (see gcPace).
const gcSmallLive = 16 << 20

// gcGrowth is how far a larger live heap, mostly without pointers, grows
// between collections (see gcPace).
const gcGrowth = 12 << 20

// gcCheckEvery is how many results a grading run emits between looks at
// its heap (see gcPacer.collecting): some 300 KB of allocation on small
// cases; a look (runtime/metrics.Read) costs a quarter of a microsecond.
const gcCheckEvery = 64

// A gcPacer paces the garbage collector for a grading run: see paceGC. A
// nil *gcPacer leaves the collector as it is.
type gcPacer struct {
	mu      sync.Mutex
	stopped bool
	limit   bool             // whether the pacer sets the memory limit
	sample  []metrics.Sample // read after each collection
	restore func()           // the pacing before the run

	// hand is the heap at which to collect by hand (0: never), set after
	// collection number cycles.
	hand   atomic.Uint64
	cycles atomic.Uint64
	// Used by the goroutine emitting results, one call at a time.
	heap        [2]metrics.Sample
	emitted     int // results emitted since the heap was looked at
	collections int // collections by hand

	// held is set while a collection by hand marks: the other workers
	// wait (see waiting) until released is broadcast. Every worker reads
	// it for every case, so it has a cache line of its own: beside the
	// fields the emitting worker writes for every result, its reads
	// missed (0.3% of a run's samples).
	_        [64]byte
	held     atomic.Bool
	_        [64]byte
	heldMu   sync.Mutex
	released sync.Cond
}

// paceGC paces the garbage collector for a grading run, unless GOGC is set
// in the environment (then it returns nil). The run gives its results to
// the returned pacer's collecting, and ends with its stop.
//
// A run allocates about five kilobytes per case (the decoded case, its
// result, the result line) but keeps only the cases in flight alive: a few
// megabytes. At the default GOGC of 100 the collector then runs every few
// hundred cases and took a fifth of the CPU. After every collection the
// pacer sets GOGC so that the next one starts when the heap reaches
// gcTargetHeap, and collects by hand a little before (see collecting):
// the collector's cost falls to a few percent, and the peak heap is the
// same for ten thousand cases as for ten million. What a run must keep
// per case (the ids seen and the trial figures, with no pointers in
// them: some 32 bytes a case whose id is a prefix and a number in order,
// 54 for other ids) grows the heap by as much and little more;
// what the collector must scan, it lets double (see gcPace).
func paceGC(getenv func(string) string) *gcPacer {
	if getenv != nil && getenv("GOGC") != "" {
		return nil
	}
	p := &gcPacer{
		limit:  getenv == nil || getenv("GOMEMLIMIT") == "",
		sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/heap:bytes"}, {Name: "/gc/cycles/total:gc-cycles"}},
		heap:   [2]metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/cycles/total:gc-cycles"}},
	}
	p.released.L = &p.heldMu
	metrics.Read(p.heap[:])
	p.hand.Store(gcHandHeap)
	p.cycles.Store(p.heap[1].Value.Uint64())
	prev := debug.SetGCPercent(gcTargetHeap / (4 << 20) * 100) // the heap starts at 4 MB
	prevLimit := int64(-1)
	if p.limit {
		prevLimit = debug.SetMemoryLimit(gcMemoryLimit)
	}
	p.restore = func() {
		debug.SetGCPercent(prev)
		if prevLimit >= 0 {
			debug.SetMemoryLimit(prevLimit)
		}
	}
	p.arm()
	return p
}

// arm has tune run after the next collection: the sentinel dies in it.
func (p *gcPacer) arm() {
	runtime.AddCleanup(new([16]byte), func(p *gcPacer) { p.tune() }, p)
}

// tune sets the pacing for the next collection from what the last one
// found alive.
func (p *gcPacer) tune() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	metrics.Read(p.sample)
	live := max(p.sample[0].Value.Uint64(), 1<<20)
	percent, memLimit, hand := gcPace(live, p.sample[1].Value.Uint64())
	p.hand.Store(hand)
	p.cycles.Store(p.sample[2].Value.Uint64())
	debug.SetGCPercent(percent)
	if p.limit {
		debug.SetMemoryLimit(int64(memLimit))
	}
	p.arm()
}

// stop restores the pacing from before the run; later calls do nothing.
func (p *gcPacer) stop() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped {
		p.stopped = true
		p.restore()
	}
}

// collecting returns emit, which the run calls with each result in turn
// (never two at once), made to collect garbage by hand (see collect) when
// the heap has reached the pacer's hand goal.
//
// The runtime, left to itself, starts a collection a little before the
// heap reaches its goal and marks on a quarter of the CPU while the
// workers go on grading: 4 to 7 ms on two cores, through which every
// pointer the workers write (the parser's values above all) passes a
// write barrier. The barriers cost more than the marking: 7.0-7.9% of the
// CPU of a run of 200,000 small cases (wbBufFlush1, findObject,
// tryDeferToSpanScan, gcWriteBarrier, gcmarknewobject), the marking 2%.
// A worker that collects by hand waits while the collector marks, so that
// its processor marks at full speed (1.3-2.6 ms in all), and the barriers
// fell to 1.4-2.1%.
//
// A collection the runtime started meanwhile (the results came too
// slowly) is not followed by another: the heap's objects count what it
// freed until the pacer is tuned again.
func (p *gcPacer) collecting(emit func(*toolgrade.Result) error) func(*toolgrade.Result) error {
	if p == nil {
		return emit
	}
	return func(r *toolgrade.Result) error {
		if p.emitted++; p.emitted == gcCheckEvery {
			p.emitted = 0
			metrics.Read(p.heap[:])
			hand := p.hand.Load()
			if hand > 0 && p.heap[0].Value.Uint64() >= hand && p.heap[1].Value.Uint64() == p.cycles.Load() {
				p.collect()
			}
		}
		return emit(r)
	}
}

// waiting returns the option that has the run's workers wait, before
// grading each case, while a collection by hand marks (see collect).
//
// A run on two cores cost 8-25% more CPU than on one, about a third of
// the difference the collector's: while the emitting worker waited for
// its collection, the other went on decoding and grading, through write
// barriers (wbBufFlush1, findObject, gcWriteBarrier), assists and the
// kernel's TLB shoot-downs. A worker that waits leaves its processor to
// the collector, which then marks on every core with nothing writing: 3%
// less CPU on 1.5 KB cases (bench/README.md). The wait is a check of
// every case (toolgrade.CheckCases) that passes them all: no hook in
// Evaluate for it. A case being graded as the collection starts is
// finished first, through the barriers: a few microseconds.
func (p *gcPacer) waiting() toolgrade.Option {
	var wait func(*toolgrade.Case) error // none: no collections by hand
	if p != nil {
		wait = p.wait
	}
	return toolgrade.CheckCases(wait)
}

// wait waits while a collection by hand marks.
func (p *gcPacer) wait(*toolgrade.Case) error {
	if p.held.Load() {
		p.heldMu.Lock()
		for p.held.Load() {
			p.released.Wait()
		}
		p.heldMu.Unlock()
	}
	return nil
}

// release ends what a collection by hand held (see wait).
func (p *gcPacer) release() {
	p.heldMu.Lock()
	p.held.Store(false)
	p.released.Broadcast()
	p.heldMu.Unlock()
}

// gcPace returns the GOGC, the memory limit and the heap at which to
// collect by hand (0: never) for a run whose last collection found live
// bytes alive, scan of them scannable. Up to gcSmallLive alive, the next
// collection starts when the heap reaches gcTargetHeap, under a limit of
// gcMemoryLimit, unless the run collects by hand at gcHandHeap first.
// Beyond it, a live heap mostly without pointers (the ids seen, the trial
// figures), cheap to mark, is let grow by gcGrowth (or to gcTargetHeap),
// under a limit 5 MB above that (8 MB let a run of a million cases peak at
// 111-115 MB now and then; 2 MB nearly doubled the collections; a growth
// of 16 MB rather than 12 peaked at 94-100 MB where 12 keeps it at 89-96
// MB); one the collector must scan (a report's cases) doubles, as by
// default, instead of being marked all over again at every few megabytes.
// Neither is collected by hand: on a million cases, collections by hand
// with runtime.GC saved no CPU (0.3 s more user time, as much less system
// time, in as many collections).
func gcPace(live, scan uint64) (percent int, memLimit, hand uint64) {
	var goal uint64
	switch {
	case live <= gcSmallLive:
		goal, memLimit, hand = gcTargetHeap, gcMemoryLimit, gcHandHeap
	case scan < live/4:
		goal = max(live+gcGrowth, gcTargetHeap)
		memLimit = goal + 5<<20
	default:
		goal = 2 * live
		// Room for the pages the heap leaves idle, but no more than
		// gcMemoryCeiling allows: the scannable share of a run's heap
		// wavers around a quarter with the cases in flight, and a limit of
		// 2*live+32 MB taken at one such collection let a million cases
		// peak at 110-115 MB now and then.
		memLimit = min(goal+32<<20, max(gcMemoryCeiling, goal+5<<20))
	}
	return int((goal - live) * 100 / live), memLimit, hand
}

// collect starts a collection and waits until its marking ends. It does
// not call runtime.GC, which then sweeps every span itself and yields to
// the scheduler after each one: that took the scheduler's lock for 3-4%
// of a run's CPU, two thirds of what marking at full speed saved. GOGC
// set to 1 puts the heap past the goal, so that an allocation large
// enough to check it starts a collection; GOGC set to -1 waits for the
// marking to end (and returns at once if none started); then GOGC is
// put back. What the collection frees is swept as the runtime sweeps
// after its own collections.
func (p *gcPacer) collect() {
	// Runs in one process (tests, a program running several) must not
	// interleave their settings: one would put back another's 1 or -1.
	gcHandMu.Lock()
	defer gcHandMu.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	p.held.Store(true) // the other workers wait (see waiting)
	defer p.release()
	percent := debug.SetGCPercent(1)
	runtime.KeepAlive(make([]byte, gcStartBytes))
	debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	p.collections++
}

// gcHandMu makes collections by hand one at a time.
var gcHandMu sync.Mutex

// gcStartBytes is the allocation that starts a collection by hand: a
// large object, whose allocation always checks the heap against its goal,
// and too large to be put on the stack.
const gcStartBytes = 128 << 10
