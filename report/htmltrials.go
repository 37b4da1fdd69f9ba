package report

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"io"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/reliability"
)

// Limits of the HTML page's trials table.
const (
	htmlTrialCases = 5000 // cases whose trials' calls are kept, to show where they part
	htmlTrialRows  = 1000 // cases listed, flaky first
)

// trialSamples keeps, for the first htmlTrialCases cases, the calls of
// their first passing and first failing trial, to show where they part.
//
// It is kept for the whole run, among the garbage of every case, so it
// is made of few allocations: its ids share blocks of text, its samples
// one slice, which the index points into; many small objects, each
// alive in a page of the heap that otherwise holds garbage, would keep
// those pages from being reused (some 10 MB of them for 5,000 cases),
// and the collector, held to its memory limit, would run more often.
type trialSamples struct {
	index map[string]int32 // id: place in samples
	ids   strings.Builder  // the current block of ids
	cases []trialSample
	// seen has two bits set for each id in index, picked by the id's
	// hash: an id with either bit clear is not there. Once the table is
	// full, most ids of a long run are new, and learning it here is
	// cheaper than a lookup in the map, whose memory the rest of the
	// run's work pushes out of the caches.
	seen [idFilterBits / 64]uint64
	seed maphash.Seed
}

// idFilterBits is the size of trialSamples.seen: a new id finds both its
// bits set for about one in fifty of them, the table being full.
const idFilterBits = 1 << 16

// filterBits returns where id's bits are in trialSamples.seen.
func (t *trialSamples) filterBits(id string) (w1, w2 int, b1, b2 uint64) {
	h := maphash.String(t.seed, id)
	h1, h2 := h%idFilterBits, h>>32%idFilterBits
	return int(h1 / 64), int(h2 / 64), 1 << (h1 % 64), 1 << (h2 % 64)
}

type trialSample struct {
	n          int
	pass, fail callSample
}

// idBlock is the size of a block of ids.
const idBlock = 16 << 10

// sample returns the sample of id, added if there is room; nil if not.
func (t *trialSamples) sample(id string) *trialSample {
	full := len(t.cases) >= htmlTrialCases
	if full {
		if w1, w2, b1, b2 := t.filterBits(id); t.seen[w1]&b1 == 0 || t.seen[w2]&b2 == 0 {
			return nil
		}
	}
	if i, ok := t.index[id]; ok {
		return &t.cases[i]
	}
	if full {
		return nil
	}
	if t.index == nil {
		t.index = map[string]int32{}
		t.seed = maphash.MakeSeed()
	}
	w1, w2, b1, b2 := t.filterBits(id)
	t.seen[w1] |= b1
	t.seen[w2] |= b2
	if t.ids.Cap()-t.ids.Len() < len(id) {
		t.ids = strings.Builder{} // the ids taken keep the old block
		t.ids.Grow(max(idBlock, len(id)))
	}
	// A Builder's String shares its block, and what is written to it
	// later does not change what was written before.
	t.ids.WriteString(id)
	all := t.ids.String()
	t.index[all[len(all)-len(id):]] = int32(len(t.cases))
	t.cases = append(t.cases, trialSample{})
	return &t.cases[len(t.cases)-1]
}

// noteTrial keeps what the trials table needs of a result, and returns
// the result's trial: its index, else its place among the case's results
// (0 past the cases kept).
func (h *htmlReport) noteTrial(r *toolgrade.Result) (int, error) {
	ts := h.trials.sample(r.ID)
	if ts == nil {
		return reliability.TrialIndex(r), nil
	}
	ts.n++
	idx := reliability.TrialIndex(r)
	if idx == 0 {
		idx = ts.n
	}
	slot := &ts.fail
	if r.Success {
		slot = &ts.pass
	}
	if slot.size == 0 && r.Case != nil {
		if h.samples == nil {
			sp, err := newSpool("toolgrade-html-trials-*")
			if err != nil {
				return 0, fmt.Errorf("html: %w", err)
			}
			h.samples = sp
		}
		*slot = callSample{trial: idx, at: h.samples.size()}
		h.scratch = slot.encode(h.scratch[:0], r.Case.Called)
		h.samples.w.Write(h.scratch) // an error stays in the buffer for Finish
		slot.size = len(h.scratch)
	}
	return idx, nil
}

// A callSample is the calls of one trial, as much of them as [parting]
// reads (names and arguments), encoded (see [callSample.encode]) in the
// report's spool of samples: the samples of thousands of cases, held
// until Finish, then neither take memory nor hold anything of the cases
// they came from (input lines, parsed documents) alive, and the garbage
// collector has nothing of them to scan.
type callSample struct {
	trial int
	at    int64 // where the encoding starts in the spool
	size  int   // its length; 0 for no sample (an encoding has a byte at least)
	// other holds the argument values of kinds outside the JSON value
	// model, which the encoding refers to by place; nearly always none.
	other []any
}

