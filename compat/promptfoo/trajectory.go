package promptfoo

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/toolgrade/toolgrade/compat/internal/js"
	"github.com/toolgrade/toolgrade/internal/lazyregexp"
	"github.com/toolgrade/toolgrade/internal/sorting"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// toolNameKeys are the span attributes promptfoo reads a tool's name
// from, in order; toolArgKeys those it reads its arguments from.
var (
	toolNameKeys = []string{"tool.name", "tool_name", "tool", "function.name", "function_name", "ai.toolCall.name",
		"gen_ai.tool.name", "agent.tool_name", "agent.tool", "agent.toolName", "codex.mcp.tool"}
	toolArgKeys = []string{"tool.args", "tool.arguments", "tool.input", "tool_args", "tool_arguments", "tool_input",
		"function.args", "function.arguments", "function.input", "function_args", "function_arguments",
		"ai.toolCall.args", "ai.toolCall.arguments", "ai.toolCall.input",
		"gen_ai.tool.args", "gen_ai.tool.arguments", "gen_ai.tool.input", "gen_ai.tool.call.args", "gen_ai.tool.call.arguments",
		"agent.tool.args", "agent.tool.arguments", "agent.tool.input",
		"codex.mcp.args", "codex.mcp.arguments", "codex.mcp.input", "args", "arguments", "input"}
	commandKeys = []string{"codex.command", "command", "command.name", "command_name"}

	toolNameKeyRe = lazyregexp.New(`(?i)tool[^\n\r\x{2028}\x{2029}]?name|function[^\n\r\x{2028}\x{2029}]?name`)
	toolSegmentRe = lazyregexp.New(`(?i)(^|[._])tool($|[._])`)
	notToolRe     = lazyregexp.New(`(?i)result|output|definition`)
	argSegmentRe  = lazyregexp.New(`(?i)(^|[._])(arguments|args|input)($|[._])`)
	notArgRe      = lazyregexp.New(`(?i)result|output|error|status`)
	commandKeyRe  = lazyregexp.New(`(?i)command`)
	notCommandRe  = lazyregexp.New(`(?i)output|result`)
)

// A step is one span of the trace read as promptfoo's trajectory step.
type step struct {
	tool    bool // a tool step, the only kind the tool assertions look at
	name    string
	aliases []string
	args    any // undefined when the span gives none
}

// attrs returns a span's attributes in JavaScript's key order.
func attrs(span any) []jsonvalue.Member {
	o, _ := js.Field(span, "attributes").(jsonvalue.Object)
	keys, _ := js.Keys(o)
	out := make([]jsonvalue.Member, len(keys))
	for i, k := range keys {
		out[i] = jsonvalue.Member{Key: k, Value: js.Get(o, k)}
	}
	return out
}

func attr(as []jsonvalue.Member, key string) any {
	for _, m := range as {
		if m.Key == key {
			return m.Value
		}
	}
	return js.Undefined{}
}

// firstString is the first of keys whose attribute is a non-blank
// string, trimmed.
func firstString(as []jsonvalue.Member, keys []string) string {
	for _, k := range keys {
		if s, ok := attr(as, k).(string); ok && js.Trim(s) != "" {
			return js.Trim(s)
		}
	}
	return ""
}

// structured is normalizeStructuredAttribute: a string is trimmed and
// parsed as JSON when it parses, else kept; blank, null and missing give
// undefined.
func structured(v any) any {
	switch v := v.(type) {
	case js.Undefined, nil:
		return js.Undefined{}
	case string:
		t := js.Trim(v)
		if t == "" {
			return js.Undefined{}
		}
		if p, err := jsonvalue.ParseString(t); err == nil {
			return p
		}
		return t
	}
	return v
}

