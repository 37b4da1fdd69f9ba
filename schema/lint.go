package schema

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/lazyregexp"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A Finding is one problem [Lint] found in a tool definition.
type Finding struct {
	Tool string // the tool's name
	// Path locates the problem inside the definition: "description",
	// "name", or a path into the parameter schema
	// ("parameters.properties.city").
	Path string
	// Level is LintError for what a provider rejects, LintWarning for what
	// makes a tool harder to call well.
	Level   LintLevel
	Message string
}

// A LintLevel says how serious a [Finding] is.
type LintLevel string

// The levels of a [Finding].
const (
	LintError   LintLevel = "error"
	LintWarning LintLevel = "warning"
)

func (f Finding) String() string {
	return string(f.Level) + ": tool " + f.Tool + ": " + f.Path + ": " + f.Message
}

// Provider name rules, as the providers document them.
var (
	openAIName    = lazyregexp.New(`^[a-zA-Z0-9_-]{1,64}$`)
	anthropicName = lazyregexp.New(`^[a-zA-Z0-9_-]{1,64}$`)
	geminiName    = lazyregexp.New(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`)
)

// geminiKeywords are the schema keywords Gemini's OpenAPI-style
// "parameters" field takes; others make the request fail, unless the
// schema goes in "parametersJsonSchema" instead.
var geminiKeywords = []string{
	"type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
	"properties", "required", "minProperties", "maxProperties", "minLength", "maxLength",
	"pattern", "example", "anyOf", "propertyOrdering", "default", "items", "minimum", "maximum",
}

// Lint checks tool definitions for what keeps models from calling them
// well, and for what the major providers (OpenAI, Anthropic, Gemini)
// reject:
//
//   - warnings: a tool without a description; a parameter without a type
//     or without a description;
//   - errors: a name a provider does not accept (OpenAI and Anthropic:
//     [a-zA-Z0-9_-], at most 64; Gemini: also "." and ":", starting with a
//     letter or "_"); two names that become the same once made acceptable
//     (every other character replaced by "_", cut to 64, as toolgrade run
//     and most SDKs do); a parameter schema whose top level is not an
//     object (OpenAI and Anthropic), or that has anyOf, oneOf, allOf, enum
//     or not at its top (OpenAI); an array without "items" (OpenAI);
//   - a warning for keywords Gemini's OpenAPI-style "parameters" field
//     rejects ("$schema", "additionalProperties", "$ref", ...): Gemini
//     takes them in "parametersJsonSchema", which [Write] uses.
//
// Findings come in tool order, each tool's in the order above.
func Lint(tools []toolgrade.Tool) []Finding {
	var out []Finding
	add := func(tool, path string, level LintLevel, format string, args ...any) {
		out = append(out, Finding{Tool: tool, Path: path, Level: level, Message: fmt.Sprintf(format, args...)})
	}
	bySanitized := map[string][]string{}
	var sanitizedOrder []string
	for _, t := range tools {
		if strings.TrimSpace(t.Description) == "" {
			add(t.Name, "description", LintWarning, "no description: models choose tools by their descriptions")
		}
		var rejects []string
		if !openAIName.MatchString(t.Name) {
			rejects = append(rejects, "OpenAI")
		}
		if !anthropicName.MatchString(t.Name) {
			rejects = append(rejects, "Anthropic")
		}
		if !geminiName.MatchString(t.Name) {
			rejects = append(rejects, "Gemini")
		}
		if len(rejects) > 0 {
			add(t.Name, "name", LintError, "%s reject%s the name %q (it would be sent as %q)", strings.Join(rejects, ", "), plural(len(rejects) == 1), t.Name, SanitizeName(t.Name))
		}
		s := SanitizeName(t.Name)
		if _, seen := bySanitized[s]; !seen {
			sanitizedOrder = append(sanitizedOrder, s)
		}
		if !slices.Contains(bySanitized[s], t.Name) {
			bySanitized[s] = append(bySanitized[s], t.Name)
		}
		lintSchema(t.Name, t.Parameters, add)
	}
	for _, s := range sanitizedOrder {
		if names := bySanitized[s]; len(names) > 1 {
			add(names[1], "name", LintError, "collides with %s: both are sent as %q", quoteAll(names[:1]), s)
			for _, n := range names[2:] {
				add(n, "name", LintError, "collides with %s: all are sent as %q", quoteAll(names[:1]), s)
			}
		}
	}
	return out
}

func plural(one bool) string {
	if one {
		return "s"
	}
	return ""
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// SanitizeName makes a tool name one OpenAI and Anthropic accept: every
// character outside [a-zA-Z0-9_-] becomes "_", and the name is cut to 64
// bytes ("_" for an empty name).
func SanitizeName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "_"
	}
	return string(b[:min(len(b), 64)])
}

func lintSchema(tool string, params any, add func(tool, path string, level LintLevel, format string, args ...any)) {
	if params == nil {
		return
	}
	root, ok := params.(jsonvalue.Object)
	if !ok {
		add(tool, "parameters", LintError, "OpenAI, Anthropic and Gemini want an object schema, got %s", jsonvalue.Kind(params))
		return
	}
	if typ, _ := root.Get("type"); typ != "object" {
		add(tool, "parameters", LintError, `OpenAI and Anthropic want "type": "object" at the top of the schema, got %s`, jsonvalue.Format(typ))
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf", "enum", "not"} {
		if _, ok := root.Get(k); ok {
			add(tool, "parameters", LintError, "OpenAI rejects %q at the top of the schema", k)
		}
	}
	var gemini []string
	walkSchema(root, "parameters", func(path string, s jsonvalue.Object, isProperty bool) {
		for _, m := range s {
			if !slices.Contains(geminiKeywords, m.Key) && !slices.Contains(gemini, m.Key) {
				gemini = append(gemini, m.Key)
			}
		}
		if typ, _ := s.Get("type"); typ == "array" || (isList(typ) && slices.Contains(typ.([]any), any("array"))) {
			if _, ok := s.Get("items"); !ok {
				add(tool, path, LintError, `OpenAI rejects an array schema without "items"`)
			}
		}
		if !isProperty {
			return
		}
		if !typed(s) {
			add(tool, path, LintWarning, "no type: say what the parameter holds")
		}
		if d, _ := s.Get("description"); d == nil || strings.TrimSpace(fmt.Sprint(d)) == "" {
			add(tool, path, LintWarning, "no description")
		}
	})
	if len(gemini) > 0 {
		add(tool, "parameters", LintWarning, `Gemini's OpenAPI-style "parameters" field rejects %s: send the schema as "parametersJsonSchema" (as --format gemini does)`, quoteAll(gemini))
	}
}

