// Package series keeps ids made of a prefix and a number, as most runs'
// are (case-1, case-2, ...; line-17 for cases without an id of their
// own), in arrays by the number: ids numbered in order then need no hash
// and are found in memory read in order, where a table's slots, spread
// by the hash, were a cache miss an id. Package toolgrade's id table and
// package reliability's Trials keep their ids so, each with a hashed
// table beside for the ids the series do not take.
package series

import "strings"

// Split splits id into a prefix and the number its last digits spell,
// id being prefix + the number in decimal: leading zeros stay in the
// prefix (case-007 is case-00 and 7). It reports false for an id that
// ends in no digit, or in more than 18.
func Split(id string) (prefix string, num uint64, ok bool) {
	i := len(id)
	for i > 0 && id[i-1]-'0' <= 9 {
		i--
	}
	for i < len(id)-1 && id[i] == '0' {
		i++
	}
	if i == len(id) || len(id)-i > 18 {
		return "", 0, false
	}
	for _, c := range []byte(id[i:]) {
		num = num*10 + uint64(c-'0')
	}
	return id[:i], num, true
}

// Max bounds the prefixes a Set keeps series of; minLen is the first
// length of a series' array.
const (
	Max    = 16
	minLen = 64
)

// A Series holds the entries of the ids of one prefix in an array by the
// number: Entries[i] is the entry of prefix + (Base+i), 0 for none. The
// array stays dense, at most four entries an id held past its first
// minLen: numbers farther apart are spilled, kept by the caller elsewhere.
type Series[E uint32 | uint64] struct {
	Prefix string // a copy
	// head is the prefix's first bytes, up to eight, as a little-endian
	// word, and headMask the bits they take (see Set.Find).
	head, headMask uint64
	Base           uint64
	Entries        []E
	Held           int // entries set, as the caller counts them
	// lo and hi bound the numbers spilled (none while hi < lo).
	lo, hi uint64
}

// Entry returns the entry of number num, growing the array to it if the
// series stays dense enough; if it does not, nil, and num is spilled.
func (s *Series[E]) Entry(num uint64) *E {
	if s.Held == 0 && s.hi < s.lo {
		s.Base = num // empty: start the array anywhere
	}
	i := num - s.Base
	if num >= s.Base && i < uint64(len(s.Entries)) {
		return &s.Entries[i]
	}
	if num < s.Base || i >= uint64(max(minLen, 4*(s.Held+1))) {
		if s.hi < s.lo {
			s.lo, s.hi = num, num
		}
		s.lo, s.hi = min(s.lo, num), max(s.hi, num)
		return nil
	}
	n := max(minLen, len(s.Entries))
	for uint64(n) <= i {
		n *= 2
	}
	e := make([]E, n)
	copy(e, s.Entries)
	// The rest is written now, an entry in 512 (one a 4 KB page or more):
	// read first (the callers test an entry before they set it), a fresh
	// page would be mapped to the kernel's zero page, and the write that
	// follows must flush the other cores' TLBs.
	for k := len(s.Entries); k < n; k += 512 {
		e[k] = 0
	}
	s.Entries = e
	return &s.Entries[i]
}

// Spilled reports whether number num may have been spilled: if so, an
// entry of 0 does not say the id is new.
func (s *Series[E]) Spilled(num uint64) bool { return s.lo <= num && num <= s.hi }

// Fits reports whether Entry(num) would return an entry of a series
// already started (by its first Entry), for a number not spilled.
func (s *Series[E]) Fits(num uint64) bool {
	return num >= s.Base && !s.Spilled(num) && num-s.Base < uint64(max(len(s.Entries), 4*(s.Held+1)))
}

// Get returns the entry of number num, 0 if none.
func (s *Series[E]) Get(num uint64) E {
	if i := num - s.Base; num >= s.Base && i < uint64(len(s.Entries)) {
		return s.Entries[i]
	}
	return 0
}

// A Set holds the series of the first Max prefixes met. The zero value
// is ready to use.
type Set[E uint32 | uint64] struct {
	List []Series[E]
	last int // the index of the series Of returned last
}

