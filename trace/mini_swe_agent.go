package trace

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/lazyregexp"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name: "mini_swe_agent",
		keys: []string{"trajectory_format", "extra", "content", "role"},
		read: readMiniSWEAgent,
		trace: func(o jsonvalue.Object) level {
			return when(strings.HasPrefix(str(o, "trajectory_format"), "mini-swe-agent"), decisive)
		},
		item: itemObject(func(o jsonvalue.Object) level {
			// One pass over the keys: every chat message of a transcript
			// is asked until one decides.
			var text, r string
			var extra jsonvalue.Object
			var seen uint8
			for i := range o {
				switch m := &o[i]; m.Key {
				case "content":
					if once(&seen, 1) {
						text, _ = m.Value.(string)
					}
				case "role":
					if once(&seen, 2) {
						r, _ = m.Value.(string)
					}
				case "extra":
					if once(&seen, 4) {
						extra, _ = m.Value.(jsonvalue.Object)
					}
				}
			}
			switch {
			case hasAny(extra, "actions", "returncode", "interrupt_type", "exit_status"), r == "exit":
				return decisive
			case miniSWEText(r, text):
				return decisive
			}
			return no
		}),
	})
}

// miniSWEText reports a message that only mini-swe-agent writes, by its
// role and text: an action in its fence or tags, or an observation of a
// return code.
func miniSWEText(role, text string) bool {
	switch role {
	case "assistant":
		// Most such messages carry tool calls and no text at all.
		return len(text) >= len("<mswea_bash_command>") && (strings.Contains(text, "```mswea_bash_command") || strings.Contains(text, "<mswea_bash_command>"))
	case "user":
		return strings.HasPrefix(text, "<returncode>")
	}
	return false
}

// readMiniSWEAgent reads a mini-swe-agent trajectory: the .traj.json a
// run writes ({"info", "messages", "trajectory_format": "mini-swe-agent-
// 1.1"}), or its bare list of messages.
//
// With tool calling (mini-swe-agent 2's default), an assistant message's
// tool_calls are the calls (the bash tool) and role "tool" messages their
// results; with the Responses API, function_call items and their
// function_call_output. A text-based agent writes its action as text:
// each assistant message holds one fenced command (```mswea_bash_command,
// ```bash before version 2, or <mswea_bash_command> tags; a run's own
// action_regex, kept in info.config, is used when it has one), read as
// one call of a tool named "bash" with arguments {"command": <the
// command>} and no id, as the agent runs it. The actions the agent
// parsed, kept in the message's extra.actions, are read instead when
// present. The next user message is its output. A message without
// exactly one command is a format error the agent ran nothing for: it is
// listed as skipped, and the agent's reply to it is no result.
//
// A result fails when its return code (extra.returncode, or the
// <returncode> the observation shows) is not 0. The first user message
// (the task) opens a turn, as do the user's own words when interrupting;
// observations, format errors, commands the user ran himself and the
// final exit message do not.
func readMiniSWEAgent(b *builder, v any) error {
	r := miniReader{b: b}
	msgs, path := v, ""
	if o, ok := v.(jsonvalue.Object); ok {
		if m, ok := get(o, "messages").([]any); ok {
			msgs, path = m, "messages"
			config := obj(obj(o, "info"), "config")
			re, _ := first(obj(config, "model"), "action_regex")
			if s, ok := re.(string); ok {
				r.custom, _ = regexp.Compile("(?s)" + s)
			} else if s, ok := get(obj(config, "agent"), "action_regex").(string); ok {
				r.custom, _ = regexp.Compile("(?s)" + s)
			}
		} else {
			msgs = []any{o}
		}
	}
	list, ok := msgs.([]any)
	if !ok {
		return wantError(`a mini-swe-agent trajectory {"info", "messages"} or its list of messages`, v)
	}
	for i, m := range list {
		o, ok := m.(jsonvalue.Object)
		if !ok {
			return fieldError(index(path, i), "want a message object, got %s", jsonvalue.Kind(m))
		}
		if err := r.message(o, index(path, i)); err != nil {
			return err
		}
	}
	return nil
}

// A miniReader reads the messages of one trajectory in order.
type miniReader struct {
	b      *builder
	custom *regexp.Regexp // the run's action_regex, if any
	// awaiting says what the next user message answers: a call of the
	// model (result), a format error (feedback), or a command the user ran
	// (human).
	awaiting string
}

// miniActions are the default action patterns, newest first.
var miniActions = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile("(?s)```mswea_bash_command\\s*\\n(.*?)\\n```"),
		regexp.MustCompile("(?s)<mswea_bash_command>(.*?)</mswea_bash_command>"),
		regexp.MustCompile("(?s)```bash\\s*\\n(.*?)\\n```"),
	}
})

