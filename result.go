package toolgrade

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A Result is every metric's verdict on one case. It is written as one JSON
// line (see [Result.AppendJSON]); that form is a contract other tools read.
type Result struct {
	ID      string
	Success bool // no metric failed or erred
	Metrics []MetricResult
	// Error is set when the record itself could not be read; every metric
	// then carries the same error.
	Error string
	// Err is the error behind Error, for errors.Is and errors.As, when
	// the result was made in this process (see [MetricResult.Err]).
	Err error
	// Warnings repeat the case's warnings (see [Case.Warnings]).
	Warnings []string

	// Case is the graded case, for reports that show calls side by side;
	// nil when the record could not be read. It is not written as JSON.
	Case *Case
}

// MarshalJSON writes the result contract.
func (r Result) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

// AppendJSON appends the result as one line of compact JSON, without the
// newline:
//
//	{"id":"c1","success":true,"metrics":[{"name":"tool_correctness",
//	 "profile":"default","score":0.75,"success":true,"threshold":0.5,
//	 "precision":1,"recall":0.6,"f1":0.75,"matches":[...],"missing":[2],
//	 "unexpected":[],"reason":"...","error":null}]}
//
// "warnings" (a list of strings) follows "metrics" when the case has any,
// and "error" follows when the record could not be read. Each metric
// result is written as [MetricResult.AppendJSON] says.
func (r *Result) AppendJSON(b []byte) []byte { return appendResult(b, r) }

// AppendJSON appends the metric result's JSON object, its members in the
// order [MetricResult] states: score is null when the metric erred;
// success is null when the metric erred or gives no verdict; precision,
// recall, f1, matches, missing, unexpected and reason appear only where
// the metric sets them; each detail is its own member; error is null
// when the metric did not err.
func (m *MetricResult) AppendJSON(b []byte) []byte { return metricCodec.Append(b, m) }

// UnmarshalJSON reads a result line written by [Result.AppendJSON].
func (r *Result) UnmarshalJSON(data []byte) error {
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return err
	}
	return r.fromValue(v)
}

// ParseResult reads one result line, strictly: a member of the wrong
// kind at any depth, a member the contract always writes but the line
// lacks, and an unknown member of a result, a match or a difference are
// errors, each a *[FieldError] naming the member ("metrics[0].score").
// A metric result's members that no registered detail reader knows are
// kept as [RawDetail]s, so that a results file read and written again by
// a program that does not import every metric is unchanged. The "trial"
// and "reliability" members the JSON Lines report adds to trials are
// not part of a Result and are read past.
func ParseResult(line []byte) (Result, error) {
	var r Result
	err := r.UnmarshalJSON(line)
	return r, err
}

// DecodeResult reads a result from its parsed JSON value, as
// [ParseResult] does from the line.
func DecodeResult(v any) (Result, error) {
	var r Result
	err := r.fromValue(v)
	return r, err
}

func (r *Result) fromValue(v any) error {
	if err := resultCodec.Decode(v, r); err != nil {
		var de *jsonvalue.DecodeError
		if errors.As(err, &de) && de.Path != "" {
			return &FieldError{Path: de.Path, Err: de.Err}
		}
		return err
	}
	return nil
}

