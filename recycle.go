package toolgrade

import (
	"runtime"

	"github.com/toolgrade/toolgrade/internal/poison"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// EmitKeepsNothing promises [Evaluate] that emit keeps no part of a result
// past its return: not the *Result, its Case, the case's calls, values
// (Args, Output, Input, Raw, ...) or lists, nor a MetricResult's slices.
// Evaluate may then reuse the memory of a case, its values and its
// result for the cases read after it, instead of taking fresh memory for
// each, which the garbage collector must then find and free (about 13% of
// the CPU of a run of 1.5 KB cases).
//
// Strings are the exception, by construction: a string taken from a
// result (an id, a tool name, a reason) stays valid, as its bytes are
// never reused. Anything else kept past emit may read as a later case's
// data. Without the option (the default) a result may be kept, whole, as
// long as the caller likes.
//
// Only records that can parse into reused memory take part (those of
// package dataset: see [RecyclingRecord]: their values, the case and its
// calls); others decode as they always do. The memory of the results, a
// batch at a time, is reused for every record.
func EmitKeepsNothing() Option {
	return optionFunc(func(o *evalOptions) { o.recycle = true })
}

// A RecyclingRecord is a [Record] that can parse its text into memory that
// [Evaluate]'s worker reuses: under [EmitKeepsNothing], Evaluate decodes
// it with DecodeRecycling instead of Decode, which must decode as Decode
// does, parsing with p (see [jsonvalue.Recycler]: the case's values are
// valid until its result is emitted).
type RecyclingRecord interface {
	Record
	DecodeRecycling(p *jsonvalue.Recycler) (*Case, error)
}

// recyclers holds a run's recyclers, one for each processor: taken when
// a worker starts grading a batch, and put back when it stops. A run with
// more workers than processors (cases that wait on a judge, or
// --workers set high) reuses memory in as many grade calls at once as
// there are processors, and the others decode into fresh memory, as
// without EmitKeepsNothing: each recycler holds its generations in flight
// and a few free (half a megabyte or so on 1.5 KB cases), and one for
// each of 64 workers took 38 MB more at the peak of a run.
type recyclers chan *jsonvalue.Recycler

func newRecyclers(workers int) recyclers {
	n := min(workers, runtime.GOMAXPROCS(0))
	rs := make(recyclers, n)
	for range n {
		rs <- jsonvalue.NewRecycler()
	}
	return rs
}

// take returns a recycler with the memory of every batch emitted, those
// before head, released; nil when the run reuses nothing, or when every
// recycler is taken.
func (rs recyclers) take(head int) *jsonvalue.Recycler {
	select {
	case rc := <-rs:
		rc.Release(head)
		return rc
	default:
		return nil // a nil channel, or none free
	}
}

func (rs recyclers) put(rc *jsonvalue.Recycler) {
	if rc != nil {
		rs <- rc
	}
}

// decodeRecord decodes rec, a record of batch seq, with rc when both
// take part in recycling.
func decodeRecord(rec Record, rc *jsonvalue.Recycler, seq int) (*Case, error) {
	if rc != nil {
		if rr, ok := rec.(RecyclingRecord); ok {
			rc.Mark(seq)
			return rr.DecodeRecycling(rc)
		}
	}
	return rec.Decode()
}

// retire clears batch b, emitted, for reuse by a batch read later
// (under EmitKeepsNothing; see reuse), as the recyclers clear the
// memory they take back: a batch waiting for reuse holds no pointer.
// Emitted, b is out of r.taken and r.ready, and every result and metric
// result in it is past emit. Under internal/poison the results' ids read
// as poison until b is reused, so that a result kept past emit shows.
//
// A worker may still hold b: the one that took it from the queue (a
// batch can be graded whole by others while queued) until it has looked
// for a record to claim, and a helper that loaded it from r.taken before
// it left. Neither reads what retire clears (every record is claimed),
// and each counts itself in b.holders, a helper before it checks that b
// is (still) in r.taken; reuse takes b only when the count is 0. A
// helper that loaded b earlier and counts itself later finds it out of
// r.taken, or back in flight as a new batch, which it may grade.
func (r *run) retire(b *batch) {
	if r.recyclers == nil {
		return
	}
	fill := ""
	if poison.On {
		fill = poisonText
	}
	b.clear(fill)
}

// clear clears b's records and results, their ids set to fill.
//
//go:noinline
func (b *batch) clear(fill string) {
	k := len(b.recs)
	clear(b.recsIn[:k])
	clear(b.resultsIn[:k])
	clear(b.digestsIn[:k])
	clear(b.metrics)
	for i := range b.resultsIn[:k] {
		b.resultsIn[i].ID = fill
	}
}

const poisonText = "\x00POISON"

// reuse returns the batch retired last, with room for n records, if no
// worker holds it; nil otherwise. r.mu is not held.
func (r *run) reuse(n int) *batch {
	if r.recyclers == nil {
		return nil
	}
	r.mu.Lock()
	var b *batch
	if k := len(r.spent) - 1; k >= 0 && r.spent[k].holders.Load() == 0 {
		b = r.spent[k]
		r.spent[k] = nil
		r.spent = r.spent[:k]
	}
	r.mu.Unlock()
	if b == nil || cap(b.metrics) < n*len(r.metrics) {
		return nil // the first batches are small: the collector takes them
	}
	if poison.On {
		b.clear("")
	}
	b.metrics = b.metrics[:n*len(r.metrics)]
	b.claimed.Store(0)
	b.graded.Store(0)
	b.recs = b.recsIn[:0:n]
	return b
}
