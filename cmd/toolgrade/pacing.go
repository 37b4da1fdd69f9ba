package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// gcTargetHeap is the heap size at which a grading run collects garbage,
// as long as what it keeps alive is small beside it. Each collection
// costs the marking of what is alive and write barriers while it marks:
// at 32 MB the collections of a run of 50,000 small cases took 7.5% of
// its instructions, at 48 MB 5.7%, at 64 MB 5.1%.
const gcTargetHeap = 48 << 20

// gcMemoryLimit is the memory a grading run returns idle pages to the
// system to stay under, as long as what it keeps alive is small beside it.
// It sits just above gcTargetHeap: a long run otherwise keeps freed pages
// up to the limit, and its peak memory grows past a short run's (by a
// third with a limit twice the target).
const gcMemoryLimit = gcTargetHeap + 8<<20

// gcMemoryCeiling is the most memory limit a run whose heap doubles
// between collections is given beyond its goal and 5 MB (see gcPace).
const gcMemoryCeiling = 80 << 20

// gcSmallLive is the most a live heap can be for a run to collect at
// gcTargetHeap whatever it holds (see gcPace).
const gcSmallLive = 16 << 20

// gcGrowth is how far a larger live heap, mostly without pointers, grows
// between collections (see gcPace).
const gcGrowth = 12 << 20

// paceGC paces the garbage collector for a grading run, unless GOGC is set
// in the environment, and returns a function that restores the previous
// pacing.
//
// A run allocates about ten kilobytes per case (the decoded case, its
// result, the result line) but keeps only the cases in flight alive: a few
// megabytes. At the default GOGC of 100 the collector then runs every few
// hundred cases and took a fifth of the CPU. After every collection paceGC
// sets GOGC so that the next one starts when the heap reaches
// gcTargetHeap: the collector's cost falls to a few percent, and the peak
// heap is the same for ten thousand cases as for ten million. What a run
// must keep per case (the ids seen and the trial figures, some 54 bytes a
// case, with no pointers in them) grows the heap by as much and little
// more; what the collector must scan, it lets double (see gcPace).
func paceGC(getenv func(string) string) (restore func()) {
	if getenv != nil && getenv("GOGC") != "" {
		return func() {}
	}
	limit := getenv == nil || getenv("GOMEMLIMIT") == ""
	var mu sync.Mutex
	stopped := false
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/heap:bytes"}}
	var tune func()
	// arm runs tune after the next collection: the sentinel dies in it.
	arm := func() { runtime.AddCleanup(new([16]byte), func(struct{}) { tune() }, struct{}{}) }
	tune = func() {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		metrics.Read(sample)
		live := max(sample[0].Value.Uint64(), 1<<20)
		percent, memLimit := gcPace(live, sample[1].Value.Uint64())
		debug.SetGCPercent(percent)
		if limit {
			debug.SetMemoryLimit(int64(memLimit))
		}
		arm()
	}
	prev := debug.SetGCPercent(gcTargetHeap / (4 << 20) * 100) // the heap starts at 4 MB
	prevLimit := int64(-1)
	if limit {
		prevLimit = debug.SetMemoryLimit(gcMemoryLimit)
	}
	arm()
	return func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		debug.SetGCPercent(prev)
		if prevLimit >= 0 {
			debug.SetMemoryLimit(prevLimit)
		}
	}
}

// gcPace returns the GOGC and the memory limit for a run whose last
// collection found live bytes alive, scan of them scannable. Up to
// gcSmallLive alive, the next collection starts when the heap reaches
// gcTargetHeap, under a limit of gcMemoryLimit. Beyond it, a live heap
// mostly without pointers (the ids seen, the trial figures), cheap to
// mark, is let grow by gcGrowth (or to gcTargetHeap), under a limit 5 MB
// above that (8 MB let a run of a million cases peak at 111-115 MB now and
// then; 2 MB nearly doubled the collections; a growth of 16 MB rather than
// 12 peaked at 94-100 MB where 12 keeps it at 89-96 MB); one the collector
// must scan (a report's cases) doubles, as by default, instead of being
// marked all over again at every few megabytes.
func gcPace(live, scan uint64) (percent int, memLimit uint64) {
	var goal uint64
	switch {
	case live <= gcSmallLive:
		goal, memLimit = gcTargetHeap, gcMemoryLimit
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
	return int((goal - live) * 100 / live), memLimit
}
