package toolgrade

import (
	"fmt"
	"slices"
	"sync"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A Detail is what one metric found beyond the core of a [MetricResult]:
// the turn scores of a case graded turn by turn, the process rules
// checked, the tokens a judge spent. Each is one member of the result's
// JSON object, defined, written and read by the package of the metric
// that makes it (match.Turns, process.RuleChecks, execution.Outcomes),
// so that a new metric adds its findings without changing this package.
// This package defines the three that metrics of several packages share:
// [Components], [Diffs] and [Usage].
//
// A package that defines a detail registers its reader with
// [RegisterDetail]; readers of results get it back with [DetailOf].
// A detail's zero value must answer Member and Place.
type Detail interface {
	// Member is the detail's member name in the result object ("turns").
	// It is not a core member's name, and no other detail of the result
	// has it.
	Member() string
	// Place says where among the core members the detail is written.
	Place() Place
	// AppendJSON appends the member's value as compact JSON.
	AppendJSON(dst []byte) []byte
}

// A Place says where in a metric result's JSON object a detail is
// written: after which core members, before which.
type Place uint8

const (
	// AfterScore: after precision, recall and f1, before matches; for
	// parts of the score ("components").
	AfterScore Place = iota
	// AfterMatches: after matches, missing and unexpected, before reason;
	// for what the metric found in the calls or the case ("failed",
	// "retried", "turns", "flows", "rules", "diffs").
	AfterMatches
	// AfterReason: after reason, before error; for what grading spent or
	// did ("usage", "executions").
	AfterReason
	// Unwritten details are kept in Go only: results files never carry
	// them, and results read back have none ("near misses", which the
	// reason words).
	Unwritten
)

// coreMembers are the names of a metric result's core members, which no
// detail may take.
var coreMembers = []string{"name", "profile", "score", "success", "threshold", "precision", "recall", "f1",
	"matches", "missing", "unexpected", "reason", "error"}

// detailReaders maps a member name to the reader of its detail.
var detailReaders = struct {
	sync.RWMutex
	m map[string]func(x any) (Detail, error)
}{m: map[string]func(x any) (Detail, error){}}

// RegisterDetail registers decode as the reader of details of type D, by
// the member name D's zero value gives, so that [ParseResult] reads that
// member as a D instead of a [RawDetail]. A package that defines a detail
// calls it from an init function, as image formats register themselves.
// It panics when the name is a core member's or already registered, or
// when D is Unwritten.
func RegisterDetail[D Detail](decode func(x any, d *D) error) {
	var zero D
	name := zero.Member()
	if slices.Contains(coreMembers, name) || name == "" {
		panic(fmt.Sprintf("toolgrade.RegisterDetail: %q is not a detail's name", name))
	}
	if zero.Place() >= Unwritten {
		panic(fmt.Sprintf("toolgrade.RegisterDetail: detail %q is not written", name))
	}
	detailReaders.Lock()
	defer detailReaders.Unlock()
	if _, dup := detailReaders.m[name]; dup {
		panic(fmt.Sprintf("toolgrade.RegisterDetail: detail %q registered twice", name))
	}
	detailReaders.m[name] = func(x any) (Detail, error) {
		var d D
		if err := decode(x, &d); err != nil {
			return nil, err
		}
		return d, nil
	}
}

func detailReader(name string) func(x any) (Detail, error) {
	detailReaders.RLock()
	defer detailReaders.RUnlock()
	return detailReaders.m[name]
}

// A RawDetail is a member of a result line that no registered reader
// reads (the detail of a metric the reading program does not import),
// kept as it was read, so that writing the result again reproduces it.
type RawDetail struct {
	Name string
	// At is where it was read: the place of the core member or detail
	// before it.
	At Place
	// Value is the member's value, in the model of package jsonvalue.
	Value any
}

func (d RawDetail) Member() string               { return d.Name }
func (d RawDetail) Place() Place                 { return d.At }
func (d RawDetail) AppendJSON(dst []byte) []byte { return jsonvalue.Append(dst, d.Value) }

// DetailOf returns r's detail of type D, or D's zero value (a nil list,
// no usage) when r has none.
func DetailOf[D Detail](r *MetricResult) D {
	for _, d := range r.Details {
		if x, ok := d.(D); ok {
			return x
		}
	}
	var zero D
	return zero
}

// SetDetail adds d to r's details, in place of the one with its member
// name if there is one.
func (r *MetricResult) SetDetail(d Detail) {
	name := d.Member()
	for i, x := range r.Details {
		if x.Member() == name {
			r.Details[i] = d
			return
		}
	}
	r.Details = append(r.Details, d)
}

// checkDetails reports a detail that would break the result line: one
// named like a core member, or two of one name. Unwritten details cannot.
func (r *MetricResult) checkDetails() error {
	for i, d := range r.Details {
		if d.Place() >= Unwritten {
			continue
		}
		name := d.Member()
		if name == "" || slices.Contains(coreMembers, name) {
			return fmt.Errorf("metric %s gave a detail named %q, which is not a detail's name", r.Name, name)
		}
		if slices.ContainsFunc(r.Details[:i], func(x Detail) bool { return x.Member() == name }) {
			return fmt.Errorf("metric %s gave two details named %q", r.Name, name)
		}
	}
	return nil
}

// Components holds named parts of a score: a judge's score beside the
// deterministic one, DeepFabric's tool selection, ADK's invocations. It
// is written as "components", an object with its names in sorted order.
// A metric sets it only when it has parts.
type Components map[string]float64

func (Components) Member() string { return "components" }
func (Components) Place() Place   { return AfterScore }
func (c Components) AppendJSON(dst []byte) []byte {
	return componentsCodec.Append(dst, &c)
}

var componentsCodec = jsonvalue.Map[Components](jsonvalue.Float)

// Diffs are differences that belong to the case rather than to a pair of
// calls: state values that differ (state_match), argument values found
// nowhere earlier (grounding). Path locates each, e.g.
// "$.orders[0].status" or "#2 cancel_order.order_id". It is written as
// "diffs", a list like a match's.
type Diffs []ArgDiff

func (Diffs) Member() string { return "diffs" }
func (Diffs) Place() Place   { return AfterMatches }
func (d Diffs) AppendJSON(dst []byte) []byte {
	return caseDiffsCodec.Append(dst, &d)
}

var caseDiffsCodec = jsonvalue.List[Diffs](argDiffCodec)

// Member, Place and AppendJSON make a Usage the "usage" detail of the
// results of metrics that ask an LLM: {"prompt_tokens",
// "completion_tokens", "requests", "cached_requests"}.
func (Usage) Member() string { return "usage" }
func (Usage) Place() Place   { return AfterReason }
func (u Usage) AppendJSON(dst []byte) []byte {
	return usageCodec.Append(dst, &u)
}

var usageCodec = jsonvalue.Struct(
	jsonvalue.NewField("prompt_tokens", func(u *Usage) *int64 { return &u.PromptTokens }, jsonvalue.Int64),
	jsonvalue.NewField("completion_tokens", func(u *Usage) *int64 { return &u.CompletionTokens }, jsonvalue.Int64),
	jsonvalue.NewField("requests", func(u *Usage) *int64 { return &u.Requests }, jsonvalue.Int64),
	jsonvalue.NewField("cached_requests", func(u *Usage) *int64 { return &u.CachedRequests }, jsonvalue.Int64),
)

func init() {
	RegisterDetail(componentsCodec.Decode)
	RegisterDetail(caseDiffsCodec.Decode)
	RegisterDetail(usageCodec.Decode)
}
