// Package judge asks a language model for verdicts that code cannot give,
// such as whether the tools an agent called were the best choice among
// those available. It defines the [Judge] interface and toolgrade's prompts;
// it imports no SDK. Package judge/openai implements Judge over any
// OpenAI-compatible endpoint.
package judge

import (
	"context"

	"github.com/toolgrade/toolgrade"
)

// A Judge answers one prompt with a verdict. Implementations must be safe
// for concurrent use. A failed judgment is an error, never a default score.
type Judge interface {
	Judge(ctx context.Context, req Request) (Verdict, error)
}

// A Request is one prompt for the judge.
type Request struct {
	// Task names what is judged ("tool_selection", ...); PromptVersion
	// versions its prompt, so that caches and reports can tell prompts
	// apart.
	Task          string
	PromptVersion string
	System        string
	User          string
}

// A Verdict is the judge's answer: a score in [0, 1] and why.
type Verdict struct {
	Score  float64
	Reason string
	Usage  toolgrade.Usage
}