func (r *miniReader) message(o jsonvalue.Object, path string) error {
	b := r.b
	extra := obj(o, "extra")
	switch role, t := str(o, "role"), str(o, "type"); {
	case role == "assistant" && o.Has("tool_calls"):
		r.awaiting = ""
		b.read(extra) // the actions parsed from the calls, the raw response
		return chatMessage(b, o, path)
	case role == "assistant":
		return r.assistant(o, extra, path)
	case t == "function_call_output":
		b.saw()
		b.link(path, id(get(o, "call_id")), "", get(o, "output"), miniFailed(o))
	case get(o, "object") == "response" || o.Has("output") && !o.Has("role"): // a Responses API reply
		r.awaiting = ""
		b.saw()
		b.read(extra)
		items, _ := get(o, "output").([]any)
		for j, it := range items {
			if item, ok := it.(jsonvalue.Object); ok && str(item, "type") != "message" {
				if err := responsesItem(b, item, index(join(path, "output"), j)); err != nil {
					return err
				}
			}
		}
	case role == "tool":
		b.saw()
		b.link(path, id(get(o, "tool_call_id")), "", get(o, "content"), miniFailed(o))
	case role == "user":
		r.user(o, extra, path)
	case role == "system" || role == "exit":
		b.saw()
	default:
		b.skip(o, path, "message with role %q", role)
	}
	return nil
}

// assistant reads a text-based assistant message: its action, from
// extra.actions or the fenced command in its text.
func (r *miniReader) assistant(o, extra jsonvalue.Object, path string) error {
	b := r.b
	b.saw()
	if actions, ok := get(extra, "actions").([]any); ok {
		b.read(extra)
		for j, a := range actions {
			cmd, ok := get(a, "command").(string)
			if !ok {
				return fieldError(index(join(path, "extra.actions"), j), "want an action with its command")
			}
			b.add(nil, toolgrade.Call{Name: "bash", ID: id(get(a, "tool_call_id")), Args: jsonvalue.Object{{Key: "command", Value: cmd}}})
		}
		r.awaiting = "result"
		return nil
	}
	text := miniText(get(o, "content"))
	var found []string
	for _, re := range append([]*regexp.Regexp{r.custom}, miniActions()...) {
		if re == nil {
			continue
		}
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			found = append(found, strings.TrimSpace(m[min(1, len(m)-1)])) // the group, else the match
		}
		if len(found) > 0 {
			break
		}
	}
	if len(found) != 1 {
		r.awaiting = "feedback"
		b.skip(o, path, "assistant message with %d commands, not one (a format error: the agent ran none)", len(found))
		return nil
	}
	b.add(nil, toolgrade.Call{Name: "bash", Args: jsonvalue.Object{{Key: "command", Value: found[0]}}})
	r.awaiting = "result"
	return nil
}

// user reads a user message: an observation, a format error, a command
// the user ran, or words of the user's own, which open a turn.
func (r *miniReader) user(o, extra jsonvalue.Object, path string) {
	b := r.b
	awaiting := r.awaiting
	r.awaiting = ""
	switch it := str(extra, "interrupt_type"); {
	case it == "FormatError":
		b.saw()
	case it != "":
		b.saw()
		b.userTurn(get(o, "content")) // the user interrupted, with words of his own
	case has(extra, "actions"):
		b.saw()
		b.read(extra) // a command the user ran himself: its output is no call's
		r.awaiting = "human"
	case awaiting == "result":
		b.link(path, "", "bash", get(o, "content"), miniFailed(o))
	case awaiting != "" || hasAny(extra, "returncode", "raw_output"):
		b.saw()
	default:
		b.saw()
		b.userTurn(get(o, "content"))
	}
}

// miniText returns a message's text: its content, or the text of its
// parts.
func miniText(content any) string {
	if s, ok := content.(string); ok {
		return s
	}
	var texts []string
	for _, p := range asList(content) {
		if s, ok := get(p, "text").(string); ok {
			texts = append(texts, s)
		}
	}
	return strings.Join(texts, "\n")
}

var miniReturnCode = lazyregexp.New(`^\s*<returncode>\s*(-?\d+)\s*</returncode>`)

// miniFailed reports an observation of a command that failed: its return
// code, in extra or in the text, is not 0.
func miniFailed(o jsonvalue.Object) bool {
	if n, ok := get(obj(o, "extra"), "returncode").(json.Number); ok {
		return n != "0"
	}
	content := get(o, "content")
	if content == nil {
		content = get(o, "output")
	}
	if m := miniReturnCode.FindStringSubmatch(miniText(content)); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n != 0
	}
	return false
}
