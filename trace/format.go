package trace

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"

	docsniff "github.com/toolgrade/toolgrade/internal/sniff"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A format is one trace format: its name, how its traces are recognized,
// and its reader. Each reader's file registers its format, as the image
// package's formats register their magic strings, so that adding a format
// touches one file (and a row of docs/traces.md):
//
//	func init() {
//		register(format{
//			name: "acme_agent",
//			read: readAcme,
//			keys: []string{"acmeSession", "kind"}, // every key the sniffers need
//			trace: func(o jsonvalue.Object) level {
//				return when(o.Has("acmeSession") && o.Has("steps"), decisive)
//			},
//			item: itemObject(func(o jsonvalue.Object) level {
//				return when(str(o, "kind") == "acme.step", decisive)
//			}),
//		})
//	}
//
//	// readAcme reads an Acme session {"acmeSession", "steps": [...]}: ...
//	func readAcme(b *builder, v any) error {
//		steps, ok := get(v, "steps").([]any)
//		if !ok {
//			return wantError(`an Acme session {"acmeSession", "steps"}`, v)
//		}
//		b.notCall(get(v, "tools"), "tool definitions")
//		for i, s := range steps {
//			p := index("steps", i)
//			switch str(s, "kind") {
//			case "acme.call":
//				c := toolgrade.Call{Name: str(s, "tool"), ID: id(get(s, "id"))}
//				args(&c, s, "params")
//				b.add(s, c) // s, the object the call came from
//			case "acme.result":
//				b.result(p, id(get(s, "callId")), "", get(s, "output"))
//			case "acme.note":
//				b.saw() // of the format, holds no call
//			default:
//				b.skip(s, p, "step of kind %q", str(s, "kind"))
//			}
//		}
//		return nil
//	}
//
// A reader gets the decoded trace (a JSON document, JSON Lines as a list,
// an event stream as the list of its events) and a [builder], and says
// through the builder what it made of every item that may hold a call:
//
//   - add(src, call): a call, and src, the object it was read from (a
//     tool_calls entry, not the message holding it; nil for a call in
//     text). src and all it holds are accounted for.
//   - result, link, set, setFailed: a result, which is accounted for.
//   - read(v): v is part of what was recorded otherwise: a streamed
//     fragment of a call, a view without ids of calls read (an object
//     with the id, and name, of a call read is one already, wherever it
//     is: a model's input history, a saved response);
//     copied(copy, orig) says a copy the reader made (a rebuilt stream
//     item, renamed keys) stands for the original.
//   - skip(item, where, kind, ...): an item the reader does not
//     understand; it is listed, and accounted for with all it holds.
//   - notCall(v, why): v is no call, nor anything in it: tool
//     definitions, a schema, a benchmark's gold answers, an example in a
//     prompt. notCallItself(o, why): o has a name and an input but is no
//     call (a span, an observation, a trace); what it holds is audited.
//   - saw(): an item of the format that holds no call, so that a trace
//     without calls still reads as the format.
//   - parse(s): JSON held in a string of the trace, parsed once, so that
//     the audit meets the values the reader accounted for.
//
// After the reader, the audit (audit.go) walks the whole input and reports
// every call-shaped object left unaccounted for as missed, and the trace
// is an error. The tests run on every sample (testdata/<format>/, each
// file named in its SOURCE.md, and the shared fixtures): a new reader is
// done when its samples leave nothing missed (TestAuditFindsNothingMissed,
// TestAuditPartition), it errs or reports what it skipped on every other
// format's samples (TestForcedFormats), no other format is as sure of its
// samples (TestDetectionIsNotATie), and its sniffers claim only objects
// with one of its keys (TestSniffersNeedTheirKeys).
type format struct {
	name string
	// read reads a trace decoded from JSON, JSON Lines or an event stream.
	read func(b *builder, v any) error
	// text reads a plain-text trace.
	text func(b *builder, s string) error

	// Detection, from the content alone; a nil sniffer never claims.
	//
	// trace says whether a trace that is one object is of this format: an
	// envelope or record only this format writes (decisive), a shape it
	// shares with few (weak), or one it shares with many (fallback) that
	// counts only after an object holding "messages" is read as its list.
	trace func(o jsonvalue.Object) level
	// item says whether one element of a list (a message, item, record,
	// event, span or call string) is of this format; a trace that is one
	// object no trace sniffer claims is judged as one element too.
	item func(e any) level
	// textual says whether a plain-text trace is of this format.
	textual func(s string) level
	// keys are the keys the object sniffers need, one of which any
	// object they claim has (as a magic string is in every file of an
	// image format): an object with none of them is not asked about.
	// keyPrefixes are beginnings of keys the sniffers need as well (span
	// attributes such as "gen_ai.system"): an object with a key that
	// starts with one is asked about too. Both nil asks about every
	// object; an empty keys claims none (a sniffer of strings).
	keys        []string
	keyPrefixes []string
	// explicit formats are never detected: only --format chooses them.
	explicit bool
}

