package toolgrade

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A Call is one tool call, made by an agent or expected of it.
type Call struct {
	Name string
	// Args is the argument value in the JSON value model, usually a
	// jsonvalue.Object; nil when the call records no arguments.
	Args any
	// ArgsRaw keeps the argument text when it was not valid JSON; Invalid
	// is then set and Args is nil. An invalid call matches nothing.
	ArgsRaw string
	Output  any    // the tool's result, if recorded
	ID      string // the call id, if the format has one
	Type    string // "function" (or empty), "mcp", "custom", a built-in tool type
	// Rules loosen or tighten how individual arguments of an expected call
	// are compared, keyed by argument path ("when.date").
	Rules map[string]Rule
	// Turn is the conversation turn the call belongs to, from 1 (the
	// first user message); 0 when the case is not split into turns.
	Turn int
	// ArgsNull records that the arguments were given, as null, rather than
	// left out: Args is nil either way, but Python peers hold the first
	// as None and the second as {}.
	ArgsNull bool
	Invalid  bool
	// Status says how the call ended, as far as the trace or case records
	// it: succeeded, failed, or unknown (no result recorded).
	Status Status
}

// A Status says how a call ended. In JSON it is "ok" or "error" (see
// [Status.String]); unknown is left out.
type Status uint8

const (
	// StatusUnknown: no result is recorded, or none that says how it went.
	StatusUnknown Status = iota
	// StatusOK: the tool returned a result.
	StatusOK
	// StatusError: the tool reported a failure (Anthropic is_error, MCP
	// isError, an error response, a case's "status": "error").
	StatusError
)

// String returns "ok", "error", or "" for unknown.
func (s Status) String() string {
	switch s {
	case StatusOK:
		return "ok"
	case StatusError:
		return "error"
	}
	return ""
}

// Failed reports whether the call is marked as failed.
func (c *Call) Failed() bool { return c.Status == StatusError }

// String writes the call as name(args) for messages, e.g.
// get_weather({"city":"Paris"}).
func (c Call) String() string { return string(c.AppendString(nil)) }

// AppendString appends what [Call.String] returns to dst.
func (c *Call) AppendString(dst []byte) []byte {
	dst = append(dst, c.Name...)
	switch {
	case c.Invalid:
		dst = append(dst, "(<invalid JSON: "...)
		dst = strconv.AppendQuote(dst, shorten(c.ArgsRaw, 60))
		return append(dst, ">)"...)
	case c.Args == nil:
		return append(dst, "()"...)
	}
	dst = append(dst, '(')
	dst = jsonvalue.AppendFormat(dst, c.Args)
	return append(dst, ')')
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-3]) + "..."
}

// A Rule says how one argument of an expected call is judged, instead of
// comparing it with the expected value. Every condition that is set must
// hold.
type Rule struct {
	OneOf    []any          // the value equals one of these
	Regex    *regexp.Regexp // the value is a string containing a match
	Approx   *float64       // the value is a number within Tol of Approx
	Tol      float64        // absolute tolerance; without Approx, around the expected value
	HasTol   bool           // Tol was given
	Fuzzy    float64        // string similarity (difflib ratio) at least this; 0 = unset
	Type     string         // JSON type: string, number, integer, boolean, array, object, null
	Optional bool           // the argument may be absent (or null)
	Ignore   bool           // the argument is not compared at all
	// From says the value must equal one found in the output of an earlier
	// call: the called call paired with the expected call it names.
	From *Ref
}

// A Ref names a value in the output of an earlier expected call, for an
// argument that must carry what the agent looked up: {"from":
// "lookup_order.output.id"} or, by the expected call's index,
// {"from": "#0.output.items[1].sku"}. By name it is the nearest expected
// call of that name before the one whose rule it is.
type Ref struct {
	Call  string   // the expected call's tool name; "" when given by index
	Index int      // the expected call's index when given as #N; -1 by name
	Path  []string // the path into its output after "output"; empty for all of it
	Text  string   // as written
}

