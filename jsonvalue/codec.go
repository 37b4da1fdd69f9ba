package jsonvalue

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// A Codec writes Go values of type T as compact JSON and reads them back
// from the value model. One codec is the one definition of a JSON form:
// what Append writes, Decode reads, so the two cannot drift apart.
//
// Decoding is strict. A value of another kind, a number that is not an
// integer where one is wanted or that no float64 holds, a member an
// object's codec does not define, and a member it always writes but the
// input lacks are errors, each a *[DecodeError] whose Path locates the
// value ("[2].expected"). Nothing is read as a zero value in silence, and
// whatever decodes writes back to a value that decodes the same.
//
// Non-goals: codecs do not read numbers spelled as strings, do not guess
// at a member's other spellings, and do not keep members they do not know
// (an object that must carry those keeps them itself; see
// toolgrade.RawDetail).
type Codec[T any] struct {
	append func(dst []byte, v *T) []byte
	decode func(x any, v *T) error
	// single marks the codecs of single values below, which fields and
	// lists write without calling append: a result line has dozens.
	single single
}

type single uint8

const (
	notSingle single = iota
	singleInt
	singleFloat
	singleString
	singleBool
	singleFloatOrNull  // *float64: null when nil (Nullable and Pointer of Float)
	singleStringOrNull // string: null when empty (OrNull of String)
	singleInts         // []int
)

// NewCodec makes a codec of its two halves, for a form the codecs of this
// package do not build.
func NewCodec[T any](appendFn func(dst []byte, v *T) []byte, decode func(x any, v *T) error) Codec[T] {
	return Codec[T]{append: appendFn, decode: decode}
}

// Append appends v's JSON form to dst.
func (c Codec[T]) Append(dst []byte, v *T) []byte { return c.append(dst, v) }

// Decode sets *v from x, a value in the model (as [Parse] gives).
func (c Codec[T]) Decode(x any, v *T) error { return c.decode(x, v) }

// A DecodeError is a value a [Codec] could not read.
type DecodeError struct {
	// Path locates the value from the one given to Decode: object members
	// by name, list elements by index ("metrics[0].score"); empty for that
	// value itself.
	Path string
	Err  error
}

func (e *DecodeError) Error() string {
	if e.Path == "" {
		return e.Err.Error()
	}
	return e.Path + ": " + e.Err.Error()
}

func (e *DecodeError) Unwrap() error { return e.Err }

// Within prefixes err's path with the member or index it was found in:
// Within("metrics", Within("[0]", err)) reads "metrics[0]...". An error
// that is not a *DecodeError becomes one.
func Within(at string, err error) error {
	if err == nil {
		return nil
	}
	var de *DecodeError
	if !errors.As(err, &de) {
		return &DecodeError{Path: at, Err: err}
	}
	switch {
	case de.Path == "":
		return &DecodeError{Path: at, Err: de.Err}
	case strings.HasPrefix(de.Path, "["):
		return &DecodeError{Path: at + de.Path, Err: de.Err}
	}
	return &DecodeError{Path: at + "." + de.Path, Err: de.Err}
}

// WrongKind is the error of a value of another kind than want ("a
// string", "an integer").
func WrongKind(want string, x any) error {
	return &DecodeError{Err: fmt.Errorf("want %s, got %s", want, Kind(x))}
}

// The codecs of single values.
var (
	// Int reads an integer literal (no fraction, no exponent) that an int
	// holds.
	Int = Codec[int]{
		append: func(dst []byte, v *int) []byte { return strconv.AppendInt(dst, int64(*v), 10) },
		decode: func(x any, v *int) error {
			n, err := integer(x, strconv.IntSize)
			*v = int(n)
			return err
		},
		single: singleInt,
	}
	// Int64 reads an integer literal that an int64 holds.
	Int64 = NewCodec(
		func(dst []byte, v *int64) []byte { return strconv.AppendInt(dst, *v, 10) },
		func(x any, v *int64) error {
			var err error
			*v, err = integer(x, 64)
			return err
		})
	// Float writes the shortest form that reads back to the same float
	// (see [AppendFloat]) and reads any number a float64 holds; one too
	// large for it is an error, not an infinity.
	Float = Codec[float64]{
		append: func(dst []byte, v *float64) []byte { return AppendFloat(dst, *v) },
		decode: func(x any, v *float64) error {
			n, ok := x.(json.Number)
			if !ok {
				return WrongKind("a number", x)
			}
			f, err := strconv.ParseFloat(string(n), 64)
			if err != nil {
				return &DecodeError{Err: fmt.Errorf("want a number a float64 holds, got %s", n)}
			}
			*v = f
			return nil
		},
		single: singleFloat,
	}
	// String reads a string.
	String = Codec[string]{
		append: func(dst []byte, v *string) []byte { return AppendString(dst, *v) },
		decode: func(x any, v *string) error {
			s, ok := x.(string)
			if !ok {
				return WrongKind("a string", x)
			}
			*v = s
			return nil
		},
		single: singleString,
	}
	// Bool reads true or false.
	Bool = Codec[bool]{
		append: func(dst []byte, v *bool) []byte { return strconv.AppendBool(dst, *v) },
		decode: func(x any, v *bool) error {
			b, ok := x.(bool)
			if !ok {
				return WrongKind("a boolean", x)
			}
			*v = b
			return nil
		},
		single: singleBool,
	}
	// Value reads any value, null included, as it is in the model.
	Value = NewCodec(
		func(dst []byte, v *any) []byte { return Append(dst, *v) },
		func(x any, v *any) error { *v = x; return nil })
)

