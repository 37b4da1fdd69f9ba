package toolgrade

// A FieldReader is a [Metric] that says which fields of a case it reads,
// so that a run can tell a case that sets a field none of its metrics
// reads (process rules without the tool_process metric, say) instead of
// passing it as if the field had been checked. Every metric of toolgrade's
// own is one.
//
// A FieldReader that reads a list of calls as the case wrote it, from
// [Case.Raw] in its peer's own shape, rather than as toolgrade decodes it
// into Case.Called and Case.Expected, also says which: see
// [WrittenFields].
type FieldReader interface {
	Metric
	// CaseFields lists the fields of the case format (docs/cases.md)
	// whose values the metric's results depend on, by their names there:
	// "tools_called", "expected_tools", "process", .... Calls given as a
	// trajectory count as tools_called and expected_tools; a metric that
	// reads the trace itself names trajectory. A peer's own fields go by
	// their own names ("invocations", "possible_answer").
	CaseFields() []string
}

// CaseFields returns the case fields m reads (see [FieldReader]); nil when
// m does not say.
func CaseFields(m Metric) []string {
	if r, ok := m.(FieldReader); ok {
		return r.CaseFields()
	}
	return nil
}

// WrittenFields returns the fields among m's CaseFields that m reads as
// the case wrote them, from [Case.Raw] under that very key, rather than as
// toolgrade decodes them: evalite's tools_called, say, where a call
// without a name is data, or Mastra's expected_trajectory, where an
// expectation of budgets alone ({"maxSteps": 3}, or {}) is no trace. A
// metric says so with a method WrittenFields() []string; nil when it does
// not. A list of calls or a trajectory there that does not decode as
// toolgrade's is left to such metrics, its calls empty, when no other
// metric of the run reads those calls (package dataset); a metric that
// reads them as toolgrade's calls keeps the case an error.
func WrittenFields(m Metric) []string {
	if r, ok := m.(interface{ WrittenFields() []string }); ok {
		return r.WrittenFields()
	}
	return nil
}

// CaseFields returns the fields the named metric reads.
func (n named) CaseFields() []string { return CaseFields(n.Metric) }

// WrittenFields returns the fields the named metric reads as written.
func (n named) WrittenFields() []string { return WrittenFields(n.Metric) }
