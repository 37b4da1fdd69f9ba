package report_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/reliability"
	"github.com/toolgrade/toolgrade/report"
	"pgregory.net/rapid"
)

func TestStatsTools(t *testing.T) {
	tests := []struct {
		name             string
		expected, called string
		metric           toolgrade.MetricResult
		want             []report.ToolCounts
	}{
		{
			name:     "a full match",
			expected: `[{"name":"a"}]`, called: `[{"name":"a"}]`,
			metric: toolgrade.MetricResult{Matches: []toolgrade.Match{{Expected: 0, Called: 0, Score: 1}}},
			want:   []report.ToolCounts{{Name: "a", Expected: 1, Called: 1}},
		},
		{
			name:     "partial credit is wrong arguments",
			expected: `[{"name":"a"}]`, called: `[{"name":"a"}]`,
			metric: toolgrade.MetricResult{Matches: []toolgrade.Match{{Expected: 0, Called: 0, Score: 0.5}}},
			want:   []report.ToolCounts{{Name: "a", Expected: 1, Called: 1, WrongArgs: 1}},
		},
		{
			name:     "unpaired beside the same tool is wrong arguments",
			expected: `[{"name":"a"},{"name":"b"}]`, called: `[{"name":"a"},{"name":"c"}]`,
			metric: toolgrade.MetricResult{Matches: []toolgrade.Match{}, Missing: []int{0, 1}, Unexpected: []int{0, 1}},
			want: []report.ToolCounts{
				{Name: "a", Expected: 1, Called: 1, WrongArgs: 1},
				{Name: "b", Expected: 1, Missed: 1},
				{Name: "c", Called: 1, Extra: 1},
			},
		},
		{
			name:     "a pair of different tools is a miss and an extra",
			expected: `[{"name":"a"}]`, called: `[{"name":"b"}]`,
			metric: toolgrade.MetricResult{Matches: []toolgrade.Match{{Expected: 0, Called: 0, Score: 0.2}}},
			want:   []report.ToolCounts{{Name: "a", Expected: 1, Missed: 1}, {Name: "b", Called: 1, Extra: 1}},
		},
		{
			name:     "random suffixes name the same tool",
			expected: `[{"name":"sql_agent"}]`, called: `[{"name":"sql_agent_xg7c"}]`,
			metric: toolgrade.MetricResult{Missing: []int{0}, Unexpected: []int{0}},
			want:   []report.ToolCounts{{Name: "sql_agent", Expected: 1, WrongArgs: 1}, {Name: "sql_agent_xg7c", Called: 1}},
		},
		{
			name:     "indices out of range are ignored",
			expected: `[{"name":"a"}]`, called: `[]`,
			metric: toolgrade.MetricResult{Matches: []toolgrade.Match{{Expected: 3, Called: 9, Score: 1}}, Missing: []int{0, 7}, Unexpected: []int{5}},
			want:   []report.ToolCounts{{Name: "a", Expected: 1, Missed: 1}},
		},
		{
			name:     "a metric that does not pair counts calls only",
			expected: `[{"name":"a"}]`, called: `[{"name":"b"}]`,
			metric: toolgrade.MetricResult{Score: 1},
			want:   []report.ToolCounts{{Name: "a", Expected: 1}, {Name: "b", Called: 1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &toolgrade.Case{ID: "c", Expected: calls(t, tt.expected), Called: calls(t, tt.called)}
			var s report.Stats
			s.Add(&toolgrade.Result{ID: "c", Success: true, Metrics: []toolgrade.MetricResult{tt.metric}, Case: c})
			got, _ := s.Tools()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
		})
	}
}

// TestStatsManyTools: a run's tools are counted alike whether they are
// few (found by a scan) or many (found by a map): the tools of 100 cases,
// each calling two of n tools, sum up to what the cases named.
func TestStatsManyTools(t *testing.T) {
	for _, n := range []int{3, 32, 33, 100} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			var s report.Stats
			want := map[string]report.ToolCounts{}
			for i := range 100 {
				a, b := "tool"+strconv.Itoa(i%n), "tool"+strconv.Itoa((i*7+1)%n)
				c := &toolgrade.Case{ID: strconv.Itoa(i), Expected: calls(t, `[{"name":"`+a+`"}]`), Called: calls(t, `[{"name":"`+b+`"}]`)}
				s.Add(&toolgrade.Result{ID: c.ID, Success: true, Metrics: []toolgrade.MetricResult{{Score: 1}}, Case: c})
				ta, tb := want[a], want[b]
				ta.Name, tb.Name = a, b
				ta.Expected++
				want[a] = ta
				tb = want[b] // a and b may be one tool
				tb.Name = b
				tb.Called++
				want[b] = tb
			}
			got, _ := s.Tools()
			if len(got) != len(want) {
				t.Fatalf("%d tools, want %d", len(got), len(want))
			}
			for _, g := range got {
				if g != want[g.Name] {
					t.Errorf("%+v, want %+v", g, want[g.Name])
				}
			}
		})
	}
}