// The result contract, one codec per level.
var (
	argDiffCodec = jsonvalue.Struct(
		jsonvalue.NewField("path", func(d *ArgDiff) *string { return &d.Path }, jsonvalue.String),
		jsonvalue.NewField("expected", func(d *ArgDiff) *any { return &d.Expected }, jsonvalue.Value),
		jsonvalue.NewField("got", func(d *ArgDiff) *any { return &d.Got }, jsonvalue.Value),
		jsonvalue.NewField("note", func(d *ArgDiff) *string { return &d.Note }, jsonvalue.String).OmitZero(),
	)

	matchCodec = jsonvalue.Struct(
		jsonvalue.NewField("expected", func(m *Match) *int { return &m.Expected }, jsonvalue.Int),
		jsonvalue.NewField("called", func(m *Match) *int { return &m.Called }, jsonvalue.Int),
		jsonvalue.NewField("score", func(m *Match) *float64 { return &m.Score }, jsonvalue.Float),
		jsonvalue.NewField("diffs", func(m *Match) *[]ArgDiff { return &m.Diffs }, jsonvalue.List[[]ArgDiff](argDiffCodec)).
			Omit(func(m *Match) bool { return len(m.Diffs) == 0 }),
	)

	metricCodec = jsonvalue.NewCodec(appendMetric, decodeMetric)

	resultCodec = jsonvalue.NewCodec(appendResult, func(x any, r *Result) error {
		// The JSON Lines report adds these to trials; they are its own.
		if obj, ok := x.(jsonvalue.Object); ok && (obj.Has("trial") || obj.Has("reliability")) {
			x = slices.DeleteFunc(slices.Clone(obj), func(m jsonvalue.Member) bool { return m.Key == "trial" || m.Key == "reliability" })
		}
		return resultFields.Decode(x, r)
	})

	// metricFieldsCodec and resultFields define the contract: reading
	// goes through them, and they write what appendMetric and
	// appendResult must (TestResultLineAgreesWithFields).
	metricFieldsCodec = jsonvalue.NewCodec(appendMetricFields, decodeMetric)
	resultFields      = jsonvalue.Struct(
		jsonvalue.NewField("id", func(r *Result) *string { return &r.ID }, jsonvalue.String),
		jsonvalue.NewField("success", func(r *Result) *bool { return &r.Success }, jsonvalue.Bool),
		jsonvalue.NewField("metrics", func(r *Result) *[]MetricResult { return &r.Metrics }, jsonvalue.List[[]MetricResult](metricFieldsCodec)),
		jsonvalue.NewField("warnings", func(r *Result) *[]string { return &r.Warnings }, jsonvalue.List[[]string](jsonvalue.String)).
			Omit(func(r *Result) bool { return len(r.Warnings) == 0 }),
		jsonvalue.NewField("error", func(r *Result) *string { return &r.Error }, jsonvalue.String).OmitZero(),
	)
)

// metricRuns are a metric result's core members in the order they are
// written, in runs: the details placed p are written after run p, so
// that run p+1 follows them (the error member follows the details placed
// AfterReason). They are the one definition of both writing and reading
// the core; a detail read after a member of run p takes place p unless
// it says otherwise.
var metricRuns = func() [AfterReason + 2][]jsonvalue.Field[MetricResult] {
	self := func(m *MetricResult) *MetricResult { return m }
	pairs := func(m *MetricResult) bool { return m.Matches == nil && m.Missing == nil && m.Unexpected == nil }
	ints := jsonvalue.List[[]int](jsonvalue.Int)
	return [...][]jsonvalue.Field[MetricResult]{
		AfterScore: {
			jsonvalue.NewField("name", func(m *MetricResult) *string { return &m.Name }, jsonvalue.String),
			jsonvalue.NewField("profile", func(m *MetricResult) *string { return &m.Profile }, jsonvalue.String),
			// score is null when the metric erred; decodeMetric checks that.
			jsonvalue.NewField("score", self, jsonvalue.NewCodec(
				func(b []byte, m *MetricResult) []byte {
					if m.Error != "" {
						return append(b, "null"...)
					}
					return jsonvalue.AppendFloat(b, m.Score)
				},
				func(x any, m *MetricResult) error {
					if x == nil {
						return nil
					}
					return jsonvalue.Float.Decode(x, &m.Score)
				})),
			// success is null without a verdict; decodeMetric checks that.
			jsonvalue.NewField("success", self, jsonvalue.NewCodec(
				func(b []byte, m *MetricResult) []byte {
					if m.Error != "" || m.Threshold == nil {
						return append(b, "null"...)
					}
					return jsonvalue.Bool.Append(b, &m.Success)
				},
				func(x any, m *MetricResult) error {
					if x == nil {
						return nil
					}
					return jsonvalue.Bool.Decode(x, &m.Success)
				})),
			jsonvalue.NewField("threshold", func(m *MetricResult) **float64 { return &m.Threshold }, jsonvalue.Nullable(jsonvalue.Float)),
			jsonvalue.NewField("precision", func(m *MetricResult) **float64 { return &m.Precision }, jsonvalue.Pointer(jsonvalue.Float)).OmitZero(),
			jsonvalue.NewField("recall", func(m *MetricResult) **float64 { return &m.Recall }, jsonvalue.Pointer(jsonvalue.Float)).OmitZero(),
			jsonvalue.NewField("f1", func(m *MetricResult) **float64 { return &m.F1 }, jsonvalue.Pointer(jsonvalue.Float)).OmitZero(),
		},
		AfterMatches: {
			jsonvalue.NewField("matches", func(m *MetricResult) *[]Match { return &m.Matches }, jsonvalue.List[[]Match](matchCodec)).Omit(pairs),
			jsonvalue.NewField("missing", func(m *MetricResult) *[]int { return &m.Missing }, ints).Omit(pairs),
			jsonvalue.NewField("unexpected", func(m *MetricResult) *[]int { return &m.Unexpected }, ints).Omit(pairs),
		},
		AfterReason: {
			jsonvalue.NewField("reason", func(m *MetricResult) *string { return &m.Reason }, jsonvalue.String).OmitZero(),
		},
		AfterReason + 1: {
			jsonvalue.NewField("error", func(m *MetricResult) *string { return &m.Error }, jsonvalue.OrNull(jsonvalue.String)),
		},
	}
}()

