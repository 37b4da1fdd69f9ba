package report

import (
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/match"
)

// Limits of a case's timeline on the HTML page.
const (
	htmlTimelineCalls = 200 // calls and missing calls shown
	htmlTimelineNotes = 20  // notes under one call, and about the case
	htmlTimelineArgs  = 160 // characters of a call's arguments
	htmlTimelineInput = 200 // characters of a turn's input
)

// An htmlTimeline is a case's trajectory in order: a header per turn (the
// user's input, the turn's score), then the turn's calls, each with its
// status, what it was paired with, and the data-flow links, broken rules
// and invented values that concern it; expected calls that were not made
// sit where they were due. Notes about the case as a whole (state
// differences, rules kept) follow.
type htmlTimeline struct {
	By    string // the metric whose pairing the marks follow; "" for none
	Steps []htmlStep
	Notes []htmlNote
}

// An htmlStep is a turn's header when Turn is set, else a call.
type htmlStep struct {
	Turn   int
	Input  string
	Score  string // the turn's score; "" when it was not graded
	Status string // "pass", "fail" or "none"

	Index  string // "#2"; "" for an expected call not made
	Name   string
	Args   string
	Class  string   // "failed", "missing" or ""
	Badges []string // "failed", "retried", "extra", "missing"
	Pair   string   // "expected #1", "expected #1 at 0.667"
	Notes  []htmlNote
}

// An htmlNote is one line under a call or the timeline: Class "ok" or
// "bad" colours it.
type htmlNote struct{ Class, Text string }

