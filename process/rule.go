package process

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/suggest"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A Kind names a process rule: the key it is written with.
type Kind string

// The kinds of rule. In each, a call that failed ([toolgrade.Call.Failed])
// was tried but not done: it counts against a rule, but cannot satisfy or
// trigger one (see [Rule.Check]).
const (
	// Before [A, B]: every call to B has a call to A since the previous
	// call to B (or since the start, for the first): one A licenses one B.
	Before Kind = "before"
	// OnceBefore [A, B]: every call to B has a call to A somewhere before
	// it: one A licenses every later B.
	OnceBefore Kind = "once_before"
	// After [A, B]: every call to A is followed later by a call to B; one
	// B answers every A before it.
	After Kind = "after"
	// Never X: no call to X.
	Never Kind = "never"
	// NeverAfter {X: Y}: no call to Y after the first call to X.
	NeverAfter Kind = "never_after"
	// AtMost {X: n}: at most n calls to X, all its tools together.
	AtMost Kind = "at_most"
	// NoRepeat: no call is the same as the call just before it: the same
	// name and equal arguments.
	NoRepeat Kind = "no_repeat"
	// MaxCalls n: at most n calls in all.
	MaxCalls Kind = "max_calls"
)

// kinds lists the rule keys, for messages and suggestions.
var kinds = []string{string(Before), string(OnceBefore), string(After), string(Never),
	string(NeverAfter), string(AtMost), string(NoRepeat), string(MaxCalls)}

// maxN bounds the numbers of at_most and max_calls.
const maxN = 1_000_000_000

// Tools is a set of tools, named by exact names or globs. A call is in the
// set when its name matches one of them with [path.Match]: * matches any
// run of characters but /, ? any one character but /, [...] a character
// class, and \ quotes the character after it. The pattern * alone matches
// every name, / included.
type Tools []string

// Match reports whether a tool name is in the set.
func (t Tools) Match(name string) bool {
	for _, p := range t {
		if p == "*" {
			return true
		}
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// words writes the set for reasons: "confirm", "confirm or ask_user".
func (t Tools) words() string { return strings.Join(t, " or ") }

// appendCompact writes the set as a rule writes it: a name, or a list of
// names in brackets.
func (t Tools) appendCompact(b []byte) []byte {
	if len(t) == 1 {
		return appendName(b, t[0])
	}
	b = append(b, '[')
	for i, p := range t {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendName(b, p)
	}
	return append(b, ']')
}

// appendName writes a tool name or glob plain when YAML reads it back as
// the same string, and quoted otherwise ("*", "[ab]x", "null", "3d").
func appendName(b []byte, s string) []byte {
	plain := s != ""
	for i, r := range s {
		switch {
		case r == '_' || r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) && i > 0):
		case i > 0 && strings.ContainsRune("-./*", r):
		default:
			plain = false
		}
	}
	switch strings.ToLower(s) {
	case "true", "false", "null", "yes", "no", "on", "off":
		plain = false
	}
	if plain {
		return append(b, s...)
	}
	if !utf8.ValidString(s) {
		// A lone surrogate (from a case's JSON): \xed would read back as
		// "í"; its JSON escape says what it is, though YAML has none.
		return jsonvalue.AppendString(b, s)
	}
	return strconv.AppendQuote(b, s)
}

// A Rule is one process rule, as [ParseRules] reads it.
type Rule struct {
	Kind Kind
	// A and B are the tools the rule names: for before and once_before, A
	// must come before B; for after, B must follow A; for never_after,
	// nothing in B may follow A (a single name or glob). Never and at_most
	// name their tools in A. No_repeat and max_calls name none.
	A, B Tools
	// N is the limit of at_most and max_calls.
	N int
}

