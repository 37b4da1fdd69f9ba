// Package js gives the JavaScript semantics that the TypeScript peers'
// scores depend on, on values JSON.parse returns: undefined (a property
// that is not there), own properties of objects and arrays, Object.keys
// order, ===, the structural deep equality most of the peers write
// themselves, truthiness, and the text of JSON.stringify and String(n).
//
// Values are those of the JSON value model (nil, bool, string,
// json.Number, []any, jsonvalue.Object) plus [Undefined]. A number is the
// double JSON.parse makes of its text, so 1, 1.0 and 1e0 are one value and
// -0 === 0; a literal too large for a double is Infinity, as in JavaScript.
//
// Non-goals: the properties objects inherit from their prototypes (a key
// named "constructor" or "toString" is an ordinary key here, found only when
// the object has it), object identity (two objects are never ===, since
// parsed values are never the same object on both sides of a comparison),
// and strings that are not valid UTF-16 (a lone surrogate escape is read as
// U+FFFD by the JSON parser).
package js

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Undefined is JavaScript's undefined: a key or path that is not there.
type Undefined struct{}

// IsUndefined reports whether v is undefined.
func IsUndefined(v any) bool {
	_, ok := v.(Undefined)
	return ok
}

// Nullish reports whether v is null or undefined (v == null in
// JavaScript).
func Nullish(v any) bool { return v == nil || IsUndefined(v) }

// Get is o[key] for an own property: the value, or Undefined.
func Get(o jsonvalue.Object, key string) any {
	if v, ok := o.Get(key); ok {
		return v
	}
	return Undefined{}
}

// Field is v[key] where v may be any value: an object's own property, an
// array's element by index; Undefined otherwise (a primitive has no own
// properties here, and null, which would make JavaScript throw, gives
// Undefined too: callers that must throw check for it first).
func Field(v any, key string) any {
	if p, ok := Property(v, key); ok {
		return p
	}
	return Undefined{}
}

// Property is an own property of an object, or an element of an array by
// its index key; ok is false for anything else.
func Property(v any, key string) (any, bool) {
	switch v := v.(type) {
	case jsonvalue.Object:
		return v.Get(key)
	case []any:
		if i, ok := ArrayIndex(key); ok && i < len(v) {
			return v[i], true
		}
	}
	return nil, false
}

// ArrayIndex reads a key as JavaScript reads an array index: the canonical
// decimal form (no sign, no leading zeros) of a whole number up to 2^32-2.
func ArrayIndex(key string) (int, bool) {
	if key == "" || len(key) > 10 || (len(key) > 1 && key[0] == '0') {
		return 0, false
	}
	for i := 0; i < len(key); i++ {
		if key[i] < '0' || key[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(key, 10, 64)
	if err != nil || n > math.MaxUint32-1 {
		return 0, false
	}
	return int(n), true
}

// Keys is Object.keys of an object or array, in JavaScript's order: array
// indexes ascending, then the other keys in the order they were added.
// ok is false for other values.
func Keys(v any) (keys []string, ok bool) {
	switch v := v.(type) {
	case jsonvalue.Object:
		keys = v.Keys()
		var index []string
		rest := keys[:0:0]
		for _, k := range keys {
			if _, ok := ArrayIndex(k); ok {
				index = append(index, k)
			} else {
				rest = append(rest, k)
			}
		}
		if index == nil {
			return keys, true
		}
		slices.SortFunc(index, func(a, b string) int {
			x, _ := ArrayIndex(a)
			y, _ := ArrayIndex(b)
			return x - y
		})
		return append(index, rest...), true
	case []any:
		keys := make([]string, len(v))
		for i := range v {
			keys[i] = strconv.Itoa(i)
		}
		return keys, true
	}
	return nil, false
}

// IsObject reports whether typeof v is "object" and v is not null: an
// object or an array.
func IsObject(v any) bool {
	switch v.(type) {
	case jsonvalue.Object, []any:
		return true
	}
	return false
}

// Number is the double JSON.parse makes of a number's text.
func Number(n json.Number) float64 { return jsonvalue.NumberFloat(n) }

// StrictEqual is ===: undefined and null each equal only themselves,
// booleans and strings by value, numbers by value (-0 === 0, NaN equals
// nothing), and objects and arrays never (see the package comment).
func StrictEqual(a, b any) bool {
	switch a := a.(type) {
	case Undefined:
		return IsUndefined(b)
	case nil:
		return b == nil
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case json.Number:
		bn, ok := b.(json.Number)
		return ok && Number(a) == Number(bn)
	}
	return false
}

// DeepEqual is the structural equality the peers write for themselves
// (openevals' _deepEqual, evalite's deepEqual): values that are === are
// equal; two arrays are equal when they have the same length and equal
// elements in order; two objects that are not arrays are equal when they
// have the same number of keys and each key of one is an own key of the
// other with an equal value. An array never equals an object, and null
// and undefined equal only themselves.
func DeepEqual(a, b any) bool {
	switch a := a.(type) {
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !DeepEqual(a[i], bl[i]) {
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
			if !ok || !DeepEqual(m.Value, bv) {
				return false
			}
		}
		return true
	}
	return StrictEqual(a, b)
}

// Truthy reports whether v is truthy: everything but undefined, null,
// false, 0, -0, NaN and "".
func Truthy(v any) bool {
	switch v := v.(type) {
	case Undefined, nil:
		return false
	case bool:
		return v
	case string:
		return v != ""
	case json.Number:
		f := Number(v)
		return f != 0 && !math.IsNaN(f)
	}
	return true
}
