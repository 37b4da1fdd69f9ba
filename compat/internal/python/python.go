// Package python gives the Python semantics that several peers' scores
// depend on: == and str methods as CPython has them on values json.loads
// returns, and arguments as a peer's Python data model holds them.
//
// The rule is CPython's behaviour, not its documentation: where the two
// differ, the conformance lines, produced by the peers' real code, decide.
//
// Non-goals: any Python beyond what a peer's score depends on; a quirk of
// one peer only stays in that peer's package.
package python

import (
	"encoding/json"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Equal is Python's == on values decoded by json.loads: True == 1 == 1.0,
// False == 0 == -0.0, ints compare exactly with floats, NaN equals nothing,
// dicts ignore key order, lists are ordered, and "1" != 1.
func Equal(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		switch b := b.(type) {
		case bool:
			return a == b
		case json.Number:
			return numbersEqual(boolNumber(a), b)
		}
	case json.Number:
		switch b := b.(type) {
		case json.Number:
			return numbersEqual(a, b)
		case bool:
			return numbersEqual(a, boolNumber(b))
		}
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !Equal(a[i], bl[i]) {
				return false
			}
		}
		return true
	case jsonvalue.Object:
		bo, ok := b.(jsonvalue.Object)
		if !ok || len(a) != len(bo) {
			return false
		}
		for _, m := range a {
			bv, ok := bo.Get(m.Key)
			if !ok || !Equal(m.Value, bv) {
				return false
			}
		}
		return true
	}
	return false
}

// numbersEqual compares numbers as Python does, where NaN (which JSON
// lacks but converters of other literals can produce, spelled "NaN")
// equals nothing, itself included.
func numbersEqual(a, b json.Number) bool {
	if a == "NaN" || b == "NaN" {
		return false
	}
	return jsonvalue.CompareNumbers(a, b) == 0
}

func boolNumber(b bool) json.Number {
	if b {
		return "1"
	}
	return "0"
}

// Dict returns a call's arguments as the dict a Python peer holds, or what
// keeps them from being one: "null" (given as null: None), "not valid
// JSON", or the kind of value given. Arguments left out are {}.
func Dict(call *toolgrade.Call) (jsonvalue.Object, string) {
	switch a := call.Args.(type) {
	case jsonvalue.Object:
		return a, ""
	case nil:
		switch {
		case call.Invalid:
			return nil, "not valid JSON"
		case call.ArgsNull:
			return nil, "null"
		}
		return jsonvalue.Object{}, ""
	}
	return nil, jsonvalue.Kind(call.Args)
}