// TestStatsFailuresAreTheWorst: however many results of distinct cases
// stream by, the kept failures are exactly the Worst worst of all of
// them, in order.
func TestStatsFailuresAreTheWorst(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		limit := rapid.IntRange(1, 8).Draw(t, "limit")
		n := rapid.IntRange(0, 40).Draw(t, "results")
		s := report.Stats{Worst: limit}
		type failure struct {
			id    string
			score float64
			err   bool
			seq   int
		}
		var all []failure
		for i := range n {
			score := float64(rapid.IntRange(0, 4).Draw(t, "score")) / 4 // ties are likely
			erred := rapid.IntRange(0, 5).Draw(t, "erred") == 0
			m := toolgrade.MetricResult{Name: "m", Score: score, Threshold: toolgrade.Float(0.5), Success: score >= 0.5}
			if erred {
				m.Error = "boom"
			}
			r := &toolgrade.Result{ID: strconv.Itoa(i), Success: m.Verdict(), Metrics: []toolgrade.MetricResult{m}}
			s.Add(r)
			if !r.Success {
				all = append(all, failure{r.ID, score, erred, i})
			}
		}
		slices.SortStableFunc(all, func(a, b failure) int {
			rank := func(f failure) float64 {
				if f.err {
					return -1
				}
				return f.score
			}
			switch ra, rb := rank(a), rank(b); {
			case ra < rb:
				return -1
			case ra > rb:
				return 1
			}
			return a.seq - b.seq
		})
		want := all[:min(len(all), limit)]
		got := s.Failures()
		if len(got) != len(want) {
			t.Fatalf("kept %d failures, want %d", len(got), len(want))
		}
		for i := range want {
			if got[i].ID != want[i].id || got[i].Metrics[0].Score != want[i].score || (got[i].Metrics[0].Error != "") != want[i].err {
				t.Fatalf("failure %d is %s %v, want %s %v", i, got[i].ID, got[i].Metrics[0].Score, want[i].id, want[i].score)
			}
		}
		if s.Failed()+s.Errors+s.Passed != n {
			t.Fatalf("passed %d + failed %d + erred %d != %d", s.Passed, s.Failed(), s.Errors, n)
		}
	})
}

func TestLabel(t *testing.T) {
	for _, tt := range []struct{ name, profile, want string }{
		{"tool_correctness", "default", "tool_correctness"},
		{"tool_correctness", "", "tool_correctness"},
		{"tool_correctness", "deepeval", "tool_correctness (deepeval)"},
	} {
		if got := report.Label(tt.name, tt.profile); got != tt.want {
			t.Errorf("Label(%q, %q) = %q, want %q", tt.name, tt.profile, got, tt.want)
		}
	}
}

// TestWarnings: cases with warnings are counted, and a warning met at
// several places counts as one kind, once per case.
func TestWarnings(t *testing.T) {
	var s report.Stats
	for _, ws := range [][]string{
		{`trajectory: skipped content block of type "x" at messages[1]`, `trajectory: skipped content block of type "x" at messages[4]`},
		{`trajectory: skipped content block of type "x" at [0]`, "field process is not graded: no metric checks process rules"},
		nil,
	} {
		s.Add(&toolgrade.Result{ID: "c", Success: true, Warnings: ws})
	}
	n, kinds := s.Warnings()
	want := []report.FieldCount{{Field: `trajectory: skipped content block of type "x"`, Cases: 2}, {Field: "field process is not graded: no metric checks process rules", Cases: 1}}
	if n != 2 || !slices.Equal(kinds, want) {
		t.Errorf("Warnings() = %d, %v; want 2, %v", n, kinds, want)
	}
	var b strings.Builder
	if err := report.Text(&b).Finish(&s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `warnings in 2 cases (see each result's "warnings"): trajectory: skipped content block of type "x" (2 cases); field process is not graded`) {
		t.Errorf("summary lacks the warnings line:\n%s", b.String())
	}
}

// TestHeadlineVerdictFollowsGates: a case that passes its pass_k gate
// passes, though one of its trials failed; the Markdown mark says what the
// exit status says.
func TestHeadlineVerdictFollowsGates(t *testing.T) {
	s := report.Stats{Gates: map[string]reliability.PassK{"tool_correctness": {K: 1, Min: 0.5}}}
	for _, ok := range []bool{true, false} {
		score := 0.0
		if ok {
			score = 1
		}
		s.Add(&toolgrade.Result{ID: "c", Success: ok, Metrics: []toolgrade.MetricResult{
			{Name: "tool_correctness", Profile: "default", Score: score, Threshold: toolgrade.Float(1), Success: ok}}})
	}
	if !s.CasePassed() {
		t.Fatal("the case fails its gate; want it passed (pass^1 = 0.5)")
	}
	var b strings.Builder
	if err := report.Markdown(&b).Finish(&s); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "### ✅") {
		t.Errorf("Markdown starts %q, want the passing mark", strings.SplitN(b.String(), "\n", 2)[0])
	}
}
