// Package grounding provides the grounding metric: a reference-free check
// for argument values an agent likely invented. It needs no expected
// calls: an id, email, URL or long number that a call passes is grounded
// when it appears in what the agent was given before the call — the
// user's input (up to the call's turn), the outputs of earlier calls, or
// the called tool's schema (enum, const, default, examples) — and
// reported with its path when it appears in none of them.
//
// It is a heuristic: a value found nowhere may still be right (the agent
// computed it, or knew it), and a value found somewhere may still be the
// wrong one. Results call ungrounded values "likely invented". The rules
// are in [Metric]; docs/grounding.md explains them with examples.
//
// Non-goals: whether the value is the right one (expected calls and
// tool_correctness say that), and text the agent may fairly reword, which
// is left unchecked unless MinLength asks for it.
package grounding

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
)

// Options configure the grounding metric ([New]). The JSON names are the
// keys of a metric entry with metric: grounding; zero values mean the
// defaults.
type Options struct {
	// MinLength checks every other string of at least this many
	// characters (runes, surrounding white space not counted) as text,
	// besides ids, emails, URLs and numbers. 0, the default, leaves plain
	// text unchecked: queries, messages and names are usually the agent's
	// own words or a rewording of the user's, which a substring test
	// would flag. Set it (8 or more is a reasonable start) for tools whose
	// text arguments must be quoted, such as addresses or names.
	MinLength int `json:"min_length,omitempty"`
	// MinDigits is the number of digits a number, or a string of digits
	// and separators, needs to be checked (default 4): smaller numbers
	// (counts, limits, days) are usually the agent's legitimate choice.
	// See [Metric] for how digits are counted.
	MinDigits int `json:"min_digits,omitempty"`
	// IgnoreArgs lists arguments that are not checked, in every call: a
	// bare name ("session_id") at any depth, or a path from the top of the
	// arguments with dots ("items.0.sku", "items[0].sku", "items.*.sku")
	// which skips that value and everything under it.
	IgnoreArgs []string `json:"ignore_args,omitempty"`
	// IgnoreTools lists tools whose calls are not checked, as globs of
	// path.Match ("search_*"). Their outputs still ground later calls.
	IgnoreTools []string `json:"ignore_tools,omitempty"`
	// Threshold is the pass mark for the score (default 1: one invented
	// value fails the case).
	Threshold *float64 `json:"threshold,omitempty"`
	// Tools are the run's tool definitions, used for cases that give no
	// available_tools of their own (the --tools file, the config's tools).
	Tools []toolgrade.Tool `json:"-"`
}

// Defaults of [Options].
const (
	DefaultMinDigits = 4
	DefaultThreshold = 1.0
)

// Note is the note of every ungrounded value's [toolgrade.ArgDiff].
const Note = "not in the input, earlier tool outputs or the tool's schema"