// A level says how surely a sniffer recognizes its format.
type level int8

const (
	no level = iota
	// guess: the element fits, as it fits other formats better.
	guess
	// fallback: the element is of a shape many formats share, a chat
	// message with a role.
	fallback
	// weak: the element fits this format better than others, but not
	// only it.
	weak
	// decisive: only this format writes this.
	decisive
)

// registry holds the formats by name.
var registry []format

// register adds a format; a name registered twice is a programming error.
func register(f format) {
	if slices.ContainsFunc(registry, func(g format) bool { return g.name == f.name }) {
		panic("trace: format " + f.name + " registered twice")
	}
	if len(registry) == maxFormats {
		panic("trace: more than " + strconv.Itoa(maxFormats) + " formats: grow formatSet")
	}
	i, _ := slices.BinarySearchFunc(registry, f.name, func(g format, name string) int { return strings.Compare(g.name, name) })
	registry = slices.Insert(registry, i, f)
}

// formatsByName indexes the registry, complete once the package's init
// functions have run, by name.
var formatsByName = sync.OnceValue(func() map[string]*format {
	m := make(map[string]*format, len(registry))
	for i := range registry {
		m[registry[i].name] = &registry[i]
	}
	return m
})

// Formats returns the names of the supported formats in alphabetical
// order, for --format flags.
func Formats() []string {
	names := make([]string, len(registry))
	for i, f := range registry {
		names[i] = f.name
	}
	return names
}

// lookup finds a format by name: every trace of a case looks its format up.
func lookup(name string) (*format, error) {
	if f, ok := formatsByName()[name]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("%w %q (want one of %s)", ErrNoSuchFormat, name, strings.Join(Formats(), ", "))
}

// Detection looks at keys and element shapes only, never at finish
// reasons or file names. Of the formats whose sniffers claim a trace, the
// surest wins; formats equally sure are taken in alphabetical order (the
// fixtures' test keeps them apart where it matters).
//
// An object is shown only to the sniffers of the formats whose keys it
// has (see format.keys): the answer is the one asking every sniffer would
// give, as long as each sniffer claims only objects with one of its keys
// (TestSniffersNeedTheirKeys, and TestFastDetectionAsksEnough compares
// the two).

// A detector detects formats. every asks every sniffer about every
// object, which the tests compare the keyed detection with.
type detector struct{ every bool }

// detect names the format of a decoded trace, or returns an error that
// says what the trace looks like and what call-shaped objects it holds.
func detect(v any) (string, error) { return detector{}.detect(v) }

func (d detector) detect(v any) (string, error) {
	f, err := d.find(v)
	return f.String(), err
}

// find is detect giving the format itself, which Extract reads with.
func (d detector) find(v any) (*format, error) {
	var f *format
	switch v := v.(type) {
	case jsonvalue.Object:
		f = d.object(v)
	case []any:
		f = d.list(v)
	}
	if f == nil {
		return nil, unrecognized(v)
	}
	return f, nil
}

// String is the format's name, "" for none.
func (f *format) String() string {
	if f == nil {
		return ""
	}
	return f.name
}