// ParseRef reads a reference written as "<tool>.output[.path]" or
// "#<index>.output[.path]". Paths use dots and [i] for list elements.
func ParseRef(s string) (*Ref, error) {
	i := strings.Index(s, ".output")
	for i >= 0 {
		if rest := s[i+len(".output"):]; rest == "" || rest[0] == '.' || rest[0] == '[' {
			break
		}
		j := strings.Index(s[i+1:], ".output")
		if j < 0 {
			i = -1
		} else {
			i += 1 + j
		}
	}
	if i <= 0 {
		return nil, fmt.Errorf("want <tool>.output.<path> or #<index>.output.<path>, got %q", s)
	}
	r := &Ref{Call: s[:i], Index: -1, Text: s}
	if n, ok := strings.CutPrefix(r.Call, "#"); ok {
		idx, err := strconv.Atoi(n)
		if err != nil || idx < 0 {
			return nil, fmt.Errorf("want #<index of an expected call>, got %q", r.Call)
		}
		r.Call, r.Index = "", idx
	}
	if path := RulePath(strings.TrimPrefix(s[i+len(".output"):], ".")); path != "" {
		r.Path = strings.Split(path, ".")
	}
	return r, nil
}

// A FieldError is an error in one field of a record, named by its path
// ("expected_tools[1].args").
type FieldError struct {
	Path string
	Err  error
}

func (e *FieldError) Error() string { return "field " + e.Path + ": " + e.Err.Error() }
func (e *FieldError) Unwrap() error { return e.Err }

// InField prefixes an error with a field name, so that errors from nested
// decoding read "field tools_called[2].args: ...".
func InField(field string, err error) error {
	if err == nil {
		return nil
	}
	var fe *FieldError
	if errors.As(err, &fe) {
		sep := "."
		if strings.HasPrefix(fe.Path, "[") {
			sep = ""
		}
		return &FieldError{Path: field + sep + fe.Path, Err: fe.Err}
	}
	return &FieldError{Path: field, Err: err}
}

// A CallDecoder reads calls from their JSON form: {"name", "args",
// "output", "id", "type", "status", "turn", "rules"}, or the shape of
// OpenAI's tool_calls entries, {"id", "type", "function": {"name",
// "arguments"}}. Arguments given as a JSON string are parsed; text that is
// not valid JSON is kept in ArgsRaw and the call is marked invalid.
//
// Other formats give a call's arguments under other keys (OpenAI's
// "arguments", DeepEval's "input_parameters"): ArgsKeys lists the keys a
// decoder reads them from. The root knows only its own, "args"; package
// compat holds the table of the keys peers' datasets use, and decodes the
// calls of case files with it.
//
// Every key of a call object is read, or ignored for a reason the decoder
// is given (Ignored), or an error, an *[UnknownKeyError]: a key no one
// reads may hold what the call means, such as its arguments under a name
// no format gives them, and an expected call whose arguments are lost
// would accept any. For the same reason, arguments given under two keys
// are an error, and so is a function object whose "parameters" (a tool
// definition's schema) stand where a call's "arguments" go.
type CallDecoder struct {
	// ArgsKeys are the keys a call's arguments may be under. Nil means
	// "args" alone.
	ArgsKeys []string
	// Ignored maps keys that a call object may carry and that no grading
	// reads (metadata a peer's own call type has) to why they are not
	// read.
	Ignored map[string]string
}

// An UnknownKeyError is a key of a call object that a [CallDecoder]
// neither reads nor ignores. It comes inside a [*FieldError] that names
// the key.
type UnknownKeyError struct {
	Key   string
	Value any
	// Hint says what the key may have meant; empty when nothing is known.
	Hint string
}

func (e *UnknownKeyError) Error() string {
	if e.Hint == "" {
		return "not a field of a call (see docs/cases.md)"
	}
	return "not a field of a call; " + e.Hint
}

// ownArgsKeys are the argument keys of toolgrade's own call form.
var ownArgsKeys = []string{"args"}

func (d *CallDecoder) argsKeys() []string {
	if d.ArgsKeys == nil {
		return ownArgsKeys
	}
	return d.ArgsKeys
}

// Keys lists every key of a call object the decoder reads: the name, the
// argument keys in order, then the other fields. The keys it ignores are
// not among them.
func (d *CallDecoder) Keys() []string {
	return slices.Concat([]string{"name"}, d.argsKeys(), []string{"output", "id", "type", "rules", "function", "status", "turn"})
}

// DecodeCalls reads a list of calls. A null list gives nil. Errors name the
// element and field, relative to the list ("[1].args").
func (d *CallDecoder) DecodeCalls(v any) ([]Call, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case []any:
		calls := make([]Call, len(v))
		for i, e := range v {
			if err := d.decode(&calls[i], e); err != nil {
				return nil, InField("["+strconv.Itoa(i)+"]", err)
			}
		}
		return calls, nil
	}
	return nil, fmt.Errorf("want a list of calls, got %s", jsonvalue.Kind(v))
}

