package judge

import (
	"context"
	"errors"
	"strings"

	"github.com/toolgrade/toolgrade"
)

// ToolSelectionPrompt is the version of the tool-selection prompt; it is
// part of every cache key, so changing the prompt must change it.
const ToolSelectionPrompt = "tool_selection/v1"

const toolSelectionSystem = `You grade whether an AI agent chose the right tools for a user's request.
You are given the user's input, the tools that were available, and the tool calls the agent made.
Judge only the choice of tools, not the quality of the final answer.
Score on this scale:
1    the calls are the best choice among the available tools: nothing needed is missing, nothing unneeded was called
0.75 the choice is good with a minor flaw: one unneeded call, or a slightly less suitable tool
0.5  the choice is partly right: a needed tool is missing, or several unneeded calls
0.25 the choice is mostly wrong: most calls are unneeded or unsuitable
0    the choice is wrong: no suitable tool called although one was available, or only unsuitable tools
Answer with a JSON object only: {"score": <one of 0, 0.25, 0.5, 0.75, 1>, "reason": "<one or two sentences>"}`

// ToolSelection asks the judge whether the calls in c were the best choice
// among c's available tools, for c's input.
func ToolSelection(ctx context.Context, j Judge, c *toolgrade.Case) (Verdict, error) {
	if j == nil {
		return Verdict{}, errors.New("no judge configured")
	}
	var b strings.Builder
	b.WriteString("User input:\n")
	writeValue(&b, c.Input)
	b.WriteString("\n\nAvailable tools:\n")
	writeValue(&b, c.AvailableTools)
	b.WriteString("\n\nTool calls made, in order:\n")
	if len(c.Called) == 0 {
		b.WriteString("(none)\n")
	}
	for _, call := range c.Called {
		b.WriteString("- ")
		b.WriteString(call.Name)
		b.WriteString(" ")
		if call.Invalid {
			b.WriteString(call.ArgsRaw)
		} else {
			b.Write(toolgrade.AppendJSON(nil, call.Args))
		}
		b.WriteString("\n")
	}
	return j.Judge(ctx, Request{
		Task:          "tool_selection",
		PromptVersion: ToolSelectionPrompt,
		System:        toolSelectionSystem,
		User:          b.String(),
	})
}

func writeValue(b *strings.Builder, v any) {
	if s, ok := v.(string); ok {
		b.WriteString(s)
		return
	}
	b.Write(toolgrade.AppendJSON(nil, v))
}