// metricField finds the core member name: its run and its field.
func metricField(name string) (Place, *jsonvalue.Field[MetricResult]) {
	for p := range metricRuns {
		for i := range metricRuns[p] {
			if f := &metricRuns[p][i]; f.Name() == name {
				return min(Place(p), AfterReason), f
			}
		}
	}
	return 0, nil
}

func appendMetricFields(b []byte, m *MetricResult) []byte {
	b = jsonvalue.AppendFields(append(b, '{'), metricRuns[0], m, false) // name comes first
	for p := AfterScore; p <= AfterReason; p++ {
		if len(m.Details) > 0 {
			b = m.appendDetails(b, p)
		}
		b = jsonvalue.AppendFields(b, metricRuns[p+1], m, true)
	}
	return append(b, '}')
}

// appendResult writes what resultFields write, member by member: every
// case's line goes through it, and the fields' loop cost more than
// writing the line (TestResultLineAgreesWithFields holds the two equal).
func appendResult(b []byte, r *Result) []byte {
	b = jsonvalue.AppendString(append(b, `{"id":`...), r.ID)
	if r.Success {
		b = append(b, `,"success":true,"metrics":[`...)
	} else {
		b = append(b, `,"success":false,"metrics":[`...)
	}
	for i := range r.Metrics {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendMetric(b, &r.Metrics[i])
	}
	b = append(b, ']')
	if len(r.Warnings) > 0 {
		b = jsonvalue.AppendStrings(append(b, `,"warnings":`...), r.Warnings)
	}
	if r.Error != "" {
		b = jsonvalue.AppendString(append(b, `,"error":`...), r.Error)
	}
	return append(b, '}')
}

// appendMetric writes what appendMetricFields writes, member by member
// (see appendResult).
func appendMetric(b []byte, m *MetricResult) []byte {
	b = appendFigures(b, m)
	details := len(m.Details) > 0
	if details {
		b = m.appendDetails(b, AfterScore)
	}
	if m.Matches != nil || m.Missing != nil || m.Unexpected != nil {
		b = append(b, `,"matches":[`...)
		for i := range m.Matches {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendMatch(b, &m.Matches[i])
		}
		b = appendInts(append(b, `],"missing":`...), m.Missing)
		b = appendInts(append(b, `,"unexpected":`...), m.Unexpected)
	}
	if details {
		b = m.appendDetails(b, AfterMatches)
	}
	if m.Reason != "" {
		b = jsonvalue.AppendString(append(b, `,"reason":`...), m.Reason)
	}
	if details {
		b = m.appendDetails(b, AfterReason)
	}
	if m.Error != "" {
		return append(jsonvalue.AppendString(append(b, `,"error":`...), m.Error), '}')
	}
	return append(b, `,"error":null}`...)
}

