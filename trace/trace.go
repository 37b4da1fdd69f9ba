// Package trace extracts tool calls from agent traces in the common
// formats, detecting the format by content.
//
// A trace is what an agent run leaves behind: a chat transcript, a provider
// request or response body, a stream of server-sent events, a span export,
// a JSON-RPC log, a benchmark record or a plain-text transcript. [Read]
// takes the raw bytes (JSON, JSON Lines, SSE or text); [Extract] takes a
// value already decoded into the toolgrade value model, as a case's
// trajectory is. Both return the calls in call order, each with its name,
// parsed arguments, id and linked output.
//
// Rules every reader follows:
//
//   - Calls are listed in the order they first appear; in a stream, where
//     their first fragment appears. Streamed fragments are joined before
//     the arguments are decoded.
//   - A result links to the most recent call with its id that has no result
//     yet; without an id, to the earliest such call with its tool name, or,
//     when it names none, to the earliest call without a result.
//   - Arguments that are not valid JSON keep their raw text in ArgsRaw and
//     mark the call Invalid; they never become an empty object. A call
//     without any recorded arguments has nil Args.
//   - A result is kept as the trace gives it: a string stays a string, even
//     when it holds JSON. A result the trace marks as failed (Anthropic
//     is_error, Bedrock and LangChain status "error") becomes
//     {"content": <result>, "is_error": true}, so the failure is not lost.
//   - A call with a result has Status ok, or error when the trace records
//     a failure: a flag beside the result (is_error, status "error", an
//     Inspect or τ²-bench error, a Gemini CLI call's status), a result
//     that says so itself (MCP isError, a JSON-RPC error, a Gemini or ADK
//     response holding "error" or {"status": "error"}, a server tool's
//     *_tool_result_error), an item or span status (Responses "failed",
//     OpenTelemetry ERROR or error.type, Langfuse level ERROR, a LangSmith
//     run's error), or a command's exit code other than 0 where the format
//     records it (Codex, OpenHands, Responses shell outputs). Text that
//     merely mentions an error is not a failure. A call without a result
//     has no status, unless the trace says it failed.
//   - A user message opens a turn, and each call belongs to the turn it
//     follows (Turn 1 for the first; 0 before any user message, or in a
//     format without turns); [Trace.Inputs] holds the messages' contents.
//     A message that only carries tool results (Anthropic tool_result
//     blocks, Gemini functionResponse parts, role "tool") opens none, nor
//     does context the agent sends as a user message where the format
//     marks it (Claude Code meta and command lines, Codex
//     <environment_context>, a subagent's prompt). Where each model call
//     repeats the conversation (span exports), a user message counts once.
//   - Built-in tools (web search, code execution, ...) are calls too, named
//     after the tool, with Type set to that name. Custom (free-text) tools
//     have Type "custom" and Args {"input": <text>}; calls made through a
//     provider's MCP connector have Type "mcp".
//   - The format is detected from the content alone (keys, element shapes,
//     tags), never from finish reasons or file names. An unknown shape is an
//     error that says what was seen; it never yields an empty list.
//
// # Never silently wrong
//
// A reader accounts for every item it sees. An item of the trace that it
// does not understand (a message role, content block, item, event, line or
// part type it does not know) is not dropped quietly: it is listed in
// [Trace.Skipped] with where it was and what it was, and the calls around
// it are still read. Items a reader knows to hold no calls (text, images,
// reasoning, metadata lines) are not skipped items.
//
// A format forced on a trace detected as another (or as none) must find a
// call there, or items of its structure beside items it skips and
// reports; else it is an error, never an empty list. A trace detected as
// the format may hold no call: a transcript without any still reads as an
// empty list. Readers say what they recognized through the builder: adding
// a call or a result, or calling saw on a message, item or event of their
// format.
//
// Beneath every reader an audit walks the whole input (JSON held in
// strings included) and finds every call-shaped object by a few fixed
// rules: an OpenAI tool_calls entry or function_call item, an Anthropic
// tool_use block, a Gemini functionCall, a Bedrock toolUse, an AI SDK
// tool-call part, an MCP tools/call request, and any object with a
// name-like key and an arguments-like key that is not a tool definition
// (docs/traces.md has the rules exactly). Each must be accounted for: read
// as a call or inside a result, showing a call read again (its id and
// name), inside a skipped item, or declared by the reader not a call (gold
// answers, a span that has a name and an input).
// What is left is listed in [Trace.Missed], and [Extract] and [Read]
// return a [*MissedError] with the trace: its calls may be short. The
// "generic" format, never detected, reads every call-shaped object as a
// call.
//
// Each format lives in one file that registers it (see format.go for how
// a reader is written).
//
// # Non-goals
//
// Grading (a trace gives calls; metrics grade them), reading files or the
// network (callers pass the bytes or the decoded value), and guessing:
// where no reader recognizes the input, the answer is an error, not the
// nearest format's reading.
package trace

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Errors a caller may branch on, with errors.Is; the errors returned say
// more (what was seen, which formats there are).
var (
	// ErrUnknownFormat: the trace is of no format toolgrade reads.
	ErrUnknownFormat = errors.New("unrecognized trace")
	// ErrNoSuchFormat: a format was named that toolgrade does not have.
	ErrNoSuchFormat = errors.New("unknown trace format")
	// ErrNotThisFormat: a format was named, and the trace holds nothing of
	// its structure.
	ErrNotThisFormat = errors.New("found nothing of the format")
	// ErrEmpty: the input holds no trace at all.
	ErrEmpty = errors.New("empty trace")
)

