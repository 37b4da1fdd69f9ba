// Package evalite reproduces the scores of evalite's toolCallAccuracy
// scorer (evalite 1.0.0-beta.16, a prerelease: the latest release, 0.19.0,
// has no tool-call scorer), quirks included.
//
// The rules, as the scorer's code has them:
//
//   - Both lists empty score 1; nothing expected or nothing called scores
//     0, whatever the mode.
//   - exact mode (the default) is positional and driven by the called list:
//     each called call is paired with the expected call at its position and
//     counts as an exact match (same name, arguments equal), a name-only
//     match (same name, other arguments) or wrong (another name, or no
//     expected call there). Every called call past the expected list's end
//     is then counted wrong once more. The score is (exact + name_only ×
//     name-only matches)/|expected| − wrong_penalty × wrong/|expected|. An
//     expected call without args accepts any arguments, while a called call
//     without args matches only such an expected call; missing calls cost
//     only the credit they would have earned.
//   - flexible mode ignores order: each called call, in order, takes an
//     unused expected call with the same name and canonically equal args
//     (an expected call without args takes only a called call without
//     args); the calls left over then take leftover expected calls of the
//     same name as name-only matches; the rest are extras. The score is
//     (exact + name_only × name-only matches)/|expected| − extra_penalty ×
//     extras/|expected|.
//   - The score is clamped to [0, 1], in double arithmetic in that order,
//     and never rounded. There is no pass mark: the result has no verdict.
//
// Arguments compare by value as JavaScript holds parsed JSON: key order
// does not matter, arrays are ordered, 1 equals 1.0 and -0 equals 0, an
// array never equals an object, null equals only null, and a missing args
// differs from "args": null and from {}. Arguments given as a string stay a
// string. Names compare exactly (===): a call without a name matches only
// another call without one.
//
// What the scorer leaves unchecked, and the reason says: weights.exact is
// never read (an exact match always counts 1), tool outputs and call ids
// are never compared, and in exact mode an expected call that has no
// called call at its position costs nothing beyond its credit.
//
// Non-goals: weights that are not numbers (JavaScript would coerce them);
// an unknown mode is an error once both lists have calls, as in evalite,
// which decides empty lists first; a NaN score (possible only with weights
// near the largest double) is an error.
package evalite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/internal/js"
	"github.com/toolgrade/toolgrade/internal/sorting"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Options configure [Metric]. The JSON names are toolCallAccuracy's
// options in snake_case.
type Options struct {
	// Mode is ModeExact or ModeFlexible; nil (in JSON: absent or null)
	// means exact. Any other value, "" included, is kept: evalite throws
	// for it only when both lists have calls, and so does the metric.
	Mode *Mode `json:"mode,omitempty"`
	// Weights replace the default credit and penalties.
	Weights *Weights `json:"weights,omitempty"`
}

// A Mode is toolCallAccuracy's mode.
type Mode string

const (
	// ModeExact pairs calls by position.
	ModeExact Mode = "exact"
	// ModeFlexible pairs calls in any order.
	ModeFlexible Mode = "flexible"
)

// Weights are toolCallAccuracy's weights; a weight left nil keeps its
// default. In JSON a weight given as null is 0, as JavaScript's arithmetic
// reads null.
type Weights struct {
	// Exact is accepted and never read, as in evalite (default 1): an
	// exact match always counts 1.
	Exact *float64 `json:"exact,omitempty"`
	// NameOnly is the credit of a call with the right name and other
	// arguments (default 0.5).
	NameOnly *float64 `json:"name_only,omitempty"`
	// ExtraPenalty is subtracted per extra call in flexible mode (default
	// 0.25).
	ExtraPenalty *float64 `json:"extra_penalty,omitempty"`
	// WrongPenalty is subtracted per wrong call in exact mode (default
	// 0.25).
	WrongPenalty *float64 `json:"wrong_penalty,omitempty"`
}

