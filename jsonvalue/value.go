package jsonvalue

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// An Object is a JSON object that keeps its members in document order.
// Keys are unique: a repeated key in the input keeps its first position and
// its last value, as Python's json and JavaScript's JSON.parse do.
type Object []Member

// A Member is one key and value of an [Object].
type Member struct {
	Key   string
	Value any
}

// Get returns the value of key and whether it is present.
func (o Object) Get(key string) (any, bool) {
	if i := o.index(key); i >= 0 {
		return o[i].Value, true
	}
	return nil, false
}

// Has reports whether key is present.
func (o Object) Has(key string) bool {
	_, ok := o.Get(key)
	return ok
}

// Keys returns the keys in document order.
func (o Object) Keys() []string {
	keys := make([]string, len(o))
	for i := range o {
		keys[i] = o[i].Key
	}
	return keys
}

// Set replaces the value of key, or appends the member when key is absent.
func (o *Object) Set(key string, v any) {
	if i := o.index(key); i >= 0 {
		(*o)[i].Value = v
		return
	}
	*o = append(*o, Member{key, v})
}

// MarshalJSON writes the object with its members in order.
func (o Object) MarshalJSON() ([]byte, error) { return Append(nil, o), nil }

// UnmarshalJSON reads an object with [Parse].
func (o *Object) UnmarshalJSON(data []byte) error {
	v, err := Parse(data)
	if err != nil {
		return err
	}
	obj, ok := v.(Object)
	if !ok {
		return fmt.Errorf("want a JSON object, got %s", Kind(v))
	}
	*o = obj
	return nil
}

// Kind names the JSON kind of a value: "null", "boolean", "integer",
// "number" (a number spelled with a fraction or exponent), "string",
// "array" or "object". Values outside the model are "invalid".
func Kind(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		if IsIntegerLiteral(string(v)) {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case Object:
		return "object"
	}
	return "invalid"
}

// IsIntegerLiteral reports whether a JSON number is spelled without a
// fraction or exponent (Python's json reads those as int, the rest as float).
func IsIntegerLiteral(n string) bool {
	// A byte loop: numbers are short, and strings.ContainsAny scans them
	// once per character it looks for.
	for i := 0; i < len(n); i++ {
		if c := n[i]; c == '.' || c == 'e' || c == 'E' {
			return false
		}
	}
	return true
}

// Equal reports whether two values mean the same JSON value: numbers compare
// by value (1 equals 1.0 and 1e0), booleans are not numbers, strings are not
// numbers, object key order is irrelevant, arrays are ordered, and a key set
// to null differs from a missing key. Values outside the model (a Go map,
// an int) are compared as [From] converts them, so two equal Go maps are
// equal; a value with no JSON form equals nothing.
func Equal(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil || foreignEqual(a, b)
	case bool:
		bb, ok := b.(bool)
		if !ok {
			return foreignEqual(a, b)
		}
		return a == bb
	case string:
		bs, ok := b.(string)
		if !ok {
			return foreignEqual(a, b)
		}
		return a == bs
	case json.Number:
		bn, ok := b.(json.Number)
		if !ok {
			return foreignEqual(a, b)
		}
		return CompareNumbers(a, bn) == 0
	case []any:
		bl, ok := b.([]any)
		if !ok {
			return foreignEqual(a, b)
		}
		if len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !Equal(a[i], bl[i]) {
				return false
			}
		}
		return true
	case Object:
		bo, ok := b.(Object)
		if !ok {
			return foreignEqual(a, b)
		}
		if len(a) != len(bo) {
			return false
		}
		for i := range a {
			// Same order is the common case; look up otherwise.
			var bv any
			if a[i].Key == bo[i].Key {
				bv = bo[i].Value
			} else if bv, ok = bo.Get(a[i].Key); !ok {
				return false
			}
			if !Equal(a[i].Value, bv) {
				return false
			}
		}
		return true
	}
	return foreignEqual(a, b)
}

// foreignEqual compares values of which one, at the top, is not of the
// model: both are converted first. Values of different kinds of the model
// are never equal, so it returns at once when both are of the model.
func foreignEqual(a, b any) bool {
	if isModelKind(a) && isModelKind(b) {
		return false
	}
	fa, err := From(a)
	if err != nil {
		return false
	}
	fb, err := From(b)
	if err != nil {
		return false
	}
	return Equal(fa, fb)
}

