package toolgrade

import "context"

// A ToolServer runs tool calls for real: an MCP server, reached by package
// mcp. Metrics that execute calls and the runner's live tools use it.
// Implementations must be safe for concurrent use.
type ToolServer interface {
	// Tools lists the server's tool definitions.
	Tools(ctx context.Context) ([]Tool, error)
	// Session opens a fresh session, so that no state passes from one
	// case to the next. The caller closes it.
	Session(ctx context.Context) (ToolSession, error)
}

// A ToolSession is one session with a [ToolServer]. Its calls run one
// after another.
type ToolSession interface {
	// Call runs one tool call with the given arguments (a JSON object in
	// the value model, or nil for none). An error means the call got no
	// result: the tool does not exist, the server rejected the request,
	// crashed or did not answer in time. A tool that ran and reported a
	// failure gives a result with IsError set.
	Call(ctx context.Context, name string, args any) (ToolResult, error)
	// Close ends the session.
	Close() error
}

// A ToolResult is what a tool call returned.
type ToolResult struct {
	// Output is the result as a value: the structured result when the
	// tool gives one, else the text of its content (joined when there are
	// several text parts), else its content list.
	Output any
	// Text is the result as a model reads it: the text parts, and other
	// parts as JSON.
	Text string
	// IsError is set when the tool reported a failure; Text says why.
	IsError bool
}