func toolNameOf(span any, spanName string, as []jsonvalue.Member) string {
	if n := firstString(as, toolNameKeys); n != "" {
		return n
	}
	for _, m := range as {
		s, ok := m.Value.(string)
		if !ok || js.Trim(s) == "" {
			continue
		}
		t := js.Trim(s)
		if strings.HasPrefix(t, "[") || strings.HasPrefix(t, "{") {
			if p, err := jsonvalue.ParseString(t); err == nil && js.IsObject(p) {
				continue
			}
		}
		if toolNameKeyRe.MatchString(m.Key) {
			return t
		}
		if toolSegmentRe.MatchString(m.Key) && !notToolRe.MatchString(m.Key) {
			return t
		}
	}
	if strings.HasPrefix(spanName, "mcp ") {
		u := utf16.Encode([]rune(spanName))
		slash := -1
		for i := len(u) - 1; i >= 0; i-- {
			if u[i] == '/' {
				slash = i
				break
			}
		}
		if slash >= 0 && slash < len(u)-1 {
			return js.Trim(string(utf16.Decode(u[slash+1:])))
		}
	}
	return ""
}

func toolArgsOf(as []jsonvalue.Member) any {
	for _, k := range toolArgKeys {
		if v := structured(attr(as, k)); !js.IsUndefined(v) {
			return v
		}
	}
	for _, m := range as {
		if notArgRe.MatchString(m.Key) || !argSegmentRe.MatchString(m.Key) {
			continue
		}
		if v := structured(m.Value); !js.IsUndefined(v) {
			return v
		}
	}
	return js.Undefined{}
}

// hasCommand reports whether a span of a command tool gives a command,
// as extractCommand finds one.
func hasCommand(spanName string, as []jsonvalue.Member, args any) bool {
	if firstString(as, commandKeys) != "" {
		return true
	}
	for _, m := range as {
		if s, ok := m.Value.(string); ok && js.Trim(s) != "" && commandKeyRe.MatchString(m.Key) && !notCommandRe.MatchString(m.Key) {
			return true
		}
	}
	if js.IsObject(args) {
		var src any = js.Undefined{}
		sep := " "
		for _, k := range []string{"cmd", "command", "commands"} {
			if v := js.Field(args, k); !js.IsUndefined(v) {
				src = v
				if k == "commands" {
					sep = "; "
				}
				break
			}
		}
		if s, ok := src.(string); ok && js.Trim(s) != "" {
			return true
		}
		if l, ok := src.([]any); ok {
			var parts []string
			for _, p := range l {
				if t := js.Trim(js.ToString(p)); t != "" {
					parts = append(parts, t)
				}
			}
			if strings.Join(parts, sep) != "" {
				return true
			}
		}
	}
	if rest, ok := strings.CutPrefix(spanName, "exec "); ok && js.Trim(rest) != "" {
		return true
	}
	return false
}

// steps reads a trace's tool steps (extractTrajectorySteps, then the
// tool type): spans sorted by startTime, then endTime, then input order.
func steps(trace any) ([]step, error) {
	if js.Nullish(trace) {
		return nil, errors.New("no trace data available for the assertion")
	}
	spansV := js.Field(trace, "spans")
	if js.Nullish(spansV) {
		spansV = []any{}
	}
	spans, ok := spansV.([]any)
	if !ok {
		return nil, typeError("trace.spans is not iterable")
	}
	commands := map[string]bool{"exec_command": true, "local_shell": true, "shell": true}
	if l, ok := js.Field(js.Field(trace, "metadata"), "commandToolNames").([]any); ok {
		for _, n := range l {
			if s, ok := n.(string); ok && js.Trim(s) != "" {
				commands[strings.ToLower(js.Trim(s))] = true
			}
		}
	}
	type timed struct {
		span       any
		start, end float64
		i          int
	}
	ts := make([]timed, len(spans))
	for i, s := range spans {
		if js.Nullish(s) {
			return nil, typeError(fmt.Sprintf("spans[%d] is null", i))
		}
		start := js.ToNumber(js.Field(s, "startTime"))
		end := start
		if e := js.Field(s, "endTime"); !js.Nullish(e) {
			end = js.ToNumber(e)
		}
		if math.IsNaN(start) || math.IsNaN(end) {
			return nil, &ajvUnsupported{fmt.Sprintf("spans[%d] has no numeric startTime or endTime; toolgrade does not reproduce how JavaScript's sort orders such spans", i)}
		}
		ts[i] = timed{s, start, end, i}
	}
	sorting.Stable(ts, func(a, b timed) int {
		switch {
		case a.start != b.start:
			return cmpFloat(a.start, b.start)
		case a.end != b.end:
			return cmpFloat(a.end, b.end)
		}
		return a.i - b.i
	})
	var out []step
	for _, t := range ts {
		name, ok := js.Field(t.span, "name").(string)
		if !ok {
			return nil, typeError(fmt.Sprintf("spans[%d].name is not a string", t.i))
		}
		as := attrs(t.span)
		tool := toolNameOf(t.span, name, as)
		if tool == "" {
			continue
		}
		args := toolArgsOf(as)
		if commands[strings.ToLower(js.Trim(tool))] && hasCommand(name, as, args) {
			continue // a command step, which the tool assertions ignore
		}
		st := step{tool: true, name: tool, aliases: []string{name}, args: args}
		if tool != name {
			st.aliases = append(st.aliases, tool)
		}
		out = append(out, st)
	}
	return out, nil
}

