package trace

import (
	"fmt"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/lazyregexp"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A Protocol is how a model without native tool calling writes its calls
// in a reply's text, as it was prompted to (see [ParseToolCalls]).
type Protocol string

// The protocols [ParseToolCalls] reads.
const (
	ProtocolHermes   Protocol = "hermes"
	ProtocolJSON     Protocol = "json"
	ProtocolPythonic Protocol = "pythonic"
)

// TextProtocols lists the protocols [ParseToolCalls] reads.
func TextProtocols() []Protocol { return []Protocol{ProtocolHermes, ProtocolJSON, ProtocolPythonic} }

// ParseProtocol returns the protocol named s, or an error naming the
// protocols there are.
func ParseProtocol(s string) (Protocol, error) {
	var names []string
	for _, p := range TextProtocols() {
		if string(p) == s {
			return p, nil
		}
		names = append(names, string(p))
	}
	return "", fmt.Errorf("unknown tool-call protocol %q (want %s)", s, strings.Join(names, ", "))
}

// ParseToolCalls reads the tool calls that a model without native tool
// calling wrote in the text of one reply, in the protocol it was prompted
// to use:
//
//   - "hermes": each <tool_call>{"name", "arguments"}</tool_call>, read as
//     [Read] reads Hermes transcripts (Python-literal payloads too);
//   - "json": a reply that is a JSON call {"name", "arguments"} (or
//     "parameters", "args"), a list of them, or an object with a
//     "tool_calls" list in OpenAI's form;
//   - "pythonic": a reply that is Python calls,
//     "[get_weather(city='Paris'), get_time(tz='CET')]", as BFCL prompts
//     for, read as [Read] reads Python calls.
//
// For json and pythonic the reply may sit in a Markdown code fence. A
// reply that makes no attempt at a call (prose, an answer) gives no calls.
// An attempt that does not parse is kept, never dropped: a call marked
// Invalid, its text in ArgsRaw and its name when one can be read. Only an
// unknown protocol is an error.
func ParseToolCalls(text string, protocol Protocol) ([]toolgrade.Call, error) {
	var b builder
	switch protocol {
	case ProtocolHermes:
		readHermes(&b, text)
	case ProtocolJSON:
		jsonReplyCalls(&b, text)
	case ProtocolPythonic:
		pythonicReplyCalls(&b, text)
	default:
		_, err := ParseProtocol(string(protocol))
		return nil, err
	}
	return b.finish(), nil
}

// fence matches a Markdown code fence around a whole reply, or the first
// fenced block inside one.
var fence = lazyregexp.New("(?s)```[A-Za-z0-9_-]*[ \t]*\r?\n?(.*?)```")

// unfence returns the reply without a code fence around it; a reply that is
// not fenced, but holds a fenced block, gives the block when block is set.
func unfence(text string, block bool) string {
	t := strings.TrimSpace(text)
	if m := fence.FindStringSubmatchIndex(t); m != nil && (block || m[0] == 0 && m[1] == len(t)) {
		return strings.TrimSpace(t[m[2]:m[3]])
	}
	return t
}

func jsonReplyCalls(b *builder, text string) {
	t := unfence(text, false)
	if !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[") {
		// Prose, perhaps with the call in a fenced block.
		if t = unfence(text, true); !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[") {
			return
		}
	}
	if v, err := jsonvalue.ParseString(t); err == nil {
		if tcs, ok := get(v, "tool_calls").([]any); ok {
			for i, tc := range tcs {
				c, err := chatToolCall(tc, index("tool_calls", i))
				if err != nil {
					b.add(nil, toolgrade.Call{Name: str(get(tc, "function"), "name"), ArgsRaw: string(jsonvalue.Append(nil, tc)), Invalid: true})
					continue
				}
				b.add(nil, c)
			}
			return
		}
	}
	addPayloadCalls(b, t)
}

// callStart finds text that sets out to be a Python call: a name and "(",
// or a "[" before one.
var callStart = lazyregexp.New(`^\[?\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\(`)

func pythonicReplyCalls(b *builder, text string) {
	t := unfence(text, false)
	calls, err := parseCalls(t)
	if err == nil {
		for _, c := range calls {
			b.add(nil, c)
		}
		return
	}
	if m := callStart.FindStringSubmatch(t); m != nil {
		b.add(nil, toolgrade.Call{Name: m[1], ArgsRaw: t, Invalid: true})
		return
	}
	if block := unfence(text, true); block != t {
		pythonicReplyCalls(b, block)
	}
}
