package schema

import (
	"fmt"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Tool definitions are written in several dialects of JSON Schema. normalize
// rewrites them into standard JSON Schema without changing what they accept:
//
//   - upper-case OpenAPI names, as Gemini writes them ("STRING", "OBJECT"),
//     and Gemini's "TYPE_UNSPECIFIED" (no constraint);
//   - OpenAPI's "nullable": true, which adds null to the type;
//   - BFCL's "dict" (object), "float" (number), "tuple" (array) and "any"
//     (no constraint), and the Java and JavaScript names of BFCL's java and
//     javascript categories ("String", "long", "HashMap", "Bigint", ...);
//   - Python names, as DeepFabric and xLAM write them ("str", "int",
//     "bool", "list").
//
// Standard names are kept. A type name that none of these dialects knows
// is an error naming where it is, because guessing would change what the
// schema accepts.
var typeNames = map[string]string{
	"string": "string", "str": "string", "char": "string",
	"integer": "integer", "int": "integer", "long": "integer", "short": "integer", "byte": "integer", "bigint": "integer",
	"number": "number", "float": "number", "double": "number",
	"boolean": "boolean", "bool": "boolean",
	"array": "array", "list": "array", "tuple": "array", "arraylist": "array", "set": "array", "queue": "array", "stack": "array",
	"object": "object", "dict": "object", "hashmap": "object", "hashtable": "object",
	"null": "null", "none": "null", "nonetype": "null",
	// No constraint.
	"any": "", "": "", "type_unspecified": "",
}

// standardType maps a type name of any dialect to a JSON Schema type, or to
// "" for no constraint.
func standardType(name string) (string, bool) {
	if t, ok := typeNames[name]; ok {
		return t, true
	}
	t, ok := typeNames[strings.ToLower(name)]
	return t, ok
}

// Keywords whose value is a schema, a list of schemas, or an object whose
// member values are schemas; normalize descends only into these, never into
// values such as enum, const or default.
var (
	schemaKeywords = map[string]bool{
		"additionalProperties": true, "not": true, "if": true, "then": true, "else": true,
		"contains": true, "propertyNames": true, "unevaluatedItems": true,
		"unevaluatedProperties": true, "additionalItems": true, "items": true,
	}
	schemaListKeywords = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true, "items": true}
	schemaMapKeywords  = map[string]bool{
		"properties": true, "patternProperties": true, "$defs": true,
		"definitions": true, "dependentSchemas": true,
	}
)

// normalize returns s in standard JSON Schema (see typeNames). It does not
// modify s. Errors are *toolgrade.FieldError values naming the keyword.
func normalize(s any) (any, error) {
	obj, ok := s.(jsonvalue.Object)
	if !ok {
		return s, nil // true, false, or not a schema: the validator says so
	}
	out := make(jsonvalue.Object, 0, len(obj))
	nullable := false
	for _, m := range obj {
		v := m.Value
		var err error
		switch {
		case m.Key == "type":
			var drop bool
			if v, drop, err = normalizeType(v); drop {
				continue
			}
		case m.Key == "nullable":
			if b, ok := v.(bool); ok {
				nullable = b
				continue // folded into type below
			}
		case schemaMapKeywords[m.Key]:
			if o, ok := v.(jsonvalue.Object); ok {
				no := make(jsonvalue.Object, len(o))
				for i, pm := range o {
					if no[i].Value, err = normalize(pm.Value); err != nil {
						err = toolgrade.InField(pm.Key, err)
						break
					}
					no[i].Key = pm.Key
				}
				v = no
			}
		case schemaListKeywords[m.Key] && isList(v):
			l := v.([]any)
			nl := make([]any, len(l))
			for i, e := range l {
				if nl[i], err = normalize(e); err != nil {
					err = toolgrade.InField(fmt.Sprintf("[%d]", i), err)
					break
				}
			}
			v = nl
		case schemaKeywords[m.Key]:
			v, err = normalize(v)
		}
		if err != nil {
			return nil, toolgrade.InField(m.Key, err)
		}
		out = append(out, jsonvalue.Member{Key: m.Key, Value: v})
	}
	if nullable {
		out = withNull(out)
	}
	return out, nil
}

func isList(v any) bool {
	_, ok := v.([]any)
	return ok
}

// normalizeType maps a "type" value: a name or a list of names. drop
// reports that the type constrains nothing ("any" alone or in the list).
func normalizeType(v any) (out any, drop bool, err error) {
	switch v := v.(type) {
	case string:
		t, ok := standardType(v)
		if !ok {
			return nil, false, fmt.Errorf("unknown type %q", v)
		}
		return t, t == "", nil
	case []any:
		names := make([]any, 0, len(v))
		for i, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, false, &toolgrade.FieldError{Path: fmt.Sprintf("[%d]", i), Err: fmt.Errorf("want a type name, got %s", jsonvalue.Kind(e))}
			}
			t, ok := standardType(s)
			if !ok {
				return nil, false, &toolgrade.FieldError{Path: fmt.Sprintf("[%d]", i), Err: fmt.Errorf("unknown type %q", s)}
			}
			if t == "" {
				return nil, true, nil
			}
			names = append(names, t)
		}
		return names, false, nil
	}
	return nil, false, fmt.Errorf("want a type name or a list of them, got %s", jsonvalue.Kind(v))
}

// withNull adds "null" to the schema's type (OpenAPI's nullable). A schema
// without a type already accepts null.
func withNull(s jsonvalue.Object) jsonvalue.Object {
	for i, m := range s {
		if m.Key != "type" {
			continue
		}
		switch t := m.Value.(type) {
		case string:
			if t != "null" {
				s[i].Value = []any{t, "null"}
			}
		case []any:
			for _, e := range t {
				if e == "null" {
					return s
				}
			}
			s[i].Value = append(append([]any(nil), t...), "null")
		}
	}
	return s
}

// pythonType reads a free-text Python type as xLAM writes parameter types
// ("str", "List[int]", "Dict[str, Any]", "int, optional",
// "Optional[str]") into a JSON Schema type. optional reports a marker that
// the parameter may be left out. Types it cannot read constrain nothing:
// these strings are prose as much as types.
func pythonType(text string) (s jsonvalue.Object, optional bool) {
	t := strings.TrimSpace(text)
	for {
		lower := strings.ToLower(t)
		switch {
		case strings.HasSuffix(lower, ", optional"):
			t, optional = strings.TrimSpace(t[:len(t)-len(", optional")]), true
			continue
		case strings.HasPrefix(lower, "optional[") && strings.HasSuffix(t, "]"):
			t, optional = strings.TrimSpace(t[len("optional["):len(t)-1]), true
			continue
		}
		if i := strings.Index(t, ", default"); i >= 0 {
			t, optional = strings.TrimSpace(t[:i]), true
			continue
		}
		break
	}
	base, inner, generic := strings.Cut(t, "[")
	base = strings.TrimSpace(base)
	std, ok := standardType(base)
	if !ok || std == "" {
		return nil, optional
	}
	s = jsonvalue.Object{{Key: "type", Value: std}}
	if generic && std == "array" && strings.HasSuffix(inner, "]") {
		inner = strings.TrimSuffix(inner, "]")
		if !strings.Contains(inner, ",") { // List[int], not Tuple[int, str]
			if items, _ := pythonType(inner); items != nil {
				s = append(s, jsonvalue.Member{Key: "items", Value: items})
			}
		}
	}
	return s, optional
}