// A Trace is the result of reading a trace: its format and the calls in it,
// in call order, with outputs linked.
type Trace struct {
	Format string
	Calls  []toolgrade.Call
	// Skipped lists the items the reader saw but did not understand, in
	// the order met; see the package doc.
	Skipped []Skip
	// Inputs holds the user messages that open the conversation's turns,
	// in order, for formats that record them; each call's Turn says which
	// of them it followed (Turn 1 is Inputs[0], 0 is before any).
	Inputs []any
	// Missed lists the call-shaped objects of the input that the reader
	// neither read, skipped nor declared not a call, in document order
	// (see the package doc); [Extract] and [Read] return them with a
	// [*MissedError].
	Missed []Skip
	// Notes says what else a user of the calls should know: that they
	// were read by shape (the generic format), or that the audit's budgets
	// kept it from seeing part of the input.
	Notes []string
	// Records holds the runs of a file that holds several, each with its
	// own id (a BFCL result file's lines, an ADK EvalSet's eval cases, a
	// StableToolBench predictions file's queries); nil for a trace that
	// is one run. Calls, Skipped and Inputs then hold every record's in
	// order, a call's Turn counting the user turns of the whole file;
	// each record's own are in its Record, its turns counted from 1.
	Records []Record
}

// A Record is one run of a trace file that holds several.
type Record struct {
	// ID is the record's own id ("" when it has none).
	ID string
	// Where locates it as a [Skip] does: "line 4" of JSON Lines, or a
	// path such as "eval_cases[2]"; Line is its line in JSON Lines, else
	// 0.
	Where string
	Line  int
	// Calls, Inputs and Skipped are the record's, as a [Trace]'s are.
	Calls   []toolgrade.Call
	Inputs  []any
	Skipped []Skip
}

// Runs returns the trace's records, or the trace as one record (no id,
// no place) when it is one run: what a caller that handles a run at a
// time ranges over.
func (t Trace) Runs() []Record {
	if t.Records != nil {
		return t.Records
	}
	return []Record{{Calls: t.Calls, Inputs: t.Inputs, Skipped: t.Skipped}}
}

// Warnings returns the record's skipped items as sentences, as
// [Trace.Warnings] does.
func (r Record) Warnings() []string { return warnings(r.Skipped, nil) }

// A Skip is one item of a trace that its reader did not understand and so
// read nothing from.
type Skip struct {
	// Where locates the item: a path into the decoded trace such as
	// "[3].message.content[1]" ("[3]" is the fourth line of JSON Lines,
	// the fourth event of a stream), or a line of a text transcript.
	Where string
	// Kind says what the item is, e.g. `content block of type "foo"`.
	Kind string
}

// String formats a skipped item as "where: kind".
func (s Skip) String() string {
	if s.Where == "" {
		return s.Kind
	}
	return s.Where + ": " + s.Kind
}