// object names the format of a trace that is one JSON object: the
// surest trace sniffer at weak or above; else, for an object holding
// "messages", the format of that list; else the surest fallback; else
// the object judged as one element.
func (d detector) object(o jsonvalue.Object) *format {
	formats := d.candidates(o)
	best, at := surestOf(formats, func(f *format) level { return sniff(f.trace, o) })
	if at >= weak {
		return best
	}
	if msgs, ok := get(o, "messages").([]any); ok {
		if f := d.list(msgs); f != nil && f.name != "pythonic" {
			return f
		}
		return sniffers().chat
	}
	if at > no {
		return best
	}
	if f, _ := surestItem(formats, o); f != nil {
		return f // one message, item, event or call
	}
	return nil
}

// detectList names the format of a trace that is a list: the first
// element that fits one format only decides; otherwise the surest vote
// does, the first of equally sure ones. An empty list is openai_chat (a
// conversation without messages).
func detectList(l []any) string { return detector{}.list(l).String() }

func (d detector) list(l []any) *format {
	x := sniffers()
	if len(l) == 0 {
		return x.chat
	}
	var vote *format
	at := no
	for _, e := range l {
		f, l := d.classify(x, e)
		if l == decisive {
			return f
		}
		if l > at {
			vote, at = f, l
		}
	}
	return vote
}

// classify says which format one element belongs to, and how surely,
// given the sniffers' index.
func (d detector) classify(x *sniffIndex, e any) (*format, level) {
	o, ok := e.(jsonvalue.Object)
	if !ok {
		return surest(func(f *format) level { return sniff(f.item, e) })
	}
	if d.every {
		return surestItem(x.every, e)
	}
	m, plain := readPlainChat(o)
	switch {
	case !plain:
		return surestItem(x.of(o), e)
	case x.plainFast:
		return m.claim(x)
	}
	return surestItem(x.plain, e)
}

// surestItem is surestOf asking the element sniffers about e: the loop
// of every element of every list detected, without a closure between it
// and the sniffers.
func surestItem(set formatSet, e any) (*format, level) {
	var best *format
	at := no
	for w, word := range set {
		for word != 0 {
			f := &registry[w<<6|bits.TrailingZeros64(word)]
			word &= word - 1
			if f.item == nil {
				continue
			}
			if l := f.item(e); l > at {
				best, at = f, l
				if at == decisive {
					return best, at // none surer, and ties go to the first
				}
			}
		}
	}
	return best, at
}

// candidates are the formats whose sniffers are asked about o.
func (d detector) candidates(o jsonvalue.Object) formatSet {
	switch x := sniffers(); {
	case d.every:
		return x.every
	case plainChat(o):
		return x.plain
	default:
		return x.of(o)
	}
}

// plainSniffers are the formats whose sniffers may claim a plain chat
// message (see plainChat): Chat Completions', and mini-SWE-agent's, which
// tells its messages by their text. Every other sniffer answers no to
// one, which TestPlainChatAsksEnough holds them to.
var plainSniffers = []string{"mini_swe_agent", "openai_chat"}

// plainChat reports a Chat Completions message of the plainest form, as
// most transcripts are written, one per message: only "role" (system,
// user, assistant or tool), "content" (text or null), "tool_call_id"
// (text) and "tool_calls" (a list whose first entry is {"id", "type",
// "function": {"name", "arguments"}}, each text), each once. The key
// index would show it to every format whose messages have a role; only
// plainSniffers can claim it.
func plainChat(o jsonvalue.Object) bool {
	_, plain := readPlainChat(o)
	return plain
}

// A plainMessage is what plainSniffers look at in a plain chat message:
// its role, its text ("" for null), and whether it has tool calls.
type plainMessage struct {
	role, text string
	calls      bool
}

// readPlainChat reads a message as plainChat tells it, in one pass.
func readPlainChat(o jsonvalue.Object) (m plainMessage, plain bool) {
	var seen uint8
	for i := range o {
		var bit uint8
		switch v := o[i].Value; o[i].Key {
		case "role":
			bit = 1
			switch r, _ := v.(string); r {
			case "system", "user", "assistant", "tool":
				m.role = r
			default:
				return m, false
			}
		case "content":
			bit = 2
			s, ok := v.(string)
			if !ok && v != nil {
				return m, false
			}
			m.text = s
		case "tool_call_id":
			bit = 4
			if _, ok := v.(string); !ok {
				return m, false
			}
		case "tool_calls":
			bit = 8
			l, ok := v.([]any)
			if !ok || len(l) > 0 && !plainToolCall(l[0]) {
				return m, false
			}
			m.calls = len(l) > 0
		default:
			return m, false
		}
		if !once(&seen, bit) {
			return m, false
		}
	}
	return m, seen&1 != 0
}

