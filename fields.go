package toolgrade

// A FieldReader is a [Metric] that says which fields of a case it reads,
// so that a run can tell a case that sets a field none of its metrics
// reads (process rules without the tool_process metric, say) instead of
// passing it as if the field had been checked. Every metric of toolgrade's
// own is one.
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

// CaseFields returns the fields the named metric reads.
func (n named) CaseFields() []string { return CaseFields(n.Metric) }
