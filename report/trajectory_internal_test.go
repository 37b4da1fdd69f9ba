package report

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/match"
	"github.com/toolgrade/toolgrade/process"
)

// TestWorstLines: each worst case Stats keeps carries its own trajectory
// line, whatever the order and the ties.
func TestWorstLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	thr := toolgrade.Float(0.5)
	for _, limit := range []int{10, 50, 200} {
		s := Stats{Worst: limit}
		want := map[string]string{}
		for i := range 500 {
			m := toolgrade.MetricResult{Name: "m", Threshold: thr, Score: float64(rng.IntN(6)) / 10}
			m.Success = m.Score >= *thr
			switch rng.IntN(40) {
			case 0, 1, 2, 3, 4, 5, 6, 7, 8, 9:
				m.SetDetail(match.Failed{rng.IntN(3)})
			case 10, 11, 12, 13, 14, 15, 16, 17, 18, 19:
				m.SetDetail(process.RuleChecks{{Rule: "never: x", Breaches: []int{0}}})
			}
			if i == 7 || i == 300 {
				m.Error = "boom"
			}
			r := &toolgrade.Result{ID: "c" + strconv.Itoa(i), Success: m.Verdict(), Metrics: []toolgrade.MetricResult{m}}
			s.Add(r)
			if tr := trajectoryOf(r); !r.Success && !tr.empty() {
				want[r.ID+"/"+strconv.Itoa(s.Cases)] = tr.line(nil)
			}
		}
		fs := s.Failures()
		withLine := 0
		for i, f := range fs {
			if l := want[f.ID+"/"+strconv.Itoa(f.seq)]; f.trajectory != l {
				t.Errorf("limit %d: failure %d (%s, seq %d): line %q, want %q", limit, i, f.ID, f.seq, f.trajectory, l)
			} else if l != "" {
				withLine++
			}
		}
		if withLine == 0 {
			t.Errorf("limit %d: no line among %d worst cases", limit, len(fs))
		}
	}
}

// TestTimelineWithoutCase: a result read back from JSON, without its
// case, still lays out its calls by index, in their turns.
func TestTimelineWithoutCase(t *testing.T) {
	r := &toolgrade.Result{ID: "x", Metrics: []toolgrade.MetricResult{{Name: "tool_correctness",
		Matches: []toolgrade.Match{{Expected: 0, Called: 1, Score: 1}}, Missing: []int{1}, Unexpected: []int{},
		Details: []toolgrade.Detail{match.Failed{0}, match.Retried{0},
			match.Turns{{Turn: 1, Score: 1, Success: true, Expected: []int{0}, Called: []int{0, 1}},
				{Turn: 2, Score: 0, Expected: []int{1}, Called: []int{2}}},
			match.Flows{{From: 1, To: 2, Arg: "id", Ref: "get.output.id"}}}}}}
	tr := trajectoryOf(r)
	tl := timeline(r, &tr)
	if tl == nil {
		t.Fatal("no timeline")
	}
	var got []string
	for _, s := range tl.Steps {
		switch {
		case s.Turn > 0:
			got = append(got, "turn "+strconv.Itoa(s.Turn)+" "+s.Status)
		case s.Index == "":
			got = append(got, "missing "+s.Pair)
		default:
			got = append(got, s.Index+" "+s.Class+" "+s.Pair+" "+strconv.Itoa(len(s.Badges))+" "+strconv.Itoa(len(s.Notes)))
		}
	}
	want := []string{"turn 1 pass", "#0 failed  2 0", "#1  expected #0 0 0", "turn 2 fail", "missing expected #1", "#2   0 1"}
	if len(got) != len(want) {
		t.Fatalf("steps %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("step %d = %q, want %q", i, got[i], want[i])
		}
	}
	// Indexes from a hostile file do not size the page.
	r.Metrics[0].SetDetail(match.Failed{math.MaxInt})
	tr = trajectoryOf(r)
	if tl := timeline(r, &tr); len(tl.Steps) > htmlTimelineCalls+10 {
		t.Errorf("%d steps for a huge index", len(tl.Steps))
	}
}
