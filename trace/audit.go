package trace

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// The audit. After a reader has run, an independent pass walks the whole
// input and finds every call-shaped object in it (see callShape). Each must
// be accounted for by the reader, through its builder: read as a call or
// as a call's result, inside an item the reader skipped, or declared not a
// call. What is left is missed: the reader dropped something that looks
// like a call, and the trace is not read as a list of calls that may be
// short. The rules are few and fixed, and documented in docs/traces.md;
// the readers know their formats, the audit knows only shapes.

// ErrMissed: the trace holds call-shaped objects its reader did not
// account for; [MissedError] lists them.
var ErrMissed = errors.New("call-shaped objects the reader did not read")

// A MissedError is returned with a trace whose audit found call-shaped
// objects its reader neither read, skipped nor declared not a call. The
// trace's calls are returned too, but they may be short.
type MissedError struct {
	Format string
	Missed []Skip
}

func (e *MissedError) Error() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: %d call-shaped %s not read: ", e.Format, len(e.Missed), plural(len(e.Missed), "object", "objects"))
	sb.WriteString(listSkips(e.Missed, 5))
	sb.WriteString("; the reader may not know this form of call (--format generic reads call-shaped objects in document order)")
	return sb.String()
}

func (e *MissedError) Is(target error) bool { return target == ErrMissed }

