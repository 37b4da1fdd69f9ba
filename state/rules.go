package state

import (
	"errors"
	"fmt"
	"slices"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/suggest"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Rules are per-path rules as written: an object from JSONPath (see
// [ParsePath]) to a rule object, in order. A rule object takes the keys of
// argument rules (see [toolgrade.Rule]) but "from" — one_of, regex,
// approx, tol, fuzzy, type, optional, ignore — and "unordered": true or
// false, which says how a list at the path is compared. Values are in the
// JSON value model or ordinary Go values. Rules decode from JSON with
// package jsonvalue, so that their order and numbers' spelling are kept.
type Rules jsonvalue.Object

// UnmarshalJSON reads a JSON object, or null for none.
func (r *Rules) UnmarshalJSON(data []byte) error {
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return err
	}
	switch v := v.(type) {
	case nil:
		*r = nil
	case jsonvalue.Object:
		*r = Rules(v)
	default:
		return fmt.Errorf("want an object from JSONPath to rule, got %s", jsonvalue.Kind(v))
	}
	return nil
}

// MarshalJSON writes the rules as a JSON object, in order.
func (r Rules) MarshalJSON() ([]byte, error) {
	v, err := jsonvalue.From(jsonvalue.Object(r))
	if err != nil {
		return nil, err
	}
	return jsonvalue.Append(nil, v), nil
}

// An entry is one path with what it says about the values it selects:
// a rule (nil when it says only how lists compare), and whether lists
// compare unordered (nil when it does not say).
type entry struct {
	path      Path
	rule      *toolgrade.Rule
	unordered *bool
}

// withRule returns e with rule r.
func (e entry) withRule(r toolgrade.Rule) entry {
	e.rule = &r
	return e
}

// ruleKeys are the keys a rule object takes.
var ruleKeys = []string{"one_of", "regex", "approx", "tol", "fuzzy", "type", "optional", "ignore", "unordered"}

// readRules reads an object from JSONPath to rule object. Errors are
// *toolgrade.FieldError values whose Path starts with the rule's key in
// brackets: ["$.x"], ["$.x"].regex.
func readRules(obj jsonvalue.Object) ([]entry, error) {
	entries := make([]entry, 0, len(obj))
	for _, m := range obj {
		where := "[" + string(jsonvalue.AppendString(nil, m.Key)) + "]"
		fail := func(sub string, err error) ([]entry, error) {
			return nil, &toolgrade.FieldError{Path: where + sub, Err: err}
		}
		p, err := ParsePath(m.Key)
		if err != nil {
			return fail("", err)
		}
		ro, ok := m.Value.(jsonvalue.Object)
		if !ok {
			return fail("", fmt.Errorf(`want a rule object such as {"ignore": true}, got %s`, jsonvalue.Kind(m.Value)))
		}
		e := entry{path: p}
		rest := make(jsonvalue.Object, 0, len(ro))
		for _, rm := range ro {
			switch {
			case rm.Key == "from":
				return fail(".from", errors.New("a from rule takes its value from a call's output, which state values do not have (want one_of, regex, approx, tol, fuzzy, type, optional, ignore or unordered)"))
			case !slices.Contains(ruleKeys, rm.Key):
				if near, ok := suggest.Nearest(rm.Key, ruleKeys); ok {
					return fail("."+rm.Key, fmt.Errorf("unknown rule; did you mean %q?", near))
				}
				return fail("."+rm.Key, errors.New("unknown rule (want one_of, regex, approx, tol, fuzzy, type, optional, ignore or unordered)"))
			case rm.Key == "unordered":
				b, ok := rm.Value.(bool)
				if !ok {
					return fail(".unordered", fmt.Errorf("want true or false, got %s", jsonvalue.Kind(rm.Value)))
				}
				e.unordered = &b
			default:
				rest = append(rest, rm)
			}
		}
		if len(rest) > 0 || e.unordered == nil {
			// One rule at a time under the key "": DecodeRules puts its
			// keys in argument form, and its errors then read ".regex".
			rules, err := toolgrade.DecodeRules(jsonvalue.Object{{Key: "", Value: rest}})
			if err != nil {
				var fe *toolgrade.FieldError
				if errors.As(err, &fe) {
					return fail(fe.Path, fe.Err)
				}
				return fail("", err)
			}
			e = e.withRule(rules[""])
		}
		entries = append(entries, e)
	}
	return entries, nil
}