// Metric is the grounding metric.
//
// # Values checked
//
// The leaves of each called call's arguments, through objects and lists
// (a string holding a JSON object or list is read as its values), except
// the arguments and tools the options ignore. A leaf is checked when it is
//
//   - an email address (local@domain.tld);
//   - a URL (scheme://...);
//   - an id: a string without white space of at least 4 characters that
//     mixes letters and digits ("#W2378156", "ord_8123", "A1B2-C3"), or a
//     UUID;
//   - a number with at least min_digits digits, or a string of digits and
//     the separators " +-().,#/" with that many ("2378156", "555-123-4567"),
//     or a number with a unit of up to 4 letters ("16384MB");
//   - with min_length set, any other string at least that long.
//
// Digits are counted in the number's plain decimal form: the integer part
// without leading zeros and the fraction without trailing zeros, so 1234,
// 1234.0 and 1.234e3 have 4, 98765.5 has 6, 0.0012 has 2 and 1000 has 4.
// Not checked: booleans, null, smaller numbers, short strings and plain
// words, ordinals and clock times ("2nd", "10am"), and dates and times
// ("2025-03-06", "14:30", "06/03/2025"), which agents compute from words.
//
// # Sources
//
// For the called call at index i, a value may come from the case's input;
// the inputs of the case's turns up to and including the call's turn (all
// turns' inputs when no call has a turn number, none when other calls
// have one and this one has not; a trajectory's turns are its user
// messages, as its trace reader numbers them); the outputs of the calls before it
// (index below i), failed or not; and the enum, const, default and
// examples values of the called tool's schema, from the case's
// available_tools or else [Options.Tools]. Every string, object key and
// number in them counts, at any depth; a string holding a JSON object or
// list counts both as written and as its values.
//
// # Matching
//
// A string value is grounded when it is a substring of a string of a
// source: case-sensitive, except emails, which ignore case; surrounding
// white space and a URL's trailing slashes are not part of the value.
// Numbers compare by value in the canonical form of their digits, with
// the numbers of a source: its JSON numbers, and the numbers written in
// its strings ("order 1234", "W1234", "$1,234.50", "1234.0"), so that 1234
// is grounded by "1234" and 1234.0, but not by "12345". A whole number,
// and a string of digits, is also grounded by a run of digits written with
// spaces, hyphens, slashes or parentheses between them that contains its
// digits ("555 123-4567" grounds "5551234567").
//
// # Score
//
// The score is the share of checked values that are grounded; 1 when none
// were checked. Each ungrounded value gives a [toolgrade.ArgDiff] in the
// result's Diffs, with Path "#<call index> <tool>.<argument path>"
// ("#2 cancel_order.order_id", "#0 create_user.emails[1]"), Got the value
// and [Note]. Calls whose arguments are not valid JSON are not checked,
// and the reason says so.
type Metric struct {
	opts       Options
	threshold  float64
	ignoreArgs [][]string // each split at dots, in the form of toolgrade.RulePath
}

// New checks the options and returns the metric. An option set to a value
// it does not take is an *toolgrade.OptionError.
func New(opts Options) (*Metric, error) {
	m := &Metric{opts: opts, threshold: DefaultThreshold}
	o := &m.opts
	if o.MinDigits == 0 {
		o.MinDigits = DefaultMinDigits
	}
	if o.MinDigits < 1 {
		return nil, &toolgrade.OptionError{Option: "min_digits", Value: strconv.Itoa(o.MinDigits),
			Err: fmt.Errorf("want a number of digits from 1, got %d", o.MinDigits)}
	}
	if o.MinLength < 0 {
		return nil, &toolgrade.OptionError{Option: "min_length", Value: strconv.Itoa(o.MinLength),
			Err: fmt.Errorf("want a number of characters (0 leaves plain text unchecked), got %d", o.MinLength)}
	}
	for i, a := range o.IgnoreArgs {
		p := toolgrade.RulePath(strings.TrimSpace(a))
		// A JSONPath ("$.order_id", `$["order-id"]`, as state_match takes)
		// would select no argument and so ignore nothing.
		if p == "" || strings.Contains(p, "..") || strings.HasSuffix(p, ".") ||
			p == "$" || strings.HasPrefix(p, "$.") || strings.Contains(p, `"`) {
			return nil, &toolgrade.OptionError{Option: fmt.Sprintf("ignore_args[%d]", i), Value: a,
				Err: fmt.Errorf("want an argument name or a dotted path such as items.0.sku (not a JSONPath), got %q", a)}
		}
		m.ignoreArgs = append(m.ignoreArgs, strings.Split(p, "."))
	}
	for i, g := range o.IgnoreTools {
		if _, err := path.Match(g, ""); err != nil {
			return nil, &toolgrade.OptionError{Option: fmt.Sprintf("ignore_tools[%d]", i), Value: g,
				Err: fmt.Errorf("bad glob %q: %w", g, err)}
		}
	}
	var err error
	if m.threshold, err = toolgrade.Threshold(o.Threshold, DefaultThreshold); err != nil {
		return nil, err
	}
	return m, nil
}

// Options returns the metric's options with every default filled in, the
// threshold included.
func (m *Metric) Options() Options {
	o := m.opts
	o.Threshold = toolgrade.Float(m.threshold)
	return o
}

// Name returns "grounding".
func (m *Metric) Name() string { return "grounding" }

// Profile returns "default".
func (m *Metric) Profile() string { return "default" }

// CaseFields returns the fields the metric reads: the calls, and the
// sources of their values (the input, the turns' inputs, the tool
// definitions).
func (m *Metric) CaseFields() []string {
	return []string{"tools_called", "input", "turns", "available_tools"}
}

