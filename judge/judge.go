// Package judge asks a language model for verdicts that code cannot give:
// whether the tools an agent called were the best choice among those
// available, whether a call's arguments fit the user's request.
//
// It defines the [Judge] interface, toolgrade's versioned prompts
// ([Prompts]), the judged metrics ([ToolSelectionMetric],
// [ArgumentCorrectnessMetric], [MinToolSelection]) and the reading of a
// judge's reply ([ParseVerdict]). It sends nothing itself: package openai
// implements Judge over any OpenAI-compatible endpoint.
//
// A judge answers each prompt with a JSON object
//
//	{"score": <number in [0, 1]>, "reason": "<why>"}
//
// and a failed judgment (an HTTP error after retries, a timeout, a reply
// that is not such an object, a score out of range) is an error result for
// the case, never a default score.
//
// A prompt's wording is versioned: a change to its text, or to how its
// reply is read, changes its version, which every request carries.
//
// Non-goals: HTTP, retries and caching (package openai's), and judging
// what code can check (names, arguments against schemas, order), which
// the deterministic metrics do.
package judge

import (
	"context"

	"github.com/toolgrade/toolgrade"
)

// A Judge answers one prompt with a verdict. Implementations must be safe
// for concurrent use. A failed judgment is an error, never a default score;
// the Verdict returned with an error may still carry the Usage spent.
//
// A metric that asks several prompts about one case (argument_correctness,
// one a call) asks them at once: as many as the judge's method
//
//	Concurrency() int
//
// says it answers at once (package openai's judge: its client's bound on
// requests in flight), or 8 when it has no such method. A judge that
// answers without waiting may say 1, to be asked one prompt after
// another.
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