// UnmarshalJSON reads the weights, as JavaScript's arithmetic reads them
// (null is 0; a number too large for a double is Infinity). A name that
// is no weight, and a value that is no number, are *toolgrade.OptionError
// values naming the weight ("weights.bonus"), the former with
// toolgrade.ErrUnknownOption, as toolgrade.DecodeOptions reports the other
// options.
func (w *Weights) UnmarshalJSON(b []byte) error {
	*w = Weights{}
	v, err := jsonvalue.Parse(b)
	if err != nil {
		return err
	}
	o, ok := v.(jsonvalue.Object)
	if !ok {
		return &toolgrade.OptionError{Option: "weights", Err: fmt.Errorf("want an object, got %s", jsonvalue.Kind(v))}
	}
	for _, m := range o {
		var dst **float64
		switch m.Key {
		case "exact":
			dst = &w.Exact
		case "name_only":
			dst = &w.NameOnly
		case "extra_penalty":
			dst = &w.ExtraPenalty
		case "wrong_penalty":
			dst = &w.WrongPenalty
		default:
			return &toolgrade.OptionError{Option: "weights." + m.Key, Err: toolgrade.ErrUnknownOption}
		}
		f := 0.0
		switch x := m.Value.(type) {
		case nil:
		case json.Number:
			f = js.Number(x)
		default:
			return &toolgrade.OptionError{Option: "weights." + m.Key, Err: fmt.Errorf("want a number, got %s", jsonvalue.Kind(x))}
		}
		*dst = &f
	}
	return nil
}

// weights are the weights in effect.
type weights struct{ nameOnly, extraPenalty, wrongPenalty float64 }

func (w *Weights) resolve() weights {
	r := weights{nameOnly: 0.5, extraPenalty: 0.25, wrongPenalty: 0.25}
	if w == nil {
		return r
	}
	for _, p := range []struct {
		src *float64
		dst *float64
	}{{w.NameOnly, &r.nameOnly}, {w.ExtraPenalty, &r.extraPenalty}, {w.WrongPenalty, &r.wrongPenalty}} {
		if p.src != nil {
			*p.dst = *p.src
		}
	}
	return r
}

// Metric reproduces toolCallAccuracy (see the package comment). It reads
// the case's tools_called and expected_tools as written, lists of {name,
// args}; a case built in code, or one whose calls come from a trace or
// another accepted key, is read from its decoded calls.
type Metric struct {
	opts Options
	w    weights
}

// New returns the metric. It accepts any mode, as evalite does until it
// meets two non-empty lists.
func New(opts Options) (*Metric, error) {
	return &Metric{opts: opts, w: opts.Weights.resolve()}, nil
}

// Name returns "tool_correctness".
func (m *Metric) Name() string { return "tool_correctness" }

// Profile returns "evalite".
func (m *Metric) Profile() string { return "evalite" }

// CaseFields returns the fields the metric reads: the calls.
func (m *Metric) CaseFields() []string { return []string{"tools_called", "expected_tools"} }

// WrittenFields returns the fields the metric reads as written, in
// evalite's shape: tools_called and expected_tools. A case whose calls
// there do not decode as toolgrade's (a call without a name) is graded
// all the same.
func (m *Metric) WrittenFields() []string { return []string{"tools_called", "expected_tools"} }

// A call is a call as the scorer holds it: {toolName, input}, either of
// which may be js.Undefined.
type call struct {
	name, input any
	output      bool // the case gives the call an output, which no mode reads
}

// Grade scores one case.
func (m *Metric) Grade(_ context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile()}
	out, err := calls(c, "tools_called", c.Called)
	if err == nil {
		var ref []call
		ref, err = calls(c, "expected_tools", c.Expected)
		if err == nil {
			err = m.score(&r, out, ref)
		}
	}
	if err != nil {
		r.Fail(err)
	}
	return r
}

// calls reads one list: from the case as written when it has the field,
// else from the decoded calls.
func calls(c *toolgrade.Case, field string, decoded []toolgrade.Call) ([]call, error) {
	v, ok := c.Raw.Get(field)
	if !ok {
		out := make([]call, len(decoded))
		for i, d := range decoded {
			out[i] = call{name: d.Name, input: js.Undefined{}, output: d.Output != nil}
			switch {
			case d.Invalid:
				out[i].input = d.ArgsRaw
			case d.Args != nil || d.ArgsNull:
				out[i].input = d.Args
			}
		}
		return out, nil
	}
	list, ok := v.([]any)
	if !ok {
		if v == nil {
			return nil, fmt.Errorf("%s is null (evalite reads its length and throws a TypeError)", field)
		}
		return nil, fmt.Errorf("%s: want a list of calls, got %s", field, jsonvalue.Kind(v))
	}
	out := make([]call, len(list))
	for i, e := range list {
		o, ok := e.(jsonvalue.Object)
		if !ok {
			return nil, fmt.Errorf("%s[%d]: want a call object, got %s", field, i, jsonvalue.Kind(e))
		}
		out[i] = call{name: js.Get(o, "name"), input: js.Get(o, "args"), output: o.Has("output")}
	}
	return out, nil
}

