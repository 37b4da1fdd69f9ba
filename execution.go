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

// An Execution is one called call run against a live tool server, as the
// execution_success metric and DeepFabric's profile (execution: mcp)
// record it.
type Execution struct {
	Call    int    // the index of the call among the case's calls
	Name    string // the tool called
	Success bool   // the call ran and the tool reported no error
	// Skipped says why the call was not run and does not count (a tool
	// left out of the allow-list); empty when it counts.
	Skipped string
	// Error is the server's error, the tool's reported failure, or why the
	// call was not run ("no such tool ..."); empty on success.
	Error string
	// Output is the call's real result (see [ToolResult.Output]); nil
	// when there was none.
	Output any
}