// timeline lays out r's trajectory t; nil when its metrics say nothing
// about one and its case has no turns, so that other cases' pages are
// as before. Without the case (a result read back from JSON) calls are
// known by index only, and an expected call left unpaired beside a call
// of its tool is not known for one (see [standIns]).
func timeline(r *toolgrade.Result, t *trajectory) *htmlTimeline {
	c := r.Case
	if t.empty() && (c == nil || len(c.Turns) == 0) {
		return nil
	}
	pm := pairing(r)
	tl := &htmlTimeline{}
	if pm != nil {
		tl.By = Label(pm.Name, pm.Profile)
	}

	// How many calls there are, and the turn of each.
	nCalled, nExpected := t.highest(pm)
	if c != nil {
		nCalled, nExpected = len(c.Called), len(c.Expected)
	}
	calledTurn, expectedTurn := make([]int, nCalled), make([]int, nExpected)
	turns := 0 // the highest turn; 0 when the case is not split into turns
	if c != nil {
		turns = c.TurnCount()
		for j := range c.Called {
			calledTurn[j] = c.Called[j].Turn
		}
		for i := range c.Expected {
			expectedTurn[i] = c.Expected[i].Turn
		}
	}
	for _, ts := range t.turns {
		turns = max(turns, ts.Turn)
		for _, j := range ts.Called {
			if j >= 0 && j < nCalled && calledTurn[j] == 0 {
				calledTurn[j] = ts.Turn
			}
		}
		for _, i := range ts.Expected {
			if i >= 0 && i < nExpected && expectedTurn[i] == 0 {
				expectedTurn[i] = ts.Turn
			}
		}
	}
	if turns > 0 { // calls before the first user message belong to turn 1
		for _, ts := range [][]int{calledTurn, expectedTurn} {
			for k := range ts {
				ts[k] = max(ts[k], 1)
			}
		}
	}

	// What the pairing says of each call.
	pairOf := make([]*toolgrade.Match, nCalled)
	calledFor := make([]int, nExpected) // the called call paired with each expected call, or -1
	for i := range calledFor {
		calledFor[i] = -1
	}
	var missing, extra []int
	standFor := make([]int, nCalled) // the expected call each call stood in for, or -1
	for j := range standFor {
		standFor[j] = -1
	}
	if pm != nil {
		for k := range pm.Matches {
			p := &pm.Matches[k]
			if p.Called >= 0 && p.Called < nCalled && p.Expected >= 0 && p.Expected < nExpected {
				pairOf[p.Called], calledFor[p.Expected] = p, p.Called
			}
		}
		missing, extra = pm.Missing, pm.Unexpected
		if c != nil {
			var stands []standIn
			stands, missing, extra = standIns(pm, c, nil, nil, nil)
			for _, p := range stands {
				standFor[p.called], calledFor[p.expected] = p.expected, p.called
			}
		}
	}

	// Missing expected calls sit after the call paired with the expected
	// call before them in their turn, or first in the turn.
	after := map[int][]int{} // called index, or -1-turn for the turn's start → missing expected calls
	for _, i := range missing {
		if i < 0 || i >= nExpected {
			continue
		}
		anchor := -1 - expectedTurn[i]
		for e := i - 1; e >= 0; e-- {
			if expectedTurn[e] == expectedTurn[i] && calledFor[e] >= 0 {
				anchor = calledFor[e]
				break
			}
		}
		after[anchor] = append(after[anchor], i)
	}

	shown := 0
	addMissing := func(anchor int) {
		for _, i := range after[anchor] {
			if shown++; shown > htmlTimelineCalls {
				continue
			}
			s := htmlStep{Class: "missing", Badges: []string{"missing"}, Pair: "expected #" + strconv.Itoa(i)}
			if c != nil {
				s.Name, s.Args = c.Expected[i].Name, argsText(&c.Expected[i])
			}
			tl.Steps = append(tl.Steps, s)
		}
	}
	// The turns to show: those with an input, a call or a score.
	list := []int{0}
	if turns > 0 {
		list = slices.Concat(calledTurn, expectedTurn)
		if c != nil {
			for k := range c.Turns {
				list = append(list, k+1)
			}
		}
		for _, ts := range t.turns {
			list = append(list, max(ts.Turn, 1))
		}
		slices.Sort(list)
		list = slices.Compact(list)
	}
	byTurn := map[int][]int{}
	for j, turn := range calledTurn {
		byTurn[turn] = append(byTurn[turn], j)
	}
	for _, turn := range list {
		if turns > 0 {
			h := htmlStep{Turn: turn, Status: "none"}
			if c != nil && turn <= len(c.Turns) {
				h.Input = clipRunes(inputText(c.Turns[turn-1].Input), htmlTimelineInput)
			}
			if k := slices.IndexFunc(t.turns, func(ts match.TurnScore) bool { return ts.Turn == turn }); k >= 0 {
				h.Score, h.Status = score(t.turns[k].Score), "pass"
				if !t.turns[k].Success {
					h.Status = "fail"
				}
			}
			tl.Steps = append(tl.Steps, h)
		}
		addMissing(-1 - turn)
		for _, j := range byTurn[turn] {
			if shown++; shown <= htmlTimelineCalls {
				tl.Steps = append(tl.Steps, t.callStep(c, j, pairOf[j], standFor[j], slices.Contains(extra, j)))
			}
			addMissing(j)
		}
	}
	if shown > htmlTimelineCalls {
		tl.Notes = append(tl.Notes, htmlNote{Text: "and " + strconv.Itoa(shown-htmlTimelineCalls) + " more calls, left out"})
	}

	// Notes about the case as a whole.
	var notes []htmlNote
	for _, f := range t.flows {
		if f.To < 0 || f.To >= nCalled {
			notes = append(notes, flowNote(c, &f, true))
		}
	}
	for _, rc := range t.rules {
		if !rc.Kept && !slices.ContainsFunc(rc.Breaches, func(j int) bool { return j >= 0 && j < nCalled }) {
			notes = append(notes, ruleNote(&rc))
		}
	}
	for k := range t.diffs {
		if d := &t.diffs[k]; d.call < 0 || d.call >= nCalled {
			notes = append(notes, htmlNote{"bad", diffKind(d) + " " + diffText(d, htmlValue)})
		}
	}
	for _, rc := range t.rules {
		if rc.Kept {
			notes = append(notes, htmlNote{"ok", "✓ " + rc.metric + " rule kept: " + rc.Rule})
		}
	}
	tl.Notes = append(tl.Notes, bound(notes)...)
	return tl
}