// Warnings returns the skipped items as sentences, one per item, for a
// case's result ("skipped <kind> at <where>"), then the notes.
func (t Trace) Warnings() []string { return warnings(t.Skipped, t.Notes) }

func warnings(skipped []Skip, notes []string) []string {
	if len(skipped)+len(notes) == 0 {
		return nil
	}
	w := make([]string, len(skipped), len(skipped)+len(notes))
	for i, s := range skipped {
		w[i] = "skipped " + s.Kind
		if s.Where != "" {
			w[i] += " at " + s.Where
		}
	}
	return append(w, notes...)
}

// Extract reads the calls from a trace already decoded into the value
// model: an object, a list (of messages, items, chunks, events, spans, JSON
// Lines records), or a string, which is read as [Read] reads bytes. forced
// names the reader to use (see [Formats]); "" detects the format.
func Extract(v any, forced string) (Trace, error) {
	if s, ok := v.(string); ok {
		return Read([]byte(s), forced)
	}
	detected := forced == ""
	var f *format
	var err error
	if detected {
		f, err = detector{}.find(v)
	} else {
		f, err = lookup(forced)
	}
	if err != nil {
		return Trace{}, err
	}
	b, err := f.extract(v, detected)
	if err != nil {
		return Trace{}, err
	}
	tr, err := b.trace(f.name, v)
	b.free()
	return tr, err
}

// builders keep builders from one trace to the next: a builder is large
// (the first arrays of its lists are inside it), and every transcript of
// a dataset needs one.
var builders = sync.Pool{New: func() any { return new(builder) }}

// free returns b to builders, holding nothing of the trace it read: what
// the trace returned took from it (its calls, skipped items, inputs and
// notes) is its own from now on.
func (b *builder) free() {
	*b = builder{}
	builders.Put(b)
}

// extract reads a decoded trace with the format's reader, before the
// audit. detected says v was detected as of the format, which the checks
// for a format forced on foreign input need not ask again.
func (f *format) extract(v any, detected bool) (*builder, error) {
	if f.read == nil {
		d, _ := detect(v)
		return nil, fmt.Errorf("%s: %w", f.name, notThisFormat{fmt.Errorf("want text, got %s%s", describe(v), detectedAs(d))})
	}
	b := builders.Get().(*builder)
	if err := f.read(b, v); err != nil {
		b.free()
		if !detected && detectedAsOther(f, v) {
			err = notThisFormat{err} // a forced format on foreign input
		}
		return nil, fmt.Errorf("%s: %w", f.name, err)
	}
	if !detected && !b.found() && !empty(v) {
		if d, _ := detect(v); d != f.name {
			b.free()
			return nil, fmt.Errorf("%s: %w in %s%s", f.name, ErrNotThisFormat, describe(v), detectedAs(d))
		}
	}
	return b, nil
}

// trace returns what the reader read from v, audited: with a
// [*MissedError] when v holds call-shaped objects the reader did not
// account for.
func (b *builder) trace(name string, v any) (Trace, error) {
	tr := Trace{Format: name, Calls: b.finish(), Skipped: b.skipped, Inputs: b.inputs, Notes: b.notes}
	if len(b.marks) > 0 {
		tr.Records, tr.Calls = b.records()
	}
	missed, notes := b.audit(v)
	tr.Notes = append(tr.Notes, notes...)
	if len(missed) > 0 {
		tr.Missed = missed
		return tr, &MissedError{Format: name, Missed: missed}
	}
	return tr, nil
}

// detectedAsOther reports whether v is detected as another format than f,
// or as none.
func detectedAsOther(f *format, v any) bool {
	d, _ := detect(v)
	return d != f.name
}

// detectedAs says what format a trace is detected as, for the error of a
// format forced on it.
func detectedAs(d string) string {
	if d == "" {
		return ""
	}
	return " (detected as " + d + ")"
}

// notThisFormat is a reader's error on input of another format: its text
// says what the reader wanted, and it is ErrNotThisFormat to errors.Is.
type notThisFormat struct{ error }

func (e notThisFormat) Is(target error) bool { return target == ErrNotThisFormat }
func (e notThisFormat) Unwrap() error        { return e.error }