func cmpFloat(a, b float64) int {
	if a < b {
		return -1
	}
	return 1
}

// A matcher is a trajectory matcher: a glob pattern (pattern, else name)
// and the step types it allows.
type matcher struct {
	obj     jsonvalue.Object // the matcher as given, with its type defaulted
	pattern any              // pattern || name: a falsy value matches any step
	types   any              // the type value; tool steps need "tool" in it
	label   string
}

// newMatcher is normalizeTrajectoryMatcher with the default type tool.
func newMatcher(v any) matcher {
	if s, ok := v.(string); ok {
		return matcher{obj: jsonvalue.Object{{Key: "pattern", Value: s}, {Key: "type", Value: "tool"}}, pattern: s, types: "tool", label: s}
	}
	var o jsonvalue.Object
	if keys, ok := js.Keys(v); ok {
		for _, k := range keys {
			val, _ := js.Property(v, k)
			o = append(o, jsonvalue.Member{Key: k, Value: val})
		}
	}
	m := matcher{obj: o}
	if t := js.Get(o, "type"); js.Truthy(t) {
		m.types = t
	} else {
		m.types = "tool"
	}
	m.pattern = js.Get(o, "pattern")
	if !js.Truthy(m.pattern) {
		m.pattern = js.Get(o, "name")
	}
	m.label = "*"
	if js.Truthy(m.pattern) {
		m.label = js.ToString(m.pattern)
	}
	return m
}

func (m matcher) named() bool {
	return js.Truthy(js.Get(m.obj, "pattern")) || js.Truthy(js.Get(m.obj, "name"))
}

// matches is matchesTrajectoryStep for a tool step.
func (m matcher) matches(s step) (bool, error) {
	types := m.types
	if l, ok := types.([]any); ok {
		if !slices.ContainsFunc(l, func(t any) bool { return js.StrictEqual(t, "tool") }) {
			return false, nil
		}
	} else if !js.StrictEqual(types, "tool") {
		return false, nil
	}
	if !js.Truthy(m.pattern) {
		return true, nil
	}
	p, ok := m.pattern.(string)
	if !ok {
		return false, typeError("pattern.replace is not a function")
	}
	for _, a := range s.aliases {
		if globMatch(p, a) {
			return true, nil
		}
	}
	return false, nil
}

// globMatch is promptfoo's matchesPattern: * and ? as wildcards over
// UTF-16 code units other than line terminators, anchored, case-insensitive
// as a JavaScript regular expression with the i flag and no u flag.
func globMatch(pattern, s string) bool {
	p, t := utf16.Encode([]rune(pattern)), utf16.Encode([]rune(s))
	// memo[i][j]: pattern from i matches text from j.
	memo := make(map[[2]int]bool)
	var match func(i, j int) bool
	match = func(i, j int) bool {
		key := [2]int{i, j}
		if v, ok := memo[key]; ok {
			return v
		}
		var r bool
		switch {
		case i == len(p):
			r = j == len(t)
		case p[i] == '*':
			r = match(i+1, j) || j < len(t) && !lineTerminator(t[j]) && match(i, j+1)
		case j == len(t):
			r = false
		case p[i] == '?':
			r = !lineTerminator(t[j]) && match(i+1, j+1)
		default:
			r = canonicalize(p[i]) == canonicalize(t[j]) && match(i+1, j+1)
		}
		memo[key] = r
		return r
	}
	return match(0, 0)
}