// isModelKind reports whether v's own type is one of the model's, without
// looking inside it.
func isModelKind(v any) bool {
	switch v.(type) {
	case nil, bool, string, json.Number, []any, Object:
		return true
	}
	return false
}

// InModel reports whether v is a value of the model all the way down: nil,
// bool, string, json.Number, and []any and Object holding only such
// values. Values that are not need [From] before they are compared or
// written.
func InModel(v any) bool {
	switch v := v.(type) {
	case nil, bool, string, json.Number:
		return true
	case []any:
		for _, e := range v {
			if !InModel(e) {
				return false
			}
		}
		return true
	case Object:
		for i := range v {
			if !InModel(v[i].Value) {
				return false
			}
		}
		return true
	}
	return false
}

// CompareNumbers compares two JSON numbers by value and returns -1, 0 or 1.
// Integers compare exactly whatever their size; a number with a fraction or
// exponent compares as the nearest float64, as in Python and JavaScript.
// NaN is not a JSON number and compares as 0 with everything.
func CompareNumbers(a, b json.Number) int {
	if a == b {
		return 0
	}
	as, bs := string(a), string(b)
	if IsIntegerLiteral(as) && IsIntegerLiteral(bs) {
		return compareIntegerLiterals(as, bs)
	}
	fa, fb := NumberFloat(a), NumberFloat(b)
	switch {
	case fa < fb:
		return -1
	case fa > fb:
		return 1
	}
	// Equal as floats; an integer beyond 2^53 may still differ exactly.
	if IsIntegerLiteral(as) != IsIntegerLiteral(bs) && math.Abs(fa) >= 1<<53 && !math.IsInf(fa, 0) {
		ra, okA := new(big.Rat).SetString(as)
		rb, okB := new(big.Rat).SetString(bs)
		if okA && okB {
			if IsIntegerLiteral(as) {
				rb.SetFloat64(fb)
			} else {
				ra.SetFloat64(fa)
			}
			return ra.Cmp(rb)
		}
	}
	return 0
}

func compareIntegerLiterals(a, b string) int {
	negA, negB := strings.HasPrefix(a, "-"), strings.HasPrefix(b, "-")
	a, b = strings.TrimLeft(strings.TrimPrefix(a, "-"), "0"), strings.TrimLeft(strings.TrimPrefix(b, "-"), "0")
	if a == "" {
		negA = false // -0 is 0
	}
	if b == "" {
		negB = false
	}
	if negA != negB {
		if negA {
			return -1
		}
		return 1
	}
	c := len(a) - len(b)
	if c == 0 {
		c = strings.Compare(a, b)
	}
	if c > 0 {
		c = 1
	} else if c < 0 {
		c = -1
	}
	if negA {
		return -c
	}
	return c
}

// NumberFloat returns the float64 nearest to n; out-of-range values become
// ±Inf, as in Python's json.
func NumberFloat(n json.Number) float64 {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil && !math.IsInf(f, 0) {
		return math.NaN()
	}
	return f
}

// From converts an ordinary Go value into the JSON value model: maps with
// string keys become Objects with sorted keys (so that equal maps give
// equal values), integers and floats of every size become json.Number,
// slices and arrays become []any, pointers are followed, json.RawMessage is
// parsed, and anything else (structs, named types) goes through
// encoding/json. A value already in the model is returned as it is. A
// value with no JSON form (a channel, a function, a complex number, NaN or
// an infinity) is an error naming its type. It is meant for building cases
// in code; decoded input is already in the model.
func From(v any) (any, error) {
	if InModel(v) {
		return v, nil
	}
	return from(v)
}

