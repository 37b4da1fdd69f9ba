package execution

import (
	"errors"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// An Outcome is one called call run against a live tool server, as the
// execution_success metric and DeepFabric's profile (execution: mcp)
// record it.
type Outcome struct {
	Call    int    // the index of the call among the case's calls
	Name    string // the tool called
	Success bool   // the call ran and the tool reported no error
	// Skipped says why the call was not run and does not count (a tool
	// left out of the allow-list); empty when it counts.
	Skipped string
	// Error is the server's error, the tool's reported failure, or why the
	// call was not run ("no such tool ..."); empty on success.
	Error string
	// Output is the call's real result (see [toolgrade.ToolResult.Output]);
	// nil when there was none.
	Output any
}

// Outcomes are the outcomes of a case's calls, in order: the detail of
// the results of metrics that run calls (see [toolgrade.Detail]). They
// are written as "executions", a list of {"call", "name", "success",
// "skipped", "error", "output"}: success is null for a skipped call,
// skipped appears only for one, and error is null on success. Read them
// with toolgrade.DetailOf[execution.Outcomes](r).
type Outcomes []Outcome

func (Outcomes) Member() string                 { return "executions" }
func (Outcomes) Place() toolgrade.Place         { return toolgrade.AfterReason }
func (o Outcomes) AppendJSON(dst []byte) []byte { return outcomesCodec.Append(dst, &o) }

var outcomesCodec = jsonvalue.List[Outcomes](jsonvalue.Checked(jsonvalue.Struct(
	jsonvalue.NewField("call", func(o *Outcome) *int { return &o.Call }, jsonvalue.Int),
	jsonvalue.NewField("name", func(o *Outcome) *string { return &o.Name }, jsonvalue.String),
	jsonvalue.NewField("success", func(o *Outcome) *Outcome { return o }, jsonvalue.NewCodec(
		func(b []byte, o *Outcome) []byte {
			if o.Skipped != "" {
				return append(b, "null"...)
			}
			return jsonvalue.Bool.Append(b, &o.Success)
		},
		func(x any, o *Outcome) error {
			if x == nil {
				return nil // checked below
			}
			return jsonvalue.Bool.Decode(x, &o.Success)
		})),
	jsonvalue.NewField("skipped", func(o *Outcome) *string { return &o.Skipped }, jsonvalue.String).OmitZero(),
	jsonvalue.NewField("error", func(o *Outcome) *string { return &o.Error }, jsonvalue.OrNull(jsonvalue.String)),
	jsonvalue.NewField("output", func(o *Outcome) *any { return &o.Output }, jsonvalue.Value),
), func(o *Outcome, x any) error {
	success, _ := x.(jsonvalue.Object).Get("success")
	switch {
	case o.Skipped != "" && success != nil:
		return jsonvalue.Within("success", errors.New("want null for a skipped call"))
	case o.Skipped == "" && success == nil:
		return jsonvalue.Within("success", errors.New("want a boolean for a call that counts"))
	}
	return nil
}))

func init() { toolgrade.RegisterDetail(outcomesCodec.Decode) }