// claim is what plainSniffers answer about a plain chat message, asked
// in the registry's order as surestItem asks them: mini-SWE-agent's
// sniffer decides by the message's text (see miniSWEText), else Chat
// Completions' decides by a tool call (the first entry of a plain
// tool_calls list has a function) and falls back on the role.
// TestPlainChatAsksEnough holds it to asking them.
func (m plainMessage) claim(x *sniffIndex) (*format, level) {
	switch {
	case miniSWEText(m.role, m.text):
		return x.mini, decisive
	case m.calls:
		return x.chat, decisive
	}
	return x.chat, fallback
}

// plainToolCall reports a tool_calls entry of the plainest form: only
// "id", "type" and "function", which holds only "name" and "arguments",
// each text once.
func plainToolCall(e any) bool {
	o, _ := e.(jsonvalue.Object)
	var seen uint8
	for i := range o {
		var bit uint8
		switch v := o[i].Value; o[i].Key {
		case "id", "type":
			bit = 1
			if o[i].Key == "type" {
				bit = 2
			}
			if _, ok := v.(string); !ok {
				return false
			}
		case "function":
			bit = 4
			if fn, ok := v.(jsonvalue.Object); !ok || len(fn) != 2 || fn[0].Key == fn[1].Key || !plainFunction(fn[0]) || !plainFunction(fn[1]) {
				return false
			}
		default:
			return false
		}
		if !once(&seen, bit) {
			return false
		}
	}
	return seen&4 != 0
}

// plainFunction reports a member of a plain tool call's function.
func plainFunction(m jsonvalue.Member) bool {
	_, text := m.Value.(string)
	return text && (m.Key == "name" || m.Key == "arguments")
}

// once sets bit in seen, and reports whether it was not set already.
func once(seen *uint8, bit uint8) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}

// A formatSet is a set of formats by their index in the registry.
type formatSet [2]uint64

const maxFormats = 128

func (s *formatSet) add(i int)         { s[i>>6] |= 1 << (i & 63) }
func (s *formatSet) union(t formatSet) { s[0], s[1] = s[0]|t[0], s[1]|t[1] }

// A sniffIndex finds the formats whose sniffers need a key of an object.
type sniffIndex struct {
	byKey    map[string]formatSet
	prefixes []string // keyPrefixes, and for each the formats that need it
	byPrefix []formatSet
	// first marks the first bytes of the keys of byKey and of prefixes:
	// a key that starts otherwise is looked up nowhere. firstOfPrefix
	// marks those of prefixes alone: a key that starts otherwise is
	// compared with none.
	first, firstOfPrefix [256]bool
	always               formatSet // formats whose sniffers look at every object
	every                formatSet // every format detection chooses from
	plain                formatSet // those asked about a plain chat message
	// plainFast says that of plain only plainSniffers have element
	// sniffers, so that a plain chat message's answer as an element is
	// plainMessage.claim.
	plainFast bool
	// chat and mini are the formats of plainSniffers; chat is also what
	// a list of no messages is.
	chat, mini *format
}