// Grade checks the values of the case's calls against their sources.
func (m *Metric) Grade(_ context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	r := toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile(), Threshold: toolgrade.Float(m.threshold)}
	tools := m.opts.Tools
	if defs := schema.Definitions(c); defs != nil {
		var err error
		if tools, err = schema.Parse(defs); err != nil {
			r.Fail(toolgrade.InField("available_tools", err))
			return r
		}
	}
	s := newSources(c, tools)
	checked, grounded := 0, 0
	var invalid []int
	var diffs toolgrade.Diffs
	for i := range c.Called {
		call := &c.Called[i]
		if m.ignoredTool(call.Name) {
			continue
		}
		if call.Invalid {
			invalid = append(invalid, i)
			continue
		}
		for _, v := range m.values(call.Args) {
			checked++
			if s.grounds(i, &v) {
				grounded++
				continue
			}
			p := "#" + strconv.Itoa(i) + " " + call.Name
			if v.path != "" {
				if v.path[0] != '[' {
					p += "."
				}
				p += v.path
			}
			diffs = append(diffs, toolgrade.ArgDiff{Path: p, Got: v.got, Note: Note})
		}
	}
	r.Score = 1
	if checked > 0 {
		r.Score = float64(grounded) / float64(checked)
	}
	r.Success = r.Score >= m.threshold
	if diffs != nil {
		r.SetDetail(diffs)
	}
	r.Reason = reason(c, checked, grounded, diffs, invalid)
	return r
}

// maxListed bounds the values a reason lists; the Diffs detail has them
// all.
const maxListed = 10

func reason(c *toolgrade.Case, checked, grounded int, diffs []toolgrade.ArgDiff, invalid []int) string {
	var b []byte
	switch {
	case checked == 0:
		b = append(b, "no values to check"...)
	case len(diffs) == 0 && checked == 1:
		b = append(b, "the one checked value was found in the input, earlier tool outputs or the tool's schema"...)
	case len(diffs) == 0:
		b = fmt.Appendf(b, "all %d checked values were found in the input, earlier tool outputs or the tool's schema", checked)
	default:
		b = fmt.Appendf(b, "%d of %d checked values grounded; likely invented: ", grounded, checked)
		for k, d := range diffs {
			if k == maxListed {
				b = fmt.Appendf(b, ", and %d more", len(diffs)-maxListed)
				break
			}
			if k > 0 {
				b = append(b, ", "...)
			}
			b = append(b, d.Path...)
			b = append(b, ' ')
			b = jsonvalue.AppendFormat(b, d.Got)
		}
		b = append(b, " ("+Note+")"...)
	}
	for _, i := range invalid {
		b = fmt.Appendf(b, "; call #%d %s not checked: arguments are not valid JSON", i, c.Called[i].Name)
	}
	return string(b)
}