// empty reports an empty list or object, which every format may hold.
func empty(v any) bool {
	switch v := v.(type) {
	case []any:
		return len(v) == 0
	case jsonvalue.Object:
		return len(v) == 0
	}
	return false
}

// Read reads the calls from a trace as bytes: one JSON document, JSON Lines
// (read as a list of their values), a text/event-stream body (read as the
// list of its events' JSON data, up to "data: [DONE]"), or a plain-text
// transcript (Hermes tags, glaive tags, Python calls). forced names the
// reader to use (see [Formats]); "" detects the format.
func Read(data []byte, forced string) (Trace, error) {
	var f *format
	if forced != "" {
		var err error
		if f, err = lookup(forced); err != nil {
			return Trace{}, err
		}
	}
	if bytes.HasPrefix(data, zipMagic) {
		v, err := inspectEvalLog(data)
		if err != nil {
			return Trace{}, err
		}
		return Extract(v, forced)
	}
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return Trace{}, ErrEmpty
	}
	if f != nil && f.text != nil && !looksJSON(data) {
		return readText(f, string(data))
	}

	var jsonErr error
	if looksJSON(data) {
		v, err := jsonvalue.Parse(data)
		if l, isList := v.([]any); err == nil && isList && len(l) == 0 {
			// A file of only [] holds no trace, as an empty file does
			// not; in a case, "trajectory": [] says "no calls".
			return Trace{}, fmt.Errorf("%w: an empty JSON list", ErrEmpty)
		}
		if err == nil {
			return Extract(v, forced) // a JSON string is read as the text it holds
		}
		jsonErr = err
		if lines, lerr := jsonLines(data); lerr == nil {
			tr, err := Extract(lines, forced)
			if len(tr.Skipped) > 0 || len(tr.Missed) > 0 || len(tr.Records) > 0 {
				at := fileLines(data)
				lineSkips(tr.Skipped, at) // the records hold the same items
				lineSkips(tr.Missed, at)  // and so does the error
				for i := range tr.Records {
					r := &tr.Records[i]
					r.Where, r.Line = atLine(r.Where, at)
				}
			}
			if u := (*unknownTrace)(nil); errors.As(err, &u) {
				lineSkips(u.found, fileLines(data))
			}
			return tr, err
		} else if lerr != errNotLines {
			jsonErr = lerr
		}
	}
	if jsonErr != nil && startsAsJSON(data) {
		// JSON cut short or followed by more: read as a transcript, its
		// calls would be lost without a word.
		return Trace{}, jsonErr
	}
	if events, ok, err := sseEvents(data); ok {
		switch {
		case err != nil:
			return Trace{}, err
		case len(events) == 0 && forced == "":
			return Trace{}, fmt.Errorf("%w: a text/event-stream without JSON data", ErrUnknownFormat)
		}
		return Extract(events, forced)
	}
	text := string(data)
	if f == nil {
		var err error
		if f, err = textFormat(text); err != nil {
			return Trace{}, err
		}
	}
	switch {
	case f != nil && f.text != nil:
		return readText(f, text)
	case jsonErr != nil:
		return Trace{}, jsonErr
	case f != nil:
		return Trace{}, fmt.Errorf("%s: want JSON, JSON Lines or a text/event-stream, got %s", f.name, describeText(text))
	}
	return Trace{}, fmt.Errorf("%w: %s; want JSON, JSON Lines, a text/event-stream or a transcript with <tool_call> or <functioncall> tags or Python calls", ErrUnknownFormat, describeText(text))
}

// lineSkips rewrites the places of skipped items in JSON Lines from the
// index of the value ("[4].message") to its line in the file ("line 7
// message"); at is the line of each value, as fileLines gives them.
func lineSkips(skips []Skip, at []int) {
	for i := range skips {
		skips[i].Where, _ = atLine(skips[i].Where, at)
	}
}

// fileLines returns the line number of each non-blank line of data.
func fileLines(data []byte) []int {
	var lines []int
	for n, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 {
			lines = append(lines, n+1)
		}
	}
	return lines
}