// appendFigures writes the start of m's object, from its name to the
// f1's value: {"name":...,"profile":...,"score":..., then success,
// threshold, precision, recall and f1 as appendMetric writes them. A
// run's metrics are few and its results give few sets of figures (ratios
// of small counts), each written over and over: the text of each metric
// and set met lately is kept, by a hash of the figures.
func appendFigures(b []byte, m *MetricResult) []byte {
	k := figures{flags: figuresMet}
	switch {
	case m.Error != "": // score and success are null
		k.flags |= figuresErred
	case m.Threshold != nil && m.Success: // else success is null or false
		k.flags |= figuresPassed
	}
	if k.flags&figuresErred == 0 {
		k.score = math.Float64bits(m.Score)
	}
	k.threshold = k.optional(m.Threshold, figuresThreshold)
	k.precision = k.optional(m.Precision, figuresPrecision)
	k.recall = k.optional(m.Recall, figuresRecall)
	k.f1 = k.optional(m.F1, figuresF1)
	h := (k.score ^ k.threshold*0x9e3779b97f4a7c15 ^ k.precision*0xbf58476d1ce4e5b9 ^ k.recall*0x94d049bb133111eb ^
		k.f1*0xd6e8feb86659fd93 ^ uint64(k.flags) ^ uint64(len(m.Name))<<8) * 0xff51afd7ed558ccd
	slot := &figureTexts[h>>(64-figureTextBits)]
	// The name and profile are kept as given, not copied: a run's
	// results share their metric's strings, which compare equal by their
	// pointers, without reading them. (Read from a file, they may hold
	// one block of its input alive.)
	if t := slot.Load(); t != nil && t.same(&k) && t.name == m.Name && t.profile == m.Profile {
		return append(b, t.text...)
	}
	n := len(b)
	b = jsonvalue.AppendString(append(b, `{"name":`...), m.Name)
	b = jsonvalue.AppendString(append(b, `,"profile":`...), m.Profile)
	b = appendFiguresOf(append(b, `,"score":`...), m)
	slot.Store(&figuresText{k, m.Name, m.Profile, string(b[n:])})
	return b
}

// appendFiguresOf writes what appendFigures does from the score's value
// on, without the texts kept.
func appendFiguresOf(b []byte, m *MetricResult) []byte {
	switch {
	case m.Error != "":
		b = append(b, `null,"success":null,"threshold":`...)
	case m.Threshold == nil:
		b = append(jsonvalue.AppendFloat(b, m.Score), `,"success":null,"threshold":`...)
	case m.Success:
		b = append(jsonvalue.AppendFloat(b, m.Score), `,"success":true,"threshold":`...)
	default:
		b = append(jsonvalue.AppendFloat(b, m.Score), `,"success":false,"threshold":`...)
	}
	if m.Threshold != nil {
		b = jsonvalue.AppendFloat(b, *m.Threshold)
	} else {
		b = append(b, "null"...)
	}
	if m.Precision != nil {
		b = jsonvalue.AppendFloat(append(b, `,"precision":`...), *m.Precision)
	}
	if m.Recall != nil {
		b = jsonvalue.AppendFloat(append(b, `,"recall":`...), *m.Recall)
	}
	if m.F1 != nil {
		b = jsonvalue.AppendFloat(append(b, `,"f1":`...), *m.F1)
	}
	return b
}

// figures are what appendFigures writes, as the bits of each number (0
// where it is not written) and flags for the rest.
type figures struct {
	score, threshold, precision, recall, f1 uint64
	flags                                   uint8
}

const (
	figuresMet = 1 << iota // a set of figures (the zero value is none)
	figuresErred
	figuresPassed
	figuresThreshold
	figuresPrecision
	figuresRecall
	figuresF1
)

// optional returns the bits of an optional figure, 0 without it, and
// flags that it is there.
func (f *figures) optional(x *float64, flag uint8) uint64 {
	if x == nil {
		return 0
	}
	f.flags |= flag
	return math.Float64bits(*x)
}