// Of returns the series of prefix; if it has none, a new one if admit is
// set and there is room, else nil.
func (set *Set[E]) Of(prefix string, admit bool) *Series[E] {
	if set.last < len(set.List) && set.List[set.last].Prefix == prefix {
		return &set.List[set.last]
	}
	for k := range set.List {
		if set.List[k].Prefix == prefix {
			set.last = k
			return &set.List[k]
		}
	}
	if !admit || len(set.List) == Max {
		return nil
	}
	head, mask := uint64(0), uint64(0)
	if len(prefix) <= 8 {
		for i := len(prefix) - 1; i >= 0; i-- {
			head = head<<8 | uint64(prefix[i])
		}
		mask = uint64(1)<<(8*len(prefix)) - 1
	}
	set.List = append(set.List, Series[E]{Prefix: strings.Clone(prefix), head: head, headMask: mask, lo: 1})
	set.last = len(set.List) - 1
	return &set.List[set.last]
}

// Find returns what Split and Of give for id: the series of its prefix
// (nil if it has none and admit is unset, or there is no room) and its
// number; ok is false, and s nil, for an id that Split refuses. An id of
// the series Of or Find returned last (most ids: a run's are mostly of
// one prefix) is read without splitting it first, its prefix compared as
// a word and its digits read eight at a time: splitting it and finding
// its series cost four times as much.
func (set *Set[E]) Find(id string, admit bool) (s *Series[E], num uint64, ok bool) {
	if set.last < len(set.List) {
		s = &set.List[set.last]
		// id is the prefix and digits when Split gives the prefix for
		// it: the digits have no leading zero (a prefix ends in no digit
		// but leading zeros), or are a single 0.
		p, n := len(s.Prefix), len(id)-len(s.Prefix)
		if p <= 8 && n >= 1 && n <= 8 && len(id) >= 8 && word(id)&s.headMask == s.head && (id[p] != '0' || n == 1) {
			if num, ok := digits8(word(id[len(id)-8:]), n); ok {
				return s, num, true
			}
		} else if n >= 1 && n <= 18 && id[:p] == s.Prefix && (id[p] != '0' || n == 1) {
			if num, ok := digits(id[p:]); ok {
				return s, num, true
			}
		}
	}
	prefix, num, ok := Split(id)
	if !ok {
		return nil, 0, false
	}
	return set.Of(prefix, admit), num, true
}

// word returns the first eight bytes of s, the first lowest.
func word(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// digits8 returns the number the top n bytes of w spell in decimal (the
// first byte lowest; 1 <= n <= 8), reporting whether they are all ASCII
// digits. The bytes below are taken as leading zeros.
func digits8(w uint64, n int) (uint64, bool) {
	const zeros, high = 0x3030303030303030, 0xf0f0f0f0f0f0f0f0
	mask := ^uint64(0) << (8 * (8 - n))
	w = w&mask | zeros&^mask
	// A byte is a digit if its high half is 3, and still is with 6
	// added to it (its low half is at most 9). The sum carries from a
	// byte into the next only from a byte whose high half is not 3.
	if w&high != zeros || (w+0x0606060606060606)&high != zeros {
		return 0, false
	}
	v := w - zeros
	v = (v*10 + v>>8) & 0x00ff00ff00ff00ff      // pairs of digits
	v = (v*100 + v>>16) & 0x0000ffff0000ffff    // fours
	return (v*10000 + v>>32) & 0xffffffff, true // eight
}

// digits returns the number s spells in decimal, reporting whether s is
// all ASCII digits.
func digits(s string) (uint64, bool) {
	var num uint64
	for _, c := range []byte(s) {
		if c-'0' > 9 {
			return 0, false
		}
		num = num*10 + uint64(c-'0')
	}
	return num, true
}

// Last returns the index in List of the series Of returned last.
func (set *Set[E]) Last() int { return set.last }

// Reset empties every series, keeping its prefix and memory.
func (set *Set[E]) Reset() {
	for k := range set.List {
		s := &set.List[k]
		clear(s.Entries)
		s.Held, s.lo, s.hi = 0, 1, 0
	}
}