func lineTerminator(u uint16) bool { return u == '\n' || u == '\r' || u == 0x2028 || u == 0x2029 }

// canonicalize is the case folding of a non-unicode JavaScript regular
// expression with the i flag: the upper case of a code unit when it is one
// code unit, except that nothing beyond ASCII folds into ASCII.
func canonicalize(u uint16) uint16 {
	if u >= 0xd800 && u < 0xe000 {
		return u
	}
	up := unicode.ToUpper(rune(u))
	if up > 0xffff || u >= 128 && up < 128 {
		return u
	}
	return uint16(up)
}

// deepStrictEqual is Node's util.isDeepStrictEqual on parsed JSON:
// structural, key order ignored, arrays never equal objects, and 0 differs
// from -0.
func deepStrictEqual(a, b any) bool {
	switch a := a.(type) {
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !deepStrictEqual(a[i], bl[i]) {
				return false
			}
		}
		return true
	case jsonvalue.Object:
		bo, ok := b.(jsonvalue.Object)
		ak, _ := js.Keys(a)
		bk, _ := js.Keys(bo)
		if !ok || len(ak) != len(bk) {
			return false
		}
		for _, k := range ak {
			bv, has := bo.Get(k)
			if !has || !deepStrictEqual(js.Get(a, k), bv) {
				return false
			}
		}
		return true
	case json.Number:
		bn, ok := b.(json.Number)
		if !ok {
			return false
		}
		x, y := js.Number(a), js.Number(bn)
		return x == y && math.Signbit(x) == math.Signbit(y)
	}
	return js.StrictEqual(a, b)
}

// partialMatch is matchesExpectedArgsPartial.
func partialMatch(actual, expected any) bool {
	switch e := expected.(type) {
	case []any:
		a, ok := actual.([]any)
		if !ok || len(a) != len(e) {
			return false
		}
		for i := range e {
			if !partialMatch(a[i], e[i]) {
				return false
			}
		}
		return true
	case jsonvalue.Object:
		a, ok := actual.(jsonvalue.Object)
		if !ok {
			return false
		}
		keys, _ := js.Keys(e)
		for _, k := range keys {
			av, has := a.Get(k)
			if !has || !partialMatch(av, js.Get(e, k)) {
				return false
			}
		}
		return true
	}
	return deepStrictEqual(actual, expected)
}

// stripIgnored drops the top-level keys an ignore entry names (exactly,
// or as a glob when it has * or ?).
func stripIgnored(v any, ignore []string) any {
	o, ok := v.(jsonvalue.Object)
	if len(ignore) == 0 || !ok {
		return v
	}
	var out jsonvalue.Object
	keys, _ := js.Keys(o)
	for _, k := range keys {
		if slices.ContainsFunc(ignore, func(e string) bool {
			return e == k || strings.ContainsAny(e, "*?") && globMatch(e, k)
		}) {
			continue
		}
		out = append(out, jsonvalue.Member{Key: k, Value: js.Get(o, k)})
	}
	if out == nil {
		out = jsonvalue.Object{}
	}
	return out
}

// stripDefaults drops the keys of the actual args whose value equals the
// default for that key.
func stripDefaults(v any, defaults jsonvalue.Object) any {
	o, ok := v.(jsonvalue.Object)
	if defaults == nil || !ok {
		return v
	}
	out := jsonvalue.Object{}
	keys, _ := js.Keys(o)
	for _, k := range keys {
		if d, has := defaults.Get(k); has && deepStrictEqual(js.Get(o, k), d) {
			continue
		}
		out = append(out, jsonvalue.Member{Key: k, Value: js.Get(o, k)})
	}
	return out
}