// same is ==, field by field: the compiler's == for the struct is a call.
func (f *figures) same(g *figures) bool {
	return f.score == g.score && f.threshold == g.threshold && f.precision == g.precision &&
		f.recall == g.recall && f.f1 == g.f1 && f.flags == g.flags
}

type figuresText struct {
	figures
	name, profile, text string
}

var figureTexts [1 << figureTextBits]atomic.Pointer[figuresText]

const figureTextBits = 10

func appendMatch(b []byte, p *Match) []byte {
	if len(p.Diffs) > 0 {
		return matchCodec.Append(b, p)
	}
	if p.Score == 1 && uint(p.Expected) < 10 && uint(p.Called) < 10 {
		return append(b, fullMatches[p.Expected][p.Called]...)
	}
	b = jsonvalue.AppendInt(append(b, `{"expected":`...), p.Expected)
	b = jsonvalue.AppendInt(append(b, `,"called":`...), p.Called)
	b = jsonvalue.AppendFloat(append(b, `,"score":`...), p.Score)
	return append(b, '}')
}

// fullMatches are the texts of the commonest matches: a full match
// between calls numbered below 10.
var fullMatches = func() (texts [10][10]string) {
	for e := range texts {
		for c := range texts[e] {
			texts[e][c] = `{"expected":` + strconv.Itoa(e) + `,"called":` + strconv.Itoa(c) + `,"score":1}`
		}
	}
	return texts
}()

func appendInts(b []byte, ns []int) []byte {
	b = append(b, '[')
	for i, n := range ns {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonvalue.AppendInt(b, n)
	}
	return append(b, ']')
}

// appendDetails writes the details of place p, in their order.
func (m *MetricResult) appendDetails(b []byte, p Place) []byte {
	for _, d := range m.Details {
		if d.Place() == p {
			b = append(b, ',')
			b = jsonvalue.AppendString(b, d.Member())
			b = append(b, ':')
			b = d.AppendJSON(b)
		}
	}
	return b
}

func decodeMetric(x any, m *MetricResult) error {
	obj, ok := x.(jsonvalue.Object)
	if !ok {
		return jsonvalue.WrongKind("a metric result object", x)
	}
	*m = MetricResult{}
	place := AfterScore // of a detail read next that does not say
	for _, mem := range obj {
		if p, f := metricField(mem.Key); f != nil {
			if err := f.DecodeMember(mem.Value, m); err != nil {
				return err
			}
			if f.Written(m) {
				place = max(place, p)
			}
			continue
		}
		var d Detail = RawDetail{Name: mem.Key, At: place, Value: mem.Value}
		if read := detailReader(mem.Key); read != nil {
			var err error
			if d, err = read(mem.Value); err != nil {
				return jsonvalue.Within(mem.Key, err)
			}
		}
		place = max(place, d.Place())
		m.Details = append(m.Details, d)
	}
	for _, run := range metricRuns {
		for i := range run {
			if f := &run[i]; f.Required() && !obj.Has(f.Name()) {
				return jsonvalue.Missing(f.Name())
			}
		}
	}
	if m.Matches != nil || m.Missing != nil || m.Unexpected != nil {
		for _, name := range []string{"matches", "missing", "unexpected"} {
			if !obj.Has(name) {
				return jsonvalue.Within(name, errors.New("missing: matches, missing and unexpected come together"))
			}
		}
	}
	score, _ := obj.Get("score")
	switch {
	case m.Error != "" && score != nil:
		return jsonvalue.Within("score", errors.New("want null when error is set"))
	case m.Error == "" && score == nil:
		return jsonvalue.Within("score", errors.New("want a number when error is null"))
	}
	success, _ := obj.Get("success")
	switch verdict := m.Error == "" && m.Threshold != nil; {
	case !verdict && success != nil:
		return jsonvalue.Within("success", errors.New("want null when error is set or threshold is null"))
	case verdict && success == nil:
		return jsonvalue.Within("success", errors.New("want a boolean beside a threshold"))
	}
	slices.SortStableFunc(m.Details, func(a, b Detail) int { return cmp.Compare(a.Place(), b.Place()) })
	return nil
}
