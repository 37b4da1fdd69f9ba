package jsonvalue

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/big"
	"math/bits"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// An Object is a JSON object that keeps its members in document order.
// Keys are unique: [Parse] refuses an object that repeats one.
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
// by their exact decimal value (1 equals 1.0 and 1e0; see
// [CompareNumbers]), strings byte for byte, booleans are not numbers, strings are not
// numbers, object key order is irrelevant, arrays are ordered, and a key set
// to null differs from a missing key. Values outside the model (a Go map,
// an int) are compared as [From] converts them, so two equal Go maps are
// equal; a value with no JSON form equals nothing.
func Equal(a, b any) bool {
	// a, not the typed av, goes to foreignEqual: boxing av again would
	// allocate.
	switch av := a.(type) {
	case nil:
		return b == nil || foreignEqual(a, b)
	case bool:
		bb, ok := b.(bool)
		if !ok {
			return foreignEqual(a, b)
		}
		return av == bb
	case string:
		bs, ok := b.(string)
		if !ok {
			return foreignEqual(a, b)
		}
		return av == bs
	case json.Number:
		bn, ok := b.(json.Number)
		if !ok {
			return foreignEqual(a, b)
		}
		return av == bn || CompareNumbers(av, bn) == 0
	case []any:
		bl, ok := b.([]any)
		if !ok {
			return foreignEqual(a, b)
		}
		if len(av) != len(bl) {
			return false
		}
		for i := range av {
			// Strings compared here, as in an object.
			if s, ok := av[i].(string); ok {
				if t, ok := bl[i].(string); ok {
					if s != t {
						return false
					}
					continue
				}
			}
			if !Equal(av[i], bl[i]) {
				return false
			}
		}
		return true
	case Object:
		bo, ok := b.(Object)
		if !ok {
			return foreignEqual(a, b)
		}
		if len(av) != len(bo) {
			return false
		}
		for i := range av {
			// Same order is the common case; look up otherwise.
			var bv any
			ka, kb := av[i].Key, bo[i].Key
			same := len(ka) == len(kb)
			if n := len(ka); same {
				// ka == kb, most keys without memequal's call: two loads
				// of each, overlapping (Equal's loop saved and reloaded
				// its values around the call for every member).
				switch {
				case n >= 8 && n <= 16:
					same = wordAt(ka, 0) == wordAt(kb, 0) && wordAt(ka, n-8) == wordAt(kb, n-8)
				case n >= 4 && n < 8:
					same = load4At(ka, 0) == load4At(kb, 0) && load4At(ka, n-4) == load4At(kb, n-4)
				default:
					same = ka == kb
				}
			}
			if same {
				bv = bo[i].Value
			} else if bv, ok = bo.Get(av[i].Key); !ok {
				return false
			}
			// Two strings, the most common members, are compared here.
			if s, ok := av[i].Value.(string); ok {
				if t, ok := bv.(string); ok {
					if s != t {
						return false
					}
					continue
				}
			}
			if !Equal(av[i].Value, bv) {
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

// CompareNumbers compares two JSON numbers by their exact decimal values
// and returns -1, 0 or 1, whatever their size or precision: 1 equals 1.0,
// 1e0 and 10e-1; 1e400 is less than 2e400, and 0.1 differs from
// 0.10000000000000001, though each pair reads as one float64. A spelling
// outside JSON's grammar (a converter's "NaN") compares as the nearest
// float64, and NaN as 0 with everything.
func CompareNumbers(a, b json.Number) int {
	if a == b {
		return 0
	}
	as, bs := string(a), string(b)
	if IsIntegerLiteral(as) && IsIntegerLiteral(bs) {
		return compareIntegerLiterals(as, bs)
	}
	da, okA := decimalOf(as)
	db, okB := decimalOf(bs)
	if !okA || !okB {
		fa, fb := NumberFloat(a), NumberFloat(b)
		switch {
		case fa < fb:
			return -1
		case fa > fb:
			return 1
		}
		return 0
	}
	return da.cmp(&db)
}

// A decimal is a JSON number read as 0.digits × 10^exp, digits without
// leading or trailing zeros (none for zero). The digits are those of the
// spelling's integer part then its fraction, from skip on and up to their
// last nonzero, read in place.
type decimal struct {
	neg       bool
	int, frac string // the spelling's digits before and after the point
	skip, n   int    // the significant digits are the n from index skip of int+frac
	exp       int64
	bigExp    *big.Int // the exponent when it does not fit in exp
}

// decimalOf reads a number spelled as JSON spells it.
func decimalOf(s string) (decimal, bool) {
	var d decimal
	var expDigits string // without sign and leading zeros
	expNeg := false
	i := 0
	if i < len(s) && s[i] == '-' {
		d.neg = true
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	d.int = s[start:i]
	if d.int == "" || len(d.int) > 1 && d.int[0] == '0' {
		return d, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		start = i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if d.frac = s[start:i]; d.frac == "" {
			return d, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			expNeg = s[i] == '-'
			i++
		}
		start = i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return d, false
		}
		expDigits = strings.TrimLeft(s[start:i], "0")
	}
	if i != len(s) {
		return d, false
	}
	// The significant digits: past the leading zeros, up to the last
	// nonzero.
	total := len(d.int) + len(d.frac)
	for d.skip < total && d.digit(d.skip) == '0' {
		d.skip++
	}
	last := total
	for last > d.skip && d.digit(last-1) == '0' {
		last--
	}
	d.n = last - d.skip
	if d.n == 0 {
		return d, true // zero, whatever its sign and exponent
	}
	// The value is 0.digits × 10^(exponent + len(int) - skip).
	shift := int64(len(d.int) - d.skip)
	if len(expDigits) <= 18 {
		var e int64
		for k := 0; k < len(expDigits); k++ {
			e = e*10 + int64(expDigits[k]-'0')
		}
		if expNeg {
			e = -e
		}
		d.exp = e + shift
		return d, true
	}
	e, _ := new(big.Int).SetString(expDigits, 10)
	if expNeg {
		e.Neg(e)
	}
	d.bigExp = e.Add(e, big.NewInt(shift))
	return d, true
}

// digit returns the k-th digit of the spelling's integer part then fraction.
func (d *decimal) digit(k int) byte {
	if k < len(d.int) {
		return d.int[k]
	}
	return d.frac[k-len(d.int)]
}

// cmp compares two decimals' values.
func (a *decimal) cmp(b *decimal) int {
	sa, sb := a.sign(), b.sign()
	if sa != sb {
		if sa < sb {
			return -1
		}
		return 1
	}
	if sa == 0 {
		return 0
	}
	c := a.cmpAbs(b)
	if sa < 0 {
		return -c
	}
	return c
}

func (d *decimal) sign() int {
	switch {
	case d.n == 0:
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// cmpAbs compares the magnitudes of two nonzero decimals: by exponent,
// then digit by digit.
func (a *decimal) cmpAbs(b *decimal) int {
	if a.bigExp != nil || b.bigExp != nil {
		if c := a.bigExponent().Cmp(b.bigExponent()); c != 0 {
			return c
		}
	} else if a.exp != b.exp {
		if a.exp < b.exp {
			return -1
		}
		return 1
	}
	for k := range min(a.n, b.n) {
		if x, y := a.digit(a.skip+k), b.digit(b.skip+k); x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	switch {
	case a.n < b.n:
		return -1
	case a.n > b.n:
		return 1
	}
	return 0
}

func (d *decimal) bigExponent() *big.Int {
	if d.bigExp != nil {
		return d.bigExp
	}
	return big.NewInt(d.exp)
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
// limit: the text up to limit is the same, and longer than limit when
// Append's is.
func appendJSONUpTo(dst []byte, v any, limit int) []byte {
	switch v := v.(type) {
	case string: // most values of arguments: without Append's type switch
		// Of a string that runs past the limit, what lies beyond it is
		// cut: its bytes up to the limit and a few more (a character's
		// bytes cut apart are written otherwise than whole) read the same.
		if n := limit + 8 - len(dst); n < len(v) {
			v = v[:max(n, 0)]
		}
		return AppendString(dst, v)
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

// Hash returns a hash of v consistent with [Equal]: values that are equal
// hash alike (1 and 1.0, objects whatever their key order), differently
// for each seed (a random one, say). Values outside the model are hashed
// as [From] converts them; one with no JSON form hashes as null. It is
// meant for telling values apart quickly, not against an adversary.
func Hash(seed uint64, v any) uint64 { return hashValue(seed, v) }

// HashString is [Hash] of a string value, without the conversion.
func HashString(seed uint64, s string) uint64 { return hashString(seed^4, s) }

func hashValue(k uint64, v any) uint64 {
	switch v := v.(type) {
	case nil:
		return mix(k ^ 1)
	case bool:
		if v {
			return mix(k ^ 2)
		}
		return mix(k ^ 3)
	case string:
		return HashString(k, v)
	case json.Number:
		return mix(numberHash(k, v) ^ 5)
	case []any:
		h := k ^ 6
		for _, e := range v {
			var eh uint64
			if s, ok := e.(string); ok { // most elements: without the call
				eh = hashString(k^4, s)
			} else {
				eh = hashValue(k, e)
			}
			h = mix(h ^ eh)
		}
		return mix(h + uint64(len(v)))
	case Object:
		// Members hash alone and add up, so that their order does not
		// count: each its value's hash seeded with its key's. Strings and
		// numbers, most values, are hashed here as the cases above hash
		// them, without the call and the type switch.
		var sum uint64
		for i := range v {
			kh := hashString(k, v[i].Key)
			switch mv := v[i].Value; {
			case isString(mv):
				sum += hashString(kh^4, mv.(string))
			case isNumber(mv):
				sum += mix(numberHash(kh, mv.(json.Number)) ^ 5)
			default:
				sum += hashValue(kh, mv)
			}
		}
		return mix(sum ^ k ^ 7)
	}
	fv, err := From(v)
	if err != nil {
		fv = nil
	}
	return hashValue(k, fv)
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}

func isNumber(v any) bool {
	_, ok := v.(json.Number)
	return ok
}

// hashString hashes s eight bytes at a time, sixteen in a longer string
// (two words folded by one 128-bit multiplication), the last eight (or,
// in a short string, its first and last four, or first, middle and last
// byte) read as a whole, overlapping the others: case text is mostly
// short, and maphash's setup and a byte loop over the tail cost more than
// the hashing. Its words are read with wordAt, each at an offset the
// switch's case or the loop's condition has tested (i+8 <= n): word's
// checks again were a tenth of the digest's instructions on small cases
// (TestHashStringAsWords holds it to reading by word).
func hashString(h uint64, s string) uint64 {
	n := len(s)
	h ^= uint64(n) * 0x9e3779b97f4a7c15
	var t uint64
	switch {
	case n > 16:
		i := 0
		for ; i+16 < n; i += 16 {
			hi, lo := bits.Mul64(h^wordAt(s, i), wordAt(s, i+8)^0xbf58476d1ce4e5b9)
			h = hi ^ lo
		}
		if i+8 < n {
			h = (h ^ wordAt(s, i)) * 0xbf58476d1ce4e5b9
			h ^= h >> 31
		}
		t = wordAt(s, n-8)
	case n >= 8:
		if n > 8 { // the loop above for eight bytes, once
			h = (h ^ wordAt(s, 0)) * 0xbf58476d1ce4e5b9
			h ^= h >> 31
		}
		t = wordAt(s, n-8)
	case n >= 4:
		t = uint64(load4At(s, 0)) | uint64(load4At(s, n-4))<<32
	case n > 0:
		t = uint64(s[0]) | uint64(s[n/2])<<8 | uint64(s[n-1])<<16
	}
	return mix(h ^ t)
}

// mix scrambles the bits of x, so that the hashes of parts can be
// combined with xor and addition: the two halves of its 128-bit product
// with an odd constant, xored (one multiplication; the finalizer of
// MurmurHash3, used before, took two and three shifts).
func mix(x uint64) uint64 {
	hi, lo := bits.Mul64(x^0x2d358dccaa6c78a5, 0x8bb84b93962eacc9)
	return hi ^ lo
}

// numberHash hashes a number as [CompareNumbers] sees it: its sign,
// significant digits and exponent, so that every spelling of one value
// hashes alike.
func numberHash(k uint64, n json.Number) uint64 {
	d, neg := string(n), uint64(0)
	if len(d) > 0 && d[0] == '-' {
		d, neg = d[1:], 1
	}
	// The number is hashed as digits × 10^exp, its significant digits
	// (without leading or trailing zeros) and that exponent.
	if v, exp, ok := plainDecimal(d); ok {
		// A number spelled without an exponent, in at most 19 digits:
		// the common case, read in one pass.
		if v == 0 {
			return k // zero, whatever its sign
		}
		return mix(digitsHash(k, v, neg)) + uint64(exp)
	}
	dec, ok := decimalOf(string(n))
	if !ok {
		return k ^ math.Float64bits(NumberFloat(n))
	}
	if dec.n == 0 {
		return k
	}
	var h uint64
	if dec.n <= 19 {
		var v uint64
		for j := range dec.n {
			v = v*10 + uint64(dec.digit(dec.skip+j)-'0')
		}
		h = digitsHash(k, v, b2u(dec.neg))
	} else {
		var buf [64]byte
		digits := buf[:0]
		for j := range dec.n {
			digits = append(digits, dec.digit(dec.skip+j))
		}
		h = hashString(k, string(digits)) ^ b2u(dec.neg)
	}
	switch {
	case dec.bigExp == nil:
		return mix(h) + uint64(dec.exp-int64(dec.n))
	case dec.bigExp.IsInt64(): // the same exponent, spelled long
		return mix(h) + uint64(dec.bigExp.Int64()-int64(dec.n))
	}
	return mix(h) + hashString(k, dec.bigExp.String())
}

// plainDecimal reads an unsigned number spelled as JSON spells it without
// an exponent, in at most 19 digits, as v × 10^exp, v without trailing
// zeros (0 for zero). It reports false for any other spelling.
func plainDecimal(d string) (v uint64, exp int, ok bool) {
	if len(d) == 0 || len(d) > 20 {
		return 0, 0, false
	}
	i := 0
	for i < len(d) && d[i]-'0' <= 9 {
		v = v*10 + uint64(d[i]-'0')
		i++
	}
	switch {
	case i == 0 || i > 1 && d[0] == '0': // no digit, or a leading zero
		return 0, 0, false
	case i == len(d):
		if i > 19 {
			return 0, 0, false
		}
	case d[i] != '.' || i == len(d)-1:
		return 0, 0, false
	default:
		for j := i + 1; j < len(d); j++ {
			if d[j]-'0' > 9 {
				return 0, 0, false
			}
			v = v*10 + uint64(d[j]-'0')
		}
		exp = i + 1 - len(d)
	}
	for v != 0 && v%10 == 0 {
		v /= 10
		exp++
	}
	return v, exp, true
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// digitsHash hashes a number's significant digits, up to 19 of them (no
// leading or trailing zeros), read as the whole number v, and its sign.
// Longer runs of digits are hashed as text.
func digitsHash(k, v, neg uint64) uint64 {
	return mix(k^v*0x9e3779b97f4a7c15) ^ neg
}