// typed reports whether a schema constrains its value's type.
func typed(s jsonvalue.Object) bool {
	for _, k := range []string{"type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const"} {
		if _, ok := s.Get(k); ok {
			return true
		}
	}
	return false
}

// walkSchema calls visit on s and every schema nested in it: properties
// (isProperty true), items, and the branches of anyOf, oneOf and allOf.
func walkSchema(s jsonvalue.Object, path string, visit func(path string, s jsonvalue.Object, isProperty bool)) {
	var walk func(s jsonvalue.Object, path string, isProperty bool, depth int)
	walk = func(s jsonvalue.Object, path string, isProperty bool, depth int) {
		if depth > 64 {
			return
		}
		visit(path, s, isProperty)
		if props, ok := s.Get("properties"); ok {
			if po, ok := props.(jsonvalue.Object); ok {
				for _, m := range po {
					if ps, ok := m.Value.(jsonvalue.Object); ok {
						walk(ps, path+".properties."+m.Key, true, depth+1)
					}
				}
			}
		}
		if items, ok := s.Get("items"); ok {
			if is, ok := items.(jsonvalue.Object); ok {
				walk(is, path+".items", false, depth+1)
			}
		}
		for _, k := range []string{"anyOf", "oneOf", "allOf"} {
			if l, ok := s.Get(k); ok {
				list, _ := l.([]any)
				for i, e := range list {
					if es, ok := e.(jsonvalue.Object); ok {
						walk(es, fmt.Sprintf("%s.%s[%d]", path, k, i), false, depth+1)
					}
				}
			}
		}
	}
	walk(s, path, false, 0)
}
