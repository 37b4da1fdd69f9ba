package reliability

import (
	"encoding/binary"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/series"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Trials groups results by case id: results with the same id are trials
// of one case, wherever they come in the input. Feed it every result with
// [Trials.Add]; [Trials.Suite] and [Trials.Case] give the figures. The
// zero value is ready to use.
//
// Most runs have one trial per case, so what Trials keeps of a case that
// has not repeated is small and holds no pointers (the garbage collector
// need not scan it): a record in a log of records, one per case in the
// order first seen, with the case's key and its first trial's index,
// verdicts and scores (about 20 bytes for a case with one metric and a
// short id), and what finds the record from the key: an entry in an
// array by the key's number for keys numbered in order (8 bytes, see
// Trials.series), else a slot in an open-addressing table by the key's
// hash (8 bytes, at most 80% full). Only when an id comes
// again is its first trial replayed from its record into a caseTrials,
// which sums the case's trials from then on; the record then points to it.
//
// A Go map from id to per-case sums was measured against it on a million
// cases: it kept five times the memory and took three times the CPU with
// one trial per case, 1.4 times and twice with three (bench/README.md).
type Trials struct {
	// slots is the table: 0 for an empty slot, else the top bits of the
	// key's hash (tagBits of them) above the record's ref plus one. A
	// matching tag is confirmed against the key in the record, so keys
	// whose hashes collide stay apart.
	slots  []uint64
	chunks [][]byte // the log: records end to end, none across chunks
	n      int      // distinct cases (records)
	hashed int      // those found through slots (the others are in series)

	// series keep ref+1 of the records of cases whose keys are a prefix
	// and a number, by the number: the table's slots, spread by the hash,
	// were a cache miss a case (the largest cost of a run's statistics).
	// The keys the series do not take go to the table; when it holds more
	// than half the cases (ids not numbered in order), the series move
	// into it.
	series series.Set[uint64]
	// flat keeps every key in the table: set once the series hold too
	// few cases to pay (see flatten), and by tests, which compare the two.
	flat bool

	// seed seeds the keys' hash (jsonvalue.HashString: keys are
	// confirmed against their records, so the hash need only spread them;
	// maphash cost twice as much on ids of a few bytes); 0 until the
	// table is first made.
	seed uint64
	// hash, if set, replaces the hash (tests force collisions with it);
	// chunkMax, if set, replaces maxChunk (tests cross chunks with it).
	hash     func(string) uint64
	chunkMax int
	// tagHome, if set, replaces tagBits as the most slot bits a grown
	// table takes from the tags (tests make the table rehash with it).
	tagHome uint

	cases   []caseTrials   // the cases with several trials
	later   []laterTrial   // their trials after the first
	extra   []metricTrials // metrics of a case beyond its first, in blocks
	metrics []metricName   // the metrics met, by index
	max     int            // the most trials of any case

	tq tCache // Student's t quantiles, by degrees of freedom (estimate.go)

	scores     []float64   // the scores records give by index
	scoreIndex *scoreTable // their bits → index
}

// spot returns where the ref of key is kept, as ref+1 in its low refBits
// bits, and whether it is there; if not, the spot is where it goes: an
// entry of series s, or (s nil) a slot of the table, with key's hash h.
func (t *Trials) spot(key string) (spot *uint64, h uint64, s *series.Series[uint64], found bool) {
	if t.flat {
		// no series
	} else if ser, num, _ := t.series.Find(key, true); ser != nil {
		s = ser
		// s.Entry(num), without its call for a number within the array
		// (below Base, i wraps) of a series that holds entries: most.
		var e *uint64
		if i := num - s.Base; i < uint64(len(s.Entries)) && s.Held > 0 {
			e = &s.Entries[i]
		} else {
			e = s.Entry(num)
		}
		if e != nil {
			if *e != 0 || !s.Spilled(num) || len(t.slots) == 0 {
				return e, 0, s, *e != 0
			}
			h = t.hashString(key)
			if i, ok := t.find(key, h); ok {
				return &t.slots[i], h, nil, true
			}
			return e, 0, s, false
		}
	}
	if (t.hashed+1)*5 > len(t.slots)*4 {
		t.grow()
	}
	h = t.hashString(key)
	i, ok := t.find(key, h)
	return &t.slots[i], h, nil, ok
}

// flattenEvery is how many new cases apart add asks whether the series
// pay (see flatten).
const flattenEvery = 1024

// flatten moves the cases in series into the table, for good: when most
// cases are in the table, the keys' prefixes and numbers (read to find
// their series, for nothing) cost more than the series save.
func (t *Trials) flatten() {
	for k := range t.series.List {
		for _, e := range t.series.List[k].Entries {
			if e == 0 {
				continue
			}
			if (t.hashed+1)*5 > len(t.slots)*4 {
				t.grow()
			}
			key, _ := recordKey(t.record(e - 1))
			h := t.hashBytes(key)
			mask := len(t.slots) - 1
			i := home(h, slotBits(len(t.slots)))
			for t.slots[i] != 0 { // the key is in no other slot
				i = (i + 1) & mask
			}
			t.slots[i] = h>>refBits<<refBits | e
			t.hashed++
		}
	}
	t.series, t.flat = series.Set[uint64]{}, true
}

// refOf returns the ref of key's record, if there is one.
func (t *Trials) refOf(key string) (uint64, bool) {
	if prefix, num, ok := series.Split(key); ok {
		if s := t.series.Of(prefix, false); s != nil {
			if e := s.Get(num); e != 0 {
				return e - 1, true
			}
			if !s.Spilled(num) {
				return 0, false
			}
		}
	}
	if len(t.slots) == 0 {
		return 0, false
	}
	i, ok := t.find(key, t.hashString(key))
	return t.slots[i]&refMask - 1, ok
}

// A scoreTable finds a score's index in Trials.scores by its bits: open
// addressing, at most half full. A map cost a hash call per metric of
// every result.
type scoreTable [2 * maxScores]struct {
	bits  uint64
	index uint16 // plus one; 0 is empty
}

// A record is, end to end:
//
//	flags         1 byte (rec* below)
//	first         4 bytes, little-endian: the first trial's index; once the
//	              case has repeated (recRepeated), its index in Trials.cases
//	len(key)      uvarint
//	key
//	len(metrics)  uvarint
//	per metric    uvarint metric index<<3 | verdict<<2 | score kind, then
//	              the score's index in Trials.scores (1 byte) for
//	              scoreKnown, or its 8 bytes (little-endian float64) for
//	              scoreBits
//
// A record's ref is its chunk's index << posBits | its offset in it.
const (
	recRepeated = 1 << iota // the case has several trials
	recPassed               // its first trial passed
	recErred                // its first trial's record could not be read
)

// Score kinds. Scores are mostly ratios of small counts, few distinct
// ones in a run: the first maxScores met are kept in Trials.scores, and a
// record gives their index.
const (
	scoreNone  = iota // the metric erred: no score
	scoreKnown        // in Trials.scores
	scoreBits         // not
)

const maxScores = 256

const (
	posBits  = 20 // a record's offset in its chunk
	refBits  = 40 // a ref (plus one) in a slot
	tagBits  = 64 - refBits
	refMask  = 1<<refBits - 1
	maxChunk = 1 << posBits // bytes per chunk; a larger record gets a chunk of its own
	minChunk = 4 << 10      // the first chunk's size; each next one doubles, up to maxChunk
)

type metricName struct {
	name, profile string // copies
	// seenName and seenProfile are the name and profile as a result last
	// gave them, not copied: a run's results share their metric's
	// strings, which compare equal by their pointers, without reading
	// them.
	seenName, seenProfile string
}

// caseTrials holds a case's trials: kept for a case that has several, and
// replayed from its record for the moment it is needed otherwise.
type caseTrials struct {
	ref       uint64 // the case's record
	n, passed int32
	first     int32 // the first trial's index
	last      int32 // the latest trial in Trials.later, or -1
	// m0 is the first metric; the others are extra[more : more+nm-1].
	m0        metricTrials
	more      int32
	nm        int32
	erred     bool // a record could not be read
	firstPass bool
}

// laterTrial is a trial of a case after its first: its index and
// verdict, and the trial before it in Trials.later (-1: the first).
type laterTrial struct {
	trial, prev int32
	pass        bool
}

// metricTrials is one metric over a case's trials.
type metricTrials struct {
	metric     int32 // index into Trials.metrics
	n, passed  int32 // trials that had the metric, and passed it
	scored     int32
	sum, sumSq float64
	outOfRange bool // a score outside [0, 1]
}

// record returns the bytes of the log from the record at ref on.
func (t *Trials) record(ref uint64) []byte {
	return t.chunks[ref>>posBits][ref&(1<<posBits-1):]
}

// recordKey returns the key of the record b starts with, and where the
// record goes on after it.
func recordKey(b []byte) (key []byte, next int) {
	n, w := binary.Uvarint(b[5:])
	next = 5 + w + int(n)
	return b[5+w : next], next
}

// recordLen returns the length of the record b starts with.
func recordLen(b []byte) int { return recordMetrics(b, nil) }

// recordMetrics calls f, if set, with each metric of the record b starts
// with: its head (metric index<<3 | verdict<<2 | score kind) and its
// score's bytes. It returns the record's length.
func recordMetrics(b []byte, f func(x uint64, score []byte)) int {
	_, p := recordKey(b)
	nm, w := binary.Uvarint(b[p:])
	p += w
	for range nm {
		x, w := binary.Uvarint(b[p:])
		p += w
		n := 0
		switch x & 3 {
		case scoreKnown:
			n = 1
		case scoreBits:
			n = 8
		}
		if f != nil {
			f(x, b[p:p+n])
		}
		p += n
	}
	return p
}

// idOf returns the id of the case whose record is at ref.
func (t *Trials) idOf(ref uint64) string {
	k, _ := recordKey(t.record(ref))
	return string(k)
}

func (t *Trials) hashString(s string) uint64 {
	if t.hash != nil {
		return t.hash(s)
	}
	return jsonvalue.HashString(t.seed, s)
}

func (t *Trials) hashBytes(b []byte) uint64 {
	if t.hash != nil {
		return t.hash(string(b))
	}
	return jsonvalue.HashString(t.seed, string(b))
}

// slotBits is log2 of len(t.slots) for a table of n slots.
func slotBits(n int) uint { return uint(bits.TrailingZeros(uint(n))) }

// home is the slot a key whose hash is h goes to first: the hash's top
// bits, which its tag holds too, so that the table grows without hashing
// its keys again while it has no more than 1<<tagBits slots.
func home(h uint64, slotBits uint) int {
	if slotBits == 0 {
		return 0
	}
	return int(h >> (64 - slotBits))
}

// rehashPast is the size, in bits, past which a growing table hashes its
// keys again: its slots' tags hold no more of their hashes.
func (t *Trials) rehashPast() uint {
	if t.tagHome > 0 {
		return t.tagHome
	}
	return tagBits
}

// find returns the slot of key, whose hash is h, and whether it holds the
// key; if not, the slot is the empty one where the key goes.
func (t *Trials) find(key string, h uint64) (int, bool) {
	mask := len(t.slots) - 1
	tag := h >> refBits
	for i := home(h, slotBits(len(t.slots))); ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return i, false
		}
		if s>>refBits == tag {
			if k, _ := recordKey(t.record(s&refMask - 1)); string(k) == key {
				return i, true
			}
		}
	}
}

