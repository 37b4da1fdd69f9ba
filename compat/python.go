// Package compat holds profiles that reproduce other tools' tool-calling
// scores exactly, so that a team switching to toolgrade keeps its
// baselines: one file per peer, built on package match. A peer's quirks
// live in its profile, never in the shared engine.
package compat

import (
	"encoding/json"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// pyEqual is Python's == on values decoded by json.loads: True == 1 == 1.0,
// False == 0 == -0.0, ints compare exactly with floats, NaN equals nothing,
// dicts ignore key order, lists are ordered, and "1" != 1.
func pyEqual(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		switch b := b.(type) {
		case bool:
			return a == b
		case json.Number:
			return pyNumbersEqual(boolNumber(a), b)
		}
	case json.Number:
		switch b := b.(type) {
		case json.Number:
			return pyNumbersEqual(a, b)
		case bool:
			return pyNumbersEqual(a, boolNumber(b))
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
			if !pyEqual(a[i], bl[i]) {
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
			if !ok || !pyEqual(m.Value, bv) {
				return false
			}
		}
		return true
	}
	return false
}

// pyNumbersEqual compares numbers as Python does, where NaN (which JSON
// lacks but converters of other literals can produce, spelled "NaN")
// equals nothing, itself included.
func pyNumbersEqual(a, b json.Number) bool {
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