// DecodeCall reads one call.
func (d *CallDecoder) DecodeCall(v any) (Call, error) {
	var c Call
	if err := d.decode(&c, v); err != nil {
		return Call{}, err
	}
	return c, nil
}

// DecodeCallInto reads one call into c, as DecodeCall does: on error, c
// is the zero Call. A list's calls decode in place, where a call returned
// was copied on the way.
func (d *CallDecoder) DecodeCallInto(c *Call, v any) error {
	*c = Call{}
	if err := d.decode(c, v); err != nil {
		*c = Call{}
		return err
	}
	return nil
}

// decode reads one call into c, which is zero.
func (d *CallDecoder) decode(c *Call, v any) error {
	obj, ok := v.(jsonvalue.Object)
	if !ok {
		return fmt.Errorf("want a call object, got %s", jsonvalue.Kind(v))
	}
	keys := d.argsKeys()
	if len(keys) > 0 && keys[0] == "args" && DecodeUsualCall(c, obj) {
		return nil
	}
	return d.decodeObject(c, obj, keys)
}

// DecodeUsualCall reads the usual call, {"name", "args"} with a name and
// nothing else, into c as a [CallDecoder] that reads "args" first does
// (its other fields zero), and reports true; for any other value it
// reports false and leaves c alone. Most calls of a list are usual:
// trying this first skips the decoder's table of fields.
func DecodeUsualCall(c *Call, v any) bool {
	obj, ok := v.(jsonvalue.Object)
	if !ok || len(obj) != 2 {
		return false
	}
	name, args := &obj[0], &obj[1]
	if name.Key != "name" {
		name, args = args, name
	}
	if name.Key != "name" || args.Key != "args" {
		return false
	}
	s, ok := name.Value.(string)
	if !ok || s == "" {
		return false
	}
	// c's first touch is this write, not the nil check (a read) of the
	// zeroing below: a fresh page read first is mapped to the kernel's
	// zero page, and the write that follows must flush the other cores'
	// TLBs.
	c.Invalid = false
	if _, text := args.Value.(string); text {
		a, raw, invalid := DecodeArgs(args.Value)
		*c = Call{}
		c.Name, c.Args, c.ArgsRaw, c.Invalid = s, a, raw, invalid
		return true
	}
	// Zeroed and then written in place, not built on the stack and
	// copied (38 instructions a case fewer).
	*c = Call{}
	c.Name, c.Args, c.ArgsNull = s, args.Value, args.Value == nil // as DecodeArgs reads a value that is not text
	return true
}

// decodeObject is decode for any call object.
func (d *CallDecoder) decodeObject(c *Call, obj jsonvalue.Object, keys []string) error {
	var ok bool
	var f callFields
	if err := d.readCallFields(&f, obj, keys); err != nil {
		return err
	}
	src := &f
	if f.function != nil {
		fo, ok := f.function.(jsonvalue.Object)
		if !ok {
			return &FieldError{Path: "function", Err: fmt.Errorf("want the function called, {\"name\", \"arguments\"}, got %s", jsonvalue.Kind(f.function))}
		}
		switch {
		case f.hasName:
			return &FieldError{Path: "name", Err: errors.New(`given both beside "function" and in it: give the name once`)}
		case f.argsKey != "":
			return &FieldError{Path: f.argsKey, Err: errors.New(`given beside "function": give the arguments in it, as "arguments"`)}
		}
		// An OpenAI tool_calls entry: its function has the name and the
		// arguments, and nothing else.
		var inner callFields
		if err := d.readFunctionFields(&inner, fo, keys); err != nil {
			return InField("function", err)
		}
		src = &inner
	}
	if !src.hasName {
		return &FieldError{Path: "name", Err: errors.New("missing")}
	}
	if c.Name, ok = src.name.(string); !ok {
		return &FieldError{Path: "name", Err: fmt.Errorf("want a string, got %s", jsonvalue.Kind(src.name))}
	}
	if c.Name == "" {
		// Two calls that name no tool would match each other.
		return &FieldError{Path: "name", Err: errors.New("empty: a call names the tool it calls")}
	}
	if src.argsKey != "" {
		c.Args, c.ArgsRaw, c.Invalid = DecodeArgs(src.args)
		c.ArgsNull = src.args == nil
	}
	c.Output = f.output
	if f.id != nil {
		switch id := f.id.(type) {
		case string:
			c.ID = id
		case json.Number:
			c.ID = string(id)
		default:
			return &FieldError{Path: "id", Err: fmt.Errorf("want a string, got %s", jsonvalue.Kind(id))}
		}
	}
	if f.typ != nil {
		if c.Type, ok = f.typ.(string); !ok {
			return &FieldError{Path: "type", Err: fmt.Errorf("want a string, got %s", jsonvalue.Kind(f.typ))}
		}
	}
	if f.status != nil {
		switch f.status {
		case "ok":
			c.Status = StatusOK
		case "error":
			c.Status = StatusError
		default:
			return &FieldError{Path: "status", Err: fmt.Errorf(`want "ok" or "error", got %s`, jsonvalue.Format(f.status))}
		}
	}
	if f.turn != nil {
		n, isNum := f.turn.(json.Number)
		t := jsonvalue.NumberFloat(n)
		if !isNum || t < 1 || t != float64(int64(t)) || t > 1e6 {
			return &FieldError{Path: "turn", Err: fmt.Errorf("want the turn's number, a whole number from 1, got %s", jsonvalue.Format(f.turn))}
		}
		c.Turn = int(t)
	}
	if f.rules != nil {
		rules, err := DecodeRules(f.rules)
		if err != nil {
			return InField("rules", err)
		}
		c.Rules = rules
	}
	return nil
}