// atLine rewrites a place in JSON Lines, "[4].message", as "line 7
// message", and returns the line; a place that starts with no index of
// a value is returned as it is, with line 0.
func atLine(w string, at []int) (string, int) {
	if !strings.HasPrefix(w, "[") {
		return w, 0
	}
	end := strings.IndexByte(w, ']')
	k, err := strconv.Atoi(w[1:max(end, 1)])
	if end < 0 || err != nil || k < 0 || k >= len(at) {
		return w, 0
	}
	where := "line " + strconv.Itoa(at[k])
	if rest := strings.TrimPrefix(w[end+1:], "."); rest != "" {
		where += " " + rest
	}
	return where, at[k]
}

func readText(f *format, s string) (Trace, error) {
	var b builder
	if err := f.text(&b, s); err != nil {
		return Trace{}, fmt.Errorf("%s: %w", f.name, err)
	}
	if d := detectText(s); !b.found() && d != f.name {
		return Trace{}, fmt.Errorf("%s: %w in %s%s", f.name, ErrNotThisFormat, describeText(s), detectedAs(d))
	}
	if at, v, what := appended(s); v != nil {
		b.skip(v, textLine(s, at), "a trace after the transcript, not read: %s", what)
	}
	return Trace{Format: f.name, Calls: b.finish(), Skipped: b.skipped, Inputs: b.inputs, Notes: b.notes}, nil
}

// appended finds a trace appended to a transcript, which its reader would
// pass over: JSON, JSON Lines or an event stream from the start of a line
// to the end of the text, of a format toolgrade reads or holding
// call-shaped objects, and not the payload of an unclosed call tag. It
// returns where it starts, its value (or nil) and what it is.
func appended(s string) (int, any, string) {
	for i := 0; i < len(s); {
		end := len(s)
		if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
			end = i + j + 1
		}
		if c := s[i]; (c == '{' || c == '[' || strings.HasPrefix(s[i:], "data:") || strings.HasPrefix(s[i:], "event:")) && !afterCallTag(s[:i]) {
			v, past := trailingTrace(s[i:])
			if v != nil {
				if d, _ := detect(v); d != "" {
					return i, v, describe(v) + detectedAs(d)
				}
				if shapes := callShapes(v); len(shapes) > 0 {
					return i, v, fmt.Sprintf("%d call-shaped %s (%s)", len(shapes), plural(len(shapes), "object", "objects"), listSkips(shapes, 3))
				}
			}
			// What starts within a value that ends before the text
			// does, or within lines that failed, fails too.
			end = max(end, i+past)
		}
		i = end
	}
	return -1, nil, ""
}

// afterCallTag reports whether text ends with a tag that opens a call's
// payload, which its reader reads even when the tag is never closed.
func afterCallTag(text string) bool {
	text = strings.TrimRight(text, " \t\r\n")
	return strings.HasSuffix(text, "<tool_call>") || strings.HasSuffix(text, "<functioncall>")
}

// trailingTrace decodes s, which must be one JSON value, JSON Lines or an
// event stream to its end; else it returns nil and how far it read before
// failing.
func trailingTrace(s string) (any, int) {
	if s[0] == '{' || s[0] == '[' {
		v, err := jsonvalue.ParseString(s)
		if err == nil {
			return v, len(s)
		}
		past := 0
		if e := (*jsonvalue.SyntaxError)(nil); errors.As(err, &e) {
			past = e.Offset
		}
		var values []any
		for pos := 0; pos < len(s); {
			line, rest, _ := strings.Cut(s[pos:], "\n")
			if line = strings.TrimSpace(line); line != "" {
				v, err := jsonvalue.ParseString(line)
				if err != nil {
					return nil, max(past, pos)
				}
				values = append(values, v)
			}
			pos = len(s) - len(rest)
			if rest == "" {
				break
			}
		}
		return values, len(s)
	}
	events, ok, err := sseEvents([]byte(s))
	if !ok || err != nil || len(events) == 0 {
		return nil, 0
	}
	return events, len(s)
}