// callStep shows called call j with everything the trajectory says of it:
// p is its pair, stands the expected call it stood in for (or -1), extra
// whether it answered nothing.
func (t *trajectory) callStep(c *toolgrade.Case, j int, p *toolgrade.Match, stands int, extra bool) htmlStep {
	s := htmlStep{Index: "#" + strconv.Itoa(j)}
	var call *toolgrade.Call
	if c != nil {
		call = &c.Called[j]
		s.Name, s.Args = call.Name, argsText(call)
	}
	_, failed := slices.BinarySearch(t.failed, j)
	_, retried := slices.BinarySearch(t.retried, j)
	if failed {
		s.Class = "failed"
		s.Badges = append(s.Badges, "failed")
	}
	if retried {
		s.Badges = append(s.Badges, "retried")
	}
	switch {
	case p != nil && p.Score < 1:
		s.Pair = "expected #" + strconv.Itoa(p.Expected) + " at " + score(p.Score)
	case p != nil:
		s.Pair = "expected #" + strconv.Itoa(p.Expected)
	case stands >= 0:
		s.Pair = "expected #" + strconv.Itoa(stands) + " at " + score(0)
		if !failed {
			s.Class = "wrong"
			s.Badges = append(s.Badges, "wrong args")
		}
	case extra:
		s.Badges = append(s.Badges, "extra")
	}
	var notes []htmlNote
	if failed && call != nil && call.Output != nil {
		notes = append(notes, htmlNote{"bad", "→ " + value(call.Output, htmlValue)})
	}
	if stands >= 0 && !failed && call != nil {
		for _, d := range argDiffs(&c.Expected[stands], call) {
			notes = append(notes, htmlNote{"bad", diffNote(&d)})
		}
	}
	for _, f := range t.flows {
		if f.To == j {
			notes = append(notes, flowNote(c, &f, false))
		}
	}
	for _, rc := range t.rules {
		if !rc.Kept && slices.Contains(rc.Breaches, j) {
			notes = append(notes, ruleNote(&rc))
		}
	}
	for k := range t.diffs {
		if d := &t.diffs[k]; d.call == j {
			notes = append(notes, htmlNote{"bad", diffKind(d) + " " + diffText(d, htmlValue)})
		}
	}
	s.Notes = bound(notes)
	return s
}

// diffNote is an argument that differs: "city: expected "Paris", got
// "Lyon"".
func diffNote(d *htmlDiff) string {
	s := d.Path
	if d.Note != "" {
		s += " " + d.Note
	}
	s += ":"
	if d.Expected != "" {
		s += " expected " + d.Expected
	}
	if d.Expected != "" && d.Got != "" {
		s += ","
	}
	if d.Got != "" {
		s += " got " + d.Got
	}
	return s
}

func flowNote(c *toolgrade.Case, f *match.Flow, to bool) htmlNote {
	if f.OK {
		return htmlNote{"ok", "data flow " + flowText(c, f, to) + " ✓"}
	}
	return htmlNote{"bad", "data flow " + flowText(c, f, to) + " ✗"}
}

func ruleNote(rc *ruleCheck) htmlNote {
	s := "✗ " + rc.metric + " rule broken: " + rc.Rule
	if rc.Reason != "" {
		s += " — " + rc.Reason
	}
	return htmlNote{"bad", clip(s, htmlReason)}
}

// bound keeps the first htmlTimelineNotes notes, and says how many more
// there were.
func bound(notes []htmlNote) []htmlNote {
	if len(notes) <= htmlTimelineNotes {
		return notes
	}
	n := len(notes) - htmlTimelineNotes
	return append(notes[:htmlTimelineNotes:htmlTimelineNotes], htmlNote{Text: "and " + strconv.Itoa(n) + " more"})
}

// highest returns how many called and expected calls the trajectory and
// the pairing name, for a result read back without its case.
func (t *trajectory) highest(pm *toolgrade.MetricResult) (called, expected int) {
	seeC := func(js ...int) {
		for _, j := range js {
			called = max(called, j+1)
		}
	}
	seeE := func(is ...int) {
		for _, i := range is {
			expected = max(expected, i+1)
		}
	}
	seeC(t.failed...)
	seeC(t.retried...)
	for _, ts := range t.turns {
		seeC(ts.Called...)
		seeE(ts.Expected...)
	}
	for _, f := range t.flows {
		seeC(f.From, f.To)
	}
	for _, rc := range t.rules {
		seeC(rc.Breaches...)
	}
	for _, d := range t.diffs {
		seeC(d.call)
	}
	if pm != nil {
		for _, p := range pm.Matches {
			seeC(p.Called)
			seeE(p.Expected)
		}
		seeC(pm.Unexpected...)
		seeE(pm.Missing...)
	}
	// An index is not a count to trust without bound.
	return min(called, htmlTimelineCalls+1), min(expected, htmlTimelineCalls+1)
}

// argsText writes a call's arguments as compact JSON, shortened.
func argsText(c *toolgrade.Call) string {
	switch {
	case c.Invalid:
		return "invalid JSON: " + clipRunes(c.ArgsRaw, htmlTimelineArgs)
	case c.Args == nil:
		return ""
	}
	return value(c.Args, htmlTimelineArgs)
}

// inputText is a turn's input as text: a string as it is, the text parts
// of a list of content parts (or of a message's content), else JSON.
func inputText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case jsonvalue.Object:
		if content, ok := v.Get("content"); ok {
			return inputText(content)
		}
		if text, ok := v.Get("text"); ok {
			if s, ok := text.(string); ok {
				return s
			}
		}
	case []any:
		var parts []string
		for _, p := range v {
			if s := inputText(p); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, " ")
	}
	return value(v, htmlTimelineInput)
}
