package toolgrade

import (
	"errors"
	"fmt"
	"hash/maphash"
	"math/rand/v2"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// ErrIDTaken is, to errors.Is, the error of a case whose id an earlier
// case of the run has, though the two differ in what they ask or expect:
// graded as trials of one case, they would make one flaky case of two.
var ErrIDTaken = errors.New("the id of another case")

// checkID turns res, whose case has the given digest, into an error
// result if an earlier result had its id and another case (see
// [Evaluate]).
func (r *run) checkID(res *Result, digest uint64) {
	if digest == 0 {
		return // not read: no case to compare
	}
	if r.ids.put(maphash.String(idSeed, res.ID), digest) {
		return
	}
	err := fmt.Errorf("id %s is %w, whose input, expected output or expected calls differ: cases that share an id are trials of one case; give this one an id of its own", jsonvalue.AppendString(nil, res.ID), ErrIDTaken)
	bad := ErrorResult(res.ID, err, r.metrics)
	bad.Case, bad.Warnings = res.Case, res.Warnings
	*res = bad
}

var idSeed = maphash.MakeSeed()

// digestSeed varies the hash of case digests from run to run.
var digestSeed = rand.Uint64()

// caseDigest identifies what a case is, as trials of it share: its input,
// expected output and expected calls, by meaning (see [jsonvalue.Hash]).
// It is never 0.
func caseDigest(c *Case) uint64 {
	k := digestSeed
	d := jsonvalue.Hash(k, c.Input)*31 + jsonvalue.Hash(k, c.ExpectedOutput)
	for i := range c.Expected {
		e := &c.Expected[i]
		call := jsonvalue.HashString(k, e.Name) ^ jsonvalue.HashString(k+1, e.Type)*3 ^ jsonvalue.HashString(k+2, e.ArgsRaw)*5 ^
			jsonvalue.Hash(k+3, e.Args)*7 ^ jsonvalue.Hash(k+4, e.Output)*11 ^ uint64(e.Turn)*13
		d = d*31 + call
	}
	if d != 0 {
		return d
	}
	return 1
}

// An idTable holds the ids of a run, each with its case's digest, in 8
// bytes a slot of an open-addressing table at most 3/4 full: 39 bits of
// the id's hash, which also place it, and 24 of the digest. A million ids
// take 16 MB; a Go map of both hashes took three times that in a run's
// peak memory.
//
// What it may get wrong, it gets wrong rarely: two ids whose 39 bits
// agree are taken for one (about once in 200,000 runs of a million
// distinct ids, each probe comparing with a few others), and two cases of
// one id whose digests agree in 24 bits are taken for one case (once in
// 16 million such pairs, which are themselves a mistake in the input).
type idTable struct {
	slots []uint64 // tagBit | tag << digestBits | digest; 0 is empty
	n     int
}

const (
	digestBits = 24
	idTagBit   = 1 << 63 // set in every used slot
)

// put records the id with hash h and its case's digest d, and reports
// whether the id is new or was recorded with a digest that agrees.
func (t *idTable) put(h, d uint64) bool {
	if 4*(t.n+1) > 3*len(t.slots) {
		t.grow()
	}
	entry := idTagBit | h>>(64-63+digestBits)<<digestBits | d&(1<<digestBits-1)
	const tagMask = ^uint64(1<<digestBits - 1)
	mask := uint64(len(t.slots) - 1)
	for i := slotOf(entry) & mask; ; i = (i + 1) & mask {
		switch s := t.slots[i]; {
		case s == 0:
			t.slots[i] = entry
			t.n++
			return true
		case s&tagMask == entry&tagMask:
			return s == entry
		}
	}
}

// slotOf places an entry by its id's bits alone, so that the table can
// grow without the ids.
func slotOf(entry uint64) uint64 {
	x := entry >> digestBits
	x *= 0x9e3779b97f4a7c15
	return x ^ x>>29
}

func (t *idTable) grow() {
	old := t.slots
	t.slots = make([]uint64, max(1024, 2*len(old)))
	mask := uint64(len(t.slots) - 1)
	for _, e := range old {
		if e == 0 {
			continue
		}
		i := slotOf(e) & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = e
	}
}
