package match

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"pgregory.net/rapid"
)

// reasonRef is reason as it was written first, with fmt and strings.Join:
// the oracle the tuned one must agree with. It explains the result: each missing call (with the closest call of
// the same name, if one was made), each extra call, each pair that fell
// short and the arguments that differ.
func (m *ToolCorrectness) reasonRef(c *toolgrade.Case, r *toolgrade.MetricResult, raw float64) string {
	exp, got := c.Expected, c.Called
	if len(exp) == 0 && len(got) == 0 {
		return "no calls expected and none made"
	}
	var parts []string
	if len(r.Missing) == 0 && len(r.Unexpected) == 0 && allFull(r.Matches) {
		parts = append(parts, fmt.Sprintf("all %d expected calls matched", len(exp)))
	}
	if m.opts.Order == "exact" && len(exp) != len(got) {
		parts = append(parts, fmt.Sprintf("exact order needs %d calls, got %d", len(exp), len(got)))
	}
	for _, p := range r.Matches {
		if p.Score < 1 {
			parts = append(parts, fmt.Sprintf("%s (expected #%d, called #%d) scored %s: %s",
				exp[p.Expected].Name, p.Expected, p.Called, fmtScoreRef(p.Score), describeDiffsRef(p.Diffs)))
		}
	}
	unpaired := make(map[int]bool, len(r.Unexpected))
	for _, j := range r.Unexpected {
		unpaired[j] = true
	}
	for _, i := range r.Missing {
		e := &exp[i]
		s := fmt.Sprintf("missing %s (expected #%d)", e, i)
		if j, ok := m.closestRef(e, got, unpaired); ok {
			if m.opts.Order != "any" && m.PairScore(e, &got[j]) > 0 {
				s += fmt.Sprintf(": called #%d matches but out of order", j)
			} else {
				s += fmt.Sprintf(": called #%d differs: %s", j, describeDiffsRef(m.diffs(e, &got[j])))
			}
		}
		parts = append(parts, s)
	}
	for _, j := range r.Unexpected {
		parts = append(parts, fmt.Sprintf("unexpected %s (called #%d)", &got[j], j))
	}
	if m.opts.Strict && raw < 1 {
		parts = append(parts, fmt.Sprintf("strict: score %s counts as 0", fmtScoreRef(raw)))
	}
	return strings.Join(parts, "; ")
}

// closest finds the unpaired called call of the same name whose arguments
// are most alike, to explain why an expected call went missing.
func (m *ToolCorrectness) closestRef(e *toolgrade.Call, got []toolgrade.Call, unpaired map[int]bool) (int, bool) {
	best, bestScore := -1, -1.0
	name := m.name(e)
	for j := range got {
		if !unpaired[j] || m.name(&got[j]) != name {
			continue
		}
		s := Comparer{Mode: Partial}.Score(e.Args, got[j].Args, e.Rules)
		if s > bestScore {
			best, bestScore = j, s
		}
	}
	return best, best >= 0
}

func describeDiffsRef(diffs []toolgrade.ArgDiff) string {
	if len(diffs) == 0 {
		return "arguments differ"
	}
	parts := make([]string, len(diffs))
	for i, d := range diffs {
		path := d.Path
		if path == "" {
			path = "args"
		}
		switch d.Note {
		case "missing":
			parts[i] = fmt.Sprintf("%s missing (expected %s)", path, toolgrade.Format(d.Expected))
		case "unexpected":
			parts[i] = fmt.Sprintf("%s not expected (got %s)", path, toolgrade.Format(d.Got))
		case "":
			parts[i] = fmt.Sprintf("%s expected %s, got %s", path, toolgrade.Format(d.Expected), toolgrade.Format(d.Got))
		default: // a rule or a similarity: the expected value may not exist
			if d.Expected == nil {
				parts[i] = fmt.Sprintf("%s %s (got %s)", path, d.Note, toolgrade.Format(d.Got))
			} else {
				parts[i] = fmt.Sprintf("%s %s (expected %s, got %s)", path, d.Note, toolgrade.Format(d.Expected), toolgrade.Format(d.Got))
			}
		}
	}
	return strings.Join(parts, ", ")
}

func fmtScoreRef(f float64) string { return strconv.FormatFloat(f, 'g', 4, 64) }

// TestReasonAgreesWithReference: on random cases under every option set,
// the reason built with appends is the reference reason, byte for byte.
func TestReasonAgreesWithReference(t *testing.T) {
	names := []string{"get_weather", "send_email", "a_xg7c"}
	values := []any{nil, true, "Paris", "a \"quoted\" é", toolgrade.MustValue(1), toolgrade.MustValue(1.5),
		toolgrade.MustValue([]any{1, "x"}), toolgrade.MustValue(map[string]any{"deep": map[string]any{"er": strings.Repeat("long ", 30)}})}
	genCalls := func(label string) *rapid.Generator[[]toolgrade.Call] {
		return rapid.Custom(func(t *rapid.T) []toolgrade.Call {
			out := make([]toolgrade.Call, rapid.IntRange(0, 5).Draw(t, label+" n"))
			for i := range out {
				c := toolgrade.Call{Name: rapid.SampledFrom(names).Draw(t, "name")}
				switch rapid.IntRange(0, 9).Draw(t, "args kind") {
				case 0: // no arguments
				case 1:
					c.Invalid, c.ArgsRaw = true, `{"city": "Par`
				default:
					args := toolgrade.Object{}
					for _, k := range []string{"city", "when", "to"} {
						if rapid.Bool().Draw(t, "has "+k) {
							args = append(args, toolgrade.Member{Key: k, Value: rapid.SampledFrom(values).Draw(t, k)})
						}
					}
					c.Args = args
				}
				out[i] = c
			}
			return out
		})
	}
	options := []Options{
		{}, {Args: Partial}, {Args: Contains}, {Args: Within}, {Args: Fuzzy}, {Args: Ignore},
		{Order: "in-order"}, {Order: "exact"}, {Pairing: "greedy"}, {Strict: true}, {Strict: true, Order: "exact"},
		{Output: "exact"}, {NormalizeNames: true},
	}
	rapid.Check(t, func(t *rapid.T) {
		c := &toolgrade.Case{Expected: genCalls("expected").Draw(t, "expected"), Called: genCalls("called").Draw(t, "called")}
		for _, o := range options {
			m, err := New(o)
			if err != nil {
				t.Fatal(err)
			}
			r := m.Grade(context.Background(), c)
			raw := r.Score
			if o.Strict {
				o.Strict = false
				loose, _ := New(o)
				raw = loose.Grade(context.Background(), c).Score
			}
			if want := m.reasonRef(c, &r, raw); r.Reason != want {
				t.Fatalf("options %+v:\n got  %q\n want %q", o, r.Reason, want)
			}
		}
	})
}
