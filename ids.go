package toolgrade

import (
	"errors"
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"strconv"

	"github.com/toolgrade/toolgrade/internal/series"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// ErrIDTaken is, to errors.Is, the error of a case whose id an earlier
// case of the run has, though the two differ in what they ask or expect:
// graded as trials of one case, they would make one flaky case of two.
var ErrIDTaken = errors.New("the id of another case")

// checkID turns res, whose case has the given digest and whose id
// r.ids placed at p, into an error result if an earlier result had its id
// and another case (see [Evaluate]).
func (r *run) checkID(res *Result, digest uint64, p idPlace) {
	if digest == 0 {
		return // not read: no case to compare
	}
	if r.ids.put(res.ID, p, digest) {
		return
	}
	err := fmt.Errorf("id %s is %w, whose input, expected output or expected calls differ: cases that share an id are trials of one case; give this one an id of its own", jsonvalue.AppendString(nil, res.ID), ErrIDTaken)
	bad := ErrorResult(res.ID, err, r.metrics)
	bad.Case, bad.Warnings = res.Case, res.Warnings
	*res = bad
}

var idSeed = maphash.MakeSeed()

// idHash is the hash an idTable keeps of an id.
func idHash(id string) uint64 { return maphash.String(idSeed, id) }

// digestSeed varies the hash of case digests from run to run.
var digestSeed = rand.Uint64()

// caseDigest identifies what a case is, as trials of it share: its input,
// expected output and expected calls, by meaning (see [jsonvalue.Hash]).
// It is never 0.
func caseDigest(c *Case) uint64 {
	k := digestSeed
	// Most cases give no expected output, and most calls no type, raw
	// arguments or output: those count as 0 rather than as the hash of
	// "" or null, which is the same for every case.
	d := jsonvalue.Hash(k, c.Input) * 31
	if c.ExpectedOutput != nil {
		d += jsonvalue.Hash(k, c.ExpectedOutput)
	}
	for i := range c.Expected {
		e := &c.Expected[i]
		call := jsonvalue.HashString(k, e.Name) ^ jsonvalue.Hash(k+3, e.Args)*7 ^ uint64(e.Turn)*13
		if e.Type != "" {
			call ^= jsonvalue.HashString(k+1, e.Type) * 3
		}
		if e.ArgsRaw != "" {
			call ^= jsonvalue.HashString(k+2, e.ArgsRaw) * 5
		}
		if e.Output != nil {
			call ^= jsonvalue.Hash(k+4, e.Output) * 11
		}
		d = d*31 + call
	}
	if d != 0 {
		return d
	}
	return 1
}

// An idTable holds the ids of a run, each with its case's digest: an
// open-addressing table at most 3/4 full of the ids' 64-bit hashes, with
// the digests' low 16 bits beside them, 10 bytes a slot. A million ids
// take 20 MB; a Go map of both hashes took three times that in a run's
// peak memory.
//
// What it may get wrong, it gets wrong rarely: two distinct ids whose
// hashes agree are taken for one (for a million ids, about once in 40
// million runs), and two cases of one id whose digests agree in 16 bits
// are taken for one case (once in 65,536 such pairs, which are themselves
// a mistake in the input). It kept 39 bits of the hash, in 8 bytes with
// 24 of the digest, until 200,000 distinct ids met two that agreed in one
// run in thirty (a million in more than half): a case wrongly refused as
// ErrIDTaken. Whole hashes and 32 bits of the digest took a million-case
// run past 100 MB.
//
// Ids made of a prefix and a number (case-1, case-2, ...; line-17 for
// cases without an id of their own), as most runs' are, are kept apart:
// in an array by the number for each of the first series.Max prefixes, 4
// bytes an id, 1<<16 | the low 16 bits of the digest (0 for none). Ids
// numbered in order then need no hash and meet no cache miss (the
// table's slots, spread by the hash, were a miss a case), and no two are
// taken for one. Numbers too far apart for the array go to the table; one
// among them that the array covers later is looked for in the table too.
// When the table holds more than half the ids (ids that are not numbered
// in order), the series move into it.
type idTable struct {
	ids     []uint64 // the ids' hashes, 0 for an empty slot (a hash of 0 is kept as 1)
	digests []uint16
	n       int    // ids in the table
	all     int    // ids anywhere
	sink    uint64 // what prefetch read, kept so that its reads are made

	series series.Set[uint32]
	// flat keeps every id in the table: set once the series hold too few
	// ids to pay (see flatten), and by tests, which compare the two.
	flat bool
}

// An idPlace is where put is to look for an id, as place found it: the
// id's number in the series of index series-1, or (series 0) the id's
// hash h for the table. Either may have changed by the time of put, which
// then looks again.
type idPlace struct {
	num, h uint64
	series int
}

// place returns where put will look for id as things stand: an id that
// goes to a series needs no hash.
func (t *idTable) place(id string) idPlace {
	if t.flat {
		// no series
	} else if len(t.series.List) > 0 {
		if s, num, _ := t.series.Find(id, false); s != nil && s.Fits(num) {
			return idPlace{num: num, series: t.series.Last() + 1}
		}
	}
	return idPlace{h: max(idHash(id), 1)}
}

// put records id, placed at p, with its case's digest d, and reports
// whether the id is new or was recorded with a digest that agrees.
func (t *idTable) put(id string, p idPlace, d uint64) bool {
	var s *series.Series[uint32]
	num, h := p.num, p.h
	switch {
	case t.flat:
	case p.series > 0:
		s = &t.series.List[p.series-1]
	default:
		s, num, _ = t.series.Find(id, true)
	}
	if s != nil {
		// s.Entry(num), without its call for a number within the array
		// (below Base, i wraps) of a series that holds entries: most.
		var e *uint32
		if i := num - s.Base; i < uint64(len(s.Entries)) && s.Held > 0 {
			e = &s.Entries[i]
		} else {
			e = s.Entry(num)
		}
		if e != nil {
			if *e != 0 {
				return uint16(*e) == uint16(d)
			}
			if s.Spilled(num) && t.n > 0 { // it may be in the table
				if h == 0 {
					h = idHash(id)
				}
				if dd, ok := t.get(h); ok {
					return dd == uint16(d)
				}
			}
			*e = 1<<16 | uint32(uint16(d))
			s.Held++
			t.added()
			return true
		}
	}
	if h == 0 {
		h = idHash(id)
	}
	n := t.n
	ok := t.putHash(h, d)
	if t.n > n {
		t.added()
	}
	return ok
}

// flattenEvery is how many new ids apart put asks whether the series
// pay (see flatten).
const flattenEvery = 1024

// added counts a new id, and flattens the table when it is time.
func (t *idTable) added() {
	t.all++
	if t.all%flattenEvery == 0 && 2*t.n > t.all {
		t.flatten()
	}
}

// flatten moves the ids in series into the table, for good: when most
// ids are in the table, their prefixes and numbers (read to find their
// series, for nothing) cost more than the series save.
func (t *idTable) flatten() {
	if t.flat {
		return // already: added leaves this test here, so that it is inlined
	}
	var id []byte
	for _, s := range t.series.List {
		for i, e := range s.Entries {
			if e != 0 {
				id = strconv.AppendUint(append(id[:0], s.Prefix...), s.Base+uint64(i), 10)
				t.putHash(maphash.Bytes(idSeed, id), uint64(e))
			}
		}
	}
	t.series, t.flat = series.Set[uint32]{}, true
}

// get returns the digest the table holds for the id whose hash is h.
func (t *idTable) get(h uint64) (uint16, bool) {
	h = max(h, 1)
	mask := uint64(len(t.ids) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch t.ids[i] {
		case 0:
			return 0, false
		case h:
			return t.digests[i], true
		}
	}
}

// putHash is put for an id kept in the table, whose hash is h.
func (t *idTable) putHash(h, d uint64) bool {
	if 4*(t.n+1) > 3*len(t.ids) {
		t.grow()
	}
	h = max(h, 1)
	mask := uint64(len(t.ids) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch t.ids[i] {
		case 0:
			t.ids[i], t.digests[i] = h, uint16(d)
			t.n++
			return true
		case h:
			return t.digests[i] == uint16(d)
		}
	}
}

// prefetch reads the slots where put looks first for the given hashes,
// so that the cache misses of a batch of ids come at once rather than one
// a put (put's load was a run's costliest instruction). What it reads
// changes nothing.
func (t *idTable) prefetch(places []idPlace) {
	if len(t.ids) == 0 {
		return
	}
	mask, sum := uint64(len(t.ids)-1), uint64(0)
	for i := range places {
		if h := places[i].h; h != 0 {
			sum += t.ids[h&mask]
		}
	}
	t.sink = sum
}

func (t *idTable) grow() {
	ids, digests := t.ids, t.digests
	size := max(1024, 2*len(ids))
	t.ids, t.digests = make([]uint64, size), make([]uint16, size)
	mask := uint64(size - 1)
	for k, h := range ids {
		if h == 0 {
			continue
		}
		i := h & mask
		for t.ids[i] != 0 {
			i = (i + 1) & mask
		}
		t.ids[i], t.digests[i] = h, digests[k]
	}
}