func integer(x any, bits int) (int64, error) {
	n, ok := x.(json.Number)
	if !ok || !IsIntegerLiteral(string(n)) {
		return 0, WrongKind("an integer", x)
	}
	i, err := strconv.ParseInt(string(n), 10, bits)
	if err != nil {
		return 0, &DecodeError{Err: fmt.Errorf("want an integer of %d bits, got %s", bits, n)}
	}
	return i, nil
}

// List is the codec of a list whose elements elem writes and reads. A nil
// slice is written as []; a list reads as a slice that is never nil.
func List[S ~[]E, E any](elem Codec[E]) Codec[S] {
	c := listCodec[S](elem)
	if _, ints := any((*S)(nil)).(*[]int); ints && elem.single == singleInt {
		c.single = singleInts
	}
	return c
}

func listCodec[S ~[]E, E any](elem Codec[E]) Codec[S] {
	return NewCodec(
		func(dst []byte, v *S) []byte {
			dst = append(dst, '[')
			if elem.single == singleInt {
				for i := range *v {
					if i > 0 {
						dst = append(dst, ',')
					}
					dst = strconv.AppendInt(dst, int64(*any(&(*v)[i]).(*int)), 10)
				}
				return append(dst, ']')
			}
			for i := range *v {
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = elem.append(dst, &(*v)[i])
			}
			return append(dst, ']')
		},
		func(x any, v *S) error {
			list, ok := x.([]any)
			if !ok {
				return WrongKind("a list", x)
			}
			s := make(S, len(list))
			for i, e := range list {
				if err := elem.decode(e, &s[i]); err != nil {
					return Within("["+strconv.Itoa(i)+"]", err)
				}
			}
			*v = s
			return nil
		})
}

// Map is the codec of an object whose values elem writes and reads, keys
// written in sorted order (a map has none of its own). A nil map is
// written as {}; an object reads as a map that is never nil.
func Map[M ~map[string]E, E any](elem Codec[E]) Codec[M] {
	return NewCodec(
		func(dst []byte, v *M) []byte {
			dst = append(dst, '{')
			for i, k := range slices.Sorted(maps.Keys(*v)) {
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = AppendString(dst, k)
				dst = append(dst, ':')
				e := (*v)[k]
				dst = elem.append(dst, &e)
			}
			return append(dst, '}')
		},
		func(x any, v *M) error {
			obj, ok := x.(Object)
			if !ok {
				return WrongKind("an object", x)
			}
			m := make(M, len(obj))
			for _, mem := range obj {
				var e E
				if err := elem.decode(mem.Value, &e); err != nil {
					return Within(mem.Key, err)
				}
				m[mem.Key] = e
			}
			*v = m
			return nil
		})
}

// Nullable is the codec of an optional value: nil is written as null and
// null reads as nil; anything else is c's.
func Nullable[T any](c Codec[T]) Codec[*T] { return pointer(c, true) }

// Pointer is the codec of a value held by pointer, for a member that is
// left out rather than null when there is none (see [Field.Omit]): null
// is c's to refuse, and a nil pointer is written as null.
func Pointer[T any](c Codec[T]) Codec[*T] { return pointer(c, false) }

func pointer[T any](c Codec[T], nullable bool) Codec[*T] {
	p := NewCodec(
		func(dst []byte, v **T) []byte {
			switch {
			case *v == nil:
				return append(dst, "null"...)
			case c.single == singleFloat:
				return AppendFloat(dst, *any(*v).(*float64))
			}
			return c.append(dst, *v)
		},
		func(x any, v **T) error {
			if x == nil && nullable {
				*v = nil
				return nil
			}
			p := new(T)
			if err := c.decode(x, p); err != nil {
				return err
			}
			*v = p
			return nil
		})
	if c.single == singleFloat {
		p.single = singleFloatOrNull
	}
	return p
}

