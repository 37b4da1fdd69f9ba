package match

import (
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// The details of [ToolCorrectness]'s results (see [toolgrade.Detail]),
// each set only when there is something to say: the failed and retried
// calls of a case whose calls carry a status, the turn scores of a case
// graded turn by turn, the data-flow links of expected calls with from
// rules, and the near misses the reason words. Read one with
// toolgrade.DetailOf[match.Turns](r).

// Failed lists the called calls (by index) that failed. It is written as
// "failed".
type Failed []int

// Retried lists the failed calls (by index) that a later call of the same
// tool retried. It is written as "retried".
type Retried []int

// Turns holds the score of each turn of a case graded turn by turn (see
// [toolgrade.Case.Turns]). It is written as "turns", a list of {"turn",
// "score", "success", "expected", "called"}.
type Turns []TurnScore

// A TurnScore is one turn's share of a case graded turn by turn.
type TurnScore struct {
	Turn    int // from 1
	Score   float64
	Success bool // Score reaches the metric's threshold
	// Expected and Called list the turn's calls by their index in the
	// case's lists.
	Expected, Called []int
}

// Flows are the data-flow links an expected call's {"from": ...} rule
// checked: where an argument had to come from, and whether it did. They
// are written as "flows", a list of {"from", "to", "arg", "ref", "ok"}.
type Flows []Flow

// A Flow is one argument that had to carry a value from an earlier
// call's output: called call To's argument Arg against the output of
// called call From (-1 when the expected source call was not made) at
// Ref.
type Flow struct {
	From, To int
	Arg      string // the argument's path
	Ref      string // the reference as written ("lookup_order.output.id")
	OK       bool
}

// NearMisses pair a missing expected call with the unpaired called call
// the reason names as closest to it, with their differences: a call with
// a wrong argument under exact comparison scores 0, so it is no match,
// but what differed is still there to read. They are not written:
// results files keep them in the reason's words.
type NearMisses []toolgrade.Match

func (Failed) Member() string     { return "failed" }
func (Retried) Member() string    { return "retried" }
func (Turns) Member() string      { return "turns" }
func (Flows) Member() string      { return "flows" }
func (NearMisses) Member() string { return "near_misses" }

func (Failed) Place() toolgrade.Place     { return toolgrade.AfterMatches }
func (Retried) Place() toolgrade.Place    { return toolgrade.AfterMatches }
func (Turns) Place() toolgrade.Place      { return toolgrade.AfterMatches }
func (Flows) Place() toolgrade.Place      { return toolgrade.AfterMatches }
func (NearMisses) Place() toolgrade.Place { return toolgrade.Unwritten }

func (f Failed) AppendJSON(b []byte) []byte   { return failedCodec.Append(b, &f) }
func (r Retried) AppendJSON(b []byte) []byte  { return retriedCodec.Append(b, &r) }
func (t Turns) AppendJSON(b []byte) []byte    { return turnsCodec.Append(b, &t) }
func (f Flows) AppendJSON(b []byte) []byte    { return flowsCodec.Append(b, &f) }
func (NearMisses) AppendJSON(b []byte) []byte { return b }

var (
	failedCodec  = jsonvalue.List[Failed](jsonvalue.Int)
	retriedCodec = jsonvalue.List[Retried](jsonvalue.Int)
	ints         = jsonvalue.List[[]int](jsonvalue.Int)
	turnsCodec   = jsonvalue.List[Turns](jsonvalue.Struct(
		jsonvalue.NewField("turn", func(t *TurnScore) *int { return &t.Turn }, jsonvalue.Int),
		jsonvalue.NewField("score", func(t *TurnScore) *float64 { return &t.Score }, jsonvalue.Float),
		jsonvalue.NewField("success", func(t *TurnScore) *bool { return &t.Success }, jsonvalue.Bool),
		jsonvalue.NewField("expected", func(t *TurnScore) *[]int { return &t.Expected }, ints),
		jsonvalue.NewField("called", func(t *TurnScore) *[]int { return &t.Called }, ints),
	))
	flowsCodec = jsonvalue.List[Flows](jsonvalue.Struct(
		jsonvalue.NewField("from", func(f *Flow) *int { return &f.From }, jsonvalue.Int),
		jsonvalue.NewField("to", func(f *Flow) *int { return &f.To }, jsonvalue.Int),
		jsonvalue.NewField("arg", func(f *Flow) *string { return &f.Arg }, jsonvalue.String),
		jsonvalue.NewField("ref", func(f *Flow) *string { return &f.Ref }, jsonvalue.String),
		jsonvalue.NewField("ok", func(f *Flow) *bool { return &f.OK }, jsonvalue.Bool),
	))
)

func init() {
	toolgrade.RegisterDetail(failedCodec.Decode)
	toolgrade.RegisterDetail(retriedCodec.Decode)
	toolgrade.RegisterDetail(turnsCodec.Decode)
	toolgrade.RegisterDetail(flowsCodec.Decode)
}
