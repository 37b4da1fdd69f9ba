package schema

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"github.com/toolgrade/toolgrade/internal/sorting"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// A Violation is one way a value breaks a JSON Schema.
type Violation struct {
	// Pointer locates the offending value inside the checked value, as a
	// JSON Pointer (RFC 6901): "" is the value itself, "/unit" its member
	// unit, "/stops/0" the first element of its member stops. A missing
	// property is reported at the object that lacks it.
	Pointer string
	// Keyword is the schema keyword that failed ("required", "type",
	// "enum", "additionalProperties", ...).
	Keyword string
	// Message says what is wrong, e.g. "missing property 'city'".
	Message string
}

// String writes the violation as "POINTER: MESSAGE", with "/" for the
// value itself.
func (v Violation) String() string {
	p := v.Pointer
	if p == "" {
		p = "/"
	}
	return p + ": " + v.Message
}

// Validate checks value against a JSON Schema, both in the value model. It
// returns every violation, sorted by pointer (nil when the value is valid),
// and an error only when the schema itself is not a valid JSON Schema.
//
// The schema's draft is the one its "$schema" names, 2020-12 when it names
// none. Formats are annotations, not assertions (the draft's default).
// Numbers keep their meaning: 1.0 is an integer, as every draft since 6
// says. References to other documents are not followed: tool schemas are
// checked offline, and a "$ref" outside the schema is an error.
//
// Each distinct schema is compiled once and kept for later calls; Validate
// is safe for concurrent use.
func Validate(schema, value any) ([]Violation, error) {
	sch, err := compile(schema)
	if err != nil {
		return nil, err
	}
	err = sch.Validate(libValue(value))
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil, err
	}
	var out []Violation
	leaves(ve, &out)
	sorting.Stable(out, func(a, b Violation) int {
		return cmp.Or(strings.Compare(a.Pointer, b.Pointer), strings.Compare(a.Message, b.Message))
	})
	return slices.Compact(out), nil
}

// leaves appends the leaf causes of a validation error: the library nests
// them under $ref, allOf, anyOf and the schema itself.
func leaves(e *jsonschema.ValidationError, out *[]Violation) {
	if len(e.Causes) == 0 {
		*out = append(*out, Violation{
			Pointer: pointer(e.InstanceLocation),
			Keyword: strings.Join(e.ErrorKind.KeywordPath(), "/"),
			Message: errorMessage(e.ErrorKind),
		})
		return
	}
	for _, c := range e.Causes {
		leaves(c, out)
	}
}

// english prints the library's messages in English, as its errors print
// themselves.
var english = message.NewPrinter(language.English)

// errorMessage is the library's English text for one error kind, without
// the location it prefixes when printing a whole error.
func errorMessage(k jsonschema.ErrorKind) string {
	if a, ok := k.(*kind.AdditionalProperties); ok {
		// The library lists them in map order: sort, so that a result
		// is the same from run to run.
		a = &kind.AdditionalProperties{Properties: slices.Sorted(slices.Values(a.Properties))}
		k = a
	}
	return k.LocalizedString(english)
}

// pointer writes a JSON Pointer from its tokens.
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		t = strings.ReplaceAll(t, "~", "~0")
		b.WriteString(strings.ReplaceAll(t, "/", "~1"))
	}
	return b.String()
}

// libValue converts a value-model value into the form the jsonschema
// library reads (map[string]any for objects; json.Number kept, so that
// integers and floats keep their meaning).
func libValue(v any) any {
	switch v := v.(type) {
	case jsonvalue.Object:
		m := make(map[string]any, len(v))
		for _, mem := range v {
			m[mem.Key] = libValue(mem.Value)
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = libValue(e)
		}
		return out
	}
	return v
}

// The cache of compiled schemas, keyed by the schema's JSON text. It is
// cleared when full, so that a run over millions of cases with distinct
// schemas does not grow without bound.
var cache = struct {
	sync.Mutex
	m map[string]*compiled
}{m: map[string]*compiled{}}

const maxCached = 4096

type compiled struct {
	once   sync.Once
	schema *jsonschema.Schema
	err    error
}

func compile(schema any) (*jsonschema.Schema, error) {
	key := string(jsonvalue.Append(nil, schema))
	cache.Lock()
	c := cache.m[key]
	if c == nil {
		if len(cache.m) >= maxCached {
			clear(cache.m)
		}
		c = &compiled{}
		cache.m[key] = c
	}
	cache.Unlock()
	c.once.Do(func() { c.schema, c.err = compileNow(schema) })
	return c.schema, c.err
}

// One compiler serves every schema, so that the drafts' metaschemas are
// compiled once; it is not safe for concurrent use, hence the lock, and it
// is replaced now and then, since it keeps every schema it compiled.
var compiler struct {
	sync.Mutex
	c *jsonschema.Compiler
	n int
}

// The budgets of a schema, checked before it is compiled: compiling takes
// time that grows with the cube of the nesting (3,000 levels took over a
// minute) and with the square of the size (100,000 properties took a
// minute and a half); at these budgets it takes a fraction of a second.
const (
	MaxSchemaDepth  = 128    // nested arrays and objects
	MaxSchemaValues = 50_000 // values, counting each array, object and leaf
)

// checkSchemaBudget refuses a schema past MaxSchemaDepth or
// MaxSchemaValues.
func checkSchemaBudget(schema any) error {
	values := 0
	var walk func(v any, depth int) error
	walk = func(v any, depth int) error {
		if values++; values > MaxSchemaValues {
			return fmt.Errorf("the schema holds more than %d values, the most toolgrade compiles", MaxSchemaValues)
		}
		switch v.(type) {
		case jsonvalue.Object, []any:
			if depth++; depth > MaxSchemaDepth {
				return fmt.Errorf("the schema nests deeper than %d levels, the most toolgrade compiles", MaxSchemaDepth)
			}
		}
		switch v := v.(type) {
		case jsonvalue.Object:
			for _, m := range v {
				if err := walk(m.Value, depth); err != nil {
					return err
				}
			}
		case []any:
			for _, e := range v {
				if err := walk(e, depth); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(schema, 0)
}

func compileNow(schema any) (*jsonschema.Schema, error) {
	if err := checkSchemaBudget(schema); err != nil {
		return nil, err
	}
	compiler.Lock()
	defer compiler.Unlock()
	if compiler.c == nil || compiler.n >= maxCached {
		compiler.c = jsonschema.NewCompiler()
		compiler.c.DefaultDraft(jsonschema.Draft2020)
		compiler.c.UseLoader(offline{})
		compiler.n = 0
	}
	compiler.n++
	// Each schema gets its own address, which the scheme keeps offline:
	// relative references cannot reach files or the network.
	url := "toolgrade:///" + strconv.Itoa(compiler.n) + "/parameters.json"
	if err := compiler.c.AddResource(url, libValue(schema)); err != nil {
		return nil, fmt.Errorf("invalid JSON Schema: %w", err)
	}
	sch, err := compiler.c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("invalid JSON Schema: %w", err)
	}
	return sch, nil
}

// offline refuses to load documents: tool schemas are checked offline.
type offline struct{}

func (offline) Load(url string) (any, error) {
	return nil, fmt.Errorf("not loading %s: references to other documents are not followed", url)
}