// listSkips lists at most n items as "where (kind)", and how many more.
func listSkips(items []Skip, n int) string {
	var sb strings.Builder
	for i, s := range items {
		if i == n {
			fmt.Fprintf(&sb, " and %d more", len(items)-n)
			break
		}
		if i > 0 {
			sb.WriteString(", ")
		}
		if s.Where == "" {
			sb.WriteString("the trace itself")
		} else {
			sb.WriteString(s.Where)
		}
		sb.WriteString(" (" + s.Kind + ")")
	}
	return sb.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Budgets of the audit: how deep it walks, and how much JSON held in
// strings it parses (one string, and all of them together). What lies
// beyond is not audited, and the trace says so in a note.
const (
	maxAuditDepth      = 512
	maxAuditText       = 1 << 20
	maxAuditTextTotal  = 32 << 20
	maxAuditTextNested = 4
)

// byPlace names the rule that makes the value of a key a call by its place:
// the entries of OpenAI's tool_calls list, a legacy (or Gemini snake_case)
// function_call, a Gemini functionCall, a Bedrock toolUse.
func byPlace(key string) string {
	switch key {
	case "tool_calls":
		return "tool_calls entry"
	case "function_call", "functionCall":
		return key
	case "toolUse":
		return "toolUse block"
	}
	return ""
}

// byType names the rule that makes an object of a type a call.
func byType(t string) string {
	switch t {
	case "function_call":
		return "function_call item"
	case "tool_use", "server_tool_use":
		return t + " block"
	case "tool-call":
		return "tool-call part"
	}
	return ""
}

// callShape says whether o is call-shaped, and by which rule; parent is
// the key o is held under (for a list's element, the list's key).
//
//   - by its place: an entry of a "tool_calls" list; the object under
//     "functionCall" or "toolUse", or under "function_call" with
//     "arguments" or "args";
//   - by its type: "type" is "function_call", "tool_use",
//     "server_tool_use" or "tool-call", beside a name-like or an
//     arguments-like key (below); or "method" is "tools/call" (an MCP
//     request);
//   - by its keys: a name-like key (name, toolName, tool_name, tool,
//     function) holding a string, and an arguments-like key (arguments,
//     args, input, parameters, toolArgs, tool_input, kwargs); unless it is
//     a tool definition (its parameters, or other arguments-like value, is
//     a JSON Schema: an object with "properties", or "type" "object"; or
//     it has a "description" beside "parameters"), or a tool's result (its
//     "type" names a result, output or response).
func callShape(o jsonvalue.Object, parent string) (rule, name string) {
	if r := byPlace(parent); r != "" && (parent != "function_call" || hasAny(o, "arguments", "args")) {
		// A function_call without arguments is a request's choice of
		// function ({"name": "f"}), not a call.
		return r, callName(o)
	}
	var typ, method string
	named, nameKey := false, ""
	var argVal any
	hasArgs, hasDesc, argKey := false, false, ""
	for i := range o {
		m := &o[i]
		switch m.Key {
		case "type":
			typ, _ = m.Value.(string)
		case "method":
			method, _ = m.Value.(string)
		case "description":
			hasDesc = true
		case "name", "toolName", "tool_name", "tool", "function":
			if s, ok := m.Value.(string); ok && !named {
				named, nameKey, name = true, m.Key, s
			}
		case "arguments", "args", "input", "parameters", "toolArgs", "tool_input", "kwargs":
			if !hasArgs {
				hasArgs, argKey, argVal = true, m.Key, m.Value
			}
		}
	}
	if r := byType(typ); r != "" && (named || hasArgs) {
		return r, name
	}
	if method == "tools/call" {
		return "MCP tools/call request", str(get(o, "params"), "name")
	}
	if !named || !hasArgs || resultType(typ) || schema(argVal) || hasDesc && argKey == "parameters" {
		return "", ""
	}
	return fmt.Sprintf("object with %q and %q", nameKey, argKey), name
}

// mayBeCallShaped reports an object callShape may find call-shaped: one
// under a key that makes it a call by its place, or with a key callShape
// looks at (see shapeKey). Most objects of a trace (messages, spans) have
// none, and walk tells them so without the call to callShape.
func mayBeCallShaped(o jsonvalue.Object, parent string) bool {
	if byPlace(parent) != "" {
		return true
	}
	for i := range o {
		if shapeKey(o[i].Key) {
			return true
		}
	}
	return false
}

// shapeKey reports a key callShape looks at. TestShapeKeys holds it to
// every key callShape's switch names.
func shapeKey(k string) bool {
	switch k {
	case "type", "method", "description",
		"name", "toolName", "tool_name", "tool", "function",
		"arguments", "args", "input", "parameters", "toolArgs", "tool_input", "kwargs":
		return true
	}
	return false
}

// callName is the tool name a call-shaped object gives, if any.
func callName(o jsonvalue.Object) string {
	if n, ok := get(o, "name").(string); ok {
		return n
	}
	if n, ok := get(o, "function").(string); ok {
		return n
	}
	return str(get(o, "function"), "name")
}

// resultType says whether a type names a tool's result.
func resultType(t string) bool {
	return strings.Contains(t, "result") || strings.Contains(t, "output") || strings.Contains(t, "response")
}

// schema says whether v is a JSON Schema: an object with "properties", or
// with "type" "object".
func schema(v any) bool {
	o, ok := v.(jsonvalue.Object)
	return ok && (o.Has("properties") || get(o, "type") == "object")
}

// An audit walks one input, and lists every call-shaped object the ledger
// does not account for in missed, or tells visit of it when set.
type audit struct {
	ledger *ledger
	// calls are the calls read: an object that shows one of them again
	// (its id, and its name when it has one) is accounted for.
	calls  []toolgrade.Call
	visit  func(o jsonvalue.Object)
	missed []Skip
	root   any
	// path holds the index of each member or element from the root to
	// the value being walked, its first depth entries, then pathMore's:
	// where renders it. It is pointer-free, so that the walk writes no
	// pointers, and an array, so that the audit allocates nothing for it.
	path     [32]int32
	pathMore []int32
	depth    int
	parsed   int // bytes of JSON text parsed
	nested   int // strings being parsed, one inside another
	notes    []string
}

// audit walks v and returns the call-shaped objects in it that b does not
// account for, and notes on what the budgets kept it from seeing.
func (b *builder) audit(v any) ([]Skip, []string) {
	a := audit{ledger: &b.ledger, calls: b.calls}
	a.run(v)
	return a.missed, a.notes
}

// callShapes lists every call-shaped object in v.
func callShapes(v any) []Skip {
	a := audit{ledger: &ledger{}}
	a.run(v)
	return a.missed
}

// shapeID is the call id a call-shaped object gives, if any.
func shapeID(o jsonvalue.Object) string {
	for _, k := range []string{"call_id", "callId", "toolCallId", "tool_call_id", "toolUseId", "tool_use_id", "id"} {
		if s := id(get(o, k)); s != "" {
			return s
		}
	}
	return ""
}

// run walks a whole input.
func (a *audit) run(v any) {
	a.root = v
	a.walk(v, "", 0)
}

// push adds index i to the path.
func (a *audit) push(i int) {
	if a.depth < len(a.path) {
		a.path[a.depth] = int32(i)
	} else {
		a.pathMore = append(a.pathMore[:a.depth-len(a.path)], int32(i))
	}
	a.depth++
}

// at is the path's index at depth d.
func (a *audit) at(d int) int32 {
	if d < len(a.path) {
		return a.path[d]
	}
	return a.pathMore[d-len(a.path)]
}

func (a *audit) walk(v any, parent string, depth int) {
	if depth > maxAuditDepth {
		a.tooDeep()
		return
	}
	switch v := v.(type) {
	case jsonvalue.Object:
		if len(v) == 0 || a.ledger.objects.has(&v[0]) {
			return
		}
		if mayBeCallShaped(v, parent) {
			if rule, name := callShape(v, parent); rule != "" && !a.ledger.shell(v) {
				a.callShaped(v, rule, name)
				return
			}
		}
		deep := depth >= maxAuditDepth
		for i := range v {
			m := &v[i]
			if !deep && inert(m.Value) {
				continue
			}
			a.push(i)
			a.walk(m.Value, m.Key, depth+1)
			a.depth--
		}
	case []any:
		if len(v) == 0 || a.ledger.lists.has(&v[0]) {
			return
		}
		deep := depth >= maxAuditDepth
		for i, e := range v {
			if !deep && inert(e) {
				continue
			}
			a.push(i)
			a.walk(e, parent, depth+1)
			a.depth--
		}
	case string:
		if mayHoldJSON(v) {
			a.text(v, parent, depth)
		}
	}
}

// tooDeep notes where the depth budget stopped the walk.
func (a *audit) tooDeep() {
	a.note("the audit stopped at depth %d at %s", maxAuditDepth, a.where())
}

// callShaped handles a call-shaped object the ledger does not account
// for: shown again, read by the generic reader, or missed. It is apart
// from walk, which runs for every value, so that walk's frame stays small.
func (a *audit) callShaped(o jsonvalue.Object, rule, name string) {
	if a.shown(o, name) {
		return // a call read, shown again: all of it accounted for
	}
	kind := rule
	if name != "" {
		kind += " " + strconv.Quote(name)
	}
	if a.visit != nil {
		a.visit(o)
	} else {
		a.missed = append(a.missed, Skip{Where: a.where(), Kind: kind})
	}
}

// inert reports a value walk does nothing with, short of the depth
// budget: a scalar, or a string that cannot hold JSON. The loops skip
// them without a call.
func inert(v any) bool {
	switch v := v.(type) {
	case jsonvalue.Object, []any:
		return false
	case string:
		return !mayHoldJSON(v)
	}
	return true
}

// mayHoldJSON reports a string whose JSON text the audit looks into.
func mayHoldJSON(s string) bool { return len(s) >= 2 && (s[0] == '{' || s[0] == '[' || s[0] <= ' ') }

// shown reports whether a call-shaped object shows a call read again: a
// model's input history, a saved response, an event or a permission
// request about the call, with its id (and its name, when it has one).
func (a *audit) shown(o jsonvalue.Object, name string) bool {
	if len(a.calls) == 0 {
		return false
	}
	callID := shapeID(o)
	return callID != "" && slices.ContainsFunc(a.calls, func(c toolgrade.Call) bool {
		return c.ID == callID && (name == "" || c.Name == name)
	})
}

// text walks the JSON a string holds, within the budgets.
func (a *audit) text(s, parent string, depth int) {
	if a.ledger.hasText(s) || !looksJSONText(s) { // a result read, most often
		return
	}
	switch {
	case len(s) > maxAuditText:
		a.note("the audit did not parse the %d bytes of JSON text at %s (more than %d)", len(s), a.where(), maxAuditText)
		return
	case a.parsed+len(s) > maxAuditTextTotal:
		a.note("the audit parsed no more JSON text from %s on (%d bytes already)", a.where(), a.parsed)
		return
	case a.nested >= maxAuditTextNested:
		return
	}
	a.parsed += len(s)
	x, err := a.ledger.parse(s)
	if err != nil {
		return
	}
	a.nested++
	a.walk(x, parent, depth+1)
	a.nested--
}

// note records a note once per kind of limit.
func (a *audit) note(format string, args ...any) {
	if len(a.notes) < 3 {
		a.notes = append(a.notes, fmt.Sprintf(format, args...))
	}
}

// where renders the current path as readers write paths, following it
// from the root (through the JSON strings the walk parsed).
func (a *audit) where() string {
	var sb strings.Builder
	v := a.root
	for d := range a.depth {
		i := a.at(d)
		if s, ok := v.(string); ok {
			v, _ = a.ledger.parse(s) // parsed already, by the walk
		}
		switch x := v.(type) {
		case jsonvalue.Object:
			if sb.Len() > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(x[i].Key)
			v = x[i].Value
		case []any:
			sb.WriteByte('[')
			sb.WriteString(strconv.Itoa(int(i)))
			sb.WriteByte(']')
			v = x[i]
		}
	}
	return sb.String()
}

// looksJSONText says whether a string may hold a JSON object or array.
// Most strings it is asked about (every result read, every text that
// starts like JSON) tell at their ends, with nothing to trim;
// TestLooksJSONText holds that to trimming first.
func looksJSONText(s string) bool {
	if len(s) >= 2 {
		switch c, e := s[0], s[len(s)-1]; {
		case c == '{' && e == '}', c == '[' && e == ']':
			return true
		case c < utf8.RuneSelf && c > ' ' && c != '{' && c != '[':
			return false // starts with no space to trim, and not as JSON
		}
	}
	s = strings.TrimSpace(s)
	return len(s) >= 2 && (s[0] == '{' && s[len(s)-1] == '}' || s[0] == '[' && s[len(s)-1] == ']')
}

// A ledger records, by identity, what a reader accounted for: the objects
// and lists it read calls or results from, skipped or declared not calls
// (each accounting for all it holds), and the JSON text it took as a
// result. It also keeps the JSON text it parsed, so that the reader and
// the audit see the same values.
type ledger struct {
	objects set[*jsonvalue.Member] // by the address of the first member
	lists   set[*any]              // by the address of the first element
	texts   textSet
	parsed  map[string]parsedText
	// aliases maps a copy a reader made of an object to the object.
	aliases map[*jsonvalue.Member]jsonvalue.Object
	// shells are objects declared not calls themselves, whose contents
	// are audited still.
	shells set[*jsonvalue.Member]
	// notCalls keeps why the reader declared things not calls.
	notCalls []string
}

type parsedText struct {
	v   any
	err error
}

// account records v, and all it holds, as accounted for.
func (l *ledger) account(v any) {
	switch v := v.(type) {
	case jsonvalue.Object:
		if len(v) == 0 {
			return
		}
		l.objects.add(&v[0])
		if l.aliases != nil { // most readers copy nothing: no look-up
			if orig, ok := l.aliases[&v[0]]; ok {
				l.account(orig)
			}
		}
		if len(v) == 2 && v[0].Key == "content" && v[1].Key == "is_error" && v[1].Value == true {
			l.account(v[0].Value) // a failed result: see failed
		}
	case []any:
		if len(v) > 0 {
			l.lists.add(&v[0])
		}
	case string:
		if looksJSONText(v) {
			l.texts.add(v)
		}
	}
}

func (l *ledger) has(v any) bool {
	switch v := v.(type) {
	case jsonvalue.Object:
		return len(v) > 0 && l.objects.has(&v[0])
	case []any:
		return len(v) > 0 && l.lists.has(&v[0])
	}
	return false
}

func (l *ledger) hasText(s string) bool { return l.texts.has(s) }

func (l *ledger) shell(o jsonvalue.Object) bool { return len(o) > 0 && l.shells.has(&o[0]) }

// parse parses JSON text once per input: readers that read JSON held in
// strings parse it through their builder, so that the audit's walk meets
// the very values the reader accounted for.
func (l *ledger) parse(s string) (any, error) {
	if p, ok := l.parsed[s]; ok {
		return p.v, p.err
	}
	v, err := jsonvalue.ParseString(s)
	if l.parsed == nil {
		l.parsed = make(map[string]parsedText)
	}
	l.parsed[s] = parsedText{v, err}
	return v, err
}

// alias records that copy stands for orig: accounting for the copy
// accounts for orig.
func (l *ledger) alias(copy, orig jsonvalue.Object) {
	if len(copy) == 0 || len(orig) == 0 || &copy[0] == &orig[0] {
		return
	}
	if l.aliases == nil {
		l.aliases = make(map[*jsonvalue.Member]jsonvalue.Object)
	}
	l.aliases[&copy[0]] = orig
	if l.objects.has(&copy[0]) {
		l.account(orig)
	}
}

// merge adds what other accounted for (a reader's scratch builder).
func (l *ledger) merge(other *ledger) {
	l.objects.merge(&other.objects)
	l.lists.merge(&other.lists)
	l.texts.merge(&other.texts)
	l.shells.merge(&other.shells)
	if l.parsed == nil {
		l.parsed = other.parsed
	}
	l.notCalls = append(l.notCalls, other.notCalls...)
}

// A textSet holds strings in a list until it has many: telling whether
// it holds a string then costs compares, which stop at a length that
// differs and at once for the very string of the trace, where a map would
// hash the whole text each time.
type textSet struct {
	few  []string
	many map[string]bool
	buf  [8]string // few's first array: a transcript's results
}

const fewTexts = 256

func (s *textSet) add(t string) {
	switch {
	case s.many != nil:
		s.many[t] = true
	case s.few == nil:
		s.few = append(s.buf[:0], t)
	case len(s.few) < fewTexts:
		s.few = append(s.few, t)
	default:
		s.many = make(map[string]bool, 2*fewTexts)
		for _, x := range s.few {
			s.many[x] = true
		}
		s.many[t] = true
		s.few = nil
	}
}

func (s *textSet) has(t string) bool {
	if s.many != nil {
		return s.many[t]
	}
	return slices.Contains(s.few, t)
}

func (s *textSet) merge(other *textSet) {
	for _, t := range other.few {
		s.add(t)
	}
	for t := range other.many {
		s.add(t)
	}
}

// A set holds keys in a short list, and in a map once it has many: most
// traces account for a few objects, and the audit asks of every one.
type set[K comparable] struct {
	few  []K
	many map[K]bool
	buf  [4]K // few's first array
}

const fewKeys = 16

func (s *set[K]) add(k K) {
	switch {
	case s.many != nil:
		s.many[k] = true
	case s.few == nil:
		s.few = append(s.buf[:0], k)
	case len(s.few) < fewKeys:
		s.few = append(s.few, k)
	default:
		s.many = make(map[K]bool, 2*fewKeys)
		for _, x := range s.few {
			s.many[x] = true
		}
		s.many[k] = true
		s.few = nil
	}
}

func (s *set[K]) has(k K) bool {
	if s.many != nil {
		return s.many[k]
	}
	return slices.Contains(s.few, k)
}

func (s *set[K]) merge(other *set[K]) {
	for _, k := range other.few {
		s.add(k)
	}
	for k := range other.many {
		s.add(k)
	}
}
