package ragas

import (
	"fmt"
	"strconv"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A sample is the part of Ragas' MultiTurnSample the metrics read: the
// tool calls of the ai messages of user_input, in order, and
// reference_tool_calls (refNone when the sample has none: None, not []).
type sample struct {
	called   []call
	ref      []call
	refNone  bool
	fromText bool // user_input came as the case's input + tools_called
}

// A call is a Ragas ToolCall: a name and a dict of arguments.
type call struct {
	name string
	args jsonvalue.Object
	// where names the call in the case, for reasons: "tools_called[1]",
	// "trajectory[3].tool_calls[0]", "reference_tool_calls[0]".
	where string
}

// errValidation is the ValidationError Ragas' pydantic models raise on a
// sample they refuse.
type errValidation struct {
	path string
	msg  string
}

func (e *errValidation) Error() string {
	return fmt.Sprintf("ValidationError: Ragas' MultiTurnSample refuses the sample: %s: %s", e.path, e.msg)
}

// The keys a case may give its calls under (see package dataset), looked
// up in the case's JSON to check them as Ragas' models would.
var (
	calledKeys     = []string{"tools_called", "toolsCalled"}
	expectedKeys   = []string{"expected_tools", "expectedTools", "reference_tool_calls"}
	trajectoryKeys = []string{"trajectory", "agent_trajectory", "user_input"}
)

// rawField returns the value of the first of keys the case's JSON has.
func rawField(raw jsonvalue.Object, keys []string) (string, any, bool) {
	for _, k := range keys {
		if v, ok := raw.Get(k); ok {
			return k, v, true
		}
	}
	return "", nil, false
}

// buildSample makes the sample Ragas would hold for the case, or the
// ValidationError (or ValueError) it would raise building it.
//
// The conversation is the case's trajectory when it is a list of Ragas
// messages ({"type": "human"|"ai"|"tool", "content", "tool_calls"}), or
// else [HumanMessage(input), AIMessage("", tool_calls=the called calls)]:
// tools_called, or the calls toolgrade extracts from a trajectory in
// another format. reference_tool_calls are the expected calls.
func buildSample(c *toolgrade.Case) (*sample, error) {
	s := &sample{}
	calledKey, rawCalled, hasCalled := rawField(c.Raw, calledKeys)
	trKey, rawTraj, hasTraj := rawField(c.Raw, trajectoryKeys)
	if !hasTraj && c.Trajectory != nil {
		trKey, rawTraj, hasTraj = "trajectory", c.Trajectory, true
	}
	switch {
	case !hasCalled && hasTraj && isRagasMessages(rawTraj):
		if err := s.readMessages(trKey, rawTraj.([]any)); err != nil {
			return nil, err
		}
	default:
		s.fromText = true
		if c.Input != nil {
			if _, ok := c.Input.(string); !ok {
				return nil, &errValidation{"input", "the HumanMessage content must be a string, got " + jsonvalue.Kind(c.Input)}
			}
		}
		var err error
		if hasCalled {
			s.called, err = readCalls(calledKey, rawCalled, true)
		} else {
			s.called, err = fromCalls("tools_called", c.Called)
		}
		if err != nil {
			return nil, err
		}
	}
	if k, v, ok := rawField(c.Raw, expectedKeys); ok {
		if v == nil {
			s.refNone = true
		} else {
			calls, err := readCalls(k, v, false)
			if err != nil {
				return nil, err
			}
			s.ref = calls
		}
	} else if c.Expected == nil {
		s.refNone = true
	} else {
		calls, err := fromCalls("expected_tools", c.Expected)
		if err != nil {
			return nil, err
		}
		s.ref = calls
	}
	if ref, ok := c.Raw.Get("reference"); ok && ref != nil {
		if _, ok := ref.(string); !ok {
			return nil, &errValidation{"reference", "must be a string, got " + jsonvalue.Kind(ref)}
		}
	}
	for _, side := range [][]call{s.ref, s.called} {
		for _, cl := range side {
			if n := intTooLong(cl.args); n > 0 {
				return nil, fmt.Errorf("ValueError: %s.args holds an integer of %d digits; Python's json refuses more than %d (sys.set_int_max_str_digits)", cl.where, n, maxIntDigits)
			}
		}
	}
	return s, nil
}

// isRagasMessages reports whether v is a list of messages in Ragas' own
// form (as MultiTurnSample.to_list and model_dump write them): objects
// with a string "type" and no LangChain "data" or chat "role" wrapping.
func isRagasMessages(v any) bool {
	list, ok := v.([]any)
	if !ok {
		return false
	}
	for _, e := range list {
		o, ok := e.(jsonvalue.Object)
		if !ok {
			return false
		}
		t, ok := o.Get("type")
		if _, isStr := t.(string); !ok || !isStr || o.Has("data") || o.Has("role") || o.Has("kwargs") {
			return false
		}
	}
	return true
}

// readMessages validates user_input as pydantic does
// (list[HumanMessage | AIMessage | ToolMessage], then
// MultiTurnSample.validate_user_input) and collects the ai messages'
// tool calls.
func (s *sample) readMessages(key string, msgs []any) error {
	kinds := make([]string, len(msgs))
	hasCalls := make([]bool, len(msgs))
	for i, e := range msgs {
		path := key + "[" + strconv.Itoa(i) + "]"
		m := e.(jsonvalue.Object)
		t, _ := m.Get("type")
		kind := t.(string)
		switch kind {
		case "human", "ai", "tool":
		default:
			return &errValidation{path + ".type", fmt.Sprintf("%q is none of Ragas' messages (human, ai, tool)", kind)}
		}
		kinds[i] = kind
		content, ok := m.Get("content")
		if !ok {
			return &errValidation{path + ".content", "missing (Ragas' messages need a string content)"}
		}
		if _, ok := content.(string); !ok {
			return &errValidation{path + ".content", "must be a string, got " + jsonvalue.Kind(content)}
		}
		if md, ok := m.Get("metadata"); ok && md != nil {
			if _, ok := md.(jsonvalue.Object); !ok {
				return &errValidation{path + ".metadata", "must be an object or null, got " + jsonvalue.Kind(md)}
			}
		}
		if kind != "ai" {
			continue
		}
		tcs, ok := m.Get("tool_calls")
		if !ok || tcs == nil {
			continue
		}
		calls, err := readCalls(path+".tool_calls", tcs, false)
		if err != nil {
			return err
		}
		hasCalls[i] = len(calls) > 0
		s.called = append(s.called, calls...)
	}
	seenAI := false
	for i, k := range kinds {
		switch k {
		case "ai":
			seenAI = true
		case "tool":
			path := key + "[" + strconv.Itoa(i) + "]"
			switch {
			case !seenAI:
				return &errValidation{path, "a tool message must be preceded by an ai message somewhere in the conversation"}
			case i > 0 && kinds[i-1] == "ai" && !hasCalls[i-1]:
				return &errValidation{path, "a tool message must follow an ai message where tools were called"}
			case i > 0 && kinds[i-1] == "human":
				return &errValidation{path, "a tool message must follow an ai message or another tool message"}
			}
		}
	}
	return nil
}

// readCalls validates a list of Ragas ToolCalls ({"name": str, "args":
// dict}; other keys are ignored, as pydantic ignores them). A null list
// is allowed where Ragas allows None (an ai message's tool_calls, and
// tools_called, which becomes one).
func readCalls(path string, v any, nullOK bool) ([]call, error) {
	if v == nil && nullOK {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, &errValidation{path, "must be a list of tool calls, got " + jsonvalue.Kind(v)}
	}
	out := make([]call, len(list))
	for i, e := range list {
		p := path + "[" + strconv.Itoa(i) + "]"
		o, ok := e.(jsonvalue.Object)
		if !ok {
			return nil, &errValidation{p, "a ToolCall must be an object, got " + jsonvalue.Kind(e)}
		}
		name, ok := o.Get("name")
		if !ok {
			return nil, &errValidation{p + ".name", "missing (a ToolCall needs a name)"}
		}
		ns, ok := name.(string)
		if !ok {
			return nil, &errValidation{p + ".name", "must be a string, got " + jsonvalue.Kind(name)}
		}
		args, ok := o.Get("args")
		if !ok {
			return nil, &errValidation{p + ".args", `missing (a Ragas ToolCall needs args; give {} for none)`}
		}
		ao, ok := args.(jsonvalue.Object)
		if !ok {
			return nil, &errValidation{p + ".args", "must be an object, got " + jsonvalue.Kind(args)}
		}
		out[i] = call{name: ns, args: ao, where: p}
	}
	return out, nil
}

// fromCalls converts calls that did not come from Ragas-shaped JSON (a
// case built in code, or calls extracted from another trace format).
// Arguments that are not an object are refused; absent arguments are {}.
func fromCalls(field string, calls []toolgrade.Call) ([]call, error) {
	out := make([]call, len(calls))
	for i := range calls {
		cl := &calls[i]
		p := field + "[" + strconv.Itoa(i) + "]"
		var args jsonvalue.Object
		switch a := cl.Args.(type) {
		case jsonvalue.Object:
			args = a
		case nil:
			switch {
			case cl.Invalid:
				return nil, &errValidation{p + ".args", "not valid JSON"}
			case cl.ArgsNull:
				return nil, &errValidation{p + ".args", "must be an object, got null"}
			}
			args = jsonvalue.Object{}
		default:
			return nil, &errValidation{p + ".args", "must be an object, got " + jsonvalue.Kind(cl.Args)}
		}
		out[i] = call{name: cl.Name, args: args, where: p}
	}
	return out, nil
}
