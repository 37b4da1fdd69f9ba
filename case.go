package toolgrade

import "github.com/toolgrade/toolgrade/jsonvalue"

// A Case is one graded example: what the agent was asked, what it called,
// and what it should have called.
type Case struct {
	ID     string
	Source string // the file the case came from ("-" for stdin), if any
	Line   int    // the line the case starts on in Source, if any

	Input          any // the user's query: a string, or a list of content parts
	ActualOutput   any // the agent's final answer, if given
	ExpectedOutput any // the expected final answer, if given

	Called   []Call // what the agent called, in order
	Expected []Call // what it should have called

	// Trajectory and ExpectedTrajectory keep raw traces as given; Called and
	// Expected were extracted from them when not given directly.
	Trajectory         any
	ExpectedTrajectory any
	// Warnings say what the case's input held that was not understood,
	// such as trace items the reader skipped; results repeat them.
	Warnings []string

	// AvailableTools holds the tool definitions as given, in any common
	// shape; package schema reads them into Tools.
	AvailableTools any

	// Raw is the whole record as read, for profiles that need fields of
	// their own (a peer's invocations, BFCL's possible answers).
	Raw jsonvalue.Object
}

// Decode returns the case itself, so that cases built in code can be passed
// to [Evaluate] as records.
func (c *Case) Decode() (*Case, error) { return c, nil }

// A Tool is a tool definition: a name, a description and the JSON Schema of
// its arguments (and of its result, where the definition gives one).
type Tool struct {
	Name         string
	Description  string
	Parameters   any // JSON Schema in the value model; nil when none is given
	OutputSchema any // JSON Schema of the result (MCP outputSchema), if any
}
