package report

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"slices"
	"strings"

	"github.com/toolgrade/toolgrade"
)

// DefaultConfidence is the confidence level of the intervals reports show
// when [Stats].Confidence is not set.
const DefaultConfidence = 0.95

// trials groups the results of each case by id: results with the same id
// are trials of one case, wherever they come in the input.
//
// Most runs have one trial per case, so what trials keeps of a case that
// has not repeated is small and holds no pointers (the garbage collector
// need not scan it): a record in a log of records, one per case in the
// order first seen, with the case's key and its first trial's index,
// verdicts and scores (about 20 bytes for a case with one metric and a
// short id), and a slot in an open-addressing table that finds the record
// from the key's hash (8 bytes, at most 80% full). Only when an id comes again is its
// first trial replayed from its record into a caseTrials, which sums the
// case's trials from then on; the record then points to it.
type trials struct {
	// slots is the table: 0 for an empty slot, else the top bits of the
	// key's hash (tagBits of them) above the record's ref plus one. A
	// matching tag is confirmed against the key in the record, so keys
	// whose hashes collide stay apart.
	slots  []uint64
	chunks [][]byte // the log: records end to end, none across chunks
	n      int      // distinct cases (records)

	seed maphash.Seed
	// hash, if set, replaces maphash (tests force collisions with it);
	// chunkMax, if set, replaces maxChunk (tests cross chunks with it).
	hash     func(string) uint64
	chunkMax int

	cases   []caseTrials   // the cases with several trials
	later   []laterTrial   // their trials after the first
	extra   []metricTrials // metrics of a case beyond its first, in blocks
	metrics []metricName   // the metrics met, by index
	max     int            // the most trials of any case

	tq tCache // Student's t quantiles, by degrees of freedom

	scores     []float64        // the scores records give by index
	scoreIndex map[uint64]uint8 // their bits → index
}

