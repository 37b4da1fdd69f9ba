package promptfoo

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgrade/toolgrade/compat/internal/js"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// This file reproduces what promptfoo's schema check does with a tool's
// parameters: Ajv 8.20.0 with its default options plus strictSchema, and
// ajv-formats 3.0.1 in full mode, compiling a draft-07 schema and
// validating the parsed arguments. Where Ajv differs from a plain draft-07
// validator (such as santhosh-tekuri/jsonschema, which the schema package
// uses), this follows Ajv:
//
//   - Compiling throws, so the check fails, on a keyword Ajv does not know
//     (example, discriminator, prefixItems, ...) in any schema it compiles
//     (the root, the schemas keywords apply, $ref targets; unreferenced
//     definitions are not compiled), on an unknown format, on "id", on
//     then/else without if and if without both, on additionalItems without
//     a list of items, on nullable without type (or false beside a null
//     type), on a $schema other than draft-07's, on a $ref that does not
//     resolve, and on any schema the draft-07 meta-schema rejects (a type
//     such as "str", enum [], a negative maxLength, ...).
//   - Numbers are JavaScript doubles: 3.0 is an integer, Infinity is no
//     number, multipleOf divides in doubles (data/m must equal
//     parseInt(data/m)), and comparisons are double comparisons.
//   - String lengths count code points; pattern is a JavaScript regular
//     expression with the u flag.
//   - enum, const and uniqueItems use deep equality: 1 equals 1.0, arrays
//     never equal objects, key order does not matter.
//   - nullable: true adds null to the schema's type.
//
// Non-goals, reported as errors rather than guessed: $id inside a schema
// and references that are not JSON pointers into the document itself,
// lookaround and backreferences in patterns, the url format (a lookahead
// regex), the formatMaximum family, and required or properties naming a
// member every object inherits (toString, constructor, ...), which Ajv
// finds on any object.

// errUnsupported wraps what the emulation does not reproduce: the case is
// an error instead of a verdict.
type ajvUnsupported struct{ msg string }

func (e *ajvUnsupported) Error() string { return e.msg }

// ajvKeywords are the keywords of Ajv's default (draft-07) instance with
// ajv-formats added.
var ajvKeywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`$async $schema $id $defs $vocabulary $comment definitions id $ref maximum minimum
		exclusiveMaximum exclusiveMinimum multipleOf maxLength minLength pattern maxProperties minProperties required
		maxItems minItems uniqueItems type nullable const enum not anyOf oneOf allOf if then else propertyNames
		additionalProperties dependencies properties patternProperties additionalItems items contains format title
		description default deprecated readOnly writeOnly examples contentMediaType contentEncoding contentSchema
		formatMaximum formatMinimum formatExclusiveMaximum formatExclusiveMinimum`) {
		ajvKeywords[k] = true
	}
}

var jsonTypes = []string{"string", "number", "integer", "boolean", "null", "object", "array"}

// An ajvSchema is a compiled schema.
type ajvSchema struct {
	root     any
	patterns map[string]*regexp.Regexp
}

type compileError struct{ msg string }

func (e *compileError) Error() string { return e.msg }

func compileFail(format string, a ...any) error { return &compileError{fmt.Sprintf(format, a...)} }

// ajvCompile compiles a tool's parameters as ajv.compile does: an error
// that is a *compileError is Ajv's throw (the check fails); an
// *ajvUnsupported or *unsupportedError is what toolgrade does not
// reproduce.
func ajvCompile(schema any) (*ajvSchema, error) {
	switch schema.(type) {
	case bool, jsonvalue.Object:
	default:
		return nil, compileFail("schema must be object or boolean")
	}
	s := &ajvSchema{root: schema, patterns: map[string]*regexp.Regexp{}}
	if err := s.meta(schema, "#", true); err != nil {
		return nil, err
	}
	if err := s.strict(schema, "#", map[string]bool{}); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *ajvSchema) regexp(p string) (*regexp.Regexp, error) {
	if re, ok := s.patterns[p]; ok {
		return re, nil
	}
	if strings.Contains(p, `\Z`) {
		return nil, compileFail("Invalid regular expression: /%s/u: Invalid escape", p)
	}
	re, err := compileJSRegexp(p)
	if err != nil {
		var se *syntaxError
		if errors.As(err, &se) {
			return nil, compileFail("%s", err)
		}
		return nil, err
	}
	s.patterns[p] = re
	return re, nil
}