// score fills in the result, or says why evalite throws.
func (m *Metric) score(r *toolgrade.MetricResult, out, ref []call) error {
	switch {
	case len(out) == 0 && len(ref) == 0:
		r.Score, r.Reason = 1, "no calls expected and none made"
		r.Missing, r.Unexpected = []int{}, []int{}
		return nil
	case len(ref) == 0:
		r.Score, r.Reason = 0, fmt.Sprintf("no calls expected but %d made", len(out))
		r.Missing, r.Unexpected = []int{}, indexes(len(out))
		return nil
	case len(out) == 0:
		r.Score, r.Reason = 0, fmt.Sprintf("no calls made but %d expected", len(ref))
		r.Missing, r.Unexpected = indexes(len(ref)), []int{}
		return nil
	}
	mode := ModeExact
	if m.opts.Mode != nil {
		mode = *m.opts.Mode
	}
	var notes []string
	switch mode {
	case ModeExact:
		notes = m.exact(r, out, ref)
	case ModeFlexible:
		notes = m.flexible(r, out, ref)
	default:
		return fmt.Errorf("invalid mode %q: want exact or flexible (evalite throws once both lists have calls)", mode)
	}
	if math.IsNaN(r.Score) {
		return errors.New("the score is NaN (weights this large overflow evalite's arithmetic)")
	}
	if w := m.opts.Weights; w != nil && w.Exact != nil && *w.Exact != 1 {
		notes = append(notes, fmt.Sprintf("weights.exact (%v) not read: evalite counts an exact match 1", *w.Exact))
	}
	if slices.ContainsFunc(slices.Concat(out, ref), func(c call) bool { return c.output }) {
		notes = append(notes, "outputs not compared (evalite reads names and args only)")
	}
	r.Reason = strings.Join(notes, "; ")
	return nil
}

// exact is evalite's exact mode.
func (m *Metric) exact(r *toolgrade.MetricResult, out, ref []call) []string {
	var exact, nameOnly, wrong int
	r.Matches = []toolgrade.Match{}
	r.Unexpected = []int{}
	var notes []string
	for i, o := range out {
		switch {
		case i >= len(ref):
			wrong++
			r.Unexpected = append(r.Unexpected, i)
		case !js.StrictEqual(o.name, ref[i].name):
			wrong++
			r.Unexpected = append(r.Unexpected, i)
			notes = append(notes, fmt.Sprintf("call #%d %s is not %s, the expected call at its place", i, show(o.name), show(ref[i].name)))
		case argsMatch(o.input, ref[i].input):
			exact++
			r.Matches = append(r.Matches, toolgrade.Match{Expected: i, Called: i, Score: 1})
		default:
			nameOnly++
			r.Matches = append(r.Matches, toolgrade.Match{Expected: i, Called: i, Score: m.w.nameOnly})
			notes = append(notes, fmt.Sprintf("call #%d %s has other args than expected", i, show(o.name)))
		}
	}
	surplus := max(0, len(out)-len(ref))
	wrong += surplus
	r.Missing, _ = toolgrade.Unpaired(r.Matches, len(ref), len(out))
	denom := float64(len(ref))
	r.Score = clamp01(float64(float64(exact)+float64(m.w.nameOnly*float64(nameOnly)))/denom - float64(m.w.wrongPenalty*(float64(wrong)/denom)))
	r.SetDetail(toolgrade.Components{"exact_matches": float64(exact), "name_only_matches": float64(nameOnly), "wrong_or_missing": float64(wrong)})
	head := fmt.Sprintf("exact mode, by position: %d exact, %d name-only (%v each), %d wrong (−%v each) of %d expected",
		exact, nameOnly, m.w.nameOnly, wrong, m.w.wrongPenalty, len(ref))
	if surplus > 0 {
		head += fmt.Sprintf("; the %d calls past the expected ones count wrong twice", surplus)
	}
	if n := len(ref) - len(out); n > 0 {
		head += fmt.Sprintf("; %d expected calls were not made (no penalty beyond their credit)", n)
	}
	return append([]string{head}, notes...)
}