// String writes the rule compactly, as YAML that reads back as the same
// rule: "before: [confirm, cancel_*]", "never_after: {transfer: "*"}",
// "at_most: {exchange_*: 1}", "no_repeat: true", "max_calls: 20".
func (r Rule) String() string {
	b := append([]byte(r.Kind), ": "...)
	switch r.Kind {
	case Before, OnceBefore, After:
		b = append(b, '[')
		b = r.A.appendCompact(b)
		b = append(b, ", "...)
		b = r.B.appendCompact(b)
		b = append(b, ']')
	case Never:
		b = r.A.appendCompact(b)
	case NeverAfter:
		b = append(b, '{')
		b = appendName(b, r.A[0])
		b = append(b, ": "...)
		b = r.B.appendCompact(b)
		b = append(b, '}')
	case AtMost:
		b = append(b, '{')
		b = appendName(b, r.A[0])
		b = append(b, ": "...)
		b = strconv.AppendInt(b, int64(r.N), 10)
		b = append(b, '}')
	case NoRepeat:
		b = append(b, "true"...)
	case MaxCalls:
		b = strconv.AppendInt(b, int64(r.N), 10)
	}
	return string(b)
}

// ParseRules reads a list of process rules as written in a config entry's
// rules or a case's process: a list whose items are each a mapping of one
// rule key to its value, or the string "no_repeat".
//
//	before: [A, B]          once_before: [A, B]     after: [A, B]
//	never: X                never_after: {X: Y}     at_most: {X: n}
//	no_repeat: true         max_calls: n
//
// A and B, X and Y name tools: a name or glob, or a list of them (the
// key X of never_after and at_most is one name or glob). n is a whole
// number from 0. An at_most or never_after mapping of several tools gives
// a rule for each, in the order written. v is in the JSON value model or
// an ordinary Go value that [jsonvalue.From] converts; nil gives no rules.
//
// A malformed item is an error: a *toolgrade.FieldError whose path starts
// at the list ("[2].before", "[0].at_most.cancel_*"). An unknown key
// suggests the nearest known one.
func ParseRules(v any) ([]Rule, error) {
	v, err := jsonvalue.From(v)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("want a list of rules, got %s", jsonvalue.Kind(v))
	}
	var rules []Rule
	for i, item := range list {
		at := "[" + strconv.Itoa(i) + "]"
		rs, err := parseItem(item)
		if err != nil {
			return nil, toolgrade.InField(at, err)
		}
		rules = append(rules, rs...)
	}
	return rules, nil
}

// parseItem reads one item of a rule list.
func parseItem(item any) ([]Rule, error) {
	switch it := item.(type) {
	case string:
		if it == string(NoRepeat) {
			return []Rule{{Kind: NoRepeat}}, nil
		}
		if slices.Contains(kinds, it) {
			return nil, fmt.Errorf("rule %s needs a value, as in {%s: ...}", it, it)
		}
		return nil, unknownKind(it)
	case jsonvalue.Object:
		switch len(it) {
		case 0:
			return nil, fmt.Errorf("want a rule (%s), got an empty mapping", strings.Join(kinds, ", "))
		case 1:
		default:
			return nil, fmt.Errorf("want one rule per item, got %s: write each as an item of its own", strings.Join(it.Keys(), ", "))
		}
		kind, v := Kind(it[0].Key), it[0].Value
		if !slices.Contains(kinds, string(kind)) {
			return nil, &toolgrade.FieldError{Path: it[0].Key, Err: unknownKind(it[0].Key)}
		}
		rules, err := parseValue(kind, v)
		if err != nil {
			return nil, toolgrade.InField(string(kind), err)
		}
		return rules, nil
	}
	return nil, fmt.Errorf("want a rule such as {before: [A, B]}, or no_repeat, got %s", jsonvalue.Kind(item))
}

func unknownKind(key string) error {
	if near, ok := suggest.Nearest(key, kinds); ok {
		return fmt.Errorf("unknown rule %q; did you mean %q?", key, near)
	}
	return fmt.Errorf("unknown rule %q (want %s)", key, strings.Join(kinds, ", "))
}

