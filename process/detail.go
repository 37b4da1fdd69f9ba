package process

import (
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A RuleCheck is one process rule and its verdict: the rule as written,
// whether it was kept, and the called calls (by index) that broke it.
type RuleCheck struct {
	Rule     string
	Kept     bool
	Breaches []int
	Reason   string // why it was broken, in words; empty when kept
}

// RuleChecks are the verdicts on the rules a metric checked, in rule
// order: the detail of tool_process's results (see [toolgrade.Detail]).
// They are written as "rules", a list of {"rule", "kept", "breaches",
// "reason"}, reason only when set. Read them with
// toolgrade.DetailOf[process.RuleChecks](r).
type RuleChecks []RuleCheck

func (RuleChecks) Member() string                 { return "rules" }
func (RuleChecks) Place() toolgrade.Place         { return toolgrade.AfterMatches }
func (c RuleChecks) AppendJSON(dst []byte) []byte { return ruleChecksCodec.Append(dst, &c) }

var ruleChecksCodec = jsonvalue.List[RuleChecks](jsonvalue.Struct(
	jsonvalue.NewField("rule", func(c *RuleCheck) *string { return &c.Rule }, jsonvalue.String),
	jsonvalue.NewField("kept", func(c *RuleCheck) *bool { return &c.Kept }, jsonvalue.Bool),
	jsonvalue.NewField("breaches", func(c *RuleCheck) *[]int { return &c.Breaches }, jsonvalue.List[[]int](jsonvalue.Int)),
	jsonvalue.NewField("reason", func(c *RuleCheck) *string { return &c.Reason }, jsonvalue.String).OmitZero(),
))

func init() { toolgrade.RegisterDetail(ruleChecksCodec.Decode) }
