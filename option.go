package toolgrade

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// ErrUnknownOption is the Err of the [*OptionError] for an option a metric
// does not take at all (a key of a config entry that names none of its
// options), as opposed to a value it does not take. Test for it with
// errors.Is.
var ErrUnknownOption = errors.New("unknown option")

// DecodeOptions decodes a JSON object of options (a config entry's keys)
// into v, a pointer to an options struct, as encoding/json does, but
// strictly:
//
//   - a key that names no field of the struct, at any depth, is an
//     [*OptionError] whose Err is [ErrUnknownOption] and whose Option is
//     the key's path ("weights.tool_selectoin");
//   - a value of the wrong JSON type is an [*OptionError] naming the
//     option and saying what it wants ("order: want a string, got
//     number").
//
// Keys match field names as encoding/json matches them (the json tag's
// name, case-insensitively when no name is equal). A type with its own
// UnmarshalJSON reads its JSON itself: its keys are its own business, and
// its errors pass through unchanged, so that an options struct reading
// itself (to tell null from absent, say) calls DecodeOptions on a copy of
// its type without the method.
//
// DecodeOptions never reads error text: unknown keys are found by walking
// the decoded JSON against the struct's fields before decoding it.
func DecodeOptions(data []byte, v any) error {
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Pointer {
		return fmt.Errorf("DecodeOptions: want a pointer, got %T", v)
	}
	if !reads(t) {
		doc, err := jsonvalue.Parse(data)
		if err != nil {
			return err
		}
		if path := unknownKey(doc, t.Elem(), ""); path != "" {
			return &OptionError{Option: path, Err: ErrUnknownOption}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	// The walk above found every unknown key; this is only the guarantee
	// that none is ever read as nothing, should the two disagree.
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok && te.Field != "" {
		return &OptionError{Option: te.Field, Err: fmt.Errorf("want %s, got %s", jsonKind(te.Type), given(data, te))}
	}
	return err
}

// given describes the value a type error is about: the value itself when
// it is short, so that the message shows what was written ("the string
// \"NaN\"", "1e999, out of range"), else its kind.
func given(data []byte, te *json.UnmarshalTypeError) string {
	if num, ok := strings.CutPrefix(te.Value, "number "); ok {
		// A number where a number is wanted: one the type cannot hold.
		if jsonKind(te.Type) == "a whole number" && !jsonvalue.IsIntegerLiteral(num) {
			return num
		}
		return num + ", out of range"
	}
	doc, err := jsonvalue.Parse(data)
	if err != nil {
		return te.Value
	}
	v, ok := doc, true
	for key := range strings.SplitSeq(te.Field, ".") {
		obj, _ := v.(jsonvalue.Object)
		if v, ok = obj.Get(key); !ok {
			return te.Value
		}
	}
	if s, ok := v.(string); ok && len(s) <= 40 {
		return "the string " + string(jsonvalue.AppendString(nil, s))
	}
	switch v := v.(type) {
	case bool:
		return strconv.FormatBool(v)
	case json.Number:
		return "the number " + string(v)
	}
	return te.Value
}

// reads reports whether values of type t decode themselves from JSON.
func reads(t reflect.Type) bool {
	if t.Implements(unmarshaler) {
		return true
	}
	return t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(unmarshaler)
}

var (
	unmarshaler     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// unknownKey returns the path of the first object key in v that decoding
// into t would find no field for, or "" when there is none. path is v's
// own path.
func unknownKey(v any, t reflect.Type, path string) string {
	for t.Kind() == reflect.Pointer {
		if reads(t) {
			return ""
		}
		t = t.Elem()
	}
	if reads(t) {
		return ""
	}
	switch v := v.(type) {
	case jsonvalue.Object:
		switch t.Kind() {
		case reflect.Struct:
			for _, m := range v {
				f, ok := field(t, m.Key)
				if !ok {
					return join(path, m.Key)
				}
				if p := unknownKey(m.Value, f.Type, join(path, m.Key)); p != "" {
					return p
				}
			}
		case reflect.Map:
			for _, m := range v {
				if p := unknownKey(m.Value, t.Elem(), join(path, m.Key)); p != "" {
					return p
				}
			}
		}
	case []any:
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			for i, e := range v {
				if p := unknownKey(e, t.Elem(), path+"["+strconv.Itoa(i)+"]"); p != "" {
					return p
				}
			}
		}
	}
	return ""
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// field finds the struct field a JSON key decodes into: the field whose
// name (its json tag's, else its own) equals key, else the first that
// equals it ignoring case, as encoding/json picks. A struct with embedded
// fields accepts every key here: their promotion rules are encoding/json's
// to apply, and DisallowUnknownFields still refuses what it refuses.
func field(t reflect.Type, key string) (reflect.StructField, bool) {
	var folded reflect.StructField
	found := false
	for f := range t.Fields() {
		if f.Anonymous {
			return reflect.StructField{Type: reflect.TypeFor[any]()}, true
		}
		name, ok := jsonName(f)
		switch {
		case !ok:
		case name == key:
			return f, true
		case !found && strings.EqualFold(name, key):
			folded, found = f, true
		}
	}
	return folded, found
}

// jsonName is the key of a struct field in JSON; false for a field that is
// never decoded.
func jsonName(f reflect.StructField) (string, bool) {
	if !f.IsExported() {
		return "", false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	if name, _, _ := strings.Cut(tag, ","); name != "" {
		return name, true
	}
	return f.Name, true
}

// jsonKind says in words what JSON a Go type reads.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(textUnmarshaler) {
		return "a string"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return t.String()
}
