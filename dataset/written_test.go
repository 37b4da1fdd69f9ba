package dataset_test

import (
	"context"
	"iter"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// fieldMetric is a metric that says which fields it reads, and which of
// them as written. It scores the length of tools_called as written, or 1
// when it does not read it so.
type fieldMetric struct{ fields, written []string }

func (fieldMetric) Name() string              { return "fields" }
func (fieldMetric) Profile() string           { return "test" }
func (m fieldMetric) CaseFields() []string    { return m.fields }
func (m fieldMetric) WrittenFields() []string { return m.written }
func (m fieldMetric) Grade(_ context.Context, c *toolgrade.Case) toolgrade.MetricResult {
	l, ok := c.Raw.Get("tools_called")
	if list, isList := l.([]any); ok && isList && len(m.written) > 0 {
		return toolgrade.MetricResult{Name: "fields", Score: float64(len(list))}
	}
	return toolgrade.MetricResult{Name: "fields", Score: 1}
}

// silentMetric does not say which fields it reads.
type silentMetric struct{}

func (silentMetric) Name() string    { return "silent" }
func (silentMetric) Profile() string { return "test" }
func (silentMetric) Grade(context.Context, *toolgrade.Case) toolgrade.MetricResult {
	return toolgrade.MetricResult{Name: "silent", Score: 1}
}

// TestWrittenFields checks that a list of calls or a trajectory that does
// not decode is left to the metrics that read it as written, and is the error it always
// was when any metric of the run reads it as toolgrade's calls or does
// not say what it reads.
func TestWrittenFields(t *testing.T) {
	calls := []string{"tools_called", "expected_tools"}
	asWritten := fieldMetric{calls, calls}
	native := fieldMetric{calls, nil}
	process := fieldMetric{[]string{"process"}, nil}
	trajectories := []string{"trajectory", "expected_trajectory"}
	trajectoriesAsWritten := fieldMetric{trajectories, trajectories}
	traceReader := fieldMetric{[]string{"trajectory"}, nil}
	tests := []struct {
		name    string
		cs      string
		metrics []toolgrade.Metric
		score   float64 // of the first metric; 0: the case is an error
	}{
		{"a call without a name", `{"tools_called":[{"args":{}},{"name":"a"}],"expected_tools":[]}`, []toolgrade.Metric{asWritten}, 2},
		{"both lists, renamed", `{"tools_called":[{"name":1}],"expected_tools":[{"name":null}]}`, []toolgrade.Metric{toolgrade.Named(asWritten, "again")}, 1},
		{"not a list", `{"tools_called":"lookup","expected_tools":[]}`, []toolgrade.Metric{asWritten}, 1},
		{"a metric that reads other fields", `{"tools_called":[{"args":{}}],"expected_tools":[],"process":[]}`, []toolgrade.Metric{asWritten, process}, 1},
		{"a metric that reads the calls", `{"tools_called":[{"args":{}}],"expected_tools":[]}`, []toolgrade.Metric{asWritten, native}, 0},
		{"a metric that does not say", `{"tools_called":[{"args":{}}],"expected_tools":[]}`, []toolgrade.Metric{asWritten, silentMetric{}}, 0},
		{"no metric reads it as written", `{"tools_called":[{"args":{}}],"expected_tools":[]}`, []toolgrade.Metric{native}, 0},
		{"no metrics", `{"tools_called":[{"args":{}}],"expected_tools":[]}`, nil, 0},
		{"a field the metric reads as toolgrade's calls", `{"tools_called":[],"expected_tools":[{"args":{}}]}`, []toolgrade.Metric{fieldMetric{calls, calls[:1]}}, 0},
		{"an alias key", `{"toolsCalled":[{"args":{}}],"expected_tools":[]}`, []toolgrade.Metric{asWritten}, 0},
		{"a trace that does not read", `{"trajectory":{},"expected_tools":[]}`, []toolgrade.Metric{asWritten}, 0},
		{"trajectories that are no trace", `{"trajectory":{"ordering":"strict"},"expected_trajectory":{}}`, []toolgrade.Metric{trajectoriesAsWritten}, 1},
		{"and a metric that reads the calls", `{"trajectory":{},"expected_tools":[]}`, []toolgrade.Metric{trajectoriesAsWritten, native}, 0},
		{"and a metric that reads the trace", `{"trajectory":{},"expected_tools":[]}`, []toolgrade.Metric{trajectoriesAsWritten, traceReader}, 0},
		{"and a metric that reads other fields", `{"expected_trajectory":{"maxSteps":3},"process":[]}`, []toolgrade.Metric{trajectoriesAsWritten, process}, 1},
		{"a trajectory under an alias key", `{"agent_trajectory":{},"expected_tools":[]}`, []toolgrade.Metric{trajectoriesAsWritten}, 0},
		{"a list read as written does not leave the trajectory", `{"trajectory":{},"expected_tools":[]}`, []toolgrade.Metric{fieldMetric{append(calls, "trajectory"), calls}}, 0},
		{"a later error", `{"tools_called":[{"args":{}}],"expected_tools":[],"turns":[]}`, []toolgrade.Metric{asWritten}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := jsonvalue.ParseString(tt.cs)
			if err != nil {
				t.Fatal(err)
			}
			_, want := dataset.DecodeCase(v)
			if want == nil {
				t.Fatal("DecodeCase: want an error")
			}
			c, err := dataset.DecodeCaseFor(v, tt.metrics)
			graded := tt.score > 0
			switch {
			case graded && (err != nil || len(c.Called) > 0 || len(c.Expected) > 0):
				t.Fatalf("case %+v, error %v: want a case whose calls are left empty", c, err)
			case !graded && (c != nil || err == nil || tt.name != "a later error" && err.Error() != want.Error()):
				t.Fatalf("case %+v, error %v: want the error %q", c, err, want)
			}
			// Through the readers, as toolgrade eval reads a case file:
			// with the Source's metrics, or set by RecordsFor.
			for way, recs := range map[string]iter.Seq2[toolgrade.Record, error]{
				"Source.Metrics": dataset.Source{Metrics: tt.metrics}.Reader("cases.jsonl", strings.NewReader(tt.cs+"\n"), dataset.JSONL),
				"RecordsFor":     dataset.RecordsFor(tt.metrics, dataset.Reader("cases.jsonl", strings.NewReader(tt.cs+"\n"), dataset.JSONL)),
			} {
				var results []*toolgrade.Result
				if err := toolgrade.Evaluate(context.Background(), recs, tt.metrics, func(r *toolgrade.Result) error {
					results = append(results, r)
					return nil
				}, toolgrade.CheckCases((&dataset.Checker{}).CheckCase)); err != nil {
					t.Fatal(err)
				}
				r := results[0]
				if graded != (r.Error == "") || graded && r.Metrics[0].Score != tt.score {
					t.Fatalf("%s: error %q, metrics %+v: want graded %v (score %v)", way, r.Error, r.Metrics, graded, tt.score)
				}
				if !graded && !strings.HasPrefix(r.Error, "cases.jsonl:1: field ") {
					t.Errorf("%s: error %q does not name the file, line and field", way, r.Error)
				}
			}
		})
	}
}