// OrNull is c with the zero value written as null, and null read as the
// zero value: an error message that is null when there is none.
func OrNull[T comparable](c Codec[T]) Codec[T] {
	o := NewCodec(
		func(dst []byte, v *T) []byte {
			var zero T
			switch {
			case *v == zero:
				return append(dst, "null"...)
			case c.single == singleString:
				return AppendString(dst, *any(v).(*string))
			}
			return c.append(dst, v)
		},
		func(x any, v *T) error {
			if x == nil {
				var zero T
				*v = zero
				return nil
			}
			return c.decode(x, v)
		})
	if c.single == singleString {
		o.single = singleStringOrNull
	}
	return o
}

// Checked is c followed, when decoding, by check, which sees the decoded
// value and the input: for a rule that ties members together (a member
// that must be null when another is set). An error of check is the
// decoding's.
func Checked[T any](c Codec[T], check func(v *T, x any) error) Codec[T] {
	return NewCodec(c.append, func(x any, v *T) error {
		if err := c.decode(x, v); err != nil {
			return err
		}
		return check(v, x)
	})
}

// A Field is one member of an object of type T: its name, where in T its
// value lives, and the codec of that value. Build one with [NewField].
type Field[T any] struct {
	name string
	key  string // a comma, the name as JSON, and the colon
	// keyWords hold key, and firstWords key without its comma, when they
	// fit, to be appended a word at a time: most keys are short, and a
	// call to copy them cost more than the value they introduce.
	keyWords, firstWords [3]uint64
	append               func(dst []byte, v *T) []byte
	decode               func(x any, v *T) error
	omit                 func(v *T) bool
	clear                func(v *T)
	isZero               func(v *T) bool

	// A single value of this package's codecs is written by the loop
	// that writes the object, without a call through append: a result
	// line has dozens of them.
	single   single
	intAt    func(v *T) *int
	floatAt  func(v *T) *float64
	stringAt func(v *T) *string
	boolAt   func(v *T) *bool
	floatsAt func(v *T) **float64
	intsAt   func(v *T) *[]int
}

// NewField is the member name of a T, whose value at(v) points to, written
// and read with c. It is written always, and required when read; see
// [Field.Omit].
func NewField[T, V any](name string, at func(v *T) *V, c Codec[V]) Field[T] {
	f := Field[T]{
		name:   name,
		key:    string(append(AppendString([]byte{','}, name), ':')),
		append: func(dst []byte, v *T) []byte { return c.append(dst, at(v)) },
		decode: func(x any, v *T) error { return c.decode(x, at(v)) },
		clear:  func(v *T) { var zero V; *at(v) = zero },
		isZero: func(v *T) bool {
			x := reflect.ValueOf(at(v)).Elem()
			if k := x.Kind(); k == reflect.Slice || k == reflect.Map {
				return x.Len() == 0
			}
			return x.IsZero()
		},
	}
	if len(f.key) <= 8*len(f.keyWords) {
		var b, first [8 * len(f.keyWords)]byte
		copy(b[:], f.key)
		copy(first[:], f.key[1:])
		for i := range f.keyWords {
			f.keyWords[i] = binary.LittleEndian.Uint64(b[8*i:])
			f.firstWords[i] = binary.LittleEndian.Uint64(first[8*i:])
		}
	}
	// The zero values of single values are told without reflect.
	switch f.single = c.single; f.single {
	case singleInt:
		get := any(at).(func(*T) *int)
		f.intAt, f.isZero = get, func(v *T) bool { return *get(v) == 0 }
	case singleFloat:
		get := any(at).(func(*T) *float64)
		f.floatAt, f.isZero = get, func(v *T) bool { return *get(v) == 0 }
	case singleString, singleStringOrNull:
		get := any(at).(func(*T) *string)
		f.stringAt, f.isZero = get, func(v *T) bool { return *get(v) == "" }
	case singleBool:
		get := any(at).(func(*T) *bool)
		f.boolAt, f.isZero = get, func(v *T) bool { return !*get(v) }
	case singleFloatOrNull:
		get := any(at).(func(*T) **float64)
		f.floatsAt, f.isZero = get, func(v *T) bool { return *get(v) == nil }
	case singleInts:
		get := any(at).(func(*T) *[]int)
		f.intsAt, f.isZero = get, func(v *T) bool { return len(*get(v)) == 0 }
	}
	return f
}

// Omit makes the member optional: it is left out when omit reports true
// for the value, and it may be absent when read. A value read for which
// omit reports true (an empty list) is kept as the zero value, as if the
// member had been left out, so that reading and writing again give the
// same value.
func (f Field[T]) Omit(omit func(v *T) bool) Field[T] {
	f.omit = omit
	return f
}