// grow doubles the table, rehashing every key from its record.
func (t *Trials) grow() {
	old := t.slots
	if len(old) == 0 && t.seed == 0 {
		t.seed = rand.Uint64() | 1
	}
	t.slots = make([]uint64, max(8, 2*len(old)))
	mask, sb := len(t.slots)-1, slotBits(len(t.slots))
	for _, s := range old {
		if s == 0 {
			continue
		}
		var i int
		if sb <= t.rehashPast() {
			i = home(s, sb) // the tag's top bits are the hash's
		} else {
			k, _ := recordKey(t.record(s&refMask - 1))
			i = home(t.hashBytes(k), sb)
		}
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

// reserve returns the last chunk with room for need more bytes, starting a
// new one if it has not, and the ref of a record appended to it.
func (t *Trials) reserve(need int) ([]byte, uint64) {
	if k := len(t.chunks) - 1; k >= 0 {
		if b := t.chunks[k]; len(b) < 1<<posBits && cap(b)-len(b) >= need {
			return b, uint64(k)<<posBits | uint64(len(b))
		}
	}
	k := len(t.chunks)
	if k >= 1<<(refBits-posBits)-1 {
		panic("reliability: trial records past their address space (a terabyte)")
	}
	limit := maxChunk
	if t.chunkMax > 0 {
		limit = t.chunkMax
	}
	size := max(need, min(limit, minChunk<<min(k, 20)))
	t.chunks = append(t.chunks, make([]byte, 0, size))
	return t.chunks[k], uint64(k) << posBits
}

// appendRecord logs the first trial of a new case and returns its ref.
func (t *Trials) appendRecord(key string, flags byte, first int32, r *toolgrade.Result) uint64 {
	b, ref := t.reserve(5 + 2*binary.MaxVarintLen64 + len(key) + len(r.Metrics)*(binary.MaxVarintLen64+8))
	p := len(b)
	b = append(b, flags, 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(b[p+1:], uint32(first))
	b = binary.AppendUvarint(b, uint64(len(key)))
	b = append(b, key...)
	b = binary.AppendUvarint(b, uint64(len(r.Metrics)))
	for j := range r.Metrics {
		m := &r.Metrics[j]
		x := uint64(t.metricIndex(j, m)) << 3
		if m.Verdict() {
			x |= 4
		}
		if m.Error != "" {
			b = binary.AppendUvarint(b, x) // score kind scoreNone (0)
			continue
		}
		bits := math.Float64bits(m.Score)
		if i, ok := t.scoreOf(bits); ok {
			b = append(binary.AppendUvarint(b, x|scoreKnown), i)
		} else {
			b = binary.LittleEndian.AppendUint64(binary.AppendUvarint(b, x|scoreBits), bits)
		}
	}
	t.chunks[ref>>posBits] = b // within the room reserved: not moved
	return ref
}

// scoreOf returns the index of a score in t.scores, adding it if there is
// room.
func (t *Trials) scoreOf(x uint64) (byte, bool) {
	if t.scoreIndex == nil {
		t.scoreIndex = new(scoreTable)
	}
	const mask = len(scoreTable{}) - 1
	for i := int((x*0x9e3779b97f4a7c15)>>(64-bits.Len(uint(mask)))) & mask; ; i = (i + 1) & mask {
		s := &t.scoreIndex[i]
		switch {
		case s.index == 0:
			if len(t.scores) == maxScores {
				return 0, false
			}
			t.scores = append(t.scores, math.Float64frombits(x))
			s.bits, s.index = x, uint16(len(t.scores))
			return byte(s.index - 1), true
		case s.bits == x:
			return byte(s.index - 1), true
		}
	}
}

// replay returns the trials of the case whose record is at ref, as of its
// first trial; metrics past its first go to the end of t.extra.
func (t *Trials) replay(ref uint64) caseTrials {
	b := t.record(ref)
	c := caseTrials{ref: ref, n: 1, first: int32(binary.LittleEndian.Uint32(b[1:])), last: -1,
		firstPass: b[0]&recPassed != 0, erred: b[0]&recErred != 0}
	if c.firstPass {
		c.passed = 1
	}
	recordMetrics(b, func(x uint64, sb []byte) {
		score, scored := 0.0, true
		switch x & 3 {
		case scoreNone:
			scored = false
		case scoreKnown:
			score = t.scores[sb[0]]
		case scoreBits:
			score = math.Float64frombits(binary.LittleEndian.Uint64(sb))
		}
		t.addMetric(&c, int32(x>>3), x&4 != 0, scored, score)
	})
	return c
}

// metric returns the case's i-th metric.
func (t *Trials) metric(c *caseTrials, i int) *metricTrials {
	if i == 0 {
		return &c.m0
	}
	return &t.extra[int(c.more)+i-1]
}

// findMetric returns the case's entry for metric mi, adding it if new. A
// case's extra metrics are added while it is the last case added (its
// first trial); a metric first met in a later trial of an earlier case
// moves its block to the end.
func (t *Trials) findMetric(c *caseTrials, mi int32) *metricTrials {
	for i := range int(c.nm) {
		if m := t.metric(c, i); m.metric == mi {
			return m
		}
	}
	if c.nm == 0 {
		c.nm, c.m0 = 1, metricTrials{metric: mi}
		return &c.m0
	}
	if c.nm == 1 || int(c.more)+int(c.nm)-1 != len(t.extra) {
		start := int32(len(t.extra))
		if c.nm > 1 {
			t.extra = append(t.extra, t.extra[c.more:int(c.more)+int(c.nm)-1]...)
		}
		c.more = start
	}
	t.extra = append(t.extra, metricTrials{metric: mi})
	c.nm++
	return &t.extra[len(t.extra)-1]
}

// addMetric folds one trial's result for metric mi into the case.
func (t *Trials) addMetric(c *caseTrials, mi int32, verdict, scored bool, score float64) {
	mt := t.findMetric(c, mi)
	mt.n++
	if verdict {
		mt.passed++
	}
	if scored {
		mt.scored++
		mt.sum += score
		mt.sumSq += score * score
		mt.outOfRange = mt.outOfRange || score < 0 || score > 1
	}
}

// metricIndex returns the index of m's metric, adding it if new; j is m's
// position in its result, where the same metric usually was before.
func (t *Trials) metricIndex(j int, m *toolgrade.MetricResult) int32 {
	if j < len(t.metrics) && t.metrics[j].seenName == m.Name && t.metrics[j].seenProfile == m.Profile {
		return int32(j)
	}
	mi := slices.IndexFunc(t.metrics, func(n metricName) bool { return n.name == m.Name && n.profile == m.Profile })
	if mi < 0 {
		t.metrics = append(t.metrics, metricName{name: strings.Clone(m.Name), profile: strings.Clone(m.Profile)})
		mi = len(t.metrics) - 1
	}
	t.metrics[mi].seenName, t.metrics[mi].seenProfile = m.Name, m.Profile
	return int32(mi)
}

// TrialIndex is the index of a result's trial (see [toolgrade.Case.Trial]),
// 0 when its case gives none.
func TrialIndex(r *toolgrade.Result) int {
	if r.Case == nil {
		return 0
	}
	return r.Case.Trial
}

// Reset empties t for reuse, keeping its memory (a results file's writer
// starts afresh at every case).
func (t *Trials) Reset() {
	clear(t.slots)
	if len(t.chunks) > 0 {
		clear(t.chunks[1:])
		t.chunks = t.chunks[:1]
		t.chunks[0] = t.chunks[0][:0]
	}
	t.n, t.hashed, t.max = 0, 0, 0
	t.series.Reset()
	t.cases, t.later, t.extra = t.cases[:0], t.later[:0], t.extra[:0]
}

// Add folds in one result and returns how many trials its case has had.
func (t *Trials) Add(r *toolgrade.Result) int {
	if c := t.add(r); c != nil {
		return int(c.n)
	}
	return 1
}

// add folds in one result. It returns its case's trials once the case has
// more than one (nil for a first trial); the pointer is valid until the
// next add.
func (t *Trials) add(r *toolgrade.Result) *caseTrials {
	key := r.ID
	spot, h, s, found := t.spot(key)
	if !found {
		idx := int32(TrialIndex(r))
		if idx == 0 {
			idx = 1
		}
		var flags byte
		if r.Success {
			flags |= recPassed
		}
		if r.Error != "" {
			flags |= recErred
		}
		ref := t.appendRecord(key, flags, idx, r)
		if s != nil {
			s.Held++
			*spot = ref + 1
		} else {
			t.hashed++
			*spot = h>>refBits<<refBits | (ref + 1)
		}
		t.n++
		if t.n%flattenEvery == 0 && 2*t.hashed > t.n && !t.flat {
			t.flatten()
		}
		if t.max == 0 {
			t.max = 1
		}
		return nil
	}
	ref := *spot&refMask - 1
	b := t.record(ref)
	var c *caseTrials
	if b[0]&recRepeated == 0 {
		ci := len(t.cases)
		t.cases = append(t.cases, t.replay(ref))
		b[0] |= recRepeated
		binary.LittleEndian.PutUint32(b[1:], uint32(ci))
		c = &t.cases[ci]
	} else {
		c = &t.cases[binary.LittleEndian.Uint32(b[1:])]
	}
	c.n++
	idx := int32(TrialIndex(r))
	if idx == 0 {
		idx = c.n
	}
	t.later = append(t.later, laterTrial{trial: idx, prev: c.last, pass: r.Success})
	c.last = int32(len(t.later) - 1)
	if r.Success {
		c.passed++
	}
	c.erred = c.erred || r.Error != ""
	t.max = max(t.max, int(c.n))
	for j := range r.Metrics {
		m := &r.Metrics[j]
		t.addMetric(c, t.metricIndex(j, m), m.Verdict(), m.Error == "", m.Score)
	}
	return c
}
