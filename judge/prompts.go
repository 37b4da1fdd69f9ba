package judge

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/schema"
)

// Prompt versions. A version is part of every cache key, so any change to
// a prompt's text, or to how its reply is read, must change its version.
const (
	ToolSelectionPrompt       = "tool_selection/v1"
	ArgumentCorrectnessPrompt = "argument_correctness/v1"
)

// A Prompt is one of toolgrade's judge prompts, as `toolgrade prompts`
// shows it.
type Prompt struct {
	Task    string // what is judged: "tool_selection", "argument_correctness"
	Version string
	System  string
	// User is the user message with <placeholders> where a case's parts go.
	User string
}

// Prompts returns every judge prompt.
func Prompts() []Prompt {
	const (
		input = "<the case's input>"
		tools = "<the available tools, as the case gives them>"
		calls = "<each call made: #index name arguments>"
	)
	return []Prompt{
		{"tool_selection", ToolSelectionPrompt, toolSelectionSystem, toolSelectionUser(input, tools, calls)},
		{"argument_correctness", ArgumentCorrectnessPrompt, argumentCorrectnessSystem,
			argumentCorrectnessUser(input, tools, calls, "<the call to grade: #index name arguments>")},
	}
}

const toolSelectionSystem = `You grade whether an AI agent chose the right tools for a user's request.
You are given the user's input, the tools that were available, and the tool calls the agent made.
Judge only the choice of tools, not their arguments and not the final answer.
Score on this scale:
1    the calls are the best choice among the available tools: nothing needed is missing, nothing unneeded was called
0.75 the choice is good with a minor flaw: one unneeded call, or a slightly less suitable tool
0.5  the choice is partly right: a needed tool is missing, or several unneeded calls
0.25 the choice is mostly wrong: most calls are unneeded or unsuitable
0    the choice is wrong: no suitable tool called although one was available, or only unsuitable tools
Answer with a JSON object only: {"score": <one of 0, 0.25, 0.5, 0.75, 1>, "reason": "<one or two sentences>"}`

func toolSelectionUser(input, tools, calls string) string {
	return "User input:\n" + input +
		"\n\nAvailable tools:\n" + tools +
		"\n\nTool calls made, in order:\n" + calls
}

const argumentCorrectnessSystem = `You grade whether an AI agent passed the right arguments in one tool call, for a user's request.
You are given the user's input, the tools that were available, every tool call the agent made, and the one call to grade.
Judge only the arguments of that call: are they what the input asks for and what the tool needs? Do not judge whether calling the tool was a good choice.
Score 1 when the arguments are right, or when the input does not say enough to tell that they are wrong.
Score 0 when an argument is wrong, missing, or made up.
Answer with a JSON object only: {"score": <1 or 0>, "reason": "<one or two sentences>"}`

func argumentCorrectnessUser(input, tools, calls, call string) string {
	return toolSelectionUser(input, tools, calls) + "\n\nCall to grade:\n" + call
}

// ToolSelection asks the judge whether the calls in c were the best choice
// among c's available tools, for c's input.
func ToolSelection(ctx context.Context, j Judge, c *toolgrade.Case) (Verdict, error) {
	if j == nil {
		return Verdict{}, errNoJudge
	}
	return j.Judge(ctx, Request{
		Task:          "tool_selection",
		PromptVersion: ToolSelectionPrompt,
		System:        toolSelectionSystem,
		User:          toolSelectionUser(text(c.Input), toolsText(schema.Definitions(c)), callsText(c.Called)),
	})
}

// ArgumentCorrectness asks the judge whether call i of c.Called has the
// right arguments for c's input.
func ArgumentCorrectness(ctx context.Context, j Judge, c *toolgrade.Case, i int) (Verdict, error) {
	if j == nil {
		return Verdict{}, errNoJudge
	}
	if i < 0 || i >= len(c.Called) {
		return Verdict{}, errors.New("no call #" + strconv.Itoa(i))
	}
	return j.Judge(ctx, newArgumentPrompts(c).request(i))
}

// argumentPrompts builds the argument_correctness prompts of a case's
// calls, which differ only in the call to grade: the rest of the text is
// made once.
type argumentPrompts struct {
	calls                []toolgrade.Call
	input, tools, called string
}

func newArgumentPrompts(c *toolgrade.Case) *argumentPrompts {
	return &argumentPrompts{c.Called, text(c.Input), toolsText(schema.Definitions(c)), callsText(c.Called)}
}

// request returns the prompt about call i.
func (p *argumentPrompts) request(i int) Request {
	return Request{
		Task:          "argument_correctness",
		PromptVersion: ArgumentCorrectnessPrompt,
		System:        argumentCorrectnessSystem,
		User:          argumentCorrectnessUser(p.input, p.tools, p.called, callText(i, &p.calls[i])),
	}
}

var errNoJudge = errors.New("no judge configured")

func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if v == nil {
		return "(none)"
	}
	return string(jsonvalue.Append(nil, v))
}

func toolsText(v any) string {
	if !hasTools(v) {
		return "(not given)"
	}
	return text(v)
}

func callsText(calls []toolgrade.Call) string {
	if len(calls) == 0 {
		return "(none)"
	}
	var b strings.Builder
	for i := range calls {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(callText(i, &calls[i]))
	}
	return b.String()
}

func callText(i int, c *toolgrade.Call) string {
	s := "#" + strconv.Itoa(i) + " " + c.Name + " "
	if c.Invalid {
		return s + c.ArgsRaw + " (arguments are not valid JSON)"
	}
	return s + string(jsonvalue.Append(nil, c.Args))
}

// hasTools reports whether v lists at least one tool definition.
func hasTools(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case []any:
		return len(v) > 0
	case jsonvalue.Object:
		return len(v) > 0
	case string:
		return strings.TrimSpace(v) != ""
	}
	return true
}