// flexible is evalite's flexible mode.
func (m *Metric) flexible(r *toolgrade.MetricResult, out, ref []call) []string {
	// Expected calls grouped by their canonical text, groups in order of
	// first appearance; a called call takes the last of its group.
	type group struct {
		key  string
		refs []int
	}
	var groups []group
	find := func(key string) int {
		return slices.IndexFunc(groups, func(g group) bool { return g.key == key })
	}
	for j, c := range ref {
		k := c.key()
		if g := find(k); g >= 0 {
			groups[g].refs = append(groups[g].refs, j)
		} else {
			groups = append(groups, group{k, []int{j}})
		}
	}
	r.Matches = []toolgrade.Match{}
	var leftovers []int
	for i, c := range out {
		if g := find(c.key()); g >= 0 && len(groups[g].refs) > 0 {
			last := len(groups[g].refs) - 1
			r.Matches = append(r.Matches, toolgrade.Match{Expected: groups[g].refs[last], Called: i, Score: 1})
			groups[g].refs = groups[g].refs[:last]
			continue
		}
		leftovers = append(leftovers, i)
	}
	exact := len(r.Matches)
	// The expected calls left, counted by name.
	var missing []int
	for _, g := range groups {
		missing = append(missing, g.refs...)
	}
	var notes []string
	nameOnly, extras := 0, 0
	r.Unexpected = []int{}
	for _, i := range leftovers {
		k := slices.IndexFunc(missing, func(j int) bool { return j >= 0 && js.StrictEqual(ref[j].name, out[i].name) })
		if k < 0 {
			extras++
			r.Unexpected = append(r.Unexpected, i)
			continue
		}
		nameOnly++
		r.Matches = append(r.Matches, toolgrade.Match{Expected: missing[k], Called: i, Score: m.w.nameOnly})
		notes = append(notes, fmt.Sprintf("call #%d %s matches expected call #%d by name only", i, show(out[i].name), missing[k]))
		missing[k] = -1
	}
	slices.SortFunc(r.Matches, func(a, b toolgrade.Match) int { return a.Expected - b.Expected })
	r.Missing, _ = toolgrade.Unpaired(r.Matches, len(ref), len(out))
	denom := float64(len(ref))
	r.Score = clamp01(float64(float64(exact)+float64(m.w.nameOnly*float64(nameOnly)))/denom - float64(m.w.extraPenalty*(float64(extras)/denom)))
	r.SetDetail(toolgrade.Components{"exact_matches": float64(exact), "name_only_matches": float64(nameOnly),
		"extras": float64(extras), "missing": float64(len(r.Missing))})
	head := fmt.Sprintf("flexible mode, any order: %d exact, %d name-only (%v each), %d extra (−%v each), %d missing of %d expected",
		exact, nameOnly, m.w.nameOnly, extras, m.w.extraPenalty, len(r.Missing), len(ref))
	return append([]string{head}, notes...)
}

// argsMatch is exact mode's argument check: an expected call without args
// accepts any, a called call without args matches no other, and otherwise
// the args must be equal.
func argsMatch(out, ref any) bool {
	switch {
	case js.IsUndefined(ref):
		return true
	case js.IsUndefined(out):
		return false
	}
	return js.DeepEqual(out, ref)
}

// key is flexible mode's canonical text of a call: JSON.stringify of
// {toolName, input} with the input's object keys sorted at every level
// (an undefined input is left out).
func (c call) key() string {
	k, _ := js.Stringify(jsonvalue.Object{{Key: "toolName", Value: c.name}, {Key: "input", Value: sorted(c.input)}})
	return k
}

// sorted is a value with its objects' keys sorted as JavaScript's default
// sort orders strings, by UTF-16 code units.
func sorted(v any) any {
	switch v := v.(type) {
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = sorted(e)
		}
		return out
	case jsonvalue.Object:
		out := make(jsonvalue.Object, len(v))
		for i, m := range v {
			out[i] = jsonvalue.Member{Key: m.Key, Value: sorted(m.Value)}
		}
		sorting.Stable(out, func(a, b jsonvalue.Member) int {
			return slices.Compare(utf16.Encode([]rune(a.Key)), utf16.Encode([]rune(b.Key)))
		})
		return out
	}
	return v
}

func clamp01(x float64) float64 {
	if math.IsNaN(x) {
		return x
	}
	return math.Max(0, math.Min(1, x))
}

func indexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// show writes a name for the reason.
func show(name any) string {
	if s, ok := name.(string); ok {
		return s
	}
	if js.IsUndefined(name) {
		return "(no name)"
	}
	return jsonvalue.Format(name)
}