var sniffers = sync.OnceValue(func() *sniffIndex {
	x := &sniffIndex{byKey: map[string]formatSet{}}
	for i := range registry {
		f := &registry[i]
		if f.explicit || f.trace == nil && f.item == nil {
			continue
		}
		x.every.add(i)
		if f.keys == nil && f.keyPrefixes == nil {
			x.always.add(i)
			x.plain.add(i)
		}
		if slices.Contains(plainSniffers, f.name) {
			x.plain.add(i)
		}
		for _, k := range f.keys {
			s := x.byKey[k]
			s.add(i)
			x.byKey[k] = s
			x.first[firstByte(k)] = true
		}
		for _, p := range f.keyPrefixes {
			j := slices.Index(x.prefixes, p)
			if j < 0 {
				j = len(x.prefixes)
				x.prefixes, x.byPrefix = append(x.prefixes, p), append(x.byPrefix, formatSet{})
			}
			x.byPrefix[j].add(i)
			x.first[firstByte(p)] = true
			x.firstOfPrefix[firstByte(p)] = true
		}
	}
	var items, want formatSet // of plain, those with element sniffers; plainSniffers
	for i := range registry {
		if registry[i].item != nil {
			items.add(i)
		}
		if slices.Contains(plainSniffers, registry[i].name) {
			want.add(i)
		}
	}
	x.plainFast = formatSet{x.plain[0] & items[0], x.plain[1] & items[1]} == want && slices.IsSorted(plainSniffers)
	x.chat, x.mini = formatsByName()["openai_chat"], formatsByName()["mini_swe_agent"]
	return x
})

func firstByte(k string) byte {
	if k == "" {
		return 0
	}
	return k[0]
}

// of returns the formats to ask about o: those that need one of its
// keys, and those that look at every object.
func (x *sniffIndex) of(o jsonvalue.Object) formatSet {
	s := x.always
	for i := range o {
		k := o[i].Key
		c := firstByte(k)
		if !x.first[c] {
			continue
		}
		if fs, ok := x.byKey[k]; ok {
			s.union(fs)
		}
		if !x.firstOfPrefix[c] {
			continue
		}
		for j, p := range x.prefixes {
			if strings.HasPrefix(k, p) {
				s.union(x.byPrefix[j])
			}
		}
	}
	return s
}

// detectText names the format of a plain-text trace, or "".
func detectText(s string) string {
	best, _ := surest(func(f *format) level { return sniff(f.textual, s) })
	return best.String()
}

// textFormat chooses the format to read a plain-text trace with: the one
// its sniffers are surest of; of several equally sure (a transcript of
// one kind quotes another's marks, or two were put in one file), the one
// that reads calls from it. Two that both read calls are an error: which
// was meant cannot be told, and either would lose the other's calls.
func textFormat(s string) (*format, error) {
	best, at := surest(func(f *format) level { return sniff(f.textual, s) })
	if best == nil {
		return nil, nil
	}
	var sure, reading []string
	var reader *format
	for i := range registry {
		if f := &registry[i]; !f.explicit && sniff(f.textual, s) == at {
			sure = append(sure, f.name)
			var b builder
			if f.text(&b, s) == nil && len(b.calls) > 0 {
				reading = append(reading, f.name)
				reader = f
			}
		}
	}
	switch {
	case len(sure) == 1 || len(reading) == 0:
	case len(reading) == 1:
		best = reader
	default:
		return nil, fmt.Errorf("%w: %s holds the calls of %s transcripts; choose one with --format", ErrUnknownFormat, describeText(s), strings.Join(reading, " and "))
	}
	return best, nil
}

// surest returns the format the sniffer is surest of, the first in
// alphabetical order of equally sure ones; explicit formats take no part.
func surest(sniffer func(f *format) level) (*format, level) {
	var best *format
	at := no
	for i := range registry {
		if f := &registry[i]; !f.explicit {
			if l := sniffer(f); l > at {
				best, at = f, l
				if at == decisive {
					break // none surer, and ties go to the first
				}
			}
		}
	}
	return best, at
}

// surestOf is surest among the formats of set.
func surestOf(set formatSet, sniffer func(f *format) level) (*format, level) {
	var best *format
	at := no
	for w, word := range set {
		for word != 0 {
			f := &registry[w<<6|bits.TrailingZeros64(word)]
			word &= word - 1
			if l := sniffer(f); l > at {
				best, at = f, l
				if at == decisive {
					return best, at // none surer, and ties go to the first
				}
			}
		}
	}
	return best, at
}

// sniff runs a sniffer that may be nil.
func sniff[T any](s func(T) level, v T) level {
	if s == nil {
		return no
	}
	return s(v)
}

// itemObject adapts an element sniffer that looks at objects only.
func itemObject(sniff func(o jsonvalue.Object) level) func(any) level {
	return func(e any) level {
		if o, ok := e.(jsonvalue.Object); ok {
			return sniff(o)
		}
		return no
	}
}