// startsAsJSON reports whether data, which looks like JSON, starts as
// JSON does: an object, a string, or an array whose first element is a
// JSON value. Python calls, "[f(a=1)]", start with a bracket too.
func startsAsJSON(data []byte) bool {
	if data[0] != '[' {
		return true
	}
	rest := bytes.TrimLeft(data[1:], " \t\r\n")
	if len(rest) == 0 || strings.IndexByte("{[\"-]0123456789", rest[0]) >= 0 {
		return true
	}
	for _, word := range []string{"true", "false", "null"} {
		if after, ok := bytes.CutPrefix(rest, []byte(word)); ok {
			return len(after) == 0 || strings.IndexByte(" \t\r\n,]", after[0]) >= 0
		}
	}
	return false
}

func looksJSON(data []byte) bool {
	return len(data) > 0 && (data[0] == '{' || data[0] == '[' || data[0] == '"')
}

// AppendJSON appends the trace as the JSON object toolgrade extract prints:
// {"format", "calls": [{"name", "args", "args_raw", "id", "output",
// "status", "turn"}]}, with "args_raw" only on calls whose arguments did
// not parse, null for an absent id or output, "status": "error" only on
// failed calls, and "turn" only when the trace holds more than one user
// turn. A trace of several records is {"format", "records": [{"id",
// "calls"}]} instead, each record's calls as above (its id null when it
// has none, "turn" when the record holds more than one user turn).
func (t Trace) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"format":`...)
	dst = jsonvalue.AppendString(dst, t.Format)
	if t.Records == nil {
		dst = append(dst, `,"calls":`...)
		return append(appendCalls(dst, t.Calls, len(t.Inputs) > 1), '}')
	}
	dst = append(dst, `,"records":[`...)
	for i, r := range t.Records {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"id":`...)
		dst = appendID(dst, r.ID)
		dst = append(dst, `,"calls":`...)
		dst = append(appendCalls(dst, r.Calls, len(r.Inputs) > 1), '}')
	}
	return append(dst, "]}"...)
}

func appendCalls(dst []byte, calls []toolgrade.Call, turns bool) []byte {
	dst = append(dst, '[')
	for i, c := range calls {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"name":`...)
		dst = jsonvalue.AppendString(dst, c.Name)
		dst = append(dst, `,"args":`...)
		dst = jsonvalue.Append(dst, c.Args)
		if c.Invalid {
			dst = append(dst, `,"args_raw":`...)
			dst = jsonvalue.AppendString(dst, c.ArgsRaw)
		}
		dst = append(dst, `,"id":`...)
		dst = appendID(dst, c.ID)
		dst = append(dst, `,"output":`...)
		dst = jsonvalue.Append(dst, c.Output)
		if c.Failed() {
			dst = append(dst, `,"status":"error"`...)
		}
		if turns {
			dst = append(dst, `,"turn":`...)
			dst = strconv.AppendInt(dst, int64(c.Turn), 10)
		}
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// appendID appends an id, null when there is none.
func appendID(dst []byte, id string) []byte {
	if id == "" {
		return append(dst, "null"...)
	}
	return jsonvalue.AppendString(dst, id)
}

// describe says what a value looks like, for errors about shapes.
func describe(v any) string {
	switch v := v.(type) {
	case jsonvalue.Object:
		if len(v) == 0 {
			return "an empty JSON object"
		}
		return "a JSON object with keys " + quoteKeys(v)
	case []any:
		if len(v) == 0 {
			return "an empty JSON array"
		}
		kinds := make([]string, 0, 2)
		for _, e := range v {
			if k := jsonvalue.Kind(e); !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
		}
		s := fmt.Sprintf("a JSON array of %d items (%s)", len(v), strings.Join(kinds, ", "))
		if o, ok := v[0].(jsonvalue.Object); ok && len(o) > 0 {
			s += ", the first with keys " + quoteKeys(o)
		}
		return s
	case string:
		return describeText(v)
	}
	return "a JSON " + jsonvalue.Kind(v)
}

func quoteKeys(o jsonvalue.Object) string {
	const most = 8
	var sb strings.Builder
	for i, m := range o {
		if i == most {
			fmt.Fprintf(&sb, " (and %d more)", len(o)-most)
			break
		}
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "%q", m.Key)
	}
	return sb.String()
}

func describeText(s string) string {
	return fmt.Sprintf("text starting %q", shorten(strings.TrimSpace(s)))
}