func isInt(v any) bool {
	n, ok := v.(json.Number)
	if !ok {
		return false
	}
	f := js.Number(n)
	return !math.IsInf(f, 0) && f == math.Trunc(f)
}

func isNum(v any) bool {
	_, ok := v.(json.Number)
	return ok
}

// meta checks a schema against the draft-07 meta-schema (as Ajv's
// validateSchema does), everywhere the meta-schema reaches.
func (s *ajvSchema) meta(v any, at string, top bool) error {
	if _, ok := v.(bool); ok {
		return nil
	}
	o, ok := v.(jsonvalue.Object)
	if !ok {
		return compileFail("schema is invalid: %s must be object,boolean", at)
	}
	bad := func(key, want string) error {
		return compileFail("schema is invalid: %s/%s must be %s", at, key, want)
	}
	for _, m := range o {
		k, x := m.Key, m.Value
		switch k {
		case "$id", "$schema", "$ref", "$comment", "title", "description", "format", "contentMediaType", "contentEncoding":
			if _, ok := x.(string); !ok {
				return bad(k, "string")
			}
		case "readOnly", "uniqueItems":
			if _, ok := x.(bool); !ok {
				return bad(k, "boolean")
			}
		case "examples":
			if _, ok := x.([]any); !ok {
				return bad(k, "array")
			}
		case "multipleOf":
			if !isNum(x) || js.Number(x.(json.Number)) <= 0 {
				return bad(k, "> 0")
			}
		case "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum":
			if !isNum(x) {
				return bad(k, "number")
			}
		case "maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties":
			if !isInt(x) || js.Number(x.(json.Number)) < 0 {
				return bad(k, "a non-negative integer")
			}
		case "pattern":
			p, ok := x.(string)
			if !ok {
				return bad(k, "string")
			}
			if _, err := s.regexp(p); err != nil {
				return err
			}
		case "additionalItems", "contains", "additionalProperties", "propertyNames", "not", "if", "then", "else":
			if err := s.meta(x, at+"/"+k, false); err != nil {
				return err
			}
		case "items":
			if l, ok := x.([]any); ok {
				if len(l) == 0 {
					return bad(k, "object,boolean")
				}
				for i, e := range l {
					if err := s.meta(e, fmt.Sprintf("%s/%s/%d", at, k, i), false); err != nil {
						return err
					}
				}
			} else if err := s.meta(x, at+"/"+k, false); err != nil {
				return err
			}
		case "required":
			if err := stringArray(x); err != nil {
				return bad(k, err.Error())
			}
		case "definitions", "properties", "patternProperties", "$defs":
			props, ok := x.(jsonvalue.Object)
			if !ok {
				return bad(k, "object")
			}
			for _, p := range props {
				if k == "patternProperties" {
					if _, err := s.regexp(p.Key); err != nil {
						return err
					}
				}
				if err := s.meta(p.Value, at+"/"+k+"/"+p.Key, false); err != nil {
					return err
				}
			}
		case "dependencies":
			deps, ok := x.(jsonvalue.Object)
			if !ok {
				return bad(k, "object")
			}
			for _, d := range deps {
				if _, isList := d.Value.([]any); isList {
					if err := stringArray(d.Value); err != nil {
						return bad(k+"/"+d.Key, err.Error())
					}
				} else if err := s.meta(d.Value, at+"/"+k+"/"+d.Key, false); err != nil {
					return err
				}
			}
		case "enum":
			l, ok := x.([]any)
			if !ok || len(l) == 0 {
				return bad(k, "a non-empty array")
			}
		case "type":
			switch t := x.(type) {
			case string:
				if !slices.Contains(jsonTypes, t) {
					return bad(k, "equal to one of the allowed values")
				}
			case []any:
				if len(t) == 0 {
					return bad(k, "a non-empty array")
				}
				for i, e := range t {
					es, ok := e.(string)
					if !ok || !slices.Contains(jsonTypes, es) || slices.Contains(t[:i], e) {
						return bad(k, "a list of distinct types")
					}
				}
			default:
				return bad(k, "string or array")
			}
		case "allOf", "anyOf", "oneOf":
			l, ok := x.([]any)
			if !ok || len(l) == 0 {
				return bad(k, "a non-empty array")
			}
			for i, e := range l {
				if err := s.meta(e, fmt.Sprintf("%s/%s/%d", at, k, i), false); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func stringArray(x any) error {
	l, ok := x.([]any)
	if !ok {
		return errors.New("array")
	}
	for i, e := range l {
		if _, ok := e.(string); !ok {
			return errors.New("an array of strings")
		}
		if slices.Contains(l[:i], e) {
			return errors.New("free of duplicate items")
		}
	}
	return nil
}

// strict walks the schemas Ajv compiles and throws where strict mode
// does.
func (s *ajvSchema) strict(v any, at string, seen map[string]bool) error {
	o, ok := v.(jsonvalue.Object)
	if !ok {
		return nil
	}
	for _, m := range o {
		if !ajvKeywords[m.Key] {
			return compileFail("strict mode: unknown keyword: %q", m.Key)
		}
	}
	has := o.Has
	switch {
	case has("id"):
		return compileFail(`NOT SUPPORTED: keyword "id", use "$id" for schema ID`)
	case (has("then") || has("else")) && !has("if"):
		return compileFail(`strict mode: "then" or "else" without "if" is ignored`)
	case has("if") && !has("then") && !has("else"):
		return compileFail(`strict mode: "if" without "then" and "else" is ignored`)
	case has("formatMaximum") || has("formatMinimum") || has("formatExclusiveMaximum") || has("formatExclusiveMinimum"):
		return &ajvUnsupported{"the schema uses formatMaximum or its kin, which toolgrade does not reproduce"}
	case has("$id") && at != "#":
		return &ajvUnsupported{"the schema has an $id below its root, which toolgrade does not reproduce"}
	}
	if has("additionalItems") {
		if _, ok := js.Get(o, "items").([]any); !ok {
			return compileFail(`strict mode: "additionalItems" is ignored when "items" is not an array of schemas`)
		}
	}
	if sch, ok := o.Get("$schema"); ok && at == "#" {
		if sch != "http://json-schema.org/draft-07/schema" && sch != "http://json-schema.org/draft-07/schema#" {
			return compileFail("no schema with key or ref %q", sch)
		}
	} else if ok {
		return &ajvUnsupported{"the schema has a $schema below its root, which toolgrade does not reproduce"}
	}
	types, err := schemaTypes(o)
	if err != nil {
		return err
	}
	_ = types
	if f, ok := o.Get("format"); ok {
		name := f.(string)
		if _, ok := formats[name]; !ok {
			return compileFail("unknown format %q ignored in schema at path %q", name, at)
		}
		if name == "url" {
			return &ajvUnsupported{"the url format is a lookahead regular expression that toolgrade does not reproduce"}
		}
	}
	for _, key := range []string{"required"} {
		if l, ok := o.Get(key); ok {
			for _, e := range l.([]any) {
				if js.Inherited(e.(string)) {
					return &ajvUnsupported{fmt.Sprintf("%s names %q, which Ajv finds on every object; toolgrade does not reproduce that", key, e)}
				}
			}
		}
	}
	if props, ok := o.Get("properties"); ok {
		for _, p := range props.(jsonvalue.Object) {
			if js.Inherited(p.Key) {
				return &ajvUnsupported{fmt.Sprintf("properties names %q, which Ajv finds on every object; toolgrade does not reproduce that", p.Key)}
			}
		}
	}
	if deps, ok := o.Get("dependencies"); ok {
		for _, d := range deps.(jsonvalue.Object) {
			if js.Inherited(d.Key) {
				return &ajvUnsupported{fmt.Sprintf("dependencies names %q, which Ajv finds on every object; toolgrade does not reproduce that", d.Key)}
			}
		}
	}
	if ref, ok := o.Get("$ref"); ok {
		r := ref.(string)
		if !seen[r] {
			seen[r] = true
			target, err := s.resolve(r)
			if err != nil {
				return err
			}
			if err := s.strict(target, r, seen); err != nil {
				return err
			}
		}
	}
	for _, m := range o {
		switch m.Key {
		case "additionalItems", "contains", "additionalProperties", "propertyNames", "not", "if", "then", "else":
			if err := s.strict(m.Value, at+"/"+m.Key, seen); err != nil {
				return err
			}
		case "items", "allOf", "anyOf", "oneOf":
			if l, ok := m.Value.([]any); ok {
				for i, e := range l {
					if err := s.strict(e, fmt.Sprintf("%s/%s/%d", at, m.Key, i), seen); err != nil {
						return err
					}
				}
			} else if err := s.strict(m.Value, at+"/"+m.Key, seen); err != nil {
				return err
			}
		case "properties", "patternProperties", "dependencies":
			for _, p := range m.Value.(jsonvalue.Object) {
				if err := s.strict(p.Value, at+"/"+m.Key+"/"+p.Key, seen); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// schemaTypes is the schema's type list with nullable applied, as Ajv
// reads it.
func schemaTypes(o jsonvalue.Object) ([]string, error) {
	var types []string
	switch t := js.Get(o, "type").(type) {
	case string:
		types = []string{t}
	case []any:
		for _, e := range t {
			types = append(types, e.(string))
		}
	}
	nullable := js.Get(o, "nullable")
	if !js.IsUndefined(nullable) {
		if _, ok := nullable.(bool); !ok {
			return nil, compileFail("nullable value must be boolean")
		}
	}
	if slices.Contains(types, "null") {
		if nullable == false {
			return nil, compileFail("type: null contradicts nullable: false")
		}
	} else {
		if len(types) == 0 && !js.IsUndefined(nullable) {
			return nil, compileFail(`"nullable" cannot be used without "type"`)
		}
		if nullable == true {
			types = append(types, "null")
		}
	}
	return types, nil
}

// resolve finds the target of a $ref: a JSON pointer into the document.
func (s *ajvSchema) resolve(ref string) (any, error) {
	ptr, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, &ajvUnsupported{fmt.Sprintf("$ref %q is no pointer into the schema itself, which toolgrade does not resolve", ref)}
	}
	cur := s.root
	if ptr == "" {
		return cur, nil
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, &ajvUnsupported{fmt.Sprintf("$ref %q names an anchor, which toolgrade does not resolve", ref)}
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		if strings.Contains(tok, "%") {
			return nil, &ajvUnsupported{fmt.Sprintf("$ref %q is percent-encoded, which toolgrade does not resolve", ref)}
		}
		next, ok := js.Property(cur, tok)
		if !ok {
			return nil, compileFail("can't resolve reference %s from id #", ref)
		}
		cur = next
	}
	switch cur.(type) {
	case bool, jsonvalue.Object:
		return cur, nil
	}
	return nil, compileFail("can't resolve reference %s from id #", ref)
}

// valid validates data against the compiled schema.
func (s *ajvSchema) valid(data any) (bool, error) {
	return s.validate(s.root, data, 0)
}

func hasType(t string, v any) bool {
	switch t {
	case "string":
		_, ok := v.(string)
		return ok
	case "number":
		n, ok := v.(json.Number)
		return ok && !math.IsInf(js.Number(n), 0)
	case "integer":
		return isInt(v)
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "null":
		return v == nil
	case "object":
		return js.IsRecord(v)
	case "array":
		_, ok := v.([]any)
		return ok
	}
	return false
}

func (s *ajvSchema) validate(schema, v any, depth int) (bool, error) {
	if depth > 256 {
		return false, &ajvUnsupported{"the schema recurses deeper than toolgrade follows"}
	}
	if b, ok := schema.(bool); ok {
		return b, nil
	}
	o := schema.(jsonvalue.Object)
	sub := func(x, val any) (bool, error) { return s.validate(x, val, depth+1) }
	if ref, ok := o.Get("$ref"); ok {
		target, err := s.resolve(ref.(string))
		if err != nil {
			return false, err
		}
		if ok, err := sub(target, v); err != nil || !ok {
			return false, err
		}
	}
	types, _ := schemaTypes(o)
	if len(types) > 0 && !slices.ContainsFunc(types, func(t string) bool { return hasType(t, v) }) {
		return false, nil
	}
	if c, ok := o.Get("const"); ok && !js.DeepEqual(v, c) {
		return false, nil
	}
	if e, ok := o.Get("enum"); ok && !slices.ContainsFunc(e.([]any), func(x any) bool { return js.DeepEqual(v, x) }) {
		return false, nil
	}
	switch v := v.(type) {
	case json.Number:
		f := js.Number(v)
		if math.IsInf(f, 0) || math.IsNaN(f) {
			break // Ajv's number keywords check finite numbers only
		}
		for _, k := range []string{"maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum"} {
			x, ok := o.Get(k)
			if !ok {
				continue
			}
			l := js.Number(x.(json.Number))
			if k == "maximum" && !(f <= l) || k == "minimum" && !(f >= l) || k == "exclusiveMaximum" && !(f < l) || k == "exclusiveMinimum" && !(f > l) {
				return false, nil
			}
		}
		if m, ok := o.Get("multipleOf"); ok {
			q := f / js.Number(m.(json.Number))
			if q != parseInt(js.FormatNumber(q)) {
				return false, nil
			}
		}
	case string:
		n := utf8.RuneCountInString(v)
		if x, ok := o.Get("maxLength"); ok && float64(n) > js.Number(x.(json.Number)) {
			return false, nil
		}
		if x, ok := o.Get("minLength"); ok && float64(n) < js.Number(x.(json.Number)) {
			return false, nil
		}
		if p, ok := o.Get("pattern"); ok {
			re, err := s.regexp(p.(string))
			if err != nil {
				return false, err
			}
			if !re.MatchString(v) {
				return false, nil
			}
		}
	case []any:
		if x, ok := o.Get("maxItems"); ok && float64(len(v)) > js.Number(x.(json.Number)) {
			return false, nil
		}
		if x, ok := o.Get("minItems"); ok && float64(len(v)) < js.Number(x.(json.Number)) {
			return false, nil
		}
		if u, ok := o.Get("uniqueItems"); ok && u == true {
			for i := range v {
				for j := range i {
					if js.DeepEqual(v[i], v[j]) {
						return false, nil
					}
				}
			}
		}
		items, hasItems := o.Get("items")
		if list, ok := items.([]any); ok {
			for i, e := range v {
				var sch any
				if i < len(list) {
					sch = list[i]
				} else if ai, ok := o.Get("additionalItems"); ok {
					sch = ai
				} else {
					continue
				}
				if ok, err := sub(sch, e); err != nil || !ok {
					return false, err
				}
			}
		} else if hasItems {
			for _, e := range v {
				if ok, err := sub(items, e); err != nil || !ok {
					return false, err
				}
			}
		}
		if c, ok := o.Get("contains"); ok {
			found := false
			for _, e := range v {
				ok, err := sub(c, e)
				if err != nil {
					return false, err
				}
				if ok {
					found = true
					break
				}
			}
			if !found {
				return false, nil
			}
		}
	case jsonvalue.Object:
		if x, ok := o.Get("maxProperties"); ok && float64(len(v)) > js.Number(x.(json.Number)) {
			return false, nil
		}
		if x, ok := o.Get("minProperties"); ok && float64(len(v)) < js.Number(x.(json.Number)) {
			return false, nil
		}
		if req, ok := o.Get("required"); ok {
			for _, r := range req.([]any) {
				if !v.Has(r.(string)) {
					return false, nil
				}
			}
		}
		if deps, ok := o.Get("dependencies"); ok {
			for _, d := range deps.(jsonvalue.Object) {
				if !v.Has(d.Key) {
					continue
				}
				if l, ok := d.Value.([]any); ok {
					for _, r := range l {
						if !v.Has(r.(string)) {
							return false, nil
						}
					}
				} else if ok, err := sub(d.Value, v); err != nil || !ok {
					return false, err
				}
			}
		}
		if pn, ok := o.Get("propertyNames"); ok {
			for _, m := range v {
				if ok, err := sub(pn, m.Key); err != nil || !ok {
					return false, err
				}
			}
		}
		props, _ := js.Get(o, "properties").(jsonvalue.Object)
		pprops, _ := js.Get(o, "patternProperties").(jsonvalue.Object)
		addl, hasAddl := o.Get("additionalProperties")
		for _, m := range v {
			matched := false
			if ps, ok := props.Get(m.Key); ok {
				matched = true
				if ok, err := sub(ps, m.Value); err != nil || !ok {
					return false, err
				}
			}
			for _, pp := range pprops {
				re, err := s.regexp(pp.Key)
				if err != nil {
					return false, err
				}
				if re.MatchString(m.Key) {
					matched = true
					if ok, err := sub(pp.Value, m.Value); err != nil || !ok {
						return false, err
					}
				}
			}
			if !matched && hasAddl {
				if ok, err := sub(addl, m.Value); err != nil || !ok {
					return false, err
				}
			}
		}
	}
	if f, ok := o.Get("format"); ok {
		ok, err := checkFormat(f.(string), v)
		if err != nil || !ok {
			return false, err
		}
	}
	if l, ok := o.Get("allOf"); ok {
		for _, x := range l.([]any) {
			if ok, err := sub(x, v); err != nil || !ok {
				return false, err
			}
		}
	}
	if l, ok := o.Get("anyOf"); ok {
		anyOK := false
		for _, x := range l.([]any) {
			ok, err := sub(x, v)
			if err != nil {
				return false, err
			}
			if ok {
				anyOK = true
				break
			}
		}
		if !anyOK {
			return false, nil
		}
	}
	if l, ok := o.Get("oneOf"); ok {
		n := 0
		for _, x := range l.([]any) {
			ok, err := sub(x, v)
			if err != nil {
				return false, err
			}
			if ok {
				n++
			}
		}
		if n != 1 {
			return false, nil
		}
	}
	if x, ok := o.Get("not"); ok {
		ok, err := sub(x, v)
		if err != nil || ok {
			return false, err
		}
	}
	if cond, ok := o.Get("if"); ok {
		ok, err := sub(cond, v)
		if err != nil {
			return false, err
		}
		branch := "else"
		if ok {
			branch = "then"
		}
		if x, has := o.Get(branch); has {
			if ok, err := sub(x, v); err != nil || !ok {
				return false, err
			}
		}
	}
	return true, nil
}

// parseInt is JavaScript's parseInt of a number's text: the leading
// integer digits, with their sign.
func parseInt(s string) float64 {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == i {
		return math.NaN()
	}
	f, _ := strconv.ParseFloat(s[:j], 64)
	return f
}
