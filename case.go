package toolgrade

import "github.com/toolgrade/toolgrade/jsonvalue"

// A Case is one graded example: what the agent was asked, what it called,
// and what it should have called.
type Case struct {
	ID string
	// Trial is the case's index, from 1, among the repeated runs of the
	// case with the same ID (its "trial" field); 0 when not given.
	// Results with the same ID are trials of one case either way; the
	// index only numbers them.
	Trial  int
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

	// Turns holds the conversation's turns, when known: each turn's input
	// and answers. Calls say which turn they belong to in Call.Turn (turn
	// i+1 is Turns[i]). A case is graded turn by turn when its expected
	// calls name their turns (see [Case.ByTurn]).
	Turns []Turn

	// Raw is the whole record as read. Metrics read the fields that are
	// theirs alone from it: the tool definitions (package schema reads
	// them for every metric that needs them), process rules (package
	// process), states (package state), a peer's invocations, BFCL's
	// possible answers. A case built in code gives such fields here, by
	// their names in the case format ({"available_tools": [...]}); [Grade]
	// converts their values into the JSON value model, as it does the
	// other fields'.
	Raw jsonvalue.Object
}

// Decode returns the case itself, so that cases built in code can be passed
// to [Evaluate] as records.
func (c *Case) Decode() (*Case, error) { return c, nil }

// A Turn is one exchange of a conversation: a user message and what the
// agent answered. Its calls are the case's calls with Turn set to its
// number.
type Turn struct {
	Input          any // the user's message
	ActualOutput   any // the agent's answer, if given
	ExpectedOutput any // the expected answer, if given
}

// ByTurn reports whether the case is graded turn by turn: whether any
// expected call names its turn.
func (c *Case) ByTurn() bool {
	for i := range c.Expected {
		if c.Expected[i].Turn > 0 {
			return true
		}
	}
	return false
}

// TurnCount is the number of turns of the case: the most of len(Turns)
// and every call's Turn; 0 when the case is not split into turns.
func (c *Case) TurnCount() int {
	n := len(c.Turns)
	for i := range c.Called {
		n = max(n, c.Called[i].Turn)
	}
	for i := range c.Expected {
		n = max(n, c.Expected[i].Turn)
	}
	return n
}

// A Tool is a tool definition: a name, a description and the JSON Schema of
// its arguments (and of its result, where the definition gives one).
type Tool struct {
	Name         string
	Description  string
	Parameters   any // JSON Schema in the value model; nil when none is given
	OutputSchema any // JSON Schema of the result (MCP outputSchema), if any
}