// callFields are the members of a call object that DecodeCall reads.
type callFields struct {
	name, args, output, id, typ, rules, function, status, turn any
	hasName                                                    bool
	argsKey                                                    string // the key args was found under; "" when none
}

// readCallFields reads a call object's fields in one pass over its members
// instead of looking each alias up: it runs for every call of every case.
func (d *CallDecoder) readCallFields(f *callFields, obj jsonvalue.Object, argsKeys []string) error {
	for i := range obj {
		m := &obj[i]
		switch m.Key {
		case "name":
			f.name, f.hasName = m.Value, true
		case "output":
			f.output = m.Value
		case "id":
			f.id = m.Value
		case "type":
			f.typ = m.Value
		case "rules":
			f.rules = m.Value
		case "status":
			f.status = m.Value
		case "turn":
			f.turn = m.Value
		case "function":
			f.function = m.Value
		default:
			if err := f.readArgs(m, argsKeys, d.Ignored); err != nil {
				return err
			}
		}
	}
	return nil
}

// readFunctionFields reads the function object of an OpenAI tool_calls
// entry: its name and its arguments.
func (d *CallDecoder) readFunctionFields(f *callFields, obj jsonvalue.Object, argsKeys []string) error {
	for i := range obj {
		m := &obj[i]
		switch m.Key {
		case "name":
			f.name, f.hasName = m.Value, true
		case "parameters":
			if !obj.Has("arguments") {
				return &FieldError{Path: m.Key, Err: errors.New(`a call's function gives its arguments as "arguments"; "parameters" is the JSON Schema of a tool definition (do these belong in available_tools?)`)}
			}
			fallthrough
		default:
			if err := f.readArgs(m, argsKeys, nil); err != nil {
				var uk *UnknownKeyError
				if errors.As(err, &uk) {
					uk.Hint = `a call's "function" has "name" and "arguments" (a tool definition's has "description" and "parameters": does it belong in available_tools?)`
				}
				return err
			}
		}
	}
	return nil
}

// readArgs reads a member that is not one of a call's own fields: its
// arguments under one of argsKeys, a key ignored for a reason, or an
// error.
func (f *callFields) readArgs(m *jsonvalue.Member, argsKeys []string, ignored map[string]string) error {
	if slices.Contains(argsKeys, m.Key) {
		if f.argsKey != "" {
			return &FieldError{Path: m.Key, Err: fmt.Errorf("the arguments are given both as %q and as %q: give them once", f.argsKey, m.Key)}
		}
		f.args, f.argsKey = m.Value, m.Key
		return nil
	}
	if _, ok := ignored[m.Key]; ok {
		return nil
	}
	return &FieldError{Path: m.Key, Err: &UnknownKeyError{Key: m.Key, Value: m.Value}}
}

// DecodeArgs interprets an argument field: a JSON string is parsed as JSON
// text (OpenAI's "arguments"); anything else is the value itself. Text that
// does not parse is returned as raw with invalid set.
func DecodeArgs(a any) (args any, raw string, invalid bool) {
	s, ok := a.(string)
	if !ok {
		return a, "", false
	}
	v, err := jsonvalue.ParseString(s)
	if err != nil {
		return nil, s, true
	}
	return v, "", false
}