// OmitZero is Omit of the zero value: the member is left out when its
// value is 0, "", false, nil or an empty list or map.
func (f Field[T]) OmitZero() Field[T] { return f.Omit(f.isZero) }

// Name returns the member's name.
func (f *Field[T]) Name() string { return f.name }

// Written reports whether the member is written for v.
func (f *Field[T]) Written(v *T) bool { return f.omit == nil || !f.omit(v) }

// Required reports whether the member must be present when read: it is
// written always.
func (f *Field[T]) Required() bool { return f.omit == nil }

// AppendFields appends the members of v that fields write, in order,
// each "name":value, with a comma before each but the first when more
// is false: an object's members between its braces, or a run of them
// when more members come before. It is the loop of [Struct], for an
// object that writes other members between runs of fields.
func AppendFields[T any](dst []byte, fields []Field[T], v *T, more bool) []byte {
	for i := range fields {
		f := &fields[i]
		if f.omit != nil && f.omit(v) {
			continue
		}
		key, words := f.key, &f.keyWords
		if !more {
			key, words, more = f.key[1:], &f.firstWords, true
		}
		switch n := len(dst); {
		case len(key) <= 8:
			dst = binary.LittleEndian.AppendUint64(dst, words[0])[:n+len(key)]
		case len(key) <= 16:
			dst = binary.LittleEndian.AppendUint64(dst, words[0])
			dst = binary.LittleEndian.AppendUint64(dst, words[1])[:n+len(key)]
		case len(key) <= 24:
			dst = binary.LittleEndian.AppendUint64(dst, words[0])
			dst = binary.LittleEndian.AppendUint64(dst, words[1])
			dst = binary.LittleEndian.AppendUint64(dst, words[2])[:n+len(key)]
		default:
			dst = append(dst, key...)
		}
		// The single values are written here, not through append: a
		// result line has dozens.
		switch f.single {
		case singleInt:
			dst = strconv.AppendInt(dst, int64(*f.intAt(v)), 10)
		case singleFloat:
			dst = AppendFloat(dst, *f.floatAt(v))
		case singleString:
			dst = AppendString(dst, *f.stringAt(v))
		case singleBool:
			dst = strconv.AppendBool(dst, *f.boolAt(v))
		case singleFloatOrNull:
			if p := *f.floatsAt(v); p != nil {
				dst = AppendFloat(dst, *p)
			} else {
				dst = append(dst, "null"...)
			}
		case singleStringOrNull:
			if s := *f.stringAt(v); s != "" {
				dst = AppendString(dst, s)
			} else {
				dst = append(dst, "null"...)
			}
		case singleInts:
			dst = append(dst, '[')
			for i, n := range *f.intsAt(v) {
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = strconv.AppendInt(dst, int64(n), 10)
			}
			dst = append(dst, ']')
		default:
			dst = f.append(dst, v)
		}
	}
	return dst
}

// DecodeMember reads the member's value x into v; an error's path starts
// with the member's name.
func (f *Field[T]) DecodeMember(x any, v *T) error {
	if err := f.decode(x, v); err != nil {
		return Within(f.name, err)
	}
	if f.omit != nil && f.omit(v) {
		f.clear(v)
	}
	return nil
}

// Struct is the codec of an object with the given members, written in
// their order. Reading starts from T's zero value; a member that is not
// among fields, and a required one that is absent, is an error.
func Struct[T any](fields ...Field[T]) Codec[T] {
	if len(fields) > 64 {
		panic("jsonvalue.Struct: more than 64 fields")
	}
	return NewCodec(
		func(dst []byte, v *T) []byte {
			return append(AppendFields(append(dst, '{'), fields, v, false), '}')
		},
		func(x any, v *T) error {
			obj, ok := x.(Object)
			if !ok {
				return WrongKind("an object", x)
			}
			var zero T
			*v = zero
			var seen uint64
			for _, m := range obj {
				i := 0
				for i < len(fields) && fields[i].name != m.Key {
					i++
				}
				if i == len(fields) {
					return unknown(m.Key)
				}
				seen |= 1 << i
				if err := fields[i].DecodeMember(m.Value, v); err != nil {
					return err
				}
			}
			for i := range fields {
				if seen&(1<<i) == 0 && fields[i].Required() {
					return Missing(fields[i].name)
				}
			}
			return nil
		})
}

// unknown is the error of a member an object does not define.
func unknown(name string) error {
	return &DecodeError{Path: name, Err: errors.New("unknown member")}
}

// Missing is the error of a required member an object lacks.
func Missing(name string) error {
	return &DecodeError{Path: name, Err: errors.New("missing")}
}