// encode appends the encoding of calls to b.
func (s *callSample) encode(b []byte, calls []toolgrade.Call) []byte {
	b = binary.AppendUvarint(b, uint64(len(calls)))
	for i := range calls {
		c := &calls[i]
		b = appendText(b, c.Name)
		b = appendText(b, c.ArgsRaw)
		b = append(b, boolByte(c.Invalid))
		b = s.appendValue(b, c.Args)
	}
	return b
}

// calls reads the sample's calls back from sp.
func (s *callSample) calls(sp *spool) ([]toolgrade.Call, error) {
	r, err := sp.section(s.at, s.at+int64(s.size))
	if err != nil {
		return nil, err
	}
	b := make([]byte, s.size)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	return s.decode(b), nil
}

// decode reads an encoding of calls.
func (s *callSample) decode(b []byte) []toolgrade.Call {
	d := sampleDecoder{b: b, other: s.other}
	calls := make([]toolgrade.Call, d.uvarint())
	for i := range calls {
		calls[i] = toolgrade.Call{Name: d.text(), ArgsRaw: d.text(), Invalid: d.byte() == 1}
		calls[i].Args = d.value()
	}
	return calls
}

// The encoding of a value: a tag, then what the tag says follows.
const (
	tagNil       = iota // the untyped nil
	tagFalse            //
	tagTrue             //
	tagString           // the text
	tagNumber           // a json.Number: the text
	tagArray            // a []any: the length, then the elements
	tagObject           // a jsonvalue.Object: the length, then key text and value each
	tagNilArray         // a nil []any
	tagNilObject        // a nil jsonvalue.Object
	tagOther            // another kind: its place in other
)

func (s *callSample) appendValue(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, tagNil)
	case bool:
		return append(b, tagFalse+boolByte(v))
	case string:
		return appendText(append(b, tagString), v)
	case json.Number:
		return appendText(append(b, tagNumber), string(v))
	case []any:
		if v == nil {
			return append(b, tagNilArray)
		}
		b = binary.AppendUvarint(append(b, tagArray), uint64(len(v)))
		for _, e := range v {
			b = s.appendValue(b, e)
		}
		return b
	case jsonvalue.Object:
		if v == nil {
			return append(b, tagNilObject)
		}
		b = binary.AppendUvarint(append(b, tagObject), uint64(len(v)))
		for _, m := range v {
			b = appendText(b, m.Key)
			b = s.appendValue(b, m.Value)
		}
		return b
	}
	b = binary.AppendUvarint(append(b, tagOther), uint64(len(s.other)))
	s.other = append(s.other, v)
	return b
}