// A record is, end to end:
//
//	flags         1 byte (rec* below)
//	first         4 bytes, little-endian: the first trial's index; once the
//	              case has repeated (recRepeated), its index in trials.cases
//	len(key)      uvarint
//	key
//	len(metrics)  uvarint
//	per metric    uvarint metric index<<3 | verdict<<2 | score kind, then
//	              the score's index in trials.scores (1 byte) for
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
// ones in a run: the first maxScores met are kept in trials.scores, and a
// record gives their index.
const (
	scoreNone  = iota // the metric erred: no score
	scoreKnown        // in trials.scores
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

type metricName struct{ name, profile string }

// caseTrials holds a case's trials: kept for a case that has several, and
// replayed from its record for the moment it is needed otherwise.
type caseTrials struct {
	ref       uint64 // the case's record
	n, passed int32
	first     int32 // the first trial's index
	last      int32 // the latest trial in trials.later, or -1
	// m0 is the first metric; the others are extra[more : more+nm-1].
	m0        metricTrials
	more      int32
	nm        int32
	erred     bool // a record could not be read
	firstPass bool
}

// laterTrial is a trial of a case after its first: its index and
// verdict, and the trial before it in trials.later (-1: the first).
type laterTrial struct {
	trial, prev int32
	pass        bool
}

// metricTrials is one metric over a case's trials.
type metricTrials struct {
	metric     int32 // index into trials.metrics
	n, passed  int32 // trials that had the metric, and passed it
	scored     int32
	sum, sumSq float64
	outOfRange bool // a score outside [0, 1]
}

// record returns the bytes of the log from the record at ref on.
func (t *trials) record(ref uint64) []byte {
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
func (t *trials) idOf(ref uint64) string {
	k, _ := recordKey(t.record(ref))
	return string(k)
}

func (t *trials) hashString(s string) uint64 {
	if t.hash != nil {
		return t.hash(s)
	}
	return maphash.String(t.seed, s)
}

func (t *trials) hashBytes(b []byte) uint64 {
	if t.hash != nil {
		return t.hash(string(b))
	}
	return maphash.Bytes(t.seed, b)
}

// find returns the slot of key, whose hash is h, and whether it holds the
// key; if not, the slot is the empty one where the key goes.
func (t *trials) find(key string, h uint64) (int, bool) {
	mask := len(t.slots) - 1
	tag := h >> refBits
	for i := int(h) & mask; ; i = (i + 1) & mask {
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
func (t *trials) grow() {
	old := t.slots
	if len(old) == 0 && t.seed == (maphash.Seed{}) {
		t.seed = maphash.MakeSeed()
	}
	t.slots = make([]uint64, max(8, 2*len(old)))
	mask := len(t.slots) - 1
	for _, s := range old {
		if s == 0 {
			continue
		}
		k, _ := recordKey(t.record(s&refMask - 1))
		i := int(t.hashBytes(k)) & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

// reserve returns the last chunk with room for need more bytes, starting a
// new one if it has not, and the ref of a record appended to it.
func (t *trials) reserve(need int) ([]byte, uint64) {
	if k := len(t.chunks) - 1; k >= 0 {
		if b := t.chunks[k]; len(b) < 1<<posBits && cap(b)-len(b) >= need {
			return b, uint64(k)<<posBits | uint64(len(b))
		}
	}
	k := len(t.chunks)
	if k >= 1<<(refBits-posBits)-1 {
		panic("report: trial records past their address space (a terabyte)")
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
func (t *trials) appendRecord(key string, flags byte, first int32, r *toolgrade.Result) uint64 {
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
			b = binary.AppendUvarint(b, x|scoreNone)
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
func (t *trials) scoreOf(bits uint64) (byte, bool) {
	if i, ok := t.scoreIndex[bits]; ok {
		return i, true
	}
	if len(t.scores) == maxScores {
		return 0, false
	}
	if t.scoreIndex == nil {
		t.scoreIndex = map[uint64]uint8{}
	}
	i := uint8(len(t.scores))
	t.scores = append(t.scores, math.Float64frombits(bits))
	t.scoreIndex[bits] = i
	return i, true
}

// replay returns the trials of the case whose record is at ref, as of its
// first trial; metrics past its first go to the end of t.extra.
func (t *trials) replay(ref uint64) caseTrials {
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
func (t *trials) metric(c *caseTrials, i int) *metricTrials {
	if i == 0 {
		return &c.m0
	}
	return &t.extra[int(c.more)+i-1]
}

// findMetric returns the case's entry for metric mi, adding it if new. A
// case's extra metrics are added while it is the last case added (its
// first trial); a metric first met in a later trial of an earlier case
// moves its block to the end.
func (t *trials) findMetric(c *caseTrials, mi int32) *metricTrials {
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
func (t *trials) addMetric(c *caseTrials, mi int32, verdict, scored bool, score float64) {
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
func (t *trials) metricIndex(j int, m *toolgrade.MetricResult) int32 {
	if j < len(t.metrics) && t.metrics[j].name == m.Name && t.metrics[j].profile == m.Profile {
		return int32(j)
	}
	mi := slices.IndexFunc(t.metrics, func(n metricName) bool { return n.name == m.Name && n.profile == m.Profile })
	if mi < 0 {
		t.metrics = append(t.metrics, metricName{strings.Clone(m.Name), strings.Clone(m.Profile)})
		mi = len(t.metrics) - 1
	}
	return int32(mi)
}

// trialIndex is the index of a result's trial (see [toolgrade.Case.Trial]),
// 0 when its case gives none.
func trialIndex(r *toolgrade.Result) int {
	if r.Case == nil {
		return 0
	}
	return r.Case.Trial
}

// reset empties t for reuse, keeping its memory: the results file's
// writer starts afresh at every case.
func (t *trials) reset() {
	clear(t.slots)
	if len(t.chunks) > 0 {
		clear(t.chunks[1:])
		t.chunks = t.chunks[:1]
		t.chunks[0] = t.chunks[0][:0]
	}
	t.n, t.max = 0, 0
	t.cases, t.later, t.extra = t.cases[:0], t.later[:0], t.extra[:0]
}

// add folds in one result. It returns its case's trials once the case has
// more than one (nil for a first trial); the pointer is valid until the
// next add.
func (t *trials) add(r *toolgrade.Result) *caseTrials {
	if (t.n+1)*5 > len(t.slots)*4 {
		t.grow()
	}
	key := r.ID
	h := t.hashString(key)
	i, found := t.find(key, h)
	if !found {
		idx := int32(trialIndex(r))
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
		t.slots[i] = h>>refBits<<refBits | (ref + 1)
		t.n++
		t.max = max(t.max, 1)
		return nil
	}
	ref := t.slots[i]&refMask - 1
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
	idx := int32(trialIndex(r))
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

// tCache remembers Student's t quantiles for one confidence level by
// degrees of freedom: every case with n trials needs the same one.
type tCache struct {
	conf float64
	q    []float64 // 0: not computed yet
}

func (c *tCache) quantile(conf float64, df int) float64 {
	if df >= 1024 {
		return tQuantile(0.5+conf/2, float64(df))
	}
	if c.conf != conf {
		c.conf = conf
		clear(c.q)
	}
	if df >= len(c.q) {
		c.q = append(c.q, make([]float64, df+1-len(c.q))...)
	}
	if c.q[df] == 0 {
		c.q[df] = tQuantile(0.5+conf/2, float64(df))
	}
	return c.q[df]
}

// Reliability is what a run's repeated trials say about each case and the
// suite. Cases are grouped by id: every result with the same id is a trial
// of that case. Intervals are at Confidence: Wilson score intervals for
// pass rates, Student's t intervals for mean scores.
type Reliability struct {
	Confidence float64
	Cases      int // distinct cases
	Trials     int // results
	// MinTrials and MaxTrials bound the trials per case; suite figures
	// for pass@k and pass^k go up to MinTrials, so that every case has
	// an estimate for each k.
	MinTrials, MaxTrials int
	// Passed counts the cases that passed: with a pass_k gate, by the
	// gate; otherwise only a case that passed every trial.
	Passed  int
	Metrics []MetricReliability
	// Flaky are the cases whose verdict differs between trials, the most
	// often flipping first.
	Flaky []CaseReliability
	// PerCase is every case, in the order first seen.
	PerCase []CaseReliability
}

// MetricReliability is one metric across the suite's trials.
type MetricReliability struct {
	Name, Profile string
	Cases, Trials int
	// PassRate is the mean over cases of each case's pass rate over its
	// trials; its interval is Wilson's over the cases (the cases are the
	// sample: a case's trials are not independent draws from the suite).
	PassRate, PassLo, PassHi float64
	// PassAtK[k-1] and PassHatK[k-1] are the means over cases of the
	// unbiased per-case estimates, for k = 1..MinTrials.
	PassAtK, PassHatK []float64
	// Mean is the mean over cases of each case's mean score; its interval
	// is Student's t over the cases, clipped to [0, 1]. NaN when no trial
	// was scored.
	Mean, MeanLo, MeanHi float64
	Flaky                int // cases whose verdict on this metric differs between trials
	Gate                 *toolgrade.PassK
	GateFailed           int // cases failing the gate
}

// CaseReliability is one case across its trials.
type CaseReliability struct {
	ID       string
	Trials   int
	Passed   int    // trials the case passed
	Trial    []int  // each trial's index, in the order they came
	Verdicts []bool // each trial's verdict, in the same order
	FlipRate float64
	Pass     bool // the case's verdict over its trials (see [Reliability].Passed)
	Metrics  []CaseMetricReliability
}

// CaseMetricReliability is one metric's figures for one case.
type CaseMetricReliability struct {
	Name, Profile            string
	Trials, Passed           int
	PassRate, PassLo, PassHi float64 // Wilson interval over the trials
	PassAtK, PassHatK        []float64
	Mean, MeanLo, MeanHi     float64 // t interval over the scored trials
	Gate                     *toolgrade.PassK
	Pass                     bool // passed the gate, or every trial without one
}

func (t *trials) caseReliability(c *caseTrials, conf float64, gates map[string]toolgrade.PassK) CaseReliability {
	n := int(c.n)
	cr := CaseReliability{ID: t.idOf(c.ref), Trials: n, Passed: int(c.passed), FlipRate: FlipRate(n, int(c.passed)), Pass: !c.erred}
	cr.Trial, cr.Verdicts = make([]int, n), make([]bool, n)
	cr.Trial[0], cr.Verdicts[0] = int(c.first), c.firstPass
	for i, j := n-1, c.last; i > 0; i, j = i-1, t.later[j].prev {
		cr.Trial[i], cr.Verdicts[i] = int(t.later[j].trial), t.later[j].pass
	}
	for i := range int(c.nm) {
		mt := t.metric(c, i)
		// A trial without the metric counts as failing it.
		p := int(mt.passed)
		name := t.metrics[mt.metric]
		m := CaseMetricReliability{Name: name.name, Profile: name.profile, Trials: n, Passed: p, PassRate: float64(p) / float64(n)}
		m.PassLo, m.PassHi = Wilson(float64(p), n, conf)
		for k := 1; k <= n; k++ {
			m.PassAtK = append(m.PassAtK, PassAtK(n, p, k))
			m.PassHatK = append(m.PassHatK, PassHatK(n, p, k))
		}
		m.Mean, m.MeanLo, m.MeanHi = sumsCI(int(mt.scored), mt.sum, mt.sumSq, conf, &t.tq)
		if !mt.outOfRange && !math.IsNaN(m.MeanLo) {
			m.MeanLo, m.MeanHi = max(0, m.MeanLo), min(1, m.MeanHi)
		}
		if g, ok := gates[Label(name.name, name.profile)]; ok {
			m.Gate = &g
			m.Pass = n >= g.K && PassHatK(n, p, g.K) >= g.Min-scoreEpsilon
		} else {
			m.Pass = p == n
		}
		cr.Pass = cr.Pass && m.Pass
		cr.Metrics = append(cr.Metrics, m)
	}
	if c.nm == 0 {
		cr.Pass = cr.Pass && cr.Passed == n
	}
	return cr
}

// sumsCI is [MeanCI] from the count, sum and sum of squares of the values,
// with t's quantiles from tq.
func sumsCI(n int, sum, sumSq, conf float64, tq *tCache) (mean, lo, hi float64) {
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	mean = sum / float64(n)
	if n < 2 {
		return mean, math.NaN(), math.NaN()
	}
	v := max(0, (sumSq-float64(n)*mean*mean)/float64(n-1))
	half := tq.quantile(conf, n-1) * math.Sqrt(v/float64(n))
	return mean, mean - half, mean + half
}

// each calls f with every record and its ref, in the order the cases were
// first seen.
func (t *trials) each(f func(ref uint64, rec []byte)) {
	for k, chunk := range t.chunks {
		for p := 0; p < len(chunk); p += recordLen(chunk[p:]) {
			f(uint64(k)<<posBits|uint64(p), chunk[p:])
		}
	}
}

// reliability computes the figures; nil when no case has more than one
// trial and no gate is set.
func (t *trials) reliability(conf float64, gates map[string]toolgrade.PassK) *Reliability {
	if t.max < 2 && len(gates) == 0 {
		return nil
	}
	if conf <= 0 || conf >= 1 {
		conf = DefaultConfidence
	}
	rel := &Reliability{Confidence: conf, Cases: t.n, MinTrials: math.MaxInt, PerCase: make([]CaseReliability, 0, t.n)}
	type agg struct {
		m            MetricReliability
		rates, means []float64
		atK, hatK    []float64
		cases        int
	}
	var aggs []*agg
	t.each(func(ref uint64, rec []byte) {
		var cr CaseReliability
		if rec[0]&recRepeated != 0 {
			cr = t.caseReliability(&t.cases[binary.LittleEndian.Uint32(rec[1:])], conf, gates)
		} else {
			// A case with one trial is replayed from its record for the
			// time it takes to read it.
			mark := len(t.extra)
			c := t.replay(ref)
			cr = t.caseReliability(&c, conf, gates)
			t.extra = t.extra[:mark]
		}
		rel.Trials += cr.Trials
		rel.MinTrials = min(rel.MinTrials, cr.Trials)
		rel.MaxTrials = max(rel.MaxTrials, cr.Trials)
		if cr.Pass {
			rel.Passed++
		}
		rel.PerCase = append(rel.PerCase, cr)
		if cr.Passed > 0 && cr.Passed < cr.Trials {
			rel.Flaky = append(rel.Flaky, cr)
		}
	})
	if rel.MinTrials == math.MaxInt {
		rel.MinTrials = 0
	}
	for _, cr := range rel.PerCase {
		for _, m := range cr.Metrics {
			i := slices.IndexFunc(aggs, func(a *agg) bool { return a.m.Name == m.Name && a.m.Profile == m.Profile })
			if i < 0 {
				aggs = append(aggs, &agg{m: MetricReliability{Name: m.Name, Profile: m.Profile, Gate: m.Gate},
					atK: make([]float64, rel.MinTrials), hatK: make([]float64, rel.MinTrials)})
				i = len(aggs) - 1
			}
			a := aggs[i]
			a.m.Cases++
			a.m.Trials += m.Trials
			a.rates = append(a.rates, m.PassRate)
			if !math.IsNaN(m.Mean) {
				a.means = append(a.means, m.Mean)
			}
			for k := 1; k <= rel.MinTrials && k <= len(m.PassAtK); k++ {
				a.atK[k-1] += m.PassAtK[k-1]
				a.hatK[k-1] += m.PassHatK[k-1]
			}
			if m.Passed > 0 && m.Passed < m.Trials {
				a.m.Flaky++
			}
			if m.Gate != nil && !m.Pass {
				a.m.GateFailed++
			}
		}
	}
	for _, a := range aggs {
		m := a.m
		m.PassRate = meanOf(a.rates)
		m.PassLo, m.PassHi = Wilson(m.PassRate*float64(m.Cases), m.Cases, conf)
		for k := range a.atK {
			a.atK[k] /= float64(m.Cases)
			a.hatK[k] /= float64(m.Cases)
		}
		m.PassAtK, m.PassHatK = a.atK, a.hatK
		m.Mean, m.MeanLo, m.MeanHi = scoreCI(a.means, conf)
		rel.Metrics = append(rel.Metrics, m)
	}
	slices.SortStableFunc(rel.Flaky, func(a, b CaseReliability) int { return cmpFloat(b.FlipRate, a.FlipRate) })
	return rel
}

// scoreCI is MeanCI with the interval clipped to the range scores take,
// [0, 1], where all the values lie in it.
func scoreCI(xs []float64, conf float64) (mean, lo, hi float64) {
	mean, lo, hi = MeanCI(xs, conf)
	if slices.ContainsFunc(xs, func(x float64) bool { return x < 0 || x > 1 }) || math.IsNaN(lo) {
		return mean, lo, hi
	}
	return mean, max(0, lo), min(1, hi)
}