func asObject(v any) jsonvalue.Object {
	o, _ := v.(jsonvalue.Object)
	return o
}

func hasAny(o jsonvalue.Object, keys ...string) bool {
	for _, k := range keys {
		if o.Has(k) {
			return true
		}
	}
	return false
}

// when returns l if ok, else no: a sniffer's answer in one line.
func when(ok bool, l level) level {
	if ok {
		return l
	}
	return no
}

// byCalls reports a message whose own calls tell its format (a
// requestor, tool_calls entries with a function, custom, args or
// requestor key, a legacy function_call): they decide before its
// content blocks do.
func byCalls(o jsonvalue.Object) bool {
	if tc, _ := firstEntry(o, "tool_calls"); hasAny(asObject(tc), "function", "custom", "args", "requestor") {
		return true
	}
	return o.Has("requestor") || o.Has("function_call") || str(o, "role") == "function"
}

// classifyBlocks tells whose content blocks a message holds, as the
// message formats that share {"role", "content": [blocks]} write them: the
// first block only one API writes decides (Bedrock's type-less toolUse
// and toolResult, Anthropic's tool and thinking blocks, the Responses
// API's input and output parts); type-less text blocks are Bedrock's,
// weakly.
func classifyBlocks(blocks []any) (string, level) {
	vote := ""
	for _, bl := range blocks {
		o, ok := bl.(jsonvalue.Object)
		if !ok {
			continue
		}
		t := str(o, "type")
		switch {
		case t == "":
			if hasAny(o, "toolUse", "toolResult") {
				return "bedrock_converse", decisive
			}
			if o.Has("text") {
				vote = "bedrock_converse"
			}
		case anthropicBlockTypes[t] || strings.HasSuffix(t, "_tool_result"):
			return "anthropic_messages", decisive
		case t == "input_text" || t == "output_text" || t == "input_image" || t == "input_file" || t == "refusal":
			return "openai_responses", decisive
		}
	}
	if vote != "" {
		return vote, weak
	}
	return "", no
}

var anthropicBlockTypes = map[string]bool{"tool_use": true, "tool_result": true, "server_tool_use": true,
	"mcp_tool_use": true, "thinking": true, "redacted_thinking": true}

// unrecognized says what a trace of no format holds: its shape, and the
// call-shaped objects in it, which --format generic would read.
// A toolgrade results file or config, each a mistake of its own, is
// named as such.
func unrecognized(v any) error {
	first := v
	if l, ok := v.([]any); ok && len(l) > 0 {
		first = l[0]
	}
	switch docsniff.Document(first) {
	case docsniff.Result:
		return fmt.Errorf("%w: a toolgrade results file (a result: %s), which holds grades, not the calls of a run: give the run's trace, or the run file toolgrade run wrote (NAME.run.jsonl)", ErrUnknownFormat, docsniff.Keys(first.(jsonvalue.Object), 6))
	case docsniff.Config:
		return fmt.Errorf("%w: a toolgrade config (keys %s), not a trace", ErrUnknownFormat, docsniff.Keys(first.(jsonvalue.Object), 6))
	}
	return &unknownTrace{shape: describe(v), found: callShapes(v)}
}

// unknownTrace is the error for a trace of no known format; it is
// ErrUnknownFormat to errors.Is.
type unknownTrace struct {
	shape string
	found []Skip // the call-shaped objects in it
}

func (e *unknownTrace) Error() string {
	calls := "it holds no call-shaped object"
	if n := len(e.found); n > 0 {
		calls = fmt.Sprintf("it holds %d call-shaped %s, %s; --format generic reads them in document order",
			n, plural(n, "object", "objects"), listSkips(e.found, 3))
	}
	return fmt.Sprintf("%v: %s; %s; want one of the formats %s", ErrUnknownFormat, e.shape, calls, strings.Join(detected(), ", "))
}

func (e *unknownTrace) Is(target error) bool { return target == ErrUnknownFormat }

// detected lists the formats detection chooses from.
func detected() []string {
	var names []string
	for _, f := range registry {
		if !f.explicit {
			names = append(names, f.name)
		}
	}
	return names
}