func (m *Metric) ignoredTool(name string) bool {
	for _, g := range m.opts.IgnoreTools {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}

// values lists the checked leaves of a call's arguments.
func (m *Metric) values(args any) []value {
	w := walker{m: m}
	w.walk(model(args), 0, 0)
	return w.out
}

type walker struct {
	m     *Metric
	elems []elem // the path
	out   []value
}

// An elem is one step of a path: an object key or a list index.
type elem struct {
	s     string
	index bool
}

func (w *walker) path() string {
	var b strings.Builder
	for k, e := range w.elems {
		switch {
		case e.index:
			b.WriteString("[" + e.s + "]")
			continue
		case k > 0:
			b.WriteByte('.')
		}
		b.WriteString(e.s)
	}
	return b.String()
}

func (w *walker) ignored() bool {
	for _, pat := range w.m.ignoreArgs {
		if len(pat) == 1 && pat[0] != "*" {
			for _, e := range w.elems {
				if e.s == pat[0] {
					return true
				}
			}
			continue
		}
		if len(pat) > len(w.elems) {
			continue
		}
		match := true
		for k, p := range pat {
			if p != "*" && p != w.elems[k].s {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

func (w *walker) walk(v any, depth, embedded int) {
	if depth > maxWalkDepth || len(w.m.ignoreArgs) > 0 && w.ignored() {
		return
	}
	switch v := v.(type) {
	case jsonvalue.Object:
		for i := range v {
			w.elems = append(w.elems, elem{s: v[i].Key})
			w.walk(v[i].Value, depth+1, embedded)
			w.elems = w.elems[:len(w.elems)-1]
		}
	case []any:
		for i, e := range v {
			w.elems = append(w.elems, elem{s: strconv.Itoa(i), index: true})
			w.walk(e, depth+1, embedded)
			w.elems = w.elems[:len(w.elems)-1]
		}
	case string:
		if embedded < maxEmbedded {
			if inner, ok := embeddedJSON(v); ok {
				w.walk(inner, depth+1, embedded+1)
				return
			}
		}
		if val, ok := classify(v, w.m.opts.MinDigits, w.m.opts.MinLength); ok {
			val.path = w.path()
			w.out = append(w.out, val)
		}
	case json.Number:
		if val, ok := number(v, w.m.opts.MinDigits); ok {
			val.path = w.path()
			w.out = append(w.out, val)
		}
	}
}

// sources holds a case's sources, read when first needed.
type sources struct {
	c        *toolgrade.Case
	input    *source
	turnSrc  []*source // read from the turns' inputs
	numbered bool      // some call has a turn number
	outputs  []*source // by called call
	tools    map[string]*toolgrade.Tool
	schemas  map[string]*source
}

func newSources(c *toolgrade.Case, tools []toolgrade.Tool) *sources {
	s := &sources{c: c, outputs: make([]*source, len(c.Called))}
	for i := range c.Called {
		s.numbered = s.numbered || c.Called[i].Turn > 0
	}
	s.turnSrc = make([]*source, len(c.Turns))
	if len(tools) > 0 {
		s.tools = make(map[string]*toolgrade.Tool, len(tools))
		for i := range tools {
			if _, dup := s.tools[tools[i].Name]; !dup { // the first definition wins
				s.tools[tools[i].Name] = &tools[i]
			}
		}
		s.schemas = map[string]*source{}
	}
	return s
}

// grounds reports whether a source of called call i holds v.
func (s *sources) grounds(i int, v *value) bool {
	if s.input == nil {
		s.input = newSource(s.c.Input)
	}
	if s.input.has(v) {
		return true
	}
	n := len(s.turnSrc)
	if s.numbered {
		n = min(n, s.c.Called[i].Turn)
	}
	for t := range n {
		if s.turnSrc[t] == nil {
			s.turnSrc[t] = newSource(s.c.Turns[t].Input)
		}
		if s.turnSrc[t].has(v) {
			return true
		}
	}
	for j := range i {
		if s.outputs[j] == nil {
			s.outputs[j] = newSource(s.c.Called[j].Output)
		}
		if s.outputs[j].has(v) {
			return true
		}
	}
	name := s.c.Called[i].Name
	if t, ok := s.tools[name]; ok {
		src, ok := s.schemas[name]
		if !ok {
			src = &source{nums: map[string]bool{}}
			src.schemaValues(model(t.Parameters), 0)
			s.schemas[name] = src
		}
		if src.has(v) {
			return true
		}
	}
	return false
}

// schemaValues reads the enum, const, default and examples values of a
// JSON Schema and of the schemas inside it.
func (s *source) schemaValues(v any, depth int) {
	if depth > maxWalkDepth {
		return
	}
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			s.schemaValues(e, depth+1)
		}
	case jsonvalue.Object:
		for _, m := range v {
			switch m.Key {
			case "enum", "examples", "const", "default":
				if _, isSchema := m.Value.(jsonvalue.Object); isSchema && m.Key == "enum" {
					s.schemaValues(m.Value, depth+1) // a property named enum
					continue
				}
				s.add(m.Value, depth+1, 0)
			case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
				// Maps from names to schemas: the names are no keywords.
				if o, ok := m.Value.(jsonvalue.Object); ok {
					for _, p := range o {
						s.schemaValues(p.Value, depth+1)
					}
				}
			default:
				s.schemaValues(m.Value, depth+1)
			}
		}
	}
}

var _ toolgrade.Metric = (*Metric)(nil)