// parseValue reads the value of a rule of the given kind.
func parseValue(kind Kind, v any) ([]Rule, error) {
	switch kind {
	case Before, OnceBefore, After:
		pair, ok := v.([]any)
		if !ok || len(pair) != 2 {
			return nil, fmt.Errorf("want [tool, tool], got %s", jsonvalue.Format(v))
		}
		a, err := parseTools(pair[0])
		if err != nil {
			return nil, toolgrade.InField("[0]", err)
		}
		b, err := parseTools(pair[1])
		if err != nil {
			return nil, toolgrade.InField("[1]", err)
		}
		return []Rule{{Kind: kind, A: a, B: b}}, nil
	case Never:
		a, err := parseTools(v)
		if err != nil {
			return nil, err
		}
		return []Rule{{Kind: kind, A: a}}, nil
	case NeverAfter, AtMost:
		obj, ok := v.(jsonvalue.Object)
		if !ok || len(obj) == 0 {
			want := "{tool: tools}"
			if kind == AtMost {
				want = "{tool: number}"
			}
			return nil, fmt.Errorf("want %s, got %s", want, jsonvalue.Format(v))
		}
		rules := make([]Rule, 0, len(obj))
		for _, m := range obj {
			if err := checkGlob(m.Key); err != nil {
				return nil, &toolgrade.FieldError{Path: keyPath(m.Key), Err: err}
			}
			r := Rule{Kind: kind, A: Tools{m.Key}}
			var err error
			if kind == AtMost {
				r.N, err = parseCount(m.Value)
			} else {
				r.B, err = parseTools(m.Value)
			}
			if err != nil {
				return nil, toolgrade.InField(keyPath(m.Key), err)
			}
			rules = append(rules, r)
		}
		return rules, nil
	case NoRepeat:
		if v != true {
			return nil, fmt.Errorf("want true (leave the rule out to allow repeats), got %s", jsonvalue.Format(v))
		}
		return []Rule{{Kind: kind}}, nil
	default: // MaxCalls
		n, err := parseCount(v)
		if err != nil {
			return nil, err
		}
		return []Rule{{Kind: kind, N: n}}, nil
	}
}

// keyPath writes a mapping key as a step of an error's path: as it is,
// or quoted in brackets when it starts with one ("[ab]*" gives
// ["[ab]*"]), so that it does not read as a list index.
func keyPath(key string) string {
	if strings.HasPrefix(key, "[") {
		return "[" + strconv.Quote(key) + "]"
	}
	return key
}

// parseTools reads a tool name or glob, or a non-empty list of them.
func parseTools(v any) (Tools, error) {
	switch v := v.(type) {
	case string:
		if err := checkGlob(v); err != nil {
			return nil, err
		}
		return Tools{v}, nil
	case []any:
		if len(v) == 0 {
			return nil, errors.New("want a tool name or glob, or a list of them, got an empty list")
		}
		t := make(Tools, len(v))
		for i, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, &toolgrade.FieldError{Path: "[" + strconv.Itoa(i) + "]", Err: fmt.Errorf("want a tool name or glob, got %s", jsonvalue.Kind(e))}
			}
			if err := checkGlob(s); err != nil {
				return nil, &toolgrade.FieldError{Path: "[" + strconv.Itoa(i) + "]", Err: err}
			}
			t[i] = s
		}
		return t, nil
	}
	return nil, fmt.Errorf("want a tool name or glob, or a list of them, got %s", jsonvalue.Kind(v))
}

// checkGlob reports a tool pattern that matches nothing: an empty one, or
// a malformed glob.
func checkGlob(p string) error {
	if p == "" {
		return errors.New("want a tool name or glob, got an empty string")
	}
	if _, err := path.Match(p, ""); err != nil {
		return fmt.Errorf("bad glob %q: %w", p, err)
	}
	return nil
}

// parseCount reads the n of at_most and max_calls: a whole number from 0.
func parseCount(v any) (int, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("want a whole number from 0, got %s", jsonvalue.Kind(v))
	}
	f := jsonvalue.NumberFloat(n)
	switch {
	case math.IsNaN(f) || f < 0 || f != math.Trunc(f):
		return 0, fmt.Errorf("want a whole number from 0, got %s", n)
	case f > maxN:
		return 0, fmt.Errorf("want at most %d, got %s", maxN, n)
	}
	return int(f), nil
}
