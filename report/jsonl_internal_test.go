package report

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/reliability"
)

// heldJSONL is the JSON Lines writer as it was before it wrote lines
// straight into its buffer: a case's consecutive lines held whole until
// the next case, the last given the case's figures. It is the reference
// TestJSONLAgreesWithHeldLines holds the writer to.
type heldJSONL struct {
	out      bytes.Buffer
	trials   reliability.Trials
	group    []byte
	groupKey string
	groupLen int
	held     bool
}

func (j *heldJSONL) add(r *toolgrade.Result) {
	if j.held && r.ID != j.groupKey {
		j.flush()
	}
	n := j.trials.Add(r)
	if j.held {
		j.group = append(j.group, '\n')
	}
	line := r.AppendJSON(j.group)
	if t := reliability.TrialIndex(r); t > 0 {
		line = append(strconv.AppendInt(append(line[:len(line)-1], `,"trial":`...), int64(t), 10), '}')
	}
	j.group, j.groupKey, j.groupLen, j.held = line, r.ID, n, true
}

func (j *heldJSONL) flush() {
	if !j.held {
		return
	}
	if j.groupLen > 1 {
		cr, _ := j.trials.Case(j.groupKey, reliability.DefaultConfidence, nil)
		j.group = append(appendReliability(append(j.group[:len(j.group)-1], `,"reliability":`...), &cr, reliability.DefaultConfidence), '}')
	}
	j.trials.Reset()
	j.out.Write(append(j.group, '\n'))
	j.group, j.held = j.group[:0], false
}

// TestJSONLAgreesWithHeldLines: runs of results whose ids repeat in a
// row or not, with and without trial indexes, errors, and reasons long
// enough to cross the writer's buffer and its room for a line, are
// written as the held-lines writer wrote them.
func TestJSONLAgreesWithHeldLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for round := range 40 {
		var want heldJSONL
		var got bytes.Buffer
		w := JSONL(&got)
		for i := range 1 + rng.IntN(400) {
			id := "case-" + strconv.Itoa(i/(1+rng.IntN(3))) // runs of one to three trials
			r := &toolgrade.Result{ID: id, Success: rng.IntN(2) == 0}
			if rng.IntN(2) == 0 {
				r.Case = &toolgrade.Case{Trial: rng.IntN(4)}
			}
			if rng.IntN(15) == 0 {
				r.Error = "unreadable"
			}
			for range rng.IntN(3) {
				m := toolgrade.MetricResult{Name: "m", Profile: "default", Score: float64(rng.IntN(4)) / 3, Threshold: toolgrade.Float(0.5)}
				m.Success = m.Score >= 0.5
				m.Reason = strings.Repeat("quoted \"x\" ", rng.IntN(3)*rng.IntN(1500))
				r.Metrics = append(r.Metrics, m)
			}
			want.add(r)
			if err := w.Add(r); err != nil {
				t.Fatal(err)
			}
		}
		want.flush()
		if err := w.Finish(nil); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.out.Bytes()) {
			g, w := strings.Split(got.String(), "\n"), strings.Split(want.out.String(), "\n")
			for k := range min(len(g), len(w)) {
				if g[k] != w[k] {
					t.Fatalf("round %d, line %d:\n%.300s\nwant\n%.300s", round, k+1, g[k], w[k])
				}
			}
			t.Fatalf("round %d: %d lines, want %d", round, len(g), len(w))
		}
	}
}