func from(v any) (any, error) {
	switch v := v.(type) {
	case nil, bool, string, json.Number:
		return v, nil
	case Object:
		out := make(Object, len(v))
		for i, m := range v {
			mv, err := from(m.Value)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", m.Key, err)
			}
			out[i] = Member{m.Key, mv}
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i := range v {
			ev, err := from(v[i])
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = ev
		}
		return out, nil
	case map[string]any:
		keys := slices.Sorted(maps.Keys(v))
		out := make(Object, 0, len(v))
		for _, k := range keys {
			mv, err := from(v[k])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			out = append(out, Member{k, mv})
		}
		return out, nil
	case float64:
		return fromFloat(v, 64)
	case float32:
		return fromFloat(float64(v), 32)
	case json.RawMessage:
		return Parse(v)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return json.Number(strconv.FormatInt(rv.Int(), 10)), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return json.Number(strconv.FormatUint(rv.Uint(), 10)), nil
	case reflect.Bool:
		return rv.Bool(), nil
	case reflect.String:
		if _, ok := v.(json.Marshaler); !ok {
			return rv.String(), nil
		}
	case reflect.Float32, reflect.Float64:
		if _, ok := v.(json.Marshaler); !ok {
			return fromFloat(rv.Float(), rv.Type().Bits())
		}
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil, nil
		}
		if _, ok := v.(json.Marshaler); !ok {
			return from(rv.Elem().Interface())
		}
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return nil, nil
		}
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			break // []byte: encoding/json writes base64
		}
		out := make([]any, rv.Len())
		for i := range out {
			ev, err := from(rv.Index(i).Interface())
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = ev
		}
		return out, nil
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			break // encoding/json spells integer keys as strings
		}
		if rv.IsNil() {
			return nil, nil
		}
		keys := make([]string, 0, rv.Len())
		for _, k := range rv.MapKeys() {
			keys = append(keys, k.String())
		}
		slices.Sort(keys)
		out := make(Object, 0, len(keys))
		for _, k := range keys {
			mv, err := from(rv.MapIndex(reflect.ValueOf(k).Convert(rv.Type().Key())).Interface())
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			out = append(out, Member{k, mv})
		}
		return out, nil
	case reflect.Chan, reflect.Func, reflect.Complex64, reflect.Complex128, reflect.UnsafePointer:
		return nil, fmt.Errorf("a %T has no JSON form", v)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("a %T has no JSON form: %w", v, err)
	}
	return Parse(data)
}

// MustFrom is [From] for literals in code and tests; it panics on values
// that have no JSON form.
func MustFrom(v any) any {
	out, err := From(v)
	if err != nil {
		panic(err)
	}
	return out
}

// fromFloat converts a float of the given size (32 or 64 bits) into a
// json.Number; NaN and the infinities have no JSON form.
func fromFloat(f float64, bits int) (any, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("%v is not a JSON number", f)
	}
	return json.Number(formatFloat(f, bits)), nil
}

// formatFloat spells a float the way Python's repr does where it matters
// here: the shortest text that reads back as the same float of its size
// (a float32's 0.1, not 0.10000000149011612), and integral values keep a
// ".0" so they stay floats.
func formatFloat(f float64, bits int) string {
	s := strconv.FormatFloat(f, 'g', -1, bits)
	if IsIntegerLiteral(s) {
		s += ".0"
	}
	return s
}

// Format writes a value as compact JSON for messages, shortened to about 80
// characters.
func Format(v any) string { return string(AppendFormat(nil, v)) }

// AppendFormat appends [Format]'s text for v to dst, for messages built
// without intermediate strings.
func AppendFormat(dst []byte, v any) []byte {
	start := len(dst)
	dst = appendJSONUpTo(dst, v, start+80)
	if len(dst)-start > 80 {
		cut := start + 77
		for cut > start && dst[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
			cut--
		}
		dst = append(dst[:cut], "..."...)
	}
	return dst
}

// appendJSONUpTo is [Append] that stops early once dst is longer than
// limit: the text up to limit is the same.
func appendJSONUpTo(dst []byte, v any, limit int) []byte {
	switch v := v.(type) {
	case []any:
		dst = append(dst, '[')
		for i, e := range v {
			if len(dst) > limit {
				return dst
			}
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONUpTo(dst, e, limit)
		}
		return append(dst, ']')
	case Object:
		dst = append(dst, '{')
		for i, m := range v {
			if len(dst) > limit {
				return dst
			}
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, m.Key)
			dst = append(dst, ':')
			dst = appendJSONUpTo(dst, m.Value, limit)
		}
		return append(dst, '}')
	}
	return Append(dst, v)
}
