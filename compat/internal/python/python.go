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
	"math"
	"math/big"

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
	return CompareNumbers(a, b) == 0
}

// CompareNumbers compares two numbers as Python compares what json.loads
// makes of them, and returns -1, 0 or 1: numbers spelled without a
// fraction or exponent are ints, compared exactly whatever their size;
// the others are floats, the nearest float64 to the spelling (1e400 is
// inf, as is 2e400), and an int compares exactly with a float. (toolgrade's
// own [jsonvalue.CompareNumbers] compares the spelled decimals exactly.)
func CompareNumbers(a, b json.Number) int {
	if a == b {
		return 0
	}
	as, bs := string(a), string(b)
	aInt, bInt := jsonvalue.IsIntegerLiteral(as), jsonvalue.IsIntegerLiteral(bs)
	if aInt && bInt {
		return jsonvalue.CompareNumbers(a, b)
	}
	fa, fb := jsonvalue.NumberFloat(a), jsonvalue.NumberFloat(b)
	switch {
	case fa < fb:
		return -1
	case fa > fb:
		return 1
	}
	// Equal as floats; an int beyond 2^53 may still differ exactly.
	if aInt != bInt && math.Abs(fa) >= 1<<53 && !math.IsInf(fa, 0) {
		ra, okA := new(big.Rat).SetString(as)
		rb, okB := new(big.Rat).SetString(bs)
		if okA && okB {
			if aInt {
				rb.SetFloat64(fb)
			} else {
				ra.SetFloat64(fa)
			}
			return ra.Cmp(rb)
		}
	}
	return 0
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