// DecodeRules reads per-argument rules: an object from argument path to a
// rule object such as {"one_of": [...]}, {"regex": "..."}, {"approx": 10,
// "tol": 1}, {"fuzzy": 0.8}, {"type": "string"}, {"optional": true} or
// {"ignore": true}, or {"from": "lookup_order.output.id"} (see [Ref]).
func DecodeRules(v any) (map[string]Rule, error) {
	obj, ok := v.(jsonvalue.Object)
	if !ok {
		return nil, fmt.Errorf("want an object from argument path to rule, got %s", jsonvalue.Kind(v))
	}
	rules := make(map[string]Rule, len(obj))
	for _, m := range obj {
		r, err := decodeRule(m.Value)
		if err != nil {
			return nil, InField(m.Key, err)
		}
		rules[RulePath(m.Key)] = r
	}
	return rules, nil
}

// RulePath puts an argument path in the dotted form rules are keyed by:
// "attendees[0].name" becomes "attendees.0.name".
func RulePath(p string) string {
	if !strings.ContainsAny(p, "[]") {
		return p
	}
	p = strings.ReplaceAll(p, "[", ".")
	p = strings.ReplaceAll(p, "]", "")
	return strings.TrimPrefix(p, ".")
}

var jsonTypes = map[string]bool{"string": true, "number": true, "integer": true, "boolean": true, "array": true, "object": true, "null": true}

func decodeRule(v any) (Rule, error) {
	obj, ok := v.(jsonvalue.Object)
	if !ok {
		return Rule{}, fmt.Errorf("want a rule object, got %s", jsonvalue.Kind(v))
	}
	var r Rule
	for _, m := range obj {
		fail := func(format string, args ...any) (Rule, error) {
			return Rule{}, &FieldError{Path: m.Key, Err: fmt.Errorf(format, args...)}
		}
		switch m.Key {
		case "one_of":
			l, ok := m.Value.([]any)
			if !ok {
				return fail("want a list of values, got %s", jsonvalue.Kind(m.Value))
			}
			r.OneOf = l
		case "regex":
			s, ok := m.Value.(string)
			if !ok {
				return fail("want a string, got %s", jsonvalue.Kind(m.Value))
			}
			re, err := regexp.Compile(s)
			if err != nil {
				return fail("%v", err)
			}
			r.Regex = re
		case "approx", "tol", "fuzzy":
			n, ok := m.Value.(json.Number)
			if !ok {
				return fail("want a number, got %s", jsonvalue.Kind(m.Value))
			}
			f := jsonvalue.NumberFloat(n)
			switch m.Key {
			case "approx":
				r.Approx = &f
			case "tol":
				if f < 0 {
					return fail("must not be negative")
				}
				r.Tol, r.HasTol = f, true
			case "fuzzy":
				if f <= 0 || f > 1 {
					return fail("want a similarity in (0, 1], got %v", f)
				}
				r.Fuzzy = f
			}
		case "type":
			s, ok := m.Value.(string)
			if !ok || !jsonTypes[s] {
				return fail("want one of string, number, integer, boolean, array, object, null; got %s", jsonvalue.Format(m.Value))
			}
			r.Type = s
		case "from":
			str, ok := m.Value.(string)
			if !ok {
				return fail("want a reference such as \"lookup_order.output.id\", got %s", jsonvalue.Kind(m.Value))
			}
			ref, err := ParseRef(str)
			if err != nil {
				return fail("%v", err)
			}
			r.From = ref
		case "optional", "ignore":
			b, ok := m.Value.(bool)
			if !ok {
				return fail("want true or false, got %s", jsonvalue.Kind(m.Value))
			}
			if m.Key == "optional" {
				r.Optional = b
			} else {
				r.Ignore = b
			}
		default:
			return fail("unknown rule (want one_of, regex, approx, tol, fuzzy, type, optional, ignore or from)")
		}
	}
	return r, nil
}

// NormalizeToolName strips a trailing random suffix of an underscore and
// four letters and digits that mixes both ("delegate_to_sql_agent_xg7c" →
// "delegate_to_sql_agent"), as some agent platforms append to tool names.
// Suffixes of only letters ("_data") or only digits ("_2024") are kept.
func NormalizeToolName(name string) string {
	n := len(name)
	if n < 6 || name[n-5] != '_' {
		return name
	}
	letters, digits := 0, 0
	for i := n - 4; i < n; i++ {
		switch c := name[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			letters++
		default:
			return name
		}
	}
	if letters == 0 || digits == 0 {
		return name
	}
	return name[:n-5]
}
