package grounding

import "encoding/json"

// Checks reports whether the metric checks v, one leaf of a call's
// arguments (a string or a number), under its options: whether v is
// specific enough that finding it in an earlier source says where it came
// from (an id, an email address, a URL, a number with min_digits digits;
// see [Metric]). Booleans, null, small numbers, plain words, dates and
// times are not checked; neither are objects and lists, whose leaves are.
//
// Other packages that trace values through a run (package snapshot) ask
// it, so that a value worth tracing means the same everywhere.
func (m *Metric) Checks(v any) bool {
	_, ok := m.leaf(v)
	return ok
}

// A Source is a value that argument values may come from (a user
// message, a tool output), read once for many lookups.
type Source struct {
	m   *Metric
	src *source
}

// Source reads v, any value, as a source of the metric's values.
func (m *Metric) Source(v any) *Source { return &Source{m, newSource(v)} }

// Holds reports whether the source holds v as the metric grounds a
// checked value (see [Metric], Matching): as a substring of one of its
// strings, or by value among its numbers. It is false for a value the
// metric does not check.
func (s *Source) Holds(v any) bool {
	val, ok := s.m.leaf(v)
	return ok && s.src.has(&val)
}

// leaf classifies one argument leaf as the metric's walk does.
func (m *Metric) leaf(v any) (value, bool) {
	switch v := model(v).(type) {
	case string:
		return classify(v, m.opts.MinDigits, m.opts.MinLength)
	case json.Number:
		return number(v, m.opts.MinDigits)
	}
	return value{}, false
}