func appendText(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// A sampleDecoder reads a callSample's encoding, which encode wrote: it
// trusts it.
type sampleDecoder struct {
	b     []byte
	other []any
}

func (d *sampleDecoder) byte() byte {
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *sampleDecoder) uvarint() int {
	n, k := binary.Uvarint(d.b)
	d.b = d.b[k:]
	return int(n)
}

func (d *sampleDecoder) text() string {
	n := d.uvarint()
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *sampleDecoder) value() any {
	switch tag := d.byte(); tag {
	case tagNil:
		return nil
	case tagFalse, tagTrue:
		return tag == tagTrue
	case tagString:
		return d.text()
	case tagNumber:
		return json.Number(d.text())
	case tagArray:
		a := make([]any, d.uvarint())
		for i := range a {
			a[i] = d.value()
		}
		return a
	case tagObject:
		o := make(jsonvalue.Object, d.uvarint())
		for i := range o {
			o[i].Key = d.text()
			o[i].Value = d.value()
		}
		return o
	case tagNilArray:
		return []any(nil)
	case tagNilObject:
		return jsonvalue.Object(nil)
	default: // tagOther
		return d.other[d.uvarint()]
	}
}

// parting says where a passing and a failing trial of a case first
// differ: the first call whose tool or arguments differ, or the call one
// of them made and the other did not.
func parting(ps, fs *callSample, samples *spool) (string, error) {
	if ps.size == 0 || fs.size == 0 {
		return "", nil
	}
	head := fmt.Sprintf("trial %d passed, trial %d failed: ", ps.trial, fs.trial)
	p, err := ps.calls(samples)
	if err != nil {
		return "", err
	}
	f, err := fs.calls(samples)
	if err != nil {
		return "", err
	}
	return head + partingCalls(p, f), nil
}

// partingCalls says where the calls of a passing trial, p, and of a
// failing one, f, first differ.
func partingCalls(p, f []toolgrade.Call) string {
	for i := 0; i < max(len(p), len(f)); i++ {
		switch {
		case i >= len(f):
			return fmt.Sprintf("call #%d: the passing trial called %s, the failing one made no more calls", i, p[i].Name)
		case i >= len(p):
			return fmt.Sprintf("call #%d: the failing trial called %s, the passing one made no more calls", i, f[i].Name)
		}
		a, b := &p[i], &f[i]
		if a.Name != b.Name {
			return fmt.Sprintf("call #%d: %s in the passing trial, %s in the failing one", i, a.Name, b.Name)
		}
		if path, av, bv, ok := firstArgDiff("", a.Args, b.Args); ok {
			return fmt.Sprintf("call #%d %s, argument %s: %s in the passing trial, %s in the failing one", i, a.Name, path, av, bv)
		}
		if a.Invalid != b.Invalid || a.ArgsRaw != b.ArgsRaw {
			return fmt.Sprintf("call #%d %s: arguments %q in the passing trial, %q in the failing one", i, a.Name, clipRunes(a.ArgsRaw, 80), clipRunes(b.ArgsRaw, 80))
		}
	}
	return "the same calls (they differ elsewhere: output or answer)"
}

// firstArgDiff finds the first path where two argument values differ (by
// meaning, as [jsonvalue.Equal] compares them).
func firstArgDiff(path string, a, b any) (string, string, string, bool) {
	show := func(v any) string {
		if v == nil {
			return "absent"
		}
		return clipRunes(string(jsonvalue.Append(nil, v)), 80)
	}
	ao, aok := a.(jsonvalue.Object)
	bo, bok := b.(jsonvalue.Object)
	if aok && bok {
		for _, m := range ao {
			bv, _ := bo.Get(m.Key)
			if p, x, y, ok := firstArgDiff(path+"."+m.Key, m.Value, bv); ok {
				return p, x, y, true
			}
		}
		for _, m := range bo {
			if !ao.Has(m.Key) {
				return strings.TrimPrefix(path+"."+m.Key, "."), "absent", show(m.Value), true
			}
		}
		return "", "", "", false
	}
	if !jsonvalue.Equal(a, b) {
		if path == "" {
			path = "(all)"
		}
		return strings.TrimPrefix(path, "."), show(a), show(b), true
	}
	return "", "", "", false
}

// htmlReliability is the page's reliability section.
type htmlReliability struct {
	Headline string
	Metrics  []htmlRelMetric
	Ks       []htmlRelK
	Labels   []string
	Cases    []htmlTrialCase
	Omitted  int
}

type htmlRelMetric struct {
	Label, PassRate, Mean, Gate string
	Cases, Trials, Flaky        int
}

type htmlRelK struct {
	K      int
	Values []string // pass@k, pass^k per metric
}

type htmlTrialCase struct {
	ID       string
	Passed   int
	Trials   int
	FlipRate string
	Verdicts []htmlVerdict
	Parting  string
}

type htmlVerdict struct {
	Trial int
	Pass  bool
}

func (h *htmlReport) reliability(rel *reliability.Suite) (*htmlReliability, error) {
	if rel == nil {
		return nil, nil
	}
	out := &htmlReliability{Headline: reliabilityHeadline(rel)}
	for _, m := range rel.Metrics {
		gate := gateText(m.Gate)
		if gate != "" {
			gate += ": " + strconv.Itoa(m.GateFailed) + " failed"
		}
		out.Metrics = append(out.Metrics, htmlRelMetric{Label: Label(m.Name, m.Profile), Cases: m.Cases, Trials: m.Trials,
			PassRate: withInterval(m.PassRate, m.PassLo, m.PassHi, true), Mean: withInterval(m.Mean, m.MeanLo, m.MeanHi, false), Flaky: m.Flaky, Gate: gate})
		out.Labels = append(out.Labels, Label(m.Name, m.Profile))
	}
	for k := 1; k <= rel.MinTrials; k++ {
		row := htmlRelK{K: k}
		for _, m := range rel.Metrics {
			row.Values = append(row.Values, percent(m.PassAtK[k-1]), percent(m.PassHatK[k-1]))
		}
		out.Ks = append(out.Ks, row)
	}
	// Flaky cases first, then the rest in input order.
	rows := append([]reliability.Case(nil), rel.Flaky...)
	for _, c := range rel.PerCase {
		if c.Passed == 0 || c.Passed == c.Trials {
			rows = append(rows, c)
		}
	}
	for i, c := range rows {
		if i >= htmlTrialRows {
			out.Omitted = len(rows) - i
			break
		}
		tc := htmlTrialCase{ID: c.ID, Passed: c.Passed, Trials: c.Trials, FlipRate: score(c.FlipRate)}
		for j, v := range c.Verdicts {
			tc.Verdicts = append(tc.Verdicts, htmlVerdict{Trial: c.Trial[j], Pass: v})
		}
		if i, ok := h.trials.index[c.ID]; ok {
			var err error
			ts := &h.trials.cases[i]
			if tc.Parting, err = parting(&ts.pass, &ts.fail, h.samples); err != nil {
				return nil, fmt.Errorf("html: %w", err)
			}
		}
		out.Cases = append(out.Cases, tc)
	}
	return out, nil
}
